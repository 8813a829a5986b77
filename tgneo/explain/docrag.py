"""Document RAG's steps: Question ← Grounding ← Exploration ← Synthesis, and Exploration ← Focus.

Each renders exactly the quads of TrustGraph 2.11.1's ``docrag_*_triples`` builder of the same step.
The grounding is GraphRAG's :class:`~tgneo.explain.graphrag.Grounding` (TrustGraph has no
DocRAG-specific one). The Focus is a side branch: it keeps the reranked chunks, each a
:class:`ChunkSelection` node, while the Synthesis derives from the Exploration.
"""

from __future__ import annotations

from dataclasses import dataclass

from tgneo import uris
from tgneo.explain.entity import About, LlmStep, Quads, Question, Step, valid_score
from tgneo.vocab import PROV, TG

__all__ = ["ChunkSelection", "DocRagExploration", "DocRagFocus", "DocRagQuestion", "DocRagSynthesis"]


@dataclass(frozen=True, kw_only=True)
class DocRagQuestion(Question):
    """A Document RAG question (``docrag_question_triples``): ``urn:trustgraph:docrag:{sid}``."""

    kind = "docrag_question"
    rdf_types = (PROV.Entity, TG.Question, TG.DocRagQuestion)
    rdfs_label = "DocumentRAG Question"


@dataclass(frozen=True, kw_only=True)
class DocRagExploration(Step):
    """The chunks retrieved for the concepts (``docrag_exploration_triples``).

    Attributes:
        grounding: The grounding it derives from.
        chunk_count: ``tg:chunkCount``.
        chunk_ids: The chunks' IRIs, one ``tg:selectedChunk`` each.
    """

    kind = "docrag_exploration"
    rdf_types = (PROV.Entity, TG.Exploration)
    rdfs_label = "Exploration"
    derives_from = ("grounding",)

    grounding: str
    chunk_count: int
    chunk_ids: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        super().__post_init__()
        self._iri("grounding")
        self._count("chunk_count")
        self._iris("chunk_ids")

    def _body(self, out: Quads, about: About) -> None:
        self._derived_from(about)
        about.text(TG.chunkCount, self.chunk_count)
        for chunk_id in self.chunk_ids:
            about.link(TG.selectedChunk, chunk_id)


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
        object.__setattr__(self, "score", valid_score(self.score, "ChunkSelection.score"))


@dataclass(frozen=True, kw_only=True)
class DocRagFocus(Step):
    """The chunks kept after reranking (``docrag_chunk_selection_triples``); no token usage.

    Attributes:
        exploration: The exploration it derives from.
        session_id: The session id, from which each selection's URI is minted.
        chunks: The selections; the ``i``-th is ``urn:trustgraph:prov:chunk:{sid}:{i}``.
    """

    kind = "docrag_focus"
    rdf_types = (PROV.Entity, TG.Focus)
    rdfs_label = "Chunk Selection"
    derives_from = ("exploration",)

    exploration: str
    session_id: str
    chunks: tuple[ChunkSelection, ...] = ()

    def __post_init__(self) -> None:
        super().__post_init__()
        self._iri("exploration")
        uris.validate_session_id(self.session_id, self._what("session_id"))
        self._instances("chunks", ChunkSelection)

    @property
    def selection_uris(self) -> tuple[str, ...]:
        """The URIs of the ``tg:ChunkSelection`` nodes, in the order of :attr:`chunks`."""
        return tuple(uris.chunk_selection_uri(self.session_id, i) for i in range(len(self.chunks)))

    def _body(self, out: Quads, about: About) -> None:
        self._derived_from(about)
        for selection_uri, chunk in zip(self.selection_uris, self.chunks, strict=True):
            about.link(TG.selectedChunk, selection_uri)
            cs = out.about(selection_uri)
            cs.a(TG.ChunkSelection)
            cs.link(TG.document, chunk.chunk_id)
            if chunk.score is not None:
                cs.text(TG.score, chunk.score)


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
    rdf_types = (PROV.Entity, TG.Synthesis, TG.Answer)
    rdfs_label = "Synthesis"
    derives_from = ("exploration",)

    exploration: str
    document: str | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        self._iri("exploration")
        self._optional_iri("document")

    def _body(self, out: Quads, about: About) -> None:
        self._derived_from(about)
        if self.document is not None:
            about.link(TG.document, self.document)
