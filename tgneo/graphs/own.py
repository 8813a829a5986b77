"""tgneo's own knowledge graph and documents as the engines read them: :mod:`tgneo.store.kg`'s functions."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tgneo.graphs.reader import Reads
from tgneo.store.collections import require_content
from tgneo.store.driver import Store
from tgneo.store.kg import (
    AnswerSources,
    ChunkHit,
    Edge,
    EvidenceRow,
    Seed,
    answer_sources,
    explore,
    search_chunks,
    seed_entities,
)
from tgneo.store.search import chunk_exists


@dataclass(frozen=True)
class OwnGraph:
    """The engines' reader over tgneo's own knowledge graph and documents: :mod:`tgneo.store.kg`'s functions."""

    store: Store
    workspace: str
    collection: str

    def require_content(self, reads: Reads = "any") -> None:
        require_content(self.store, self.workspace, self.collection)

    def seed_entities(
        self, concepts: Sequence[str], vectors: Sequence[list[float]] | None, per_concept: int, total: int
    ) -> list[Seed]:
        return seed_entities(self.store, self.workspace, self.collection, concepts, vectors, per_concept, total)

    def explore(
        self, seeds: Sequence[str], max_path_length: int, per_entity: int, max_edges: int, words: Sequence[str] = ()
    ) -> list[Edge]:
        return explore(self.store, self.workspace, self.collection, seeds, max_path_length, per_entity, max_edges,
                       words)  # fmt: skip

    def search_chunks(
        self,
        concepts: Sequence[str],
        vectors: Sequence[list[float]],
        question: str,
        question_vector: list[float],
        per_concept: int,
    ) -> list[ChunkHit]:
        return search_chunks(
            self.store, self.workspace, self.collection, vectors, question_vector, per_concept, question
        )

    def chunk(self, ident: str) -> str | None:
        return ident if chunk_exists(self.store, self.workspace, self.collection, ident) else None

    def answer_sources(self, rows: Sequence[EvidenceRow]) -> AnswerSources:
        return answer_sources(self.store, self.workspace, self.collection, rows)

    def take_warnings(self) -> list[str]:
        return []  # tgneo's own graph has its own indexes: no fallback to warn of
