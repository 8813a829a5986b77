"""One frozen dataclass per explainability step, each rendering TrustGraph's own triples.

Why dataclasses and not triples: engines report *what happened* (a grounding with these concepts,
an edge selected with this score), the recorder stores it natively in Neo4j, and only the RDF views
need triples. Each entity therefore carries plain Python values, validates them once at
construction (a malformed IRI, a negative token count or an empty query raises
:class:`~tgneo.errors.InvalidEntity` naming the field), and renders on demand, via
:meth:`Entity.triples`, **exactly** the quads TrustGraph 2.11.1's builder of the same step emits, in
the same order: plain literals (``str(n)``, ``str(score)``, ``json.dumps(arguments)``), ISO
timestamps ending in ``Z``, ``prov:wasDerivedFrom`` links child → parent, and quoted triples for
edges. That is what lets TrustGraph's unmodified CLI and SDK read tgneo's traces.

Query-time entities live in ``urn:graph:retrieval``; extraction-time entities (:class:`Document`,
:class:`DerivedEntity`, :class:`Subgraph`) in ``urn:graph:source``. :attr:`Entity.parents` names the
steps an entity derives from, so the recorder can refuse to write an orphan.

Optional text and IRI fields follow TrustGraph's builders: ``None`` means absent. An empty optional
*text* (a concept, a reasoning, a tool error) is also absent, as TrustGraph drops falsy values, but
an empty *IRI* is an error, because it can only be a bug.
"""

from __future__ import annotations

import dataclasses
import json
import math
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, ClassVar

from rdflib.term import Literal, URIRef

from tgneo import uris
from tgneo.errors import InvalidEntity
from tgneo.rdf.terms import Object, Quad, QuotedTriple
from tgneo.vocab import DC, GRAPH_RETRIEVAL, GRAPH_SOURCE, PROV, RDF, RDFS, TG

__all__ = [
    "ENTITY_TYPES",
    "Activity",
    "AgentQuestion",
    "AgentSynthesis",
    "Analysis",
    "ChunkSelection",
    "Conclusion",
    "Decomposition",
    "DerivedEntity",
    "DocRagExploration",
    "DocRagFocus",
    "DocRagQuestion",
    "DocRagSynthesis",
    "Document",
    "EdgeSelection",
    "Entity",
    "Exploration",
    "Finding",
    "Focus",
    "GraphRagQuestion",
    "Grounding",
    "LlmStep",
    "Observation",
    "PatternDecision",
    "Plan",
    "Question",
    "SoftwareAgent",
    "StepResult",
    "Subgraph",
    "Synthesis",
    "Thought",
    "entity_from_dict",
    "now_timestamp",
]


# --------------------------------------------------------------------------------------------------
# values: timestamps, checks, quad emission


def now_timestamp() -> str:
    """The current UTC time as TrustGraph writes it: ``2025-06-01T10:15:30.123456Z``.

    TrustGraph's client sorts sessions by comparing these strings, so every timestamp must share
    this one format and time zone.
    """
    return datetime.now(UTC).isoformat().replace("+00:00", "Z")


def _timestamp(value: object, what: str) -> str:
    """Parse an ISO 8601 timestamp with a time zone and rewrite it in TrustGraph's UTC form."""
    if not isinstance(value, str) or not value:
        raise InvalidEntity(f"{what}: expected an ISO 8601 timestamp string, got {value!r}")
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise InvalidEntity(f"{what}: {value!r} is not an ISO 8601 timestamp") from None
    if moment.tzinfo is None:
        raise InvalidEntity(f"{what}: {value!r} has no time zone (write it in UTC, ending in 'Z')")
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


def _count(value: object, what: str) -> int:
    """A count, size, offset or duration: an ``int`` (not a ``bool``) that is not negative."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidEntity(f"{what}: expected a non-negative integer, got {value!r}")
    if value < 0:
        raise InvalidEntity(f"{what}: must not be negative, got {value}")
    return value


def _score(value: object, what: str) -> float | None:
    """A relevance score: any finite number (cross-encoder logits may be negative)."""
    if value is None:
        return None
    if not isinstance(value, int | float) or isinstance(value, bool) or not math.isfinite(value):
        raise InvalidEntity(f"{what}: expected a finite number, got {value!r}")
    return value


def _text(value: object, what: str) -> str:
    """A required piece of text that must say something (a query, a goal, a pattern name)."""
    if not isinstance(value, str):
        raise InvalidEntity(f"{what}: expected a string, got {type(value).__name__}")
    if not value.strip():
        raise InvalidEntity(f"{what}: must not be empty")
    return value


def _optional_text(value: object, what: str) -> str | None:
    """Optional text; ``""`` means absent, exactly as TrustGraph's builders skip falsy values."""
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise InvalidEntity(f"{what}: expected a string or None, got {type(value).__name__}")
    return value


def _optional_iri(value: object, what: str) -> str | None:
    """Optional IRI: ``None`` means absent; anything else must be a valid absolute IRI."""
    return None if value is None else uris.validate_iri(value, what)


def _sequence(value: object, what: str) -> tuple[Any, ...]:
    """Accept a list or tuple (JSON gives lists) as a tuple; refuse a lone string, which would split."""
    if isinstance(value, str) or not isinstance(value, list | tuple):
        raise InvalidEntity(f"{what}: expected a list or tuple, got {type(value).__name__}")
    return tuple(value)


class _Quads:
    """Collects quads for one named graph, in the order they are emitted."""

    def __init__(self, graph: str) -> None:
        self.graph = graph
        self.quads: list[Quad] = []

    def about(self, subject: str) -> _About:
        """Start (or continue) statements whose subject is ``subject``."""
        return _About(self, URIRef(subject))


class _About:
    """Statements about one subject, appended to a shared :class:`_Quads`."""

    def __init__(self, out: _Quads, subject: URIRef) -> None:
        self._out = out
        self.subject = subject

    def term(self, predicate: URIRef, obj: Object) -> None:
        self._out.quads.append(Quad(self.subject, predicate, obj, self._out.graph))

    def a(self, *classes: URIRef) -> None:
        for cls in classes:
            self.term(RDF.type, cls)

    def link(self, predicate: URIRef, iri: str) -> None:
        self.term(predicate, URIRef(iri))

    def text(self, predicate: URIRef, value: object) -> None:
        """A plain literal (no datatype, no language) of ``str(value)``, as TrustGraph renders all."""
        self.term(predicate, Literal(str(value)))

    def label(self, text: str) -> None:
        self.text(RDFS.label, text)


# --------------------------------------------------------------------------------------------------
# base classes


@dataclass(frozen=True, kw_only=True)
class Entity(ABC):
    """A step of a trace (or a source entity) that becomes one node and TrustGraph's triples.

    Attributes:
        kind: The registry name (``ENTITY_TYPES[kind]``), e.g. ``"grounding"``.
        graph: The named graph its quads belong to.
        uri: The entity's IRI (see :mod:`tgneo.uris` for TrustGraph's patterns).
    """

    kind: ClassVar[str]
    graph: ClassVar[str] = GRAPH_RETRIEVAL

    uri: str

    def __post_init__(self) -> None:
        if not hasattr(type(self), "kind"):
            raise TypeError(f"{type(self).__name__} is abstract; use one of ENTITY_TYPES")
        self._set("uri", uris.validate_iri(self.uri, self._what("uri")))

    @property
    def parents(self) -> tuple[str, ...]:
        """The URIs this entity is ``prov:wasDerivedFrom``; each must exist before it is written."""
        return ()

    @abstractmethod
    def triples(self) -> list[Quad]:
        """Exactly the quads TrustGraph's builder for this step emits, in its order."""

    # -- helpers for subclasses' __post_init__

    def _what(self, name: str) -> str:
        return f"{type(self).__name__}.{name}"

    def _set(self, name: str, value: object) -> None:
        object.__setattr__(self, name, value)

    def _iri(self, name: str) -> None:
        self._set(name, uris.validate_iri(getattr(self, name), self._what(name)))

    def _optional_iri(self, name: str) -> None:
        self._set(name, _optional_iri(getattr(self, name), self._what(name)))

    def _iris(self, name: str) -> None:
        values = _sequence(getattr(self, name), self._what(name))
        self._set(name, tuple(uris.validate_iri(v, f"{self._what(name)}[{i}]") for i, v in enumerate(values)))

    def _texts(self, name: str) -> None:
        values = _sequence(getattr(self, name), self._what(name))
        self._set(name, tuple(_text(v, f"{self._what(name)}[{i}]") for i, v in enumerate(values)))

    def _count(self, name: str) -> None:
        _count(getattr(self, name), self._what(name))

    def _optional_count(self, name: str) -> None:
        if getattr(self, name) is not None:
            self._count(name)

    def _optional_text(self, name: str) -> None:
        self._set(name, _optional_text(getattr(self, name), self._what(name)))


@dataclass(frozen=True, kw_only=True)
class LlmStep(Entity):
    """A step that may have called an LLM: TrustGraph appends its token usage and model last.

    Attributes:
        in_token: Prompt tokens, emitted as ``tg:inToken "n"`` when not ``None``.
        out_token: Completion tokens, ``tg:outToken "n"``.
        model: The model's name, ``tg:llmModel "m"``.
    """

    in_token: int | None = None
    out_token: int | None = None
    model: str | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        self._optional_count("in_token")
        self._optional_count("out_token")
        if self.model is not None:
            # TrustGraph emits the model whenever it is not None, even "", so "" cannot mean absent.
            _text(self.model, self._what("model"))

    def _usage(self, about: _About) -> None:
        if self.in_token is not None:
            about.text(TG.inToken, self.in_token)
        if self.out_token is not None:
            about.text(TG.outToken, self.out_token)
        if self.model is not None:
            about.text(TG.llmModel, self.model)


@dataclass(frozen=True, kw_only=True)
class Question(Entity):
    """The root of a trace: what was asked, and when.

    Attributes:
        query: The question text (``tg:query``, the key ``tg-list-explain-traces`` lists by).
        timestamp: When it was asked; ISO 8601 with a time zone, stored in TrustGraph's UTC form.
        parent: For a sub-trace (a RAG call made by an agent step, a sub-agent under a
            Decomposition), the step it derives from.
    """

    question_type: ClassVar[URIRef]
    question_label: ClassVar[str]

    query: str
    timestamp: str = field(default_factory=now_timestamp)
    parent: str | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        _text(self.query, self._what("query"))
        self._set("timestamp", _timestamp(self.timestamp, self._what("timestamp")))
        self._optional_iri("parent")

    @property
    def parents(self) -> tuple[str, ...]:
        return () if self.parent is None else (self.parent,)

    def triples(self) -> list[Quad]:
        out = _Quads(self.graph)
        q = out.about(self.uri)
        q.a(PROV.Entity, TG.Question, self.question_type)
        q.label(self.question_label)
        q.text(PROV.startedAtTime, self.timestamp)
        q.text(TG.query, self.query)
        if self.parent is not None:
            q.link(PROV.wasDerivedFrom, self.parent)
        return out.quads


# --------------------------------------------------------------------------------------------------
# GraphRAG: Question ← Grounding ← Exploration ← Focus ← Synthesis


@dataclass(frozen=True, kw_only=True)
class GraphRagQuestion(Question):
    """A GraphRAG question (``question_triples``); its URI is ``urn:trustgraph:question:{sid}``."""

    kind = "question"
    question_type = TG.GraphRagQuestion
    question_label = "GraphRAG Question"


@dataclass(frozen=True, kw_only=True)
class Grounding(LlmStep):
    """The concepts drawn from a question (``grounding_triples``; DocRAG uses it too).

    Attributes:
        question: The question it derives from.
        concepts: One ``tg:concept`` literal each, in order.
    """

    kind = "grounding"

    question: str
    concepts: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        super().__post_init__()
        self._iri("question")
        self._texts("concepts")

    @property
    def parents(self) -> tuple[str, ...]:
        return (self.question,)

    def triples(self) -> list[Quad]:
        out = _Quads(self.graph)
        g = out.about(self.uri)
        g.a(PROV.Entity, TG.Grounding)
        g.label("Grounding")
        g.link(PROV.wasDerivedFrom, self.question)
        for concept in self.concepts:
            g.text(TG.concept, concept)
        self._usage(g)
        return out.quads


@dataclass(frozen=True, kw_only=True)
class Exploration(Entity):
    """The knowledge-graph neighbourhood retrieved for the concepts (``exploration_triples``).

    Attributes:
        grounding: The grounding it derives from.
        edge_count: ``tg:edgeCount`` (TrustGraph's server reports the number of edges selected).
        entities: The seed entities' IRIs, one ``tg:entity`` each.
    """

    kind = "exploration"

    grounding: str
    edge_count: int
    entities: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        super().__post_init__()
        self._iri("grounding")
        self._count("edge_count")
        self._iris("entities")

    @property
    def parents(self) -> tuple[str, ...]:
        return (self.grounding,)

    def triples(self) -> list[Quad]:
        out = _Quads(self.graph)
        e = out.about(self.uri)
        e.a(PROV.Entity, TG.Exploration)
        e.label("Exploration")
        e.link(PROV.wasDerivedFrom, self.grounding)
        e.text(TG.edgeCount, self.edge_count)
        for entity in self.entities:
            e.link(TG.entity, entity)
        return out.quads


@dataclass(frozen=True)
class EdgeSelection:
    """One knowledge-graph edge a Focus kept, with why (a ``tg:EdgeSelection`` node).

    Its URI is minted by the Focus (``urn:trustgraph:prov:edge:{sid}:{i}``) from its position.

    Attributes:
        edge: The statement, as a quoted triple (its object may be a typed or tagged literal).
        concept: The grounding concept it answers (``tg:concept``).
        score: The relevance score (``tg:score "str(score)"``).
        reasoning: Free-text justification (``tg:reasoning``).
    """

    edge: QuotedTriple
    concept: str | None = None
    score: float | None = None
    reasoning: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.edge, QuotedTriple):
            raise InvalidEntity(f"EdgeSelection.edge: expected a QuotedTriple, got {type(self.edge).__name__}")
        object.__setattr__(self, "concept", _optional_text(self.concept, "EdgeSelection.concept"))
        object.__setattr__(self, "score", _score(self.score, "EdgeSelection.score"))
        object.__setattr__(self, "reasoning", _optional_text(self.reasoning, "EdgeSelection.reasoning"))

    @property
    def edge_id(self) -> str:
        """The selected statement's stable id (:func:`tgneo.uris.edge_id`)."""
        return uris.edge_id(self.edge.s, self.edge.p, self.edge.o)


@dataclass(frozen=True, kw_only=True)
class Focus(LlmStep):
    """The edges selected from the exploration as relevant (``focus_triples``).

    Attributes:
        exploration: The exploration it derives from.
        session_id: The session id, from which each selection's URI is minted.
        edges: The selections, in order; the ``i``-th is ``urn:trustgraph:prov:edge:{sid}:{i}``.
    """

    kind = "focus"

    exploration: str
    session_id: str
    edges: tuple[EdgeSelection, ...] = ()

    def __post_init__(self) -> None:
        super().__post_init__()
        self._iri("exploration")
        uris.validate_session_id(self.session_id, self._what("session_id"))
        edges = _sequence(self.edges, self._what("edges"))
        for i, edge in enumerate(edges):
            if not isinstance(edge, EdgeSelection):
                raise InvalidEntity(f"{self._what('edges')}[{i}]: expected an EdgeSelection")
        self._set("edges", edges)

    @property
    def parents(self) -> tuple[str, ...]:
        return (self.exploration,)

    @property
    def selection_uris(self) -> tuple[str, ...]:
        """The URIs of the ``tg:EdgeSelection`` nodes, in the order of :attr:`edges`."""
        return tuple(uris.edge_selection_uri(self.session_id, i) for i in range(len(self.edges)))

    def triples(self) -> list[Quad]:
        out = _Quads(self.graph)
        f = out.about(self.uri)
        f.a(PROV.Entity, TG.Focus)
        f.label("Focus")
        f.link(PROV.wasDerivedFrom, self.exploration)
        for selection_uri, selection in zip(self.selection_uris, self.edges, strict=True):
            f.link(TG.selectedEdge, selection_uri)
            es = out.about(selection_uri)
            es.a(TG.EdgeSelection)
            es.term(TG.edge, selection.edge)
            if selection.concept is not None:
                es.text(TG.concept, selection.concept)
            if selection.score is not None:
                es.text(TG.score, selection.score)
            if selection.reasoning is not None:
                es.text(TG.reasoning, selection.reasoning)
        self._usage(f)
        return out.quads


@dataclass(frozen=True, kw_only=True)
class Synthesis(LlmStep):
    """The GraphRAG answer (``synthesis_triples``); its text is the librarian ``document``.

    Attributes:
        focus: The focus it derives from.
        document: The librarian id of the answer text (``urn:trustgraph:synthesis:{sid}``).
    """

    kind = "synthesis"

    focus: str
    document: str | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        self._iri("focus")
        self._optional_iri("document")

    @property
    def parents(self) -> tuple[str, ...]:
        return (self.focus,)

    def triples(self) -> list[Quad]:
        out = _Quads(self.graph)
        s = out.about(self.uri)
        s.a(PROV.Entity, TG.Synthesis, TG.Answer)
        s.label("Synthesis")
        s.link(PROV.wasDerivedFrom, self.focus)
        if self.document is not None:
            s.link(TG.document, self.document)
        self._usage(s)
        return out.quads


# --------------------------------------------------------------------------------------------------
# Document RAG: Question ← Grounding ← Exploration ← Synthesis ; Exploration ← Focus (side branch)


@dataclass(frozen=True, kw_only=True)
class DocRagQuestion(Question):
    """A Document RAG question (``docrag_question_triples``): ``urn:trustgraph:docrag:{sid}``."""

    kind = "docrag_question"
    question_type = TG.DocRagQuestion
    question_label = "DocumentRAG Question"


@dataclass(frozen=True, kw_only=True)
class DocRagExploration(Entity):
    """The chunks retrieved for the concepts (``docrag_exploration_triples``).

    Attributes:
        grounding: The grounding it derives from.
        chunk_count: ``tg:chunkCount``.
        chunk_ids: The chunks' IRIs, one ``tg:selectedChunk`` each.
    """

    kind = "docrag_exploration"

    grounding: str
    chunk_count: int
    chunk_ids: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        super().__post_init__()
        self._iri("grounding")
        self._count("chunk_count")
        self._iris("chunk_ids")

    @property
    def parents(self) -> tuple[str, ...]:
        return (self.grounding,)

    def triples(self) -> list[Quad]:
        out = _Quads(self.graph)
        e = out.about(self.uri)
        e.a(PROV.Entity, TG.Exploration)
        e.label("Exploration")
        e.link(PROV.wasDerivedFrom, self.grounding)
        e.text(TG.chunkCount, self.chunk_count)
        for chunk_id in self.chunk_ids:
            e.link(TG.selectedChunk, chunk_id)
        return out.quads


@dataclass(frozen=True)
class ChunkSelection:
    """One chunk a reranker kept (a ``tg:ChunkSelection`` node, URI minted by its Focus).

    Attributes:
        chunk_id: The chunk's IRI (``tg:document``).
        score: The reranker's score (``tg:score "str(score)"``).
    """

    chunk_id: str
    score: float | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "chunk_id", uris.validate_iri(self.chunk_id, "ChunkSelection.chunk_id"))
        object.__setattr__(self, "score", _score(self.score, "ChunkSelection.score"))


@dataclass(frozen=True, kw_only=True)
class DocRagFocus(Entity):
    """The chunks kept after reranking (``docrag_chunk_selection_triples``); no token usage.

    Attributes:
        exploration: The exploration it derives from.
        session_id: The session id, from which each selection's URI is minted.
        chunks: The selections; the ``i``-th is ``urn:trustgraph:prov:chunk:{sid}:{i}``.
    """

    kind = "docrag_focus"

    exploration: str
    session_id: str
    chunks: tuple[ChunkSelection, ...] = ()

    def __post_init__(self) -> None:
        super().__post_init__()
        self._iri("exploration")
        uris.validate_session_id(self.session_id, self._what("session_id"))
        chunks = _sequence(self.chunks, self._what("chunks"))
        for i, chunk in enumerate(chunks):
            if not isinstance(chunk, ChunkSelection):
                raise InvalidEntity(f"{self._what('chunks')}[{i}]: expected a ChunkSelection")
        self._set("chunks", chunks)

    @property
    def parents(self) -> tuple[str, ...]:
        return (self.exploration,)

    @property
    def selection_uris(self) -> tuple[str, ...]:
        """The URIs of the ``tg:ChunkSelection`` nodes, in the order of :attr:`chunks`."""
        return tuple(uris.chunk_selection_uri(self.session_id, i) for i in range(len(self.chunks)))

    def triples(self) -> list[Quad]:
        out = _Quads(self.graph)
        f = out.about(self.uri)
        f.a(PROV.Entity, TG.Focus)
        f.label("Chunk Selection")
        f.link(PROV.wasDerivedFrom, self.exploration)
        for selection_uri, chunk in zip(self.selection_uris, self.chunks, strict=True):
            f.link(TG.selectedChunk, selection_uri)
            cs = out.about(selection_uri)
            cs.a(TG.ChunkSelection)
            cs.link(TG.document, chunk.chunk_id)
            if chunk.score is not None:
                cs.text(TG.score, chunk.score)
        return out.quads


@dataclass(frozen=True, kw_only=True)
class DocRagSynthesis(LlmStep):
    """The Document RAG answer (``docrag_synthesis_triples``).

    It derives from the **exploration**, not the focus: TrustGraph's trace reader looks for it
    there, so deriving it from the focus would hide the answer from ``tg-show-explain-trace``.

    Attributes:
        exploration: The exploration it derives from.
        document: The librarian id of the answer text (``urn:trustgraph:docrag:{sid}/answer``).
    """

    kind = "docrag_synthesis"

    exploration: str
    document: str | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        self._iri("exploration")
        self._optional_iri("document")

    @property
    def parents(self) -> tuple[str, ...]:
        return (self.exploration,)

    def triples(self) -> list[Quad]:
        out = _Quads(self.graph)
        s = out.about(self.uri)
        s.a(PROV.Entity, TG.Synthesis, TG.Answer)
        s.label("Synthesis")
        s.link(PROV.wasDerivedFrom, self.exploration)
        if self.document is not None:
            s.link(TG.document, self.document)
        self._usage(s)
        return out.quads


# --------------------------------------------------------------------------------------------------
# agent: ReAct, plan-then-execute, supervisor


@dataclass(frozen=True, kw_only=True)
class AgentQuestion(Question):
    """An agent session (``agent_session_triples``): ``urn:trustgraph:agent:{sid}``."""

    kind = "agent_question"
    question_type = TG.AgentQuestion
    question_label = "Agent Question"


@dataclass(frozen=True, kw_only=True)
class PatternDecision(Entity):
    """The router's choice of pattern (``agent_pattern_decision_triples``).

    Attributes:
        session: The agent session it derives from.
        pattern: ``"react"``, ``"plan-then-execute"`` or ``"supervisor"``.
        task_type: The task type the router recognised (``tg:taskType``), if any.
    """

    kind = "pattern_decision"

    session: str
    pattern: str
    task_type: str | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        self._iri("session")
        _text(self.pattern, self._what("pattern"))
        self._optional_text("task_type")

    @property
    def parents(self) -> tuple[str, ...]:
        return (self.session,)

    def triples(self) -> list[Quad]:
        out = _Quads(self.graph)
        d = out.about(self.uri)
        d.a(PROV.Entity, TG.PatternDecision)
        d.label(f"Pattern: {self.pattern}")
        d.text(TG.pattern, self.pattern)
        d.link(PROV.wasDerivedFrom, self.session)
        if self.task_type is not None:
            d.text(TG.taskType, self.task_type)
        return out.quads


@dataclass(frozen=True)
class Thought:
    """The reasoning behind an agent iteration (a ``tg:Thought`` inside its :class:`Analysis`).

    Attributes:
        uri: ``urn:trustgraph:agent:{sid}/i{n}/thought``.
        document: The librarian id of the thought's text.
    """

    uri: str
    document: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "uri", uris.validate_iri(self.uri, "Thought.uri"))
        object.__setattr__(self, "document", _optional_iri(self.document, "Thought.document"))


def _one_parent(entity: Entity, question: str | None, previous: str | None) -> None:
    """Check that exactly one of ``question`` / ``previous`` is given.

    TrustGraph links to the question if given, else to the previous step, else to nothing; a step
    with no parent would be an orphan no trace walk reaches, and one with both would silently drop
    a link, so both cases are refused.
    """
    if (question is None) == (previous is None):
        raise InvalidEntity(
            f"{type(entity).__name__}: give exactly one of 'question' (first step) or 'previous' (later steps)"
        )


@dataclass(frozen=True, kw_only=True)
class Analysis(LlmStep):
    """One think/act cycle of an agent: the tool it chose and why (``agent_iteration_triples``).

    Attributes:
        question: The session, for the first iteration (give this *or* ``previous``).
        previous: The previous iteration (or step) for later ones.
        action: The tool's name (``tg:action``; label ``"Analysis: {action}"``).
        arguments: The tool's arguments, JSON-encoded in ``tg:arguments`` in the given key order.
        thought: The reasoning sub-entity, if recorded.
        tool_candidates: The tools the LLM could choose from (``tg:toolCandidate``).
        step_number: ``tg:stepNumber``.
        llm_duration_ms: ``tg:llmDurationMs``.
    """

    kind = "analysis"

    question: str | None = None
    previous: str | None = None
    action: str
    arguments: dict[str, Any] = field(default_factory=dict, hash=False)
    thought: Thought | None = None
    tool_candidates: tuple[str, ...] = ()
    step_number: int | None = None
    llm_duration_ms: int | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        self._optional_iri("question")
        self._optional_iri("previous")
        _one_parent(self, self.question, self.previous)
        if not isinstance(self.action, str):
            raise InvalidEntity(f"{self._what('action')}: expected a string, got {self.action!r}")
        if not isinstance(self.arguments, Mapping):
            raise InvalidEntity(f"{self._what('arguments')}: expected a mapping, got {self.arguments!r}")
        arguments = dict(self.arguments)
        try:
            json.dumps(arguments)
        except (TypeError, ValueError) as e:
            raise InvalidEntity(f"{self._what('arguments')}: not JSON-serialisable ({e})") from None
        self._set("arguments", arguments)
        if self.thought is not None and not isinstance(self.thought, Thought):
            raise InvalidEntity(f"{self._what('thought')}: expected a Thought, got {self.thought!r}")
        self._texts("tool_candidates")
        self._optional_count("step_number")
        self._optional_count("llm_duration_ms")

    @property
    def parents(self) -> tuple[str, ...]:
        parent = self.question if self.question is not None else self.previous
        return () if parent is None else (parent,)

    def triples(self) -> list[Quad]:
        out = _Quads(self.graph)
        it = out.about(self.uri)
        it.a(PROV.Entity, TG.Analysis, TG.ToolUse)
        it.label(f"Analysis: {self.action}")
        it.text(TG.action, self.action)
        it.text(TG.arguments, json.dumps(self.arguments))
        for name in self.tool_candidates:
            it.text(TG.toolCandidate, name)
        if self.step_number is not None:
            it.text(TG.stepNumber, self.step_number)
        if self.llm_duration_ms is not None:
            it.text(TG.llmDurationMs, self.llm_duration_ms)
        it.link(PROV.wasDerivedFrom, self.parents[0])
        if self.thought is not None:
            it.link(TG.thought, self.thought.uri)
            th = out.about(self.thought.uri)
            th.a(TG.Reflection, TG.Thought)
            th.label("Thought")
            th.link(PROV.wasDerivedFrom, self.uri)
            if self.thought.document is not None:
                th.link(TG.document, self.thought.document)
        self._usage(it)
        return out.quads


@dataclass(frozen=True, kw_only=True)
class Observation(Entity):
    """What a tool returned (``agent_observation_triples``); a failed call is also a ``tg:Error``.

    Attributes:
        parent: The iteration that called the tool (or the sub-trace Synthesis of a RAG tool).
        document: The librarian id of the result text.
        tool_duration_ms: ``tg:toolDurationMs``.
        tool_error: The error message if the tool failed (adds ``a tg:Error``).
    """

    kind = "observation"

    parent: str
    document: str | None = None
    tool_duration_ms: int | None = None
    tool_error: str | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        self._iri("parent")
        self._optional_iri("document")
        self._optional_count("tool_duration_ms")
        self._optional_text("tool_error")

    @property
    def parents(self) -> tuple[str, ...]:
        return (self.parent,)

    def triples(self) -> list[Quad]:
        out = _Quads(self.graph)
        o = out.about(self.uri)
        o.a(PROV.Entity, TG.Observation)
        o.label("Observation")
        o.link(PROV.wasDerivedFrom, self.parent)
        if self.document is not None:
            o.link(TG.document, self.document)
        if self.tool_duration_ms is not None:
            o.text(TG.toolDurationMs, self.tool_duration_ms)
        if self.tool_error is not None:
            o.text(TG.toolError, self.tool_error)
            o.a(TG.Error)
        return out.quads


@dataclass(frozen=True, kw_only=True)
class Conclusion(LlmStep):
    """A ReAct agent's final answer (``agent_final_triples``).

    Attributes:
        question: The session, when the agent answered without iterating (give this *or* ``previous``).
        previous: The last iteration otherwise.
        document: The librarian id of the answer (``urn:trustgraph:agent:{sid}/answer``).
        termination_reason: Why the loop stopped: ``"final-answer"``, ``"max-iterations"``, ``"error"``.
    """

    kind = "conclusion"

    question: str | None = None
    previous: str | None = None
    document: str | None = None
    termination_reason: str | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        self._optional_iri("question")
        self._optional_iri("previous")
        _one_parent(self, self.question, self.previous)
        self._optional_iri("document")
        self._optional_text("termination_reason")

    @property
    def parents(self) -> tuple[str, ...]:
        parent = self.question if self.question is not None else self.previous
        return () if parent is None else (parent,)

    def triples(self) -> list[Quad]:
        out = _Quads(self.graph)
        c = out.about(self.uri)
        c.a(PROV.Entity, TG.Conclusion, TG.Answer)
        c.label("Conclusion")
        c.link(PROV.wasDerivedFrom, self.parents[0])
        if self.document is not None:
            c.link(TG.document, self.document)
        if self.termination_reason is not None:
            c.text(TG.terminationReason, self.termination_reason)
        self._usage(c)
        return out.quads


@dataclass(frozen=True, kw_only=True)
class Plan(LlmStep):
    """A plan-then-execute plan (``agent_plan_triples``).

    Attributes:
        session: The agent session it derives from.
        steps: The planned steps, one ``tg:planStep`` each.
    """

    kind = "plan"

    session: str
    steps: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        super().__post_init__()
        self._iri("session")
        self._texts("steps")

    @property
    def parents(self) -> tuple[str, ...]:
        return (self.session,)

    def triples(self) -> list[Quad]:
        out = _Quads(self.graph)
        p = out.about(self.uri)
        p.a(PROV.Entity, TG.Plan)
        p.label(f"Plan with {len(self.steps)} steps")
        p.link(PROV.wasDerivedFrom, self.session)
        for step in self.steps:
            p.text(TG.planStep, step)
        self._usage(p)
        return out.quads


@dataclass(frozen=True, kw_only=True)
class StepResult(LlmStep):
    """The result of one plan step (``agent_step_result_triples``).

    Attributes:
        plan: The plan it derives from.
        goal: The step's goal (``tg:planStep``; label ``"Step result: {goal[:60]}"``).
        document: The librarian id of the result text.
    """

    kind = "step_result"

    plan: str
    goal: str
    document: str | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        self._iri("plan")
        _text(self.goal, self._what("goal"))
        self._optional_iri("document")

    @property
    def parents(self) -> tuple[str, ...]:
        return (self.plan,)

    def triples(self) -> list[Quad]:
        out = _Quads(self.graph)
        r = out.about(self.uri)
        r.a(PROV.Entity, TG.StepResult, TG.Answer)
        r.label(f"Step result: {self.goal[:60]}")
        r.link(PROV.wasDerivedFrom, self.plan)
        r.text(TG.planStep, self.goal)
        if self.document is not None:
            r.link(TG.document, self.document)
        self._usage(r)
        return out.quads


@dataclass(frozen=True, kw_only=True)
class AgentSynthesis(LlmStep):
    """The answer of a supervisor or a plan, woven from several results (``agent_synthesis_triples``).

    Attributes:
        previous: The findings or step results it derives from (one ``prov:wasDerivedFrom`` each);
            a single URI string is accepted, as TrustGraph accepts it.
        document: The librarian id of the answer (``urn:trustgraph:agent:{sid}/answer``).
        termination_reason: Why the run stopped.
    """

    kind = "agent_synthesis"

    previous: tuple[str, ...]
    document: str | None = None
    termination_reason: str | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        if isinstance(self.previous, str):
            self._set("previous", (self.previous,))
        self._iris("previous")
        if not self.previous:
            raise InvalidEntity(f"{self._what('previous')}: needs at least one step to derive from")
        self._optional_iri("document")
        self._optional_text("termination_reason")

    @property
    def parents(self) -> tuple[str, ...]:
        return self.previous

    def triples(self) -> list[Quad]:
        out = _Quads(self.graph)
        s = out.about(self.uri)
        s.a(PROV.Entity, TG.Synthesis, TG.Answer)
        s.label("Synthesis")
        for previous in self.previous:
            s.link(PROV.wasDerivedFrom, previous)
        if self.document is not None:
            s.link(TG.document, self.document)
        if self.termination_reason is not None:
            s.text(TG.terminationReason, self.termination_reason)
        self._usage(s)
        return out.quads


@dataclass(frozen=True, kw_only=True)
class Decomposition(LlmStep):
    """A supervisor's split of the question into sub-goals (``agent_decomposition_triples``).

    Attributes:
        session: The agent session it derives from.
        goals: One ``tg:subagentGoal`` each; label ``"Decomposed into {n} research threads"``.
    """

    kind = "decomposition"

    session: str
    goals: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        super().__post_init__()
        self._iri("session")
        self._texts("goals")

    @property
    def parents(self) -> tuple[str, ...]:
        return (self.session,)

    def triples(self) -> list[Quad]:
        out = _Quads(self.graph)
        d = out.about(self.uri)
        d.a(PROV.Entity, TG.Decomposition)
        d.label(f"Decomposed into {len(self.goals)} research threads")
        d.link(PROV.wasDerivedFrom, self.session)
        for goal in self.goals:
            d.text(TG.subagentGoal, goal)
        self._usage(d)
        return out.quads


@dataclass(frozen=True, kw_only=True)
class Finding(Entity):
    """One sub-agent's result under a decomposition (``agent_finding_triples``); no token usage.

    Attributes:
        decomposition: The decomposition it derives from.
        goal: The sub-goal (``tg:subagentGoal``; label ``"Finding: {goal[:60]}"``).
        document: The librarian id of the finding's text.
    """

    kind = "finding"

    decomposition: str
    goal: str
    document: str | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        self._iri("decomposition")
        _text(self.goal, self._what("goal"))
        self._optional_iri("document")

    @property
    def parents(self) -> tuple[str, ...]:
        return (self.decomposition,)

    def triples(self) -> list[Quad]:
        out = _Quads(self.graph)
        f = out.about(self.uri)
        f.a(PROV.Entity, TG.Finding, TG.Answer)
        f.label(f"Finding: {self.goal[:60]}")
        f.link(PROV.wasDerivedFrom, self.decomposition)
        f.text(TG.subagentGoal, self.goal)
        if self.document is not None:
            f.link(TG.document, self.document)
        return out.quads


# --------------------------------------------------------------------------------------------------
# extraction time (urn:graph:source): Document ← Page/Section ← Chunk ← Subgraph


@dataclass(frozen=True)
class SoftwareAgent:
    """The component that ran an extraction (a ``prov:Agent``): ``https://trustgraph.ai/agent/{name}``."""

    component_name: str

    def __post_init__(self) -> None:
        _text(self.component_name, "SoftwareAgent.component_name")

    @property
    def uri(self) -> str:
        return uris.agent_uri(self.component_name)


@dataclass(frozen=True, kw_only=True)
class Activity:
    """One extraction run (a ``prov:Activity``), rendered inside the entity it generated.

    TrustGraph mints a fresh activity URI inside its builders; here it is a field (a fresh uuid4 by
    default) so that the same run can be written, re-read and compared.

    Attributes:
        component_name: The component, e.g. ``"chunker"`` (its agent and the label derive from it).
        component_version: ``tg:componentVersion``.
        uri: ``https://trustgraph.ai/activity/{uuid}``.
        timestamp: ``prov:startedAtTime``, stored in TrustGraph's UTC form.
    """

    component_name: str
    component_version: str
    uri: str = field(default_factory=uris.activity_uri)
    timestamp: str = field(default_factory=now_timestamp)

    def __post_init__(self) -> None:
        _text(self.component_name, "Activity.component_name")
        _text(self.component_version, "Activity.component_version")
        object.__setattr__(self, "uri", uris.validate_iri(self.uri, "Activity.uri"))
        object.__setattr__(self, "timestamp", _timestamp(self.timestamp, "Activity.timestamp"))

    @property
    def agent(self) -> SoftwareAgent:
        """The component as a ``prov:Agent``."""
        return SoftwareAgent(self.component_name)

    def _core(self, out: _Quads, used: str) -> _About:
        """The activity and agent block every extraction builder emits, in TrustGraph's order."""
        agent = self.agent
        act = out.about(self.uri)
        act.a(PROV.Activity)
        act.label(f"{self.component_name} extraction")
        act.link(PROV.used, used)
        act.link(PROV.wasAssociatedWith, agent.uri)
        act.text(PROV.startedAtTime, self.timestamp)
        act.text(TG.componentVersion, self.component_version)
        agt = out.about(agent.uri)
        agt.a(PROV.Agent)
        agt.label(self.component_name)
        return act


def _activity(entity: Entity, name: str) -> None:
    value = getattr(entity, name)
    if not isinstance(value, Activity):
        raise InvalidEntity(f"{entity._what(name)}: expected an Activity, got {type(value).__name__}")


@dataclass(frozen=True, kw_only=True)
class Document(Entity):
    """A source document (``document_triples``); its URI is the caller's own IRI.

    Attributes:
        title: ``dc:title`` and ``rdfs:label``.
        source: Where it came from, an IRI (``dc:source``).
        date: ``dc:date``.
        creator: ``dc:creator``.
        page_count: ``tg:pageCount``.
        mime_type: ``tg:mimeType``.
    """

    kind = "document"
    graph = GRAPH_SOURCE

    title: str | None = None
    source: str | None = None
    date: str | None = None
    creator: str | None = None
    page_count: int | None = None
    mime_type: str | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        self._optional_text("title")
        self._optional_iri("source")
        self._optional_text("date")
        self._optional_text("creator")
        self._optional_count("page_count")
        self._optional_text("mime_type")

    def triples(self) -> list[Quad]:
        out = _Quads(self.graph)
        d = out.about(self.uri)
        d.a(PROV.Entity, TG.Document)
        if self.title is not None:
            d.text(DC.title, self.title)
            d.label(self.title)
        if self.source is not None:
            d.link(DC.source, self.source)
        if self.date is not None:
            d.text(DC.date, self.date)
        if self.creator is not None:
            d.text(DC.creator, self.creator)
        if self.page_count is not None:
            d.text(TG.pageCount, self.page_count)
        if self.mime_type is not None:
            d.text(TG.mimeType, self.mime_type)
        return out.quads


@dataclass(frozen=True, kw_only=True)
class DerivedEntity(Entity):
    """A page, section, chunk or image cut from its parent (``derived_entity_triples``).

    Its class follows TrustGraph's precedence: ``image`` → ``tg:Image``, else ``section`` →
    ``tg:Section``, else a ``page_number`` → ``tg:Page``, else a ``chunk_index`` → ``tg:Chunk``
    (else only ``prov:Entity``). The activity that produced it, and that activity's agent, are
    emitted with it.

    Attributes:
        parent: The document, page or section it was cut from.
        activity: The extraction run (``prov:used`` the parent).
        label: ``rdfs:label``.
        page_number, chunk_index, char_offset, char_length: Position in the parent.
        section, image: Mark a section of a page-less format, or an image.
        chunk_size, chunk_overlap: The chunker's settings (on the *activity*).
        mime_type, element_types, table_count, image_count: What the decoder saw.
    """

    kind = "derived_entity"
    graph = GRAPH_SOURCE

    parent: str
    activity: Activity
    label: str | None = None
    page_number: int | None = None
    section: bool = False
    image: bool = False
    chunk_index: int | None = None
    char_offset: int | None = None
    char_length: int | None = None
    chunk_size: int | None = None
    chunk_overlap: int | None = None
    mime_type: str | None = None
    element_types: str | None = None
    table_count: int | None = None
    image_count: int | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        self._iri("parent")
        _activity(self, "activity")
        self._optional_text("label")
        for name in (
            "page_number",
            "chunk_index",
            "char_offset",
            "char_length",
            "chunk_size",
            "chunk_overlap",
            "table_count",
            "image_count",
        ):
            self._optional_count(name)
        for name in ("section", "image"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidEntity(f"{self._what(name)}: expected True or False")
        self._optional_text("mime_type")
        self._optional_text("element_types")

    @property
    def parents(self) -> tuple[str, ...]:
        return (self.parent,)

    @property
    def entity_type(self) -> URIRef | None:
        """``tg:Image``, ``tg:Section``, ``tg:Page`` or ``tg:Chunk``, by TrustGraph's precedence."""
        if self.image:
            return TG.Image
        if self.section:
            return TG.Section
        if self.page_number is not None:
            return TG.Page
        if self.chunk_index is not None:
            return TG.Chunk
        return None

    def triples(self) -> list[Quad]:
        out = _Quads(self.graph)
        e = out.about(self.uri)
        e.a(PROV.Entity)
        if self.entity_type is not None:
            e.a(self.entity_type)
        e.link(PROV.wasDerivedFrom, self.parent)
        e.link(PROV.wasGeneratedBy, self.activity.uri)
        act = self.activity._core(out, used=self.parent)
        if self.label is not None:
            e.label(self.label)
        for predicate, number in (
            (TG.pageNumber, self.page_number),
            (TG.chunkIndex, self.chunk_index),
            (TG.charOffset, self.char_offset),
            (TG.charLength, self.char_length),
        ):
            if number is not None:
                e.text(predicate, number)
        if self.chunk_size is not None:
            act.text(TG.chunkSize, self.chunk_size)
        if self.chunk_overlap is not None:
            act.text(TG.chunkOverlap, self.chunk_overlap)
        decoder: tuple[tuple[URIRef, object], ...] = (
            (TG.mimeType, self.mime_type),
            (TG.elementTypes, self.element_types),
            (TG.tableCount, self.table_count),
            (TG.imageCount, self.image_count),
        )
        for predicate, detail in decoder:
            if detail is not None:
                e.text(predicate, detail)
        return out.quads


@dataclass(frozen=True, kw_only=True)
class Subgraph(Entity):
    """The statements extracted from one chunk (``subgraph_provenance_triples``).

    Attributes:
        chunk: The chunk they were extracted from.
        activity: The extraction run (``prov:used`` the chunk).
        statements: The extracted statements, one ``tg:contains << s p o >>`` each, emitted first.
        llm_model: The extraction LLM (``tg:llmModel`` on the activity).
        ontology: The ontology IRI that guided extraction (``tg:ontology`` on the activity).
    """

    kind = "subgraph"
    graph = GRAPH_SOURCE

    chunk: str
    activity: Activity
    statements: tuple[QuotedTriple, ...] = ()
    llm_model: str | None = None
    ontology: str | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        self._iri("chunk")
        _activity(self, "activity")
        statements = _sequence(self.statements, self._what("statements"))
        for i, statement in enumerate(statements):
            if not isinstance(statement, QuotedTriple):
                raise InvalidEntity(f"{self._what('statements')}[{i}]: expected a QuotedTriple")
        self._set("statements", statements)
        self._optional_text("llm_model")
        self._optional_iri("ontology")

    @property
    def parents(self) -> tuple[str, ...]:
        return (self.chunk,)

    def triples(self) -> list[Quad]:
        out = _Quads(self.graph)
        sg = out.about(self.uri)
        for statement in self.statements:
            sg.term(TG.contains, statement)
        sg.a(PROV.Entity, TG.Subgraph)
        sg.link(PROV.wasDerivedFrom, self.chunk)
        sg.link(PROV.wasGeneratedBy, self.activity.uri)
        act = self.activity._core(out, used=self.chunk)
        if self.llm_model is not None:
            act.text(TG.llmModel, self.llm_model)
        if self.ontology is not None:
            act.link(TG.ontology, self.ontology)
        return out.quads


# --------------------------------------------------------------------------------------------------
# registry

ENTITY_TYPES: dict[str, type[Entity]] = {
    cls.kind: cls
    for cls in (
        GraphRagQuestion,
        Grounding,
        Exploration,
        Focus,
        Synthesis,
        DocRagQuestion,
        DocRagExploration,
        DocRagFocus,
        DocRagSynthesis,
        AgentQuestion,
        PatternDecision,
        Analysis,
        Observation,
        Conclusion,
        Plan,
        StepResult,
        AgentSynthesis,
        Decomposition,
        Finding,
        Document,
        DerivedEntity,
        Subgraph,
    )
}
"""Every concrete entity class by its ``kind``: the one table the recorder and the API consult."""


def entity_from_dict(kind: str, **fields: Any) -> Entity:
    """Build the entity of type ``kind`` from its fields (as an API payload or a stored row gives them).

    Args:
        kind: A key of :data:`ENTITY_TYPES`, e.g. ``"grounding"``.
        **fields: The dataclass's fields by name.

    Returns:
        The validated entity.

    Raises:
        InvalidEntity: ``kind`` is unknown, a field is unknown or missing, or a value is invalid.
    """
    cls = ENTITY_TYPES.get(kind)
    if cls is None:
        raise InvalidEntity(f"unknown entity type {kind!r}")
    declared = [f for f in dataclasses.fields(cls) if f.init]
    names = {f.name for f in declared}
    unknown = sorted(set(fields) - names)
    if unknown:
        raise InvalidEntity(f"{kind}: unknown field {unknown[0]!r} (fields: {', '.join(sorted(names))})")
    missing = [
        f.name
        for f in declared
        if f.name not in fields and f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    ]
    if missing:
        raise InvalidEntity(f"{kind}: missing field {missing[0]!r}")
    return cls(**fields)
