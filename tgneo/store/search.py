"""Retrieval for the engines: knowledge-graph entities by name or by vector, chunks by vector.

Every function answers for one workspace and collection. Neo4j's full-text and vector indexes span
the whole database, so each query reads more hits than asked for (``fetch``) and keeps this
collection's: for full text the read grows (×4) until ``limit`` matches are found or the index has
no more; for vectors, when the first read is not enough, the query vector is compared with every
embedded node of the collection instead (exact, and bounded by the collection's size rather than the
database's). Either way ``limit`` results come back whenever the collection has them, and never one
of another collection.

Scores: full text gives Lucene's relevance (unbounded, higher is better); vectors give Neo4j's
cosine similarity mapped to ``[0, 1]`` (``(1 + cos) / 2``; 1 is the same direction).

A query vector must come from the model the collection was embedded with: vectors of another model
(another length, or another name) raise :class:`~tgneo.errors.EmbeddingMismatch` instead of giving
nonsense. A search that finds nothing in a collection that holds nothing raises
:class:`~tgneo.errors.EmptyCollection`; in one that has content but no index over it,
:class:`~tgneo.errors.NotIndexed` (``tgneo load index`` builds it).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tgneo.errors import BadRequest, EmbeddingMismatch, EmptyCollection, NotIndexed
from tgneo.native import STRUCTURE_KEYS
from tgneo.scope import check_scope
from tgneo.store.driver import Store
from tgneo.store.queries import Q
from tgneo.store.schema import CHUNK_VECTOR_INDEX, ENTITY_NAME_INDEX, ENTITY_VECTOR_INDEX, vector_index_dimensions

__all__ = [
    "ChunkMatch",
    "CollectionStatus",
    "EntityMatch",
    "chunk_exists",
    "chunks_by_vector",
    "collection_status",
    "entities_by_text",
    "entities_by_vector",
    "lucene_query",
]

_FIRST_FETCH = 100
_OVERFETCH = 10
_LUCENE_SPECIAL = re.compile(r'([+\-&|!(){}\[\]^"~*?:\\/])')
_OPERATORS = re.compile(r"\b(AND|OR|NOT|TO)\b")


def smallest_name(name: object) -> str:
    """An entity's name as a reader sees it: its ``name`` (``rdfs:label``), the smallest when it has several."""
    if isinstance(name, list):
        return min((str(n) for n in name), default="")
    return "" if name is None else str(name)


@dataclass(frozen=True)
class EntityMatch:
    """A knowledge-graph entity: its IRI, its name (smallest ``rdfs:label``), and how well it matched."""

    uri: str
    name: str
    score: float


@dataclass(frozen=True)
class ChunkMatch:
    """A chunk: its URI (``urn:chunk:…``), its text, how well it matched, and its document's URI."""

    uri: str
    text: str
    score: float
    document: str | None


@dataclass(frozen=True)
class CollectionStatus:
    """What a collection holds for search (see ``cypher/collection_status.cypher``)."""

    documents: int
    chunks: int
    chunks_with_text: int
    embedded_chunks: int
    statements: int
    named_entities: int
    embedded_entities: int

    @property
    def empty(self) -> bool:
        return self.documents == 0 and self.chunks == 0 and self.statements == 0


def collection_status(store: Store, workspace: str, collection: str) -> CollectionStatus:
    """Counts of what ``workspace``/``collection`` holds (one scan of the collection)."""
    check_scope(workspace, collection)
    record = store.read(Q.collection_status, workspace=workspace, reserved=STRUCTURE_KEYS, collection=collection)[0]
    return CollectionStatus(**{name: int(record[name] or 0) for name in CollectionStatus.__dataclass_fields__})


def chunk_exists(store: Store, workspace: str, collection: str, uri: str) -> bool:
    """Whether ``workspace``/``collection`` holds a chunk of this URI."""
    return bool(store.read(Q.chunk_exists, workspace=workspace, collection=collection, uri=uri)[0]["found"])


def lucene_query(text: str) -> str:
    """``text`` as a Lucene query matching any of its words: special characters escaped, operators lower-cased."""
    escaped = _LUCENE_SPECIAL.sub(r"\\\1", " ".join(text.split()))
    return _OPERATORS.sub(lambda m: m.group(1).lower(), escaped)


def _scope(workspace: str, collection: str) -> str:
    return f"workspace {workspace!r}, collection {collection!r}"


def _limit(limit: int) -> int:
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
        raise BadRequest(f"limit must be a whole number of at least 1, not {limit!r}")
    return limit


def _explain_nothing(store: Store, workspace: str, collection: str, what: str) -> None:
    """Raise why a search found nothing when the reason is the collection, not the query."""
    status = collection_status(store, workspace, collection)
    scope = _scope(workspace, collection)
    if status.empty:
        raise EmptyCollection(
            f"{scope} holds no documents: load some with `tgneo load documents PATH` or `tgneo load sample`"
        )
    if what == "chunks" and status.chunks == 0:
        raise EmptyCollection(f"{scope} holds no document chunks (only a knowledge graph): load documents to search")
    if what == "chunks" and status.chunks_with_text == 0:
        raise NotIndexed(f"{scope} has {status.chunks} chunks but none has its text in the librarian to embed")
    indexed = {"chunks": status.embedded_chunks, "entities": status.named_entities,
               "entity embeddings": status.embedded_entities}[what]  # fmt: skip
    if indexed == 0:
        have = f"{status.chunks} chunks" if what == "chunks" else f"{status.statements} statements"
        raise NotIndexed(f"{scope} has {have} but no {what} indexed for search: run `tgneo load index`")


def entities_by_text(store: Store, workspace: str, collection: str, text: str, limit: int = 10) -> list[EntityMatch]:
    """Entities whose name matches any word of ``text`` (full text; Lucene syntax in ``text`` is escaped).

    Returns:
        Up to ``limit`` matches, best first (an empty list when ``text`` has no words or nothing matches).

    Raises:
        EmptyCollection: the collection holds no documents and no knowledge graph.
        NotIndexed: it has statements but no entity names yet.
    """
    check_scope(workspace, collection)
    limit = _limit(limit)
    query = lucene_query(text)
    if not re.search(r"\w", query):
        return []
    fetch = max(_FIRST_FETCH, limit * _OVERFETCH)
    while True:
        record = store.read(Q.entities_by_text, index=ENTITY_NAME_INDEX, terms=query, fetch=fetch,
                            workspace=workspace, collection=collection, limit=limit,
                            reserved=STRUCTURE_KEYS)[0]  # fmt: skip
        matches = record["matches"]
        if len(matches) >= limit or record["fetched"] < fetch:
            break
        fetch *= 4
    if not matches:
        _explain_nothing(store, workspace, collection, "entities")
    return [EntityMatch(m["uri"], smallest_name(m["name"]), float(m["score"])) for m in matches]


def _check_vector(store: Store, index: str, vector: Sequence[float], model: str) -> list[float]:
    """The query vector as floats, refused when the index holds vectors of another length."""
    if not isinstance(model, str) or not model:
        raise BadRequest("model must name the embedding model the query vector comes from")
    values = [float(v) for v in vector]
    if not values or not all(math.isfinite(v) for v in values):
        raise BadRequest("the query vector must be a non-empty list of finite numbers")
    dimensions = vector_index_dimensions(store).get(index)
    if dimensions is None:
        raise NotIndexed(f"the vector index {index} does not exist yet: run `tgneo load index` (or load documents)")
    if dimensions != len(values):
        raise EmbeddingMismatch(
            f"the query vector has {len(values)} dimensions, but {index} holds {dimensions}-dimensional embeddings: "
            f"ask with the embedding model the collection was loaded with (not {model}), or embed every collection "
            f"again with {model}: tgneo load index --reembed --all-collections"
        )
    return values


def _check_models(matches: Sequence[Mapping[str, Any]], model: str, workspace: str, collection: str) -> None:
    others = sorted({m["model"] for m in matches if m["model"] != model})
    if others:
        raise EmbeddingMismatch(
            f"{_scope(workspace, collection)} is embedded with {', '.join(others)}, but the query vector comes "
            f"from {model}: scores across two models mean nothing; ask with {others[0]}, or embed every collection "
            f"again with {model}: tgneo load index --reembed --all-collections"
        )


def _nearest(
    store: Store, workspace: str, collection: str, vector: Sequence[float], limit: int, model: str, what: str
) -> list[Mapping[str, Any]]:
    """The nearest rows by the shared index, else exactly within the collection (module docstring)."""
    check_scope(workspace, collection)
    limit = _limit(limit)
    index, indexed, exact = (
        (CHUNK_VECTOR_INDEX, Q.chunks_by_vector, Q.chunks_by_vector_exact)
        if what == "chunks"
        else (ENTITY_VECTOR_INDEX, Q.entities_by_vector, Q.entities_by_vector_exact)
    )
    values = _check_vector(store, index, vector, model)
    if not any(values):
        return []  # a zero vector (a text with no words) is near nothing
    scope = {"workspace": workspace, "collection": collection}
    fetch = max(_FIRST_FETCH, limit * _OVERFETCH)
    record = store.read(indexed, index=index, vector=values, fetch=fetch, limit=limit, **scope)[0]
    matches: list[Mapping[str, Any]] = list(record["matches"])
    if len(matches) < limit and record["fetched"] >= fetch:
        matches = list(store.read(exact, vector=values, limit=limit, **scope))
    _check_models(matches, model, workspace, collection)
    if not matches:
        _explain_nothing(store, workspace, collection, "chunks" if what == "chunks" else "entity embeddings")
    return matches


def entities_by_vector(
    store: Store, workspace: str, collection: str, vector: Sequence[float], limit: int = 10, *, model: str
) -> list[EntityMatch]:
    """Entities whose name's embedding is nearest to ``vector`` (cosine), best first.

    Args:
        vector: The query's embedding, from ``llm.embed([text]).vectors[0]``.
        model: The embedding model it comes from (``Embeddings.model``); it must be the collection's.

    Raises:
        EmbeddingMismatch: ``vector`` is of another length than the index's, or the collection was
            embedded with another model.
        EmptyCollection, NotIndexed: as :func:`entities_by_text`.
    """
    rows = _nearest(store, workspace, collection, vector, limit, model, "entities")
    return [EntityMatch(r["uri"], smallest_name(r["name"]), float(r["score"])) for r in rows]


def chunks_by_vector(
    store: Store, workspace: str, collection: str, vector: Sequence[float], limit: int = 10, *, model: str
) -> list[ChunkMatch]:
    """Chunks whose text's embedding is nearest to ``vector`` (cosine), best first, with their text.

    Raises:
        EmbeddingMismatch: as :func:`entities_by_vector`.
        EmptyCollection: the collection holds no documents.
        NotIndexed: it has chunks but none is embedded.
    """
    rows = _nearest(store, workspace, collection, vector, limit, model, "chunks")
    return [ChunkMatch(r["uri"], r["text"] or "", float(r["score"]), r["document"]) for r in rows]
