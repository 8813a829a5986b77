"""tgneo's side index over a graph another tool wrote (``tgneo load index --graph``).

Their vector indexes hold their model's vectors; with the offline provider (or any embedder but theirs)
tgneo cannot ask them. The side index is tgneo's own: one tgneo-owned node per entity of theirs (its name
and the embedding of it) and per chunk (the embedding of its text; the text stays theirs), in tgneo's own
indexes, each pointing at their node by element id. Nothing is written on their nodes and no index is
made on their labels.

An element id is only a pointer: Neo4j gives the id of a deleted node to the next node it creates, so after
a user rebuilds their graph an entry's id may name another node. Each entry therefore also keeps what it
was made from, and a search checks it before it trusts the pointer (:func:`tgneo.store.foreign.made_from`):
the value of the node's key property when the profile names one (``theirKey``), else the digest of the text
embedded (an entity's name, a chunk's text). An entry that fails is left out, never resolved to the other
node, with a warning to build the side index again.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from tgneo.graph_profiles import GraphProfile, ProfileError, chunk_iri, element_iri, node_iri
from tgneo.llm.base import LLM
from tgneo.scope import check_scope
from tgneo.store.driver import Store
from tgneo.store.foreign import check, entry_digest, mark_changed, read, write
from tgneo.store.schema import install_search_schema

__all__ = ["SideReport", "build_side_index"]

log = logging.getLogger("tgneo.graphs")


@dataclass(frozen=True)
class SideReport:
    """What ``tgneo load index --graph`` embedded (new or changed), what it found already embedded, and how many
    stored answers it marked stale (they quoted a chunk of theirs whose text has changed since)."""

    entities: int
    chunks: int
    unchanged: int
    stale_traces: int = 0
    retired: int = 0
    """Entries whose node of theirs is gone (removed from the side index)."""


SIDE_BATCH = 500


def build_side_index(
    store: Store,
    llm: LLM,
    profile: GraphProfile,
    workspace: str,
    collection: str,
    progress: Callable[[str, int], None] | None = None,
) -> SideReport:
    """Embed their entities' names and their chunks' texts into tgneo's side index (idempotent).

    Each entry is a tgneo-owned node of ``workspace``/``collection`` pointing at one of their nodes by
    element id (and keeping what it was made from: module docstring); only nodes that are new, re-created, or
    whose text changed since, are embedded again, and entries whose node is gone (or whose element id now names
    another node) are retired. A chunk whose
    text changed marks stale every stored answer that quoted its document (as reloading a document of
    tgneo's own does: ``tgneo traces list --stale``).

    Their vector indexes are not needed (a graph may have none: the side index stands in for them, a required one
    that is missing too). Each index the profile names that is missing is named in a warning (logger
    ``tgneo.graphs``: on ``tgneo load index``'s stderr). Nodes of the profile's ``exclude_labels`` get no entry.

    Raises:
        ProfileError: the profile names what the database lacks (a label, a type, a property, a required full-text
            index).
    """
    check_scope(workspace, collection)
    checked = check(store, profile)
    install_search_schema(store, llm.dimensions)
    catalog = read(store, "profile_catalog")[0]
    if profile.chunk.label in catalog["labels"]:
        try:
            checked = check(store, profile, chunks=True)
        except ProfileError as e:  # their chunks are indexed all the same; Document RAG will say this again
            log.warning("%s: Document RAG over it is refused until it does", e)
    for missing in checked.missing:
        log.warning("graph profile %r: their %s does not exist (it is optional): questions find what it would have "
                    "found by this side index", profile.name, missing)  # fmt: skip
    for missing in checked.unbuilt:
        log.warning("graph profile %r: their %s does not exist: questions find what it would have found by this "
                    "side index (and are refused where none was built)", profile.name, missing)  # fmt: skip
    done = {"entities": 0, "chunks": 0, "unchanged": 0}
    changed: list[str] = []
    parts = [("entities", profile.entity.label, profile.entity.key, profile.entity.name)]
    if profile.chunk.label in catalog["labels"]:
        parts.append(("chunks", profile.chunk.label, profile.chunk.key, profile.chunk.text))
    for what, label, key, text in parts:
        after = ""
        while True:
            page = read(store, "profile_side_page", label=label, key=key, text=text, after=after, limit=SIDE_BATCH,
                        exclude=list(profile.exclude_labels))  # fmt: skip
            if not page:
                break
            after = page[-1]["element"]
            rows = []
            for r in page:
                their_key = r["key"] if key is not None else None
                own = node_iri(label, key, their_key) if key is not None and their_key is not None else None
                iri = own or element_iri(r["element"])
                rows.append((chunk_iri(iri) if what == "chunks" else iri, r["element"], their_key, r["text"]))
            known = {
                d["uri"]: d for d in read(store, "profile_side_digests", workspace=workspace, collection=collection,
                                                uris=[u for u, _, _, _ in rows])
            }  # fmt: skip
            fresh = []
            for uri, element, their_key, value in rows:
                digest = entry_digest(value)
                old = known.get(uri)
                if (old is not None and old["digest"] == digest and old["model"] == llm.embedding_model
                        and old["element"] == element and old["key"] == their_key):  # fmt: skip
                    done["unchanged"] += 1
                    continue
                if what == "chunks" and old is not None and old["digest"] not in (None, digest):
                    changed.append(uri)
                fresh.append((uri, element, their_key, value, digest))
            if fresh:
                vectors = llm.embed([value for _, _, _, value, _ in fresh]).vectors
                write(
                    store, "profile_side_write", workspace=workspace, collection=collection,
                    model=llm.embedding_model, profile=profile.name,
                    rows=[{"uri": uri, "element": element, "key": their_key, "name": value, "embedding": vector,
                           "digest": digest, "chunk": what == "chunks"}
                          for (uri, element, their_key, value, digest), vector in zip(fresh, vectors, strict=True)],
                )  # fmt: skip
                done[what] += len(fresh)
            if progress:
                progress(what, len(page))
    stale = mark_changed(store, workspace, collection, changed) if changed else 0
    retired = write(store, "profile_side_prune", workspace=workspace, collection=collection, profile=profile.name,
                    entity_label=profile.entity.label, chunk_label=profile.chunk.label, entity_key=profile.entity.key,
                    chunk_key=profile.chunk.key, entity_text=profile.entity.name, chunk_text=profile.chunk.text,
                    exclude=list(profile.exclude_labels))  # fmt: skip
    return SideReport(done["entities"], done["chunks"], done["unchanged"], stale, int(retired[0]["retired"]))
