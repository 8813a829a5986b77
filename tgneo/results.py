"""What the Python API returns: an explained answer, a stored trace and its steps, typed (pure data).

:func:`tgneo.connect` hands these back so that a user's code reads attributes its type checker knows
(``answer.text``, ``answer.trace_uri``, ``trace.steps[0].type``) instead of digging in wire messages or the
trace reader's dicts. Each is built from what the CLI prints from: an :class:`Answer` from the stream's events
(the same as ``tgneo ask --json`` prints), a :class:`Trace` from the trace reader (the same as ``tgneo trace
show --json``), whose dict stays available as :meth:`Trace.to_dict` for JSON and for the tree the CLI draws.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tgneo.explain.events import Citation, Source, VerificationSummary

__all__ = ["Answer", "Removed", "Step", "Totals", "Trace", "TraceSummary"]


@dataclass(frozen=True)
class Answer:
    """An answer and how to look up how it was produced.

    Attributes:
        text: The answer, as it streamed.
        sources: The documents the answer's cited sentences rest on (every selected one when it cites none).
        citations: Each answer sentence with the evidence that supports it and where that was read.
        trace_uri: The trace's root, its Question: :meth:`tgneo.Connection.trace` reads it.
        engine: The engine that answered (``graph-rag``, ``document-rag``, ``agent``, or a registered one).
        workspace: The workspace the trace was recorded in.
        collection: The collection the trace was recorded in.
        model: The model(s) that answered, as the provider named them.
        in_tokens: Prompt tokens over every model call of the question.
        out_tokens: Completion tokens over every model call of the question.
        steps: The URIs of the steps recorded, in the order they were streamed.
        verification: What the counterfactual check found (``verify=True``): its ``verdict`` (``supported``,
            ``partly``, ``unsupported``), ``sufficient``, ``model`` and each item's ``necessity``.
        warnings: What the answer warned of, in the order said: over another tool's graph, each fallback it took
            (their index missing, or not one the configured embedder can ask: what found their entities or chunks
            instead, and the remedy), as the stream's warning events said it.
    """

    text: str
    sources: tuple[Source, ...]
    citations: tuple[Citation, ...]
    trace_uri: str
    engine: str
    workspace: str
    collection: str
    model: str | None = None
    in_tokens: int = 0
    out_tokens: int = 0
    steps: tuple[str, ...] = ()
    verification: VerificationSummary | None = None
    warnings: tuple[str, ...] = ()

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Step:
    """One step of a trace (a Grounding, a Focus, an agent's Analysis …), as ``tgneo trace show`` prints it.

    Attributes:
        uri: The step's PROV entity.
        type: Its most specific type (``Grounding``, ``Focus``, ``Synthesis``, ``Observation`` …).
        labels: Every label of its node.
        depth: How many derivations it is from the trace's root.
        parents: The steps it was derived from.
        properties: What it recorded: tokens, model, durations, concepts, reasoning … (property name → value).
        error: The error it recorded (a failed tool call), if any.
        edges: Selected knowledge-graph edges with score, reasoning and source chain (a Focus's).
        chunks: Selected chunks with score and document (a Document RAG Focus's).
        entities: Seed entities (an Exploration's).
        sentences: Answer sentences with their evidence (a Synthesis's or Conclusion's).
        documents: The librarian texts it holds (an answer, a thought, an observation).
        hits: Why each chunk or entity was found: by which index, at which rank.
    """

    uri: str
    type: str
    labels: tuple[str, ...]
    depth: int
    parents: tuple[str, ...]
    properties: Mapping[str, Any]
    error: str | None = None
    edges: tuple[Mapping[str, Any], ...] = ()
    chunks: tuple[Mapping[str, Any], ...] = ()
    entities: tuple[Mapping[str, Any], ...] = ()
    sentences: tuple[Mapping[str, Any], ...] = ()
    documents: tuple[Mapping[str, Any], ...] = ()
    hits: tuple[Mapping[str, Any], ...] = ()

    @classmethod
    def of(cls, raw: Mapping[str, Any]) -> Step:
        """A step from the trace reader's dict (:func:`tgneo.store.traces.get_trace`)."""
        return cls(
            uri=raw["uri"], type=raw["type"], labels=tuple(raw["labels"]), depth=int(raw["depth"]),
            parents=tuple(raw["parents"]), properties=dict(raw["properties"]), error=raw.get("error"),
            edges=tuple(raw.get("edges", ())), chunks=tuple(raw.get("chunks", ())),
            entities=tuple(raw.get("entities", ())), sentences=tuple(raw.get("sentences", ())),
            documents=tuple(raw.get("documents", ())), hits=tuple(raw.get("hits", ())),
        )  # fmt: skip


@dataclass(frozen=True)
class Totals:
    """What a whole trace cost: tokens, model and tool milliseconds, models, and how many steps recorded errors."""

    in_tokens: int = 0
    out_tokens: int = 0
    llm_ms: int = 0
    tool_ms: int = 0
    models: tuple[str, ...] = ()
    errors: int = 0


@dataclass(frozen=True)
class Trace:
    """A stored trace: its question, its steps in derivation order and what it cost.

    Attributes:
        uri: The root (the Question).
        kind: ``graphrag``, ``docrag`` or ``agent``.
        question: What was asked.
        started_at: When (ISO 8601, UTC).
        steps: Every step (at most the reader's bound; see ``truncated``), each after its parents.
        totals: Tokens, durations and models summed over the steps.
        stale: The document changes since that the answer's evidence came from (empty: as it was).
        held: Whether a legal hold keeps it from retention.
        truncated: Whether only the first ``len(steps)`` of ``total_steps`` steps are here.
    """

    uri: str
    kind: str | None
    workspace: str
    collection: str
    question: str | None
    started_at: str | None
    steps: tuple[Step, ...]
    totals: Totals
    total_steps: int
    truncated: bool = False
    held: bool = False
    stale: tuple[Mapping[str, Any], ...] = ()
    data: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> Trace:
        """A trace from the trace reader's dict (:func:`tgneo.store.traces.get_trace`)."""
        totals = data.get("totals", {})
        return cls(
            uri=data["uri"], kind=data.get("type"), workspace=data["workspace"], collection=data["collection"],
            question=data.get("query"), started_at=data.get("startedAtTime"),
            steps=tuple(Step.of(s) for s in data["steps"]),
            totals=Totals(
                int(totals.get("inToken", 0)), int(totals.get("outToken", 0)), int(totals.get("llmDurationMs", 0)),
                int(totals.get("toolDurationMs", 0)), tuple(totals.get("models", ())), int(totals.get("errors", 0)),
            ),
            total_steps=int(data.get("total_steps", len(data["steps"]))), truncated=bool(data.get("truncated")),
            held=bool(data.get("held")), stale=tuple(data.get("stale", ())), data=data,
        )  # fmt: skip

    def to_dict(self) -> dict[str, Any]:
        """The trace as JSON-ready data: what ``tgneo trace show --json`` and ``GET /api/v1/traces/{uri}`` give."""
        return dict(self.data)

    @property
    def answer(self) -> str | None:
        """The text of the trace's last answer step (a Synthesis or Conclusion), if it holds one."""
        for step in reversed(self.steps):
            if step.type in ("Synthesis", "Conclusion") and step.documents:
                text = step.documents[0].get("text")
                return str(text) if text is not None else None
        return None

    @property
    def sentences(self) -> dict[int, str]:
        """The last answer step's sentences by their 1-based index (what citations and verifications number)."""
        for step in reversed(self.steps):
            if step.type in ("Synthesis", "Conclusion") and step.sentences:
                return {int(s["index"]): str(s["text"]) for s in step.sentences}
        return {}

    @property
    def verifications(self) -> tuple[Step, ...]:
        """The counterfactual checks of its answer, oldest first (``tgneo trace verify``, ``ask(verify=True)``)."""
        return tuple(s for s in self.steps if s.type == "Verification")

    def step(self, type: str) -> Step | None:  # noqa: A002 - the step's type, as trace show names it
        """The first step of this type (``"Focus"``), if the trace has one."""
        return next((s for s in self.steps if s.type == type), None)


@dataclass(frozen=True)
class TraceSummary:
    """One row of :meth:`tgneo.Connection.traces`: a trace root, newest first."""

    uri: str
    kind: str | None
    question: str | None
    started_at: str | None
    steps: int
    stale: bool = False
    held: bool = False


@dataclass(frozen=True)
class Removed:
    """What :meth:`tgneo.Connection.remove` did with one name it was given.

    Attributes:
        name: The path or document URI as given.
        document: The document URI it names.
        found: Whether the collection held that document (nothing was done when it did not).
        retracted: Statements only it stated, which left the knowledge graph.
        stale_traces: Stored answers that used it, now marked stale (kept whole).
    """

    name: str
    document: str
    found: bool
    retracted: int = 0
    stale_traces: int = 0
