"""TrustGraph's wire terms and triples read back into RDF terms (the writing side is ``explain.events``).

Used for what clients send: the pattern of a ``triples`` request, the triples of ``tg-load-turtle``'s
import socket. Readers are as lenient as TrustGraph's own (reference §2.5: the long keys
``type``/``iri``/``value``/``triple`` are accepted too) and exact about everything else: a term of an
unknown kind, an empty IRI or a value of the wrong type is a :class:`BadRequest` naming where it is
(``o.tr.s.i``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from rdflib.term import BNode, Literal, URIRef

from tgneo.errors import BadRequest
from tgneo.explain.events import AgentMessage, AnswerChunk, ErrorEvent, Event, ExplainEvent, SessionEnd, Source
from tgneo.patterns import DEFAULT_LIMIT, MAX_LIMIT, TriplePattern
from tgneo.rdf.terms import Object, Quad, QuotedTriple, Subject

MAX_TERM_CHARS = 1_000_000
"""The longest IRI or literal accepted from the wire."""


def json_object(text: object, what: str = "frame") -> dict[str, Any]:
    """A JSON object from text (a WebSocket frame, a request body); ``what`` names it in errors."""
    if not isinstance(text, str | bytes):
        raise BadRequest(f"{what}: expected JSON text")
    if not text.strip():
        raise BadRequest(f"{what}: a JSON object is required")
    try:
        value = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise BadRequest(f"{what}: not valid JSON ({e})") from None
    if not isinstance(value, dict):
        raise BadRequest(f"{what}: must be a JSON object, not {type(value).__name__}")
    return value


def bounded_int(raw: Mapping[str, Any], key: str, default: int, low: int, high: int) -> int:
    """``raw[key]``, an integer from ``low`` to ``high`` (``default`` when absent or null)."""
    value = raw.get(key, default)
    if value is None:
        return default
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise BadRequest(f"{key}: must be an integer from {low} to {high}, not {value!r}")
    return value


def _text(raw: Mapping[str, Any], short: str, long: str, where: str, *, empty: bool = False) -> str:
    value = raw.get(short, raw.get(long))
    if not isinstance(value, str):
        raise BadRequest(f"{where}.{short}: must be a string, not {value!r}")
    if not empty and not value:
        raise BadRequest(f"{where}.{short}: must not be empty")
    if len(value) > MAX_TERM_CHARS:
        raise BadRequest(f"{where}.{short}: longer than {MAX_TERM_CHARS} characters")
    return value


def _optional_text(raw: Mapping[str, Any], key: str, where: str) -> str | None:
    value = raw.get(key)
    if value in (None, ""):
        return None
    if not isinstance(value, str):
        raise BadRequest(f"{where}.{key}: must be a string, not {value!r}")
    return value


def term(raw: object, where: str = "term", *, depth: int = 0) -> Subject | Object:
    """One wire term (``{"t": "i", "i": …}``, ``{"t": "l", "v": …, "dt"?, "ln"?}``, ``{"t": "b", "d": …}``,
    ``{"t": "t", "tr": {"s", "p", "o"}}``) as an RDF term.

    Raises:
        BadRequest: not a term; the message says where (``o.tr.p``) and why.
    """
    if not isinstance(raw, Mapping):
        raise BadRequest(f'{where}: must be a term object like {{"t": "i", "i": "…"}}, not {raw!r}')
    kind = raw.get("t", raw.get("type"))
    if kind == "i":
        return URIRef(_text(raw, "i", "iri", where))
    if kind == "l":
        value = _text(raw, "v", "value", where, empty=True)
        datatype = _optional_text(raw, "dt", where)
        language = _optional_text(raw, "ln", where)
        if datatype is not None and language is not None:
            raise BadRequest(f"{where}: a literal has a datatype or a language, not both")
        return Literal(value, datatype=URIRef(datatype) if datatype else None, lang=language)
    if kind == "b":
        return BNode(_text(raw, "d", "value", where))
    if kind == "t":
        if depth >= 8:
            raise BadRequest(f"{where}: quoted triples nested deeper than 8")
        inner = raw.get("tr", raw.get("triple"))
        if not isinstance(inner, Mapping):
            raise BadRequest(f"{where}.tr: must be an object with s, p and o")
        s, p, o = (term(inner.get(k), f"{where}.tr.{k}", depth=depth + 1) for k in ("s", "p", "o"))
        return QuotedTriple(subject(s, f"{where}.tr.s"), predicate(p, f"{where}.tr.p"), o)
    raise BadRequest(f"{where}.t: {kind!r} is not a term kind (i, l, b or t)")


def subject(value: Subject | Object, where: str) -> Subject:
    """``value`` if it can be a subject (not a literal)."""
    if isinstance(value, Literal):
        raise BadRequest(f"{where}: a literal cannot be a subject")
    return value


def predicate(value: Subject | Object, where: str) -> URIRef:
    """``value`` if it can be a predicate (an IRI)."""
    if not isinstance(value, URIRef) or isinstance(value, BNode):
        raise BadRequest(f"{where}: a predicate must be an IRI")
    return value


def graph(raw: object, where: str = "g") -> str:
    """A graph name: a plain string (``""`` for the default graph)."""
    if not isinstance(raw, str):
        raise BadRequest(f"{where}: must be a string graph name, not {raw!r}")
    return raw


def quad(raw: object, where: str = "triple") -> Quad:
    """One wire triple (``{"s", "p", "o", "g"?}``) as a quad; ``g`` absent is the default graph."""
    if not isinstance(raw, Mapping):
        raise BadRequest(f"{where}: must be an object with s, p and o")
    for key in ("s", "p", "o"):
        if key not in raw:
            raise BadRequest(f"{where}.{key}: required")
    s = subject(term(raw["s"], f"{where}.s"), f"{where}.s")
    p = predicate(term(raw["p"], f"{where}.p"), f"{where}.p")
    o = term(raw["o"], f"{where}.o")
    g = graph(raw["g"], f"{where}.g") if raw.get("g") is not None else ""
    return Quad(s, p, o, g)


def pattern(raw: Mapping[str, Any]) -> TriplePattern:
    """The pattern of a ``triples`` request (``s``, ``p``, ``o``, ``g``, ``limit``; absent terms are wildcards)."""
    s = subject(term(raw["s"], "s"), "s") if raw.get("s") is not None else None
    p = predicate(term(raw["p"], "p"), "p") if raw.get("p") is not None else None
    o = term(raw["o"], "o") if raw.get("o") is not None else None
    g = graph(raw["g"]) if raw.get("g") is not None else None
    return TriplePattern(s, p, o, g, bounded_int(raw, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT))


def event(message: Mapping[str, Any]) -> Event:
    """A response message (TrustGraph's fields, as a tgneo server streams it) read back as an event.

    The inverse of ``Event.to_wire``, for clients of a running server (``tgneo ask --url``).

    Raises:
        BadRequest: the message is not one a question stream carries.
    """
    kind = message.get("message_type")
    final = bool(message.get("end_of_session") or message.get("end_of_dialog"))
    if isinstance(message.get("error"), Mapping):
        error = message["error"]
        trace = message.get("trace")
        return ErrorEvent(str(error.get("message", "")), type=error.get("type"), trace=trace)
    if kind == "explain":
        triples = [quad(t, f"explain_triples[{i}]") for i, t in enumerate(message.get("explain_triples") or [])]
        return ExplainEvent(str(message.get("explain_id", "")), str(message.get("explain_graph", "")), triples, "")
    if final:
        sources = tuple(
            Source(str(s.get("uri", "")), s.get("title"))
            for s in message.get("sources") or []
            if isinstance(s, Mapping)
        )
        return SessionEnd(
            sources, message.get("in_token"), message.get("out_token"), message.get("model"), message.get("trace")
        )
    if kind in ("thought", "observation", "action"):
        return AgentMessage(kind, str(message.get("content", "")), str(message.get("message_id", "")))
    if kind in ("chunk", "answer"):
        text = message.get("response", message.get("content", ""))
        return AnswerChunk(str(text or ""), last=bool(message.get("end_of_stream") or message.get("end_of_message")))
    raise BadRequest(f"message_type {kind!r} is not one a question stream carries")
