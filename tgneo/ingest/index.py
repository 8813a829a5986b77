"""Build the search index of a collection: names and embeddings for what lacks them.

``tgneo load documents`` embeds what it loads as it writes it. What it did not load lacks them: a
TrustGraph knowledge core brought in with ``tgneo import`` (its entities have ``rdfs:label``
statements but no ``name``; its chunks, when the core carries their text, no embedding), and the
entities a replaced document version took a name from. :func:`index_collection` finds those in
batches and fills them in; run twice, the second run finds nothing to do.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tgneo.errors import EmptyCollection
from tgneo.ingest.embedding import embed_texts
from tgneo.llm.base import LLM
from tgneo.store.driver import Store
from tgneo.store.embeddings import (
    ChunkVector,
    EntityVector,
    check_model,
    drop_embeddings,
    set_embeddings,
    unindexed_chunks,
    unindexed_entities,
)
from tgneo.store.schema import install_search_schema
from tgneo.store.search import collection_status

__all__ = ["IndexReport", "index_collection"]

_BATCH = 256


@dataclass(frozen=True)
class IndexReport:
    """What an index run did, and what the collection then holds."""

    entities: int
    chunks: int
    named_entities: int
    embedded_chunks: int
    chunks_without_text: int


def index_collection(
    store: Store,
    llm: LLM,
    workspace: str,
    collection: str,
    progress: Callable[[str, int], None] | None = None,
    *,
    reembed: bool = False,
) -> IndexReport:
    """Name and embed every entity, and embed every chunk, of the collection that lacks it (idempotent).

    Args:
        progress: Called with ``("entities" | "chunks" | "dropped", n)`` after each batch of ``n``.
        reembed: first forget every embedding another model made (in batches), so that the whole
            collection is embedded again with the configured model instead of being refused.

    Raises:
        EmptyCollection: the collection holds no documents and no knowledge graph.
        EmbeddingMismatch: it (or the vector index) holds vectors of another embedding model.
    """
    status = collection_status(store, workspace, collection)
    if status.empty:
        raise EmptyCollection(
            f"workspace {workspace!r}, collection {collection!r} holds no documents and no knowledge graph: "
            "load some with `tgneo load documents PATH` or `tgneo load sample`"
        )
    model = llm.embedding_model
    if reembed:  # before the schema: a model of other dimensions needs its vector indexes rebuilt, once unused
        while dropped := drop_embeddings(store, workspace, collection, model, _BATCH):
            if progress:
                progress("dropped", dropped)
    install_search_schema(store, llm.dimensions)
    check_model(store, workspace, collection, model)
    done = {"entities": 0, "chunks": 0}
    while rows := unindexed_entities(store, workspace, collection, _BATCH):
        vectors = embed_texts(llm, [name for _, name in rows])
        entities = [EntityVector(uri, name, v) for (uri, name), v in zip(rows, vectors, strict=True)]
        set_embeddings(store, workspace, collection, model, entities=entities)
        done["entities"] += len(rows)
        if progress:
            progress("entities", len(rows))
    while rows := unindexed_chunks(store, workspace, collection, _BATCH):
        vectors = embed_texts(llm, [text for _, text in rows])
        chunks = [ChunkVector(uri, v) for (uri, _), v in zip(rows, vectors, strict=True)]
        set_embeddings(store, workspace, collection, model, chunks=chunks)
        done["chunks"] += len(rows)
        if progress:
            progress("chunks", len(rows))
    after = collection_status(store, workspace, collection)
    return IndexReport(
        done["entities"], done["chunks"], after.named_entities, after.embedded_chunks,
        after.chunks - after.chunks_with_text,
    )  # fmt: skip
