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

from tgneo.errors import EmbeddingMismatch, EmptyCollection
from tgneo.graph_profiles import GraphProfile, ProfileError, load_profile
from tgneo.ingest.side_index import build_side_index
from tgneo.llm.base import LLM
from tgneo.llm.embed import embed_texts
from tgneo.store.driver import Store
from tgneo.store.embeddings import (
    ChunkVector,
    EntityVector,
    check_model,
    drop_embeddings,
    every_collection,
    foreign_embedded_collections,
    set_embeddings,
    unindexed_chunks,
    unindexed_entities,
)
from tgneo.store.schema import install_search_schema, vector_index_dimensions
from tgneo.store.search import collection_status

__all__ = ["IndexReport", "ReembedReport", "index_collection", "reembed_all"]

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
        EmbeddingMismatch: it holds vectors of another embedding model (without ``reembed``); or, with
            ``reembed``, the vector indexes must be rebuilt for the model's dimensions and another collection
            still holds vectors of the old ones — refused before anything is forgotten.
    """
    status = collection_status(store, workspace, collection)
    if status.empty:
        raise EmptyCollection(
            f"workspace {workspace!r}, collection {collection!r} holds no documents and no knowledge graph: "
            "load some with `tgneo load documents PATH` or `tgneo load sample`"
        )
    model = llm.embedding_model
    if reembed:  # before the schema: a model of other dimensions needs its vector indexes rebuilt, once unused
        _check_rebuildable(store, llm, workspace, collection)
        while dropped := drop_embeddings(store, workspace, collection, model, _BATCH):
            if progress:
                progress("dropped", dropped)
    install_search_schema(store, llm.dimensions)
    check_model(store, workspace, collection, model)
    return embed_unindexed(store, llm, workspace, collection, progress)


def embed_unindexed(
    store: Store, llm: LLM, workspace: str, collection: str, progress: Callable[[str, int], None] | None = None
) -> IndexReport:
    """Name and embed every entity, and embed every chunk, of the collection that lacks it — for a caller that
    has already installed the search schema and checked the collection's embedding model, once, up front
    (:func:`index_collection`, :func:`~tgneo.ingest.loader.load_documents`, :func:`reembed_all`)."""
    model = llm.embedding_model
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


def _check_rebuildable(store: Store, llm: LLM, workspace: str, collection: str) -> None:
    """Refuse a re-embedding that would forget this collection's vectors and then find the vector indexes cannot
    be rebuilt for the new model's dimensions, because other collections still hold vectors of the old ones."""
    if all(d == llm.dimensions for d in vector_index_dimensions(store).values()):
        return  # same dimensions (or no index yet): this collection alone can move to the new model
    blocking = [
        f for f in foreign_embedded_collections(store, llm.embedding_model)
        if (f.workspace, f.collection) != (workspace, collection) and set(f.dimensions) - {llm.dimensions}
    ]  # fmt: skip
    if not blocking:
        return
    shown = "; ".join(f"workspace {f.workspace!r}, collection {f.collection!r} ({f.nodes} nodes)" for f in blocking[:5])
    more = f" and {len(blocking) - 5} more" if len(blocking) > 5 else ""
    raise EmbeddingMismatch(
        f"{llm.embedding_model} gives {llm.dimensions}-dimensional vectors, so the vector indexes must be rebuilt, "
        f"which cannot happen while other collections hold vectors of the old dimensions: {shown}{more}. Nothing "
        "was changed. Embed every collection again at once: tgneo load index --reembed --all-collections"
    )


@dataclass(frozen=True)
class ReembedReport:
    """What ``tgneo load index --reembed --all-collections`` did: the embeddings it forgot, the collections it
    embedded (tgneo's own and side indexes), and the side indexes whose profile it could not open, each as the
    command that embeds it."""

    dropped: int
    collections: list[tuple[str, str, int]]
    """(workspace, collection, nodes embedded) of each collection it went through."""
    left: list[str]


def reembed_all(
    store: Store,
    llm: LLM,
    progress: Callable[[str, int], None] | None = None,
    profiles: Callable[[str], GraphProfile] = load_profile,
) -> ReembedReport:
    """Move every collection of the database to the configured embedding model.

    Forgets every embedding another model made (in batches), rebuilds the vector indexes when its dimensions
    differ, then embeds every collection of every workspace that lacks it — tgneo's own with
    :func:`index_collection`, a side index over another tool's graph with
    :func:`~tgneo.ingest.side_index.build_side_index` (``profiles`` opens its profile by the name it was built
    with; one whose profile file cannot be found, or whose graph the database no longer holds, is left for its own
    ``tgneo load index --graph``).

    Changing to a model of other dimensions is all-or-nothing because the vector indexes are database-wide: this
    is the one step that does it (:func:`index_collection` refuses to re-embed a single collection then). Every
    step is idempotent, so a run cut short is finished by running it again.
    """
    dropped = 0
    for f in foreign_embedded_collections(store, llm.embedding_model):
        while n := drop_embeddings(store, f.workspace, f.collection, llm.embedding_model, _BATCH):
            dropped += n
            if progress:
                progress("dropped", n)
    install_search_schema(store, llm.dimensions)
    done: list[tuple[str, str, int]] = []
    left: list[str] = []
    for workspace, collection, name in every_collection(store):
        if name is None:
            if collection_status(store, workspace, collection).empty:  # traces only: nothing to embed
                continue
            # every vector of another model was forgotten above: the collection's model needs no check
            report = embed_unindexed(store, llm, workspace, collection, progress)
            done.append((workspace, collection, report.entities + report.chunks))
            continue
        try:
            side = build_side_index(store, llm, profiles(name), workspace, collection, progress)
        except ProfileError as e:  # its profile file moved, or their graph is gone: theirs to say
            left.append(f"tgneo load index --graph PROFILE --workspace {workspace} --collection {collection} "
                        f"(built with profile {name!r}: {e})")  # fmt: skip
            continue
        done.append((workspace, collection, side.entities + side.chunks))
    return ReembedReport(dropped, done, left)
