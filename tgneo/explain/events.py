"""The event catalogue: everything a question's stream carries, as typed events.

An engine is a generator of these events; every transport (the CLI, NDJSON, SSE, WebSockets, the
TrustGraph gateway socket) only frames them. :meth:`Event.to_wire` gives the response message
TrustGraph's own services send for the session kind at hand (reference §2.6), so TrustGraph's CLI
and SDK read tgneo's streams unchanged:

* RAG (``graph-rag``, ``document-rag``) messages carry ``message_type`` (``explain`` or ``chunk``),
  ``response`` (answer text, ``""`` otherwise), ``end_of_stream`` and ``end_of_session``;
* agent messages carry ``message_type`` (``explain``, ``thought``, ``observation``, ``answer``,
  ``error``), ``content``, ``end_of_message`` and ``end_of_dialog``.

The order of a stream is the engine's: each step's ``explain`` event comes only after its
transaction committed (the recorder hands it back), answer chunks stream as they are produced, and
exactly one :class:`SessionEnd` or :class:`ErrorEvent` ends it.

Triples travel in TrustGraph's term encoding (``{"t": "i", "i": …}`` IRIs, ``{"t": "l", "v": …}``
literals, ``{"t": "t", "tr": {…}}`` quoted triples; ``"g"`` omitted for the default graph).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from rdflib.term import BNode, URIRef
from rdflib.term import Literal as RdfLiteral

from tgneo.errors import MappingError
from tgneo.kinds import SessionKind
from tgneo.rdf.terms import Object, Quad, QuotedTriple, Subject

__all__ = [
    "EVENTS",
    "AgentMessage",
    "AnswerChunk",
    "ErrorEvent",
    "Event",
    "ExplainEvent",
    "SessionEnd",
    "Source",
    "wire_quad",
    "wire_term",
]


def wire_term(term: Subject | Object) -> dict[str, Any]:
    """One term in TrustGraph's wire encoding."""
    if isinstance(term, QuotedTriple):
        return {"t": "t", "tr": {"s": wire_term(term.s), "p": wire_term(term.p), "o": wire_term(term.o)}}
    if isinstance(term, RdfLiteral):
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


def wire_quad(quad: Quad) -> dict[str, Any]:
    """One triple in TrustGraph's wire encoding, with ``g`` unless it is the default graph."""
    out: dict[str, Any] = {"s": wire_term(quad.s), "p": wire_term(quad.p), "o": wire_term(quad.o)}
    if quad.g:
        out["g"] = quad.g
    return out


def _frame(session: SessionKind, message_type: str, *, last: bool = False, final: bool = False) -> dict[str, Any]:
    """The fields every message of a session kind carries, in TrustGraph's names.

    ``last`` marks the last piece of one message (``end_of_stream`` / ``end_of_message``); ``final``
    ends the whole stream (``end_of_session`` / ``end_of_dialog``).
    """
    if session is SessionKind.AGENT:
        return {"message_type": message_type, "end_of_message": last, "end_of_dialog": final}
    return {"message_type": message_type, "response": "", "end_of_stream": last, "end_of_session": final}


class Event(ABC):
    """A typed stream event. ``name`` is its catalogue name; ``to_wire`` its TrustGraph message."""

    name: ClassVar[str]

    @abstractmethod
    def to_wire(self, session: SessionKind) -> dict[str, Any]:
        """The response message a TrustGraph service of ``session``'s kind would send."""


@dataclass(frozen=True)
class ExplainEvent(Event):
    """Event name: ``explain``. A step is durable in Neo4j; its triples travel inline.

    :ivar explain_id: the step's URI.
    :ivar explain_graph: the named graph of its triples (``urn:graph:retrieval`` for query time).
    :ivar triples: the step's quads, exactly as TrustGraph's builder emits them.
    :ivar kind: the entity kind (``grounding``, ``focus``, …).
    """

    explain_id: str
    explain_graph: str
    triples: Sequence[Quad]
    kind: str

    name = "explain"

    def to_wire(self, session: SessionKind | None = None) -> dict[str, Any]:
        """The explain message; without ``session``, only the explain fields every kind shares.

        In an agent stream an iteration carries only its own triples: TrustGraph's client pools the
        ``rdf:type``s of every subject in a message, and would take an iteration that carries its
        Thought's triples for a Reflection and drop its ``[analysis]`` line (reference §3, §6.3).
        """
        triples = self.triples
        if session is SessionKind.AGENT and self.kind == "analysis":
            triples = [q for q in triples if str(q.s) == self.explain_id]
        fields = {
            "explain_id": self.explain_id,
            "explain_graph": self.explain_graph,
            "explain_triples": [wire_quad(q) for q in triples],
        }
        if session is None:
            return {"message_type": "explain", **fields}
        return {**_frame(session, "explain"), **fields}


@dataclass(frozen=True)
class AnswerChunk(Event):
    """Event name: ``answer``. A piece of the answer text, streamed as the LLM produces it.

    :ivar text: the piece (may be empty on the last one).
    :ivar last: whether it is the answer's last piece (``end_of_stream`` / ``end_of_message``).
    """

    text: str
    last: bool = False

    name = "answer"

    def to_wire(self, session: SessionKind) -> dict[str, Any]:
        if session is SessionKind.AGENT:
            return {**_frame(session, "answer", last=self.last), "content": self.text}
        return {**_frame(session, "chunk", last=self.last), "response": self.text}


@dataclass(frozen=True)
class AgentMessage(Event):
    """Event name: ``thought`` or ``observation``. An agent's reasoning, or what a tool returned.

    :ivar message_type: ``thought``, ``observation`` or ``action``.
    :ivar text: the text.
    :ivar message_id: the provenance URI of the step it belongs to.
    :ivar last: whether it is the message's last piece.
    """

    message_type: Literal["thought", "observation", "action"]
    text: str
    message_id: str = ""
    last: bool = True

    name = "agent-message"

    def to_wire(self, session: SessionKind) -> dict[str, Any]:
        if session is not SessionKind.AGENT:
            raise MappingError(f"a {self.message_type} message belongs to an agent stream, not {session.wire}")
        wire = {**_frame(session, self.message_type, last=self.last), "content": self.text}
        if self.message_id:
            wire["message_id"] = self.message_id
        return wire


@dataclass(frozen=True)
class Source:
    """A document an answer rests on: reached from a selected edge or chunk through its source chain."""

    uri: str
    title: str | None = None

    def to_wire(self) -> dict[str, Any]:
        return {"uri": self.uri, "title": self.title or self.uri}


@dataclass(frozen=True)
class SessionEnd(Event):
    """Event name: ``end``. The answer is complete: its citations and the question's token totals.

    :ivar sources: the deduplicated documents behind the selected edges or chunks.
    :ivar in_token: prompt tokens over every LLM call of the question.
    :ivar out_token: completion tokens over every LLM call.
    :ivar model: the model that answered.
    :ivar trace: the trace's root URI (tgneo's addition: where to look the answer up).
    """

    sources: tuple[Source, ...] = ()
    in_token: int | None = None
    out_token: int | None = None
    model: str | None = None
    trace: str | None = None

    name = "end"

    def to_wire(self, session: SessionKind) -> dict[str, Any]:
        if session is SessionKind.AGENT:
            wire = {**_frame(session, "answer", last=True, final=True), "content": ""}
        else:
            wire = _frame(session, "chunk", final=True)
        wire["sources"] = [s.to_wire() for s in self.sources]
        for key in ("in_token", "out_token", "model", "trace"):
            value = getattr(self, key)
            if value is not None:
                wire[key] = value
        return wire


@dataclass(frozen=True)
class ErrorEvent(Event):
    """Event name: ``error``. The question failed; the stream ends here, never in silence.

    :ivar message: what went wrong, for people.
    :ivar type: TrustGraph's error type; defaults to the service's own (``graph-rag-error`` …).
    :ivar trace: the root URI of what was recorded before the failure, if anything was.
    """

    message: str
    type: str | None = None
    trace: str | None = None
    details: dict[str, Any] = field(default_factory=dict, hash=False)

    name = "error"

    def to_wire(self, session: SessionKind) -> dict[str, Any]:
        error = {"type": self.type or session.error_type, "message": self.message, **self.details}
        wire = {**_frame(session, "error" if session is SessionKind.AGENT else "chunk", last=True, final=True)}
        wire["error"] = error
        if self.trace is not None:
            wire["trace"] = self.trace
        return wire


EVENTS: tuple[type[Event], ...] = (ExplainEvent, AnswerChunk, AgentMessage, SessionEnd, ErrorEvent)
"""Every event a stream can carry, in the order a reader meets them."""
