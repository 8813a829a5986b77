"""Reading a knowledge graph another tool wrote, through a graph profile (:mod:`tgneo.graph_profiles`): storage's part.

:func:`check` tells whether a profile fits the database (every label, relationship type, property and index
it names exists) and which of their indexes it can read. :func:`read` and :func:`write` run the
``cypher/profile_*.cypher`` queries by name for the reader over their graph
(:class:`tgneo.graphs.profile.ProfileGraph`) and tgneo's side index over it
(:mod:`tgneo.ingest.side_index`): every one of them reads their nodes and writes only tgneo's own, and
every label, type and property of theirs reaches Cypher as a parameter.
"""

from __future__ import annotations

import hashlib
import time
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from tgneo.graph_profiles import GraphProfile, ProfileError
from tgneo.owned import owned_types
from tgneo.store.driver import Store
from tgneo.store.queries import Q
from tgneo.timestamps import now_iso_z
from tgneo.vocab import GRAPH_RETRIEVAL

__all__ = [
    "Checked",
    "IndexInfo",
    "check",
    "clear_checks",
    "entry_digest",
    "made_from",
    "mark_changed",
    "read",
    "shown_names",
    "write",
]

CHECK_TTL = 60.0
"""Seconds a profile found to fit the database stays trusted (a question then costs no catalogue read)."""
_checked: dict[tuple[int, GraphProfile, bool], tuple[float, Checked]] = {}


@dataclass(frozen=True)
class IndexInfo:
    """One index of theirs a profile reads."""

    name: str
    type: str
    labels: tuple[str, ...]
    properties: tuple[str, ...]
    dimensions: int | None


@dataclass(frozen=True)
class Checked:
    """A profile found to fit the database, with the indexes of theirs it will read."""

    profile: GraphProfile
    entity_vector: IndexInfo | None
    entity_fulltext: IndexInfo | None
    chunk_vector: IndexInfo | None
    chunk_fulltext: IndexInfo | None
    missing: tuple[str, ...] = ()
    """``what`` (``entity.vector_index``) and name of each optional index the profile names that does not exist:
    ``"entity.vector_index 'entity_vector'"``."""
    unbuilt: tuple[str, ...] = ()
    """The same of each *required* vector index the profile names that does not exist. Not refused here: the
    engines refuse it unless tgneo's side index stands in for it (:meth:`tgneo.graphs.profile.ProfileGraph.
    require_content`, one rule for every engine), and ``tgneo load index`` builds that side index all the same."""
    vector_indexes: tuple[str, ...] = ()
    """The names of the vector indexes of theirs that do exist (what a refusal lists)."""

    def absent(self, what: str) -> str | None:
        """The index ``what`` names when it does not exist (``"'entity_vector'"``), optional or not, else ``None``."""
        for line in (*self.missing, *self.unbuilt):
            field, _, name = line.partition(" ")
            if field == what:
                return name
        return None


SHOWN_NAMES = 30
"""The most names a refusal lists of what the database has (``labels there: …``); the rest are counted."""


def shown_names(present: Iterable[str]) -> str:
    """The names a refusal lists (``labels there: …``): the user's own — never one tgneo owns (:func:`tgneo.owned.
    owned_types`), which would bury theirs —, sorted as a reader looks them up (case aside), each whole; past
    :data:`SHOWN_NAMES`, how many more there are."""
    owned = set(owned_types())
    theirs = sorted({n for n in present if n not in owned}, key=lambda n: (n.casefold(), n))
    if not theirs:
        return "none"
    more = len(theirs) - SHOWN_NAMES
    return ", ".join(theirs[:SHOWN_NAMES]) + (f" and {more} more" if more > 0 else "")


def _missing(profile: GraphProfile, what: str, name: str, kind: str, present: set[str]) -> ProfileError:
    kinds = kind + ("es" if kind.endswith("x") else "s")
    return ProfileError(
        f"graph profile {profile.name!r}: {what} names the {kind} {name!r}, which does not exist in the database "
        f"({kinds} there: {shown_names(present)})"
    )


def check(store: Store, profile: GraphProfile, *, chunks: bool = False) -> Checked:
    """Check every label, relationship type, property and index ``profile`` names against the database.

    Args:
        chunks: also what Document RAG reads (their chunk label and its text), which a graph built
            without chunks (LangChain's ``add_graph_documents`` alone) lacks.

    Raises:
        ProfileError: one line naming the first name that does not exist, and what does.
    """
    key = (id(store), profile, chunks)
    cached = _checked.get(key)
    if cached is not None and cached[0] > time.monotonic():
        return cached[1]
    catalog = store.read(Q.profile_catalog)[0]
    labels, types, keys = set(catalog["labels"]), set(catalog["types"]), set(catalog["keys"])
    optional = {"chunk.order", "chunk.source", "entity.description", "document.names", "document.key"}
    if profile.document.key is not None:  # a document without its naming properties is known by its key
        optional.add("document.name")
    wanted_labels = [(w, n) for w, n in profile.labels() if chunks or not w.startswith("chunk.")]
    if profile.passage == "chunk":
        wanted_labels.append(("chunk.label", profile.chunk.label))
    for what, name in wanted_labels:
        if name not in labels:
            raise _missing(profile, what, name, "label", labels)
    for what, name in profile.types():
        if what == "chunk.part_of" and not (chunks or profile.passage == "chunk"):
            continue
        if name not in types:
            raise _missing(profile, what, name, "relationship type", types)
    for what, name in profile.properties():
        needed = not what.startswith("chunk.") or chunks or profile.passage == "chunk"
        if needed and what not in optional and name not in keys:
            raise _missing(profile, what, name, "property", keys)
    indexes = [
        IndexInfo(r["name"], r["type"], tuple(r["labels"] or ()), tuple(r["properties"] or ()), r["dimensions"])
        for r in store.read(Q.profile_indexes)
    ]
    entity, chunk = profile.entity, profile.chunk
    missing: list[str] = []
    unbuilt: list[str] = []
    # their chunks' vector index is the graph's whether or not this engine reads chunks (one rule for every engine:
    # ProfileGraph.require_content); a graph with no chunks of the profile's label (LangChain's graph alone) has none
    has_chunks = chunks or chunk.label in labels
    found = Checked(
        profile,
        _index(profile, indexes, "entity.vector_index", entity.vector_index, "VECTOR", entity.label, entity.embedding,
               missing, unbuilt),
        _index(profile, indexes, "entity.fulltext_index", entity.fulltext_index, "FULLTEXT", entity.label, entity.name,
               missing, unbuilt),
        _index(profile, indexes, "chunk.vector_index", chunk.vector_index, "VECTOR", chunk.label, chunk.embedding,
               missing, unbuilt) if has_chunks else None,
        _index(profile, indexes, "chunk.fulltext_index", chunk.fulltext_index, "FULLTEXT", chunk.label, chunk.text,
               missing, unbuilt) if chunks else None,
        tuple(missing),
        tuple(unbuilt),
        tuple(sorted(i.name for i in indexes if i.type == "VECTOR" and not i.name.startswith("tgneo_"))),
    )  # fmt: skip
    _checked[key] = (time.monotonic() + CHECK_TTL, found)
    return found


def _index(
    profile: GraphProfile, indexes: list[IndexInfo], what: str, name: str | None, kind: str, label: str,
    prop: str | None, missing: list[str], unbuilt: list[str],
) -> IndexInfo | None:  # fmt: skip
    """The index ``what`` names (which must exist unless the profile lists it optional, and be of ``kind``), else one
    of ``kind`` on ``label``/``prop``. A missing optional one is added to ``missing`` (the engines fall back), a
    missing required vector index to ``unbuilt`` (the engines decide: tgneo's side index stands in, or they refuse);
    a missing required full-text index is refused here."""
    if name is not None:
        for index in indexes:
            if index.name == name and index.type == kind:
                return index
        named = {i.name for i in indexes if i.type == kind and not i.name.startswith("tgneo_")}
        if not any(i.name == name for i in indexes):
            if name in profile.optional_indexes:
                missing.append(f"{what} {name!r}")
                return None
            if kind == "VECTOR":
                unbuilt.append(f"{what} {name!r}")
                return None
            raise _missing(profile, what, name, f"{kind.lower()} index", named)
        return None  # an index of that name but of another kind: not one this profile can read
    if prop is None:
        return None
    for index in indexes:
        if index.type == kind and label in index.labels and prop in index.properties:
            return index
    return None


def clear_checks() -> None:
    """Forget every profile check (after a test changed the database's schema)."""
    _checked.clear()


def read(store: Store, query: str, **params: Any) -> list[Mapping[str, Any]]:
    """Run the read query ``cypher/{query}.cypher``, one of the graph profiles' (``profile_*``)."""
    if not query.startswith("profile_"):
        raise ValueError(f"{query} is not a graph-profile query")
    return list(store.read(getattr(Q, query), **params))


def write(store: Store, query: str, **params: Any) -> list[Mapping[str, Any]]:
    """Run the write query ``cypher/{query}.cypher`` (the side index's: it writes only tgneo's own nodes)."""
    if not query.startswith("profile_side_"):
        raise ValueError(f"{query} is not a side-index write")
    return list(store.write(getattr(Q, query), **params))


def entry_digest(text: str) -> str:
    """The digest a side index entry keeps of the text it embedded (their entity's name, their chunk's text)."""
    return hashlib.sha1(text.encode()).hexdigest()


def made_from(record: Mapping[str, Any]) -> bool:
    """Whether a side index hit (``profile_seeds_side``, ``profile_chunks_side``) resolved to the node its entry was
    made from, rather than to another that took the element id of a deleted one.

    An entry holding their key was made from the node that holds it (``same_key``, compared by the query); one
    without, from the node whose text (``text``) is the text it embedded (``digest``). Cypher has no digest
    function of its own (and tgneo calls no plugin), hence that comparison here.
    """
    if record["same_key"] is not None:
        return bool(record["same_key"])
    text = record["text"]
    return text is not None and entry_digest(text) == record["digest"]


def mark_changed(store: Store, workspace: str, collection: str, chunks: list[str]) -> int:
    """Mark stale the stored answers that quoted a document holding any of ``chunks`` (their text changed)."""
    documents = [r["document"] for r in read(store, "profile_changed_documents", workspace=workspace,
                                             collection=collection, uris=chunks)]  # fmt: skip
    marked = 0
    for document in documents:
        marks = {"workspace": workspace, "collection": collection, "document": document, "change": "replaced",
                 "change_id": uuid.uuid4().hex, "at": now_iso_z(), "graph": GRAPH_RETRIEVAL}  # fmt: skip
        records = store.write(Q.mark_stale, **marks)
        marked += int(records[0]["traces"]) if records else 0
    return marked
