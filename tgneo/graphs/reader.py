"""What the engines read a knowledge graph through: the :class:`GraphReader` protocol both readers implement."""

from __future__ import annotations

import typing
from collections.abc import Sequence
from typing import Protocol

from tgneo.store.kg import AnswerSources, ChunkHit, Edge, EvidenceRow, Seed

Reads = typing.Literal["entities", "chunks", "any"]


class GraphReader(Protocol):
    """What the engines read a knowledge graph through: tgneo's own (:class:`~tgneo.graphs.own.OwnGraph`) or
    another tool's through a graph profile (:class:`~tgneo.graphs.profile.ProfileGraph`). One reader serves one
    question and its sub-traces, in one workspace and collection."""

    def require_content(self, reads: Reads = "any") -> None:
        """Refuse the question, before anything is recorded, when there is nothing to answer from (or no way
        to search what the engine ``reads`` first)."""

    def seed_entities(
        self, concepts: Sequence[str], vectors: Sequence[list[float]] | None, per_concept: int, total: int
    ) -> list[Seed]:
        """As :func:`seed_entities`."""

    def explore(
        self, seeds: Sequence[str], max_path_length: int, per_entity: int, max_edges: int, words: Sequence[str] = ()
    ) -> list[Edge]:
        """As :func:`explore`."""

    def search_chunks(
        self,
        concepts: Sequence[str],
        vectors: Sequence[list[float]],
        question: str,
        question_vector: list[float],
        per_concept: int,
    ) -> list[ChunkHit]:
        """As :func:`search_chunks` (``concepts`` and ``question`` serve a reader that has only full text)."""

    def chunk(self, ident: str) -> str | None:
        """The IRI of the chunk ``ident`` names in this graph (a chunk URI, or their chunk's element id), if any:
        how a passage another retriever found is placed in the trace."""

    def answer_sources(self, rows: Sequence[EvidenceRow]) -> AnswerSources:
        """As :func:`answer_sources`."""

    def take_warnings(self) -> list[str]:
        """What the reader warned of since the last call (a fallback: which way it found what, and why), each once:
        the engine streams each as a warning event, on every road."""
