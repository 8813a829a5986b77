"""The wire codec: tgneo's events and RDF terms as TrustGraph's JSON messages, and back (pure).

Every road out writes what :func:`encode` gives (HTTP NDJSON and SSE, WebSockets, the TrustGraph
gateway socket, ``tgneo ask --json``), and every road in reads with the decoders here (``tgneo ask
--url``, the triples a client sends, a ``triples`` request's pattern) — one module, each direction
beside the other, so the two can never drift apart.

Messages are TrustGraph's response messages for the session kind at hand (reference §2.6), so its
CLI and SDK read tgneo's streams unchanged:

* RAG (``graph-rag``, ``document-rag``) messages carry ``message_type`` (``explain`` or ``chunk``),
  ``response`` (answer text, ``""`` otherwise), ``end_of_stream`` and ``end_of_session``;
* agent messages carry ``message_type`` (``explain``, ``thought``, ``observation``, ``answer``,
  ``error``), ``content``, ``end_of_message`` and ``end_of_dialog``;
* either kind may carry tgneo's ``warning`` messages (a fallback the answer took: :class:`~tgneo.explain.events.
  WarningEvent`), which TrustGraph's clients read as an empty piece of text.

Which flag ends a piece and which ends the stream is the session kind's
(:attr:`~tgneo.kinds.SessionKind.last_flag`, :attr:`~tgneo.kinds.SessionKind.final_flag`).

Triples travel in TrustGraph's term encoding (``{"t": "i", "i": …}`` IRIs, ``{"t": "l", "v": …}``
literals, ``{"t": "b", "d": …}`` blank nodes, ``{"t": "t", "tr": {…}}`` quoted triples; ``"g"``
omitted for the default graph). Decoders are as lenient as TrustGraph's own (reference §2.5: the
long keys ``type``/``iri``/``value``/``triple`` are accepted too) and exact about everything else: a
term of an unknown kind, an empty IRI or a value of the wrong type is a :class:`BadRequest` naming
where it is (``o.tr.s.i``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rdflib.term import BNode, Literal, URIRef

from tgneo.errors import BadRequest, MappingError
from tgneo.explain.events import (
    AgentMessage,
    AnswerChunk,
    Citation,
    ErrorEvent,
    Event,
    Evidence,
    ExplainEvent,
    Necessity,
    SessionEnd,
    Source,
    VerificationSummary,
    WarningEvent,
)
from tgneo.kinds import SessionKind
from tgneo.patterns import DEFAULT_LIMIT, MAX_LIMIT, TriplePattern
from tgneo.rdf.terms import Object, Quad, QuotedTriple, Subject
from tgneo.stream.fields import bounded_int

MAX_TERM_CHARS = 1_000_000
"""The longest IRI or literal accepted from the wire."""
MAX_TERM_NESTING = 8
"""The deepest a quoted triple may nest on the wire."""

Message = dict[str, Any]


# --------------------------------------------------------------------------------------------------
# Terms and triples


def encode_term(term: Subject | Object) -> dict[str, Any]:
    """One RDF term in TrustGraph's wire encoding."""
    if isinstance(term, QuotedTriple):
        return {"t": "t", "tr": {"s": encode_term(term.s), "p": encode_term(term.p), "o": encode_term(term.o)}}
    if isinstance(term, Literal):
        out: dict[str, Any] = {"t": "l", "v": str(term)}
        if term.datatype is not None:
            out["dt"] = str(term.datatype)
        if term.language is not None:
            out["ln"] = term.language
        return out
    if isinstance(term, BNode):
        return {"t": "b", "d": str(term)}
    if isinstance(term, URIRef):
        return {"t": "i", "i": str(term)}
    raise MappingError(f"{term!r} has no wire encoding")


def encode_quad(quad: Quad) -> dict[str, Any]:
    """One triple in TrustGraph's wire encoding, with ``g`` unless it is the default graph."""
    out: dict[str, Any] = {"s": encode_term(quad.s), "p": encode_term(quad.p), "o": encode_term(quad.o)}
    if quad.g:
        out["g"] = quad.g
    return out


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


def decode_term(raw: object, where: str = "term", *, depth: int = 0) -> Subject | Object:
    """One wire term as an RDF term (the inverse of :func:`encode_term`).

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
        if depth >= MAX_TERM_NESTING:
            raise BadRequest(f"{where}: quoted triples nested deeper than {MAX_TERM_NESTING}")
        inner = raw.get("tr", raw.get("triple"))
        if not isinstance(inner, Mapping):
            raise BadRequest(f"{where}.tr: must be an object with s, p and o")
        s, p, o = (decode_term(inner.get(k), f"{where}.tr.{k}", depth=depth + 1) for k in ("s", "p", "o"))
        return QuotedTriple(_subject(s, f"{where}.tr.s"), _predicate(p, f"{where}.tr.p"), o)
    raise BadRequest(f"{where}.t: {kind!r} is not a term kind (i, l, b or t)")


def _subject(value: Subject | Object, where: str) -> Subject:
    if isinstance(value, Literal):
        raise BadRequest(f"{where}: a literal cannot be a subject")
    return value


def _predicate(value: Subject | Object, where: str) -> URIRef:
    if not isinstance(value, URIRef) or isinstance(value, BNode):
        raise BadRequest(f"{where}: a predicate must be an IRI")
    return value


def _graph(raw: object, where: str = "g") -> str:
    if not isinstance(raw, str):
        raise BadRequest(f"{where}: must be a string graph name, not {raw!r}")
    return raw


def decode_quad(raw: object, where: str = "triple") -> Quad:
    """One wire triple (``{"s", "p", "o", "g"?}``) as a quad; ``g`` absent is the default graph."""
    if not isinstance(raw, Mapping):
        raise BadRequest(f"{where}: must be an object with s, p and o")
    for key in ("s", "p", "o"):
        if key not in raw:
            raise BadRequest(f"{where}.{key}: required")
    s = _subject(decode_term(raw["s"], f"{where}.s"), f"{where}.s")
    p = _predicate(decode_term(raw["p"], f"{where}.p"), f"{where}.p")
    o = decode_term(raw["o"], f"{where}.o")
    g = _graph(raw["g"], f"{where}.g") if raw.get("g") is not None else ""
    return Quad(s, p, o, g)


def decode_pattern(raw: Mapping[str, Any]) -> TriplePattern:
    """The pattern of a ``triples`` request (``s``, ``p``, ``o``, ``g``, ``limit``; absent terms are wildcards)."""
    s = _subject(decode_term(raw["s"], "s"), "s") if raw.get("s") is not None else None
    p = _predicate(decode_term(raw["p"], "p"), "p") if raw.get("p") is not None else None
    o = decode_term(raw["o"], "o") if raw.get("o") is not None else None
    g = _graph(raw["g"]) if raw.get("g") is not None else None
    return TriplePattern(s, p, o, g, bounded_int(raw, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT))


# --------------------------------------------------------------------------------------------------
# Messages


def _frame(kind: SessionKind, message_type: str, *, last: bool = False, final: bool = False) -> Message:
    """The fields every message of a session kind carries, in TrustGraph's names and order.

    ``last`` marks the last piece of one message; ``final`` ends the whole stream.
    """
    if kind is SessionKind.AGENT:
        return {"message_type": message_type, kind.last_flag: last, kind.final_flag: final}
    return {"message_type": message_type, "response": "", kind.last_flag: last, kind.final_flag: final}


def _explain(event: ExplainEvent, kind: SessionKind) -> Message:
    """An explain message.

    In an agent stream an iteration carries only its own triples: TrustGraph's client pools the
    ``rdf:type``s of every subject in a message, and would take an iteration that carries its
    Thought's triples for a Reflection and drop its ``[analysis]`` line (reference §3, §6.3).
    """
    triples = event.triples
    if kind is SessionKind.AGENT and event.kind == "analysis":
        triples = [q for q in triples if str(q.s) == event.explain_id]
    return {
        **_frame(kind, "explain"),
        "explain_id": event.explain_id,
        "explain_graph": event.explain_graph,
        "explain_triples": [encode_quad(q) for q in triples],
    }


def _answer(event: AnswerChunk, kind: SessionKind) -> Message:
    if kind is SessionKind.AGENT:
        return {**_frame(kind, "answer", last=event.last), "content": event.text}
    return {**_frame(kind, "chunk", last=event.last), "response": event.text}


def _agent_message(event: AgentMessage, kind: SessionKind) -> Message:
    if kind is not SessionKind.AGENT:
        raise MappingError(f"a {event.message_type} message belongs to an agent stream, not {kind.wire}")
    message = {**_frame(kind, event.message_type, last=event.last), "content": event.text}
    if event.message_id:
        message["message_id"] = event.message_id
    return message


def _end(event: SessionEnd, kind: SessionKind) -> Message:
    if kind is SessionKind.AGENT:
        message = {**_frame(kind, "answer", last=True, final=True), "content": ""}
    else:
        message = _frame(kind, "chunk", final=True)
    message["sources"] = [{"uri": s.uri, "title": s.title or s.uri} for s in event.sources]
    for key in ("in_token", "out_token", "model", "trace"):
        value = getattr(event, key)
        if value is not None:
            message[key] = value
    if event.citations:
        message["citations"] = [_citation(c) for c in event.citations]
    if event.verification is not None:
        message["verification"] = encode_verification(event.verification)
    return message


def encode_verification(summary: VerificationSummary) -> dict[str, Any]:
    """The counterfactual check's summary (tgneo's addition to the final message; scripts read these names)."""
    out: dict[str, Any] = {
        "verdict": summary.verdict,
        "sufficient": summary.sufficient,
        "sufficiency": summary.sufficiency,
        "model": summary.model,
        "items": [{"iri": i.iri, "necessity": i.necessity} for i in summary.items],
        "stands_without": list(summary.stands_without),
    }
    if summary.uri is not None:
        out["uri"] = summary.uri
    return out


def _read_verification(raw: object) -> VerificationSummary | None:
    if not isinstance(raw, Mapping) or not isinstance(raw.get("verdict"), str):
        return None
    items = tuple(
        Necessity(str(i.get("iri", "")), float(i.get("necessity") or 0.0))
        for i in raw.get("items") or []
        if isinstance(i, Mapping)
    )
    stands = tuple(int(i) for i in raw.get("stands_without") or [] if isinstance(i, int))
    return VerificationSummary(
        raw["verdict"], bool(raw.get("sufficient")), float(raw.get("sufficiency") or 0.0), raw.get("model"), items,
        stands, raw.get("uri"),
    )  # fmt: skip


_EVIDENCE_FIELDS = ("chunk", "section", "document", "title")


def _citation(citation: Citation) -> dict[str, Any]:
    """One answer sentence and its evidence (tgneo's addition to the final message)."""
    out: dict[str, Any] = {"index": citation.index, "sentence": citation.sentence, "supported": citation.supported}
    if citation.uri is not None:
        out["uri"] = citation.uri
    out["evidence"] = [
        {
            "uri": e.uri,
            "text": e.text,
            "score": e.score,
            **{k: getattr(e, k) for k in _EVIDENCE_FIELDS if getattr(e, k)},
        }
        for e in citation.evidence
    ]
    return out


def _read_citation(raw: object) -> Citation | None:
    if not isinstance(raw, Mapping):
        return None
    evidence = tuple(
        Evidence(
            str(e.get("uri", "")),
            str(e.get("text", "")),
            float(e.get("score") or 0.0),
            *(e.get(k) for k in _EVIDENCE_FIELDS),
        )  # fmt: skip
        for e in raw.get("evidence") or []
        if isinstance(e, Mapping)
    )
    index = raw.get("index")
    return Citation(index if isinstance(index, int) else 0, str(raw.get("sentence", "")), evidence, raw.get("uri"))


def _warning(event: WarningEvent, kind: SessionKind) -> Message:
    """A warning (tgneo's): ``message_type`` ``warning`` and the text in ``warning``. TrustGraph's clients take a
    message type they do not know for a text piece (``response`` — empty here — or, in an agent stream, one they
    ignore), so they print nothing and read on."""
    return {**_frame(kind, "warning"), "warning": event.message}


def _error(event: ErrorEvent, kind: SessionKind) -> Message:
    message = _frame(kind, "error" if kind is SessionKind.AGENT else "chunk", last=True, final=True)
    message["error"] = {"type": event.type or kind.error_type, "message": event.message, **event.details}
    if event.trace is not None:
        message["trace"] = event.trace
    return message


def encode(event: Event, kind: SessionKind) -> Message:
    """The response message TrustGraph's service of ``kind`` sends for ``event``.

    Raises:
        MappingError: the event has no message in this kind of stream (a thought in a RAG stream).
    """
    if isinstance(event, ExplainEvent):
        return _explain(event, kind)
    if isinstance(event, AnswerChunk):
        return _answer(event, kind)
    if isinstance(event, AgentMessage):
        return _agent_message(event, kind)
    if isinstance(event, SessionEnd):
        return _end(event, kind)
    if isinstance(event, ErrorEvent):
        return _error(event, kind)
    if isinstance(event, WarningEvent):
        return _warning(event, kind)
    raise MappingError(f"{type(event).__name__} has no wire message")


def is_final(message: Mapping[str, Any], kind: SessionKind) -> bool:
    """Whether ``message`` ends its stream (``end_of_session`` or ``end_of_dialog``, by ``kind``)."""
    return bool(message.get(kind.final_flag))


def decode(message: Mapping[str, Any], kind: SessionKind) -> Event:
    """A response message of a ``kind`` stream read back as its event (the inverse of :func:`encode`).

    What a decoded event cannot carry: an explain event's entity ``kind`` (the wire does not say it).

    Raises:
        BadRequest: the message is not one a question stream carries.
    """
    message_type = message.get("message_type")
    error = message.get("error")
    if isinstance(error, Mapping):
        details = {k: v for k, v in error.items() if k not in ("type", "message")}
        return ErrorEvent(str(error.get("message", "")), error.get("type"), message.get("trace"), details)
    if message_type == "warning":
        return WarningEvent(str(message.get("warning", "")))
    if message_type == "explain":
        raw = message.get("explain_triples") or []
        triples = [decode_quad(t, f"explain_triples[{i}]") for i, t in enumerate(raw)]
        return ExplainEvent(str(message.get("explain_id", "")), str(message.get("explain_graph", "")), triples, "")
    if is_final(message, kind):
        sources = tuple(
            Source(str(s.get("uri", "")), s.get("title"))
            for s in message.get("sources") or []
            if isinstance(s, Mapping)
        )
        citations = tuple(c for c in map(_read_citation, message.get("citations") or []) if c is not None)
        return SessionEnd(
            sources, message.get("in_token"), message.get("out_token"), message.get("model"), message.get("trace"),
            citations, _read_verification(message.get("verification")),
        )  # fmt: skip
    last = bool(message.get(kind.last_flag))
    if message_type in ("thought", "observation", "action"):
        return AgentMessage(message_type, str(message.get("content", "")), str(message.get("message_id", "")), last)
    if message_type in ("chunk", "answer"):
        text = message.get("content" if kind is SessionKind.AGENT else "response", "")
        return AnswerChunk(str(text or ""), last=last)
    raise BadRequest(f"message_type {message_type!r} is not one a {kind.wire} stream carries")
