"""The event catalogue: everything a question's stream carries, as typed events (pure data).

An engine is a generator of these events; every transport (the CLI, NDJSON, SSE, WebSockets, the
TrustGraph gateway socket) writes them through one codec, :mod:`tgneo.stream.wire`, which renders each
as the response message TrustGraph's own service of that kind sends (reference §2.6) and reads such
messages back. The events themselves know nothing of the wire.

The order of a stream is the engine's: each step's ``explain`` event comes only after its
transaction committed (the recorder hands it back), answer chunks stream as they are produced, and
exactly one :class:`SessionEnd` or :class:`ErrorEvent` ends it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from tgneo.explain.entity import Entity
from tgneo.rdf.terms import Quad

__all__ = [
    "EVENTS", "AgentMessage", "AnswerChunk", "Citation", "ErrorEvent", "Event", "Evidence", "ExplainEvent",
    "Necessity", "SessionEnd", "Source", "VerificationSummary", "WarningEvent",
]  # fmt: skip


class Event:
    """A typed stream event; ``name`` is its catalogue name."""

    name: ClassVar[str]


@dataclass(frozen=True)
class ExplainEvent(Event):
    """Event name: ``explain``. A step is durable in Neo4j; its triples travel inline.

    :ivar explain_id: the step's URI.
    :ivar explain_graph: the named graph of its triples (``urn:graph:retrieval`` for query time).
    :ivar triples: the step's quads, exactly as TrustGraph's builder emits them.
    :ivar kind: the entity kind (``grounding``, ``focus``, …; ``""`` when read back from the wire).
    :ivar extensions: quads written with the step but never streamed: tgneo's own entities attached to
        it (answer sentences), which TrustGraph's protocol has no place for.
    """

    explain_id: str
    explain_graph: str
    triples: Sequence[Quad]
    kind: str
    extensions: Sequence[Quad] = ()

    name = "explain"

    @classmethod
    def of(cls, step: Entity, attached: Sequence[Entity] = ()) -> ExplainEvent:
        """The event announcing ``step``: its triples rendered once, for the write and the stream alike.

        ``attached`` entities (a step's answer sentences) are written with the step, in its
        transaction, but not streamed: their quads are the event's :attr:`extensions`.
        """
        extensions = [quad for entity in attached for quad in entity.triples()]
        return cls(step.uri, step.graph, step.triples(), step.kind, extensions)


@dataclass(frozen=True)
class AnswerChunk(Event):
    """Event name: ``answer``. A piece of the answer text, streamed as the LLM produces it.

    :ivar text: the piece (may be empty on the last one).
    :ivar last: whether it is the answer's last piece (``end_of_stream`` / ``end_of_message``).
    """

    text: str
    last: bool = False

    name = "answer"


@dataclass(frozen=True)
class AgentMessage(Event):
    """Event name: ``agent-message``. An agent's reasoning, its action, or what a tool returned.

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


@dataclass(frozen=True)
class WarningEvent(Event):
    """Event name: ``warning``. The answer goes on, but not the way it should have: a graph profile's fallback
    (their index is missing, or not one the configured embedder can ask; what found their entities or chunks
    instead, and the remedy). Said on every question it applies to, on every road (tgneo's addition: TrustGraph's
    clients read it as an empty piece of text and print nothing).

    :ivar message: what happened and what to do about it, for people (one line).
    """

    message: str

    name = "warning"


@dataclass(frozen=True)
class Source:
    """A document an answer rests on: reached from a selected edge or chunk through its source chain."""

    uri: str
    title: str | None = None


@dataclass(frozen=True)
class Evidence:
    """A sentence an answer sentence rests on, how well it supports it, and where it was read.

    :ivar uri: the trace entity it came through: an ``EdgeSelection`` or a ``ChunkSelection``.
    :ivar text: the sentence (an edge's evidence sentence, a chunk's sentence, or an edge's fact).
    :ivar score: how well it supports the answer sentence (0..1: key terms shared, and embedding similarity).
    :ivar chunk: the chunk it was read from; :ivar section: its page or section; :ivar document: its document.
    """

    uri: str
    text: str
    score: float
    chunk: str | None = None
    section: str | None = None
    document: str | None = None
    title: str | None = None


@dataclass(frozen=True)
class Citation:
    """One sentence of an answer with the evidence that supports it (none: the sentence is unsupported).

    :ivar index: its 1-based position in the answer.
    :ivar sentence: its text.
    :ivar evidence: the supporting sentences, best first.
    :ivar uri: the ``AnswerSentence`` entity recording it in the trace.
    """

    index: int
    sentence: str
    evidence: tuple[Evidence, ...] = ()
    uri: str | None = None

    @property
    def supported(self) -> bool:
        return bool(self.evidence)


@dataclass(frozen=True)
class Necessity:
    """How much of an answer one item it was given is needed for: the share of its sentences lost without it.

    :ivar iri: the item: an EdgeSelection, ChunkSelection or Observation of the trace.
    :ivar necessity: 0 (the answer says the same without it) to 1 (every sentence is lost).
    """

    iri: str
    necessity: float


@dataclass(frozen=True)
class VerificationSummary:
    """What the counterfactual check of an answer found (:mod:`tgneo.engines.verify`).

    :ivar verdict: ``supported``, ``partly`` or ``unsupported`` (by its evidence).
    :ivar sufficient: whether the cited evidence alone still gives most of the answer.
    :ivar sufficiency: the share of the answer it still gives (0..1).
    :ivar model: the model that answered the re-runs (the judge).
    :ivar items: the necessity of each item a leave-one-out was run for, the most cited first.
    :ivar stands_without: the answer sentences (1-based) still said without their evidence.
    :ivar uri: the Verification step recording it.
    """

    verdict: str
    sufficient: bool
    sufficiency: float
    model: str | None = None
    items: tuple[Necessity, ...] = ()
    stands_without: tuple[int, ...] = ()
    uri: str | None = None


@dataclass(frozen=True)
class SessionEnd(Event):
    """Event name: ``end``. The answer is complete: its citations and the question's token totals.

    :ivar sources: the deduplicated documents behind the selected edges or chunks.
    :ivar citations: each answer sentence with the evidence supporting it (tgneo's addition).
    :ivar in_token: prompt tokens over every LLM call of the question.
    :ivar out_token: completion tokens over every LLM call.
    :ivar model: the model that answered.
    :ivar trace: the trace's root URI (tgneo's addition: where to look the answer up).
    :ivar verification: what the counterfactual check found, when one was asked for (tgneo's addition).
    """

    sources: tuple[Source, ...] = ()
    in_token: int | None = None
    out_token: int | None = None
    model: str | None = None
    trace: str | None = None
    citations: tuple[Citation, ...] = ()
    verification: VerificationSummary | None = None

    name = "end"


@dataclass(frozen=True)
class ErrorEvent(Event):
    """Event name: ``error``. The question failed; the stream ends here, never in silence.

    :ivar message: what went wrong, for people.
    :ivar type: TrustGraph's error type; the service's own (``graph-rag-error`` …) when ``None``.
    :ivar trace: the root URI of what was recorded before the failure, if anything was.
    :ivar details: more fields for the wire's ``error`` object.
    """

    message: str
    type: str | None = None
    trace: str | None = None
    details: dict[str, Any] = field(default_factory=dict, hash=False)

    name = "error"


EVENTS: tuple[type[Event], ...] = (ExplainEvent, WarningEvent, AnswerChunk, AgentMessage, SessionEnd, ErrorEvent)
"""Every event a stream can carry, in the order a reader meets them."""
