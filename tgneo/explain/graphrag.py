"""GraphRAG's steps: Question ← Grounding ← Exploration ← Focus ← Synthesis.

Each renders exactly the quads of TrustGraph 2.11.1's builder of the same name (``question_triples``,
``grounding_triples``, ``exploration_triples``, ``focus_triples``, ``synthesis_triples``). The
Focus keeps knowledge-graph edges, each an :class:`EdgeSelection` node pointing at its statement
with a quoted triple.
"""

from __future__ import annotations

from dataclasses import dataclass

from tgneo import uris
from tgneo.errors import InvalidEntity
from tgneo.explain.entity import (
    About,
    LlmStep,
    Quads,
    Question,
    Step,
    valid_optional_text,
    valid_score,
)
from tgneo.rdf.ntriples import edge_id
from tgneo.rdf.terms import QuotedTriple
from tgneo.vocab import PROV, TG

__all__ = ["EdgeSelection", "Exploration", "Focus", "GraphRagQuestion", "Grounding", "Synthesis"]


@dataclass(frozen=True, kw_only=True)
class GraphRagQuestion(Question):
    """A GraphRAG question (``question_triples``); its URI is ``urn:trustgraph:question:{sid}``."""

    kind = "question"
    rdf_types = (PROV.Entity, TG.Question, TG.GraphRagQuestion)
    rdfs_label = "GraphRAG Question"


@dataclass(frozen=True, kw_only=True)
class Grounding(LlmStep):
    """The concepts drawn from a question (``grounding_triples``).

    Document RAG records its grounding with this class too: TrustGraph 2.11.1 has no
    DocRAG-specific grounding builder (only a URI pattern, ``urn:trustgraph:docrag:{sid}/grounding``),
    so a DocRAG grounding is ``grounding_triples`` under that URI.

    Attributes:
        question: The question it derives from.
        concepts: One ``tg:concept`` literal each, in order.
    """

    kind = "grounding"
    rdf_types = (PROV.Entity, TG.Grounding)
    rdfs_label = "Grounding"
    derives_from = ("question",)

    question: str
    concepts: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        super().__post_init__()
        self._iri("question")
        self._texts("concepts")

    def _body(self, out: Quads, about: About) -> None:
        self._derived_from(about)
        for concept in self.concepts:
            about.text(TG.concept, concept)


@dataclass(frozen=True, kw_only=True)
class Exploration(Step):
    """The knowledge-graph neighbourhood retrieved for the concepts (``exploration_triples``).

    Attributes:
        grounding: The grounding it derives from.
        edge_count: ``tg:edgeCount`` (TrustGraph's server reports the number of edges selected).
        entities: The seed entities' IRIs, one ``tg:entity`` each.
    """

    kind = "exploration"
    rdf_types = (PROV.Entity, TG.Exploration)
    rdfs_label = "Exploration"
    derives_from = ("grounding",)

    grounding: str
    edge_count: int
    entities: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        super().__post_init__()
        self._iri("grounding")
        self._count("edge_count")
        self._iris("entities")

    def _body(self, out: Quads, about: About) -> None:
        self._derived_from(about)
        about.text(TG.edgeCount, self.edge_count)
        for entity in self.entities:
            about.link(TG.entity, entity)


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
        object.__setattr__(self, "concept", valid_optional_text(self.concept, "EdgeSelection.concept"))
        object.__setattr__(self, "score", valid_score(self.score, "EdgeSelection.score"))
        object.__setattr__(self, "reasoning", valid_optional_text(self.reasoning, "EdgeSelection.reasoning"))

    @property
    def edge_id(self) -> str:
        """The selected statement's stable id (:func:`tgneo.rdf.ntriples.edge_id`)."""
        return edge_id(self.edge.s, self.edge.p, self.edge.o)


@dataclass(frozen=True, kw_only=True)
class Focus(LlmStep):
    """The edges selected from the exploration as relevant (``focus_triples``).

    Attributes:
        exploration: The exploration it derives from.
        session_id: The session id, from which each selection's URI is minted.
        edges: The selections, in order; the ``i``-th is ``urn:trustgraph:prov:edge:{sid}:{i}``.
    """

    kind = "focus"
    rdf_types = (PROV.Entity, TG.Focus)
    rdfs_label = "Focus"
    derives_from = ("exploration",)

    exploration: str
    session_id: str
    edges: tuple[EdgeSelection, ...] = ()

    def __post_init__(self) -> None:
        super().__post_init__()
        self._iri("exploration")
        uris.validate_session_id(self.session_id, self._what("session_id"))
        self._instances("edges", EdgeSelection)

    @property
    def selection_uris(self) -> tuple[str, ...]:
        """The URIs of the ``tg:EdgeSelection`` nodes, in the order of :attr:`edges`."""
        return tuple(uris.edge_selection_uri(self.session_id, i) for i in range(len(self.edges)))

    def _body(self, out: Quads, about: About) -> None:
        self._derived_from(about)
        for selection_uri, selection in zip(self.selection_uris, self.edges, strict=True):
            about.link(TG.selectedEdge, selection_uri)
            es = out.about(selection_uri)
            es.a(TG.EdgeSelection)
            es.term(TG.edge, selection.edge)
            if selection.concept is not None:
                es.text(TG.concept, selection.concept)
            if selection.score is not None:
                es.text(TG.score, selection.score)
            if selection.reasoning is not None:
                es.text(TG.reasoning, selection.reasoning)


@dataclass(frozen=True, kw_only=True)
class Synthesis(LlmStep):
    """The GraphRAG answer (``synthesis_triples``); its text is the librarian ``document``.

    Attributes:
        focus: The focus it derives from.
        document: The librarian id of the answer text (``urn:trustgraph:synthesis:{sid}``).
    """

    kind = "synthesis"
    rdf_types = (PROV.Entity, TG.Synthesis, TG.Answer)
    rdfs_label = "Synthesis"
    derives_from = ("focus",)

    focus: str
    document: str | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        self._iri("focus")
        self._optional_iri("document")

    def _body(self, out: Quads, about: About) -> None:
        self._derived_from(about)
        if self.document is not None:
            about.link(TG.document, self.document)
