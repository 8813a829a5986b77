"""Retrieval hits: why an Exploration found each item — which index found it, at which rank (tgneo's own).

Hybrid retrieval reads two lists, the vector index's (ranked by similarity to the question) and the full-text
index's (ranked by Lucene's score), and fuses them by reciprocal rank: chunks for Document RAG
(:func:`tgneo.store.kg.fuse`), seed entities for GraphRAG (:func:`tgneo.store.kg.fuse_seeds`).
TrustGraph's Exploration names the chunks or entities it found (``tg:selectedChunk``, ``tg:entity``) but not
why; tgneo attaches one ``tgneo:RetrievalHit`` per item to it (``tgneo:hit``), with the item
(``tgneo:retrieved``), its rank in each
list that found it and its score there, and its fused rank and score. A hit without ``tgneo:vectorRank`` was
found by its words alone; one without ``tgneo:textRank`` by its meaning alone.

Like answer sentences they are written in the Exploration's transaction but never streamed in its triples, and
only the ``prov`` profile exports them: the ``trustgraph`` profile stays exactly TrustGraph's triples.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from tgneo.errors import InvalidEntity
from tgneo.explain.entity import Entity, Quads, valid_score
from tgneo.rdf.terms import Quad
from tgneo.vocab import PROV, TGNEO

__all__ = ["Found", "RetrievalHit", "retrieval_hit_uri", "retrieval_hits"]


def retrieval_hit_uri(exploration: str, rank: int) -> str:
    """``{exploration}/hit/{rank}``: the item the Exploration ``exploration`` ranked ``rank``-th (1-based)."""
    return f"{exploration}/hit/{rank}"


@dataclass(frozen=True, kw_only=True)
class RetrievalHit(Entity):
    """How one item was found.

    Attributes:
        exploration: The Exploration that found it.
        item: The item's IRI (a chunk, or a seed entity of GraphRAG).
        rank: Its 1-based rank after fusion.
        fused: Its reciprocal-rank-fusion score.
        vector_rank, vector_score: Its rank and similarity in the vector list (``None``: not found there).
        text_rank, text_score: Its rank and Lucene score in the full-text list (``None``: not found there).
    """

    kind = "retrieval_hit"

    exploration: str
    item: str
    rank: int
    fused: float
    vector_rank: int | None = None
    vector_score: float | None = None
    text_rank: int | None = None
    text_score: float | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        self._iri("exploration")
        self._iri("item")
        self._count("rank")
        self._set("fused", valid_score(self.fused, self._what("fused")))
        self._optional_count("vector_rank")
        self._optional_count("text_rank")
        for name in ("vector_score", "text_score"):
            self._set(name, valid_score(getattr(self, name), self._what(name)))
        if self.vector_rank is None and self.text_rank is None:
            raise InvalidEntity(f"{self._what('rank')}: a hit is found by the vector list, the full-text list or both")

    def triples(self) -> list[Quad]:
        out = Quads(self.graph)
        out.about(self.exploration).link(TGNEO.hit, self.uri)
        me = out.about(self.uri)
        me.a(PROV.Entity, TGNEO.RetrievalHit)
        me.link(TGNEO.retrieved, self.item)
        me.text(TGNEO.rank, self.rank)
        me.text(TGNEO.fusedScore, self.fused)
        for term, value in ((TGNEO.vectorRank, self.vector_rank), (TGNEO.vectorScore, self.vector_score),
                            (TGNEO.textRank, self.text_rank), (TGNEO.textScore, self.text_score)):  # fmt: skip
            if value is not None:
                me.text(term, value)
        return out.quads


class Found(Protocol):
    """An item a hybrid retrieval found and ranked (:class:`tgneo.store.kg.ChunkHit`, :class:`tgneo.store.kg.Seed`)."""

    @property
    def uri(self) -> str: ...
    @property
    def fused(self) -> float: ...
    @property
    def vector_rank(self) -> int | None: ...
    @property
    def vector_similarity(self) -> float | None: ...
    @property
    def text_rank(self) -> int | None: ...
    @property
    def text_score(self) -> float | None: ...


def retrieval_hits(exploration: str, found: Sequence[Found]) -> list[RetrievalHit]:
    """One hit per item of ``found``, in its order (rank 1 first), for the Exploration ``exploration``."""
    return [
        RetrievalHit(
            uri=retrieval_hit_uri(exploration, rank), exploration=exploration, item=f.uri, rank=rank,
            fused=round(f.fused, 6), vector_rank=f.vector_rank, text_rank=f.text_rank,
            vector_score=None if f.vector_similarity is None else round(f.vector_similarity, 4),
            text_score=None if f.text_score is None else round(f.text_score, 4),
        )
        for rank, f in enumerate(found, start=1)
    ]  # fmt: skip
