"""What the search indexes read: entity names, embeddings and the model that made them.

A node's ``embedding`` is stored with ``embeddedWith``, the embedding model's name, because vectors of
two models are not comparable: the loaders refuse to add vectors of a second model to a collection
(:func:`check_model`), and the search functions refuse a query vector of another model. Neither
property name is in the RDF mapping table, so neither leaks into RDF exports.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tgneo.errors import EmbeddingMismatch
from tgneo.native import STRUCTURE_KEYS
from tgneo.scope import check_scope
from tgneo.store.driver import Store
from tgneo.store.queries import Q

__all__ = [
    "ChunkVector",
    "EntityVector",
    "check_model",
    "check_query_model",
    "drop_embeddings",
    "embedding_models",
    "foreign_embedded_collections",
    "every_collection",
    "ForeignEmbeddings",
    "set_embeddings",
    "unindexed_chunks",
    "unindexed_entities",
    "vector_rows",
]

Vector = list[float] | None


@dataclass(frozen=True)
class ChunkVector:
    """A chunk's embedding (``None`` for a text with no words: a zero vector has no direction)."""

    uri: str
    embedding: Vector


@dataclass(frozen=True)
class EntityVector:
    """An entity's name (the smallest of its labels the loader read) and the embedding of that name."""

    uri: str
    name: str
    embedding: Vector


def vector_rows(chunks: Sequence[ChunkVector], entities: Sequence[EntityVector]) -> dict[str, list[dict[str, object]]]:
    """The ``$chunks`` and ``$entities`` parameters of ``set_embeddings`` (sorted: one lock order)."""
    return {
        "chunks": [{"uri": c.uri, "embedding": c.embedding} for c in sorted(chunks, key=lambda c: c.uri)],
        "entities": [
            {"uri": e.uri, "name": e.name, "embedding": e.embedding} for e in sorted(entities, key=lambda e: e.uri)
        ],
    }


def embedding_models(store: Store, workspace: str, collection: str) -> list[str]:
    """The embedding models the collection's nodes were embedded with (normally one, or none yet)."""
    check_scope(workspace, collection)
    return [r["model"] for r in store.read(Q.embedding_models, workspace=workspace, collection=collection)]


def _mismatch(workspace: str, collection: str, others: Sequence[str], model: str) -> EmbeddingMismatch:
    return EmbeddingMismatch(
        f"workspace {workspace!r}, collection {collection!r} is embedded with {', '.join(others)}, but the "
        f"configured embedding model is {model}; vectors of two models cannot be compared. Use the same "
        f"model (TGNEO_LLM, TGNEO_EMBEDDING_MODEL), another collection, or re-embed this one with {model}: "
        f"tgneo load index --reembed --workspace {workspace} --collection {collection}"
    )


def check_model(store: Store, workspace: str, collection: str, model: str) -> None:
    """Refuse to embed with ``model`` a collection embedded with another model.

    Raises:
        EmbeddingMismatch: the collection already holds vectors of another model.
    """
    others = [m for m in embedding_models(store, workspace, collection) if m != model]
    if others:
        raise _mismatch(workspace, collection, others, model)


def check_query_model(store: Store, workspace: str, collection: str, model: str) -> None:
    """Refuse to search a collection with query vectors of ``model`` when its vectors were made by another.

    One read that stops at the first foreign vector (cheaper than listing every model the collection has).

    Raises:
        EmbeddingMismatch: the collection holds vectors of another model.
    """
    check_scope(workspace, collection)
    found = store.read(Q.foreign_embedding, workspace=workspace, collection=collection, model=model)
    if found:
        raise _mismatch(workspace, collection, [found[0]["model"]], model)


def drop_embeddings(store: Store, workspace: str, collection: str, model: str, limit: int) -> int:
    """Forget up to ``limit`` embeddings of the collection made by another model than ``model``; how many."""
    check_scope(workspace, collection)
    records = store.write(Q.drop_embeddings, workspace=workspace, collection=collection, model=model, limit=limit)
    return int(records[0]["dropped"]) if records else 0


@dataclass(frozen=True)
class ForeignEmbeddings:
    """A collection holding embeddings of another model than the configured one (see
    :func:`foreign_embedded_collections`)."""

    workspace: str
    collection: str
    models: tuple[str, ...]
    dimensions: tuple[int, ...]
    nodes: int
    profile: str | None
    """The graph profile a side index was built for (``tgneo load index --graph``); ``None`` for tgneo's own."""


def foreign_embedded_collections(store: Store, model: str) -> list[ForeignEmbeddings]:
    """Every collection, in every workspace, holding embeddings another model than ``model`` made.

    Database-wide on purpose: a vector index is one per database, so a collection of any workspace whose
    vectors are of other dimensions keeps it from being rebuilt for ``model``'s. Only the operator's own
    commands (``tgneo load index``) read it, never an API a workspace is served through.
    """
    return [
        ForeignEmbeddings(r["workspace"], r["collection"], tuple(r["models"]), tuple(r["dimensions"]), r["nodes"],
                          r["profile"])
        for r in store.read(Q.foreign_embedded_collections, model=model)
    ]  # fmt: skip


def every_collection(store: Store) -> list[tuple[str, str, str | None]]:
    """(workspace, collection, side index profile or ``None``) of every collection in the database — for
    re-embedding all of them, the operator's command only (see :func:`foreign_embedded_collections`)."""
    return [(r["workspace"], r["collection"], r["profile"]) for r in store.read(Q.all_collections)]


def set_embeddings(
    store: Store,
    workspace: str,
    collection: str,
    model: str,
    chunks: Sequence[ChunkVector] = (),
    entities: Sequence[EntityVector] = (),
) -> None:
    """Store chunk embeddings and entity embeddings (of the entity's smallest name), in one transaction."""
    check_scope(workspace, collection)
    store.write(Q.set_embeddings, workspace=workspace, collection=collection, model=model,
                **vector_rows(chunks, entities))  # fmt: skip


def unindexed_entities(store: Store, workspace: str, collection: str, limit: int) -> list[tuple[str, str]]:
    """Up to ``limit`` knowledge-graph entities without a name and embedding: ``(uri, name)``."""
    check_scope(workspace, collection)
    rows = store.read(Q.unindexed_entities, workspace=workspace, collection=collection, reserved=STRUCTURE_KEYS,
                      limit=limit)  # fmt: skip
    return [(r["uri"], r["name"]) for r in rows]


def unindexed_chunks(store: Store, workspace: str, collection: str, limit: int) -> list[tuple[str, str]]:
    """Up to ``limit`` chunks with text but no embedding: ``(uri, text)``."""
    check_scope(workspace, collection)
    rows = store.read(Q.unindexed_chunks, workspace=workspace, collection=collection, limit=limit)
    return [(r["uri"], r["text"]) for r in rows]
