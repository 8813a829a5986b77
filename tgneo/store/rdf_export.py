"""Neo4j out as RDF, streamed: the storage half of ``tgneo export`` and a trace's RDF over HTTP.

**Export** (:func:`stream_quads`) iterates Neo4j results inside one read transaction and yields quads
as rows arrive (``graphmodel.decompiler.Decompiler``: provenance entities, then the native knowledge graph node by
node, then reified statements); ``rdf.writer`` writes them as they come. An unfinished import into the
collection is rolled back first by the caller (:func:`tgneo.store.rdf_import.recover`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from tgneo.errors import TraceNotFound
from tgneo.graphmodel.decompiler import Decompiler, StoredEntity, StoredFacts, StoredStatement
from tgneo.native import STRUCTURE_KEYS, Namespaces
from tgneo.rdf.export_profiles import DEFAULT_EXPORT_PROFILE, ExportProfile
from tgneo.rdf.terms import Quad
from tgneo.store.driver import Store
from tgneo.store.queries import Q
from tgneo.store.values import native

Progress = Callable[[int], None]


def _statement(row: Any, asserted: bool = False, asserted_in: Iterable[str] = ()) -> StoredStatement:
    return StoredStatement(
        id=row["id"], s=row["s"], s_kind=row["s_kind"], p=row["p"], o=row["o"], o_kind=row["o_kind"],
        o_datatype=row["o_datatype"], o_lang=row["o_lang"], asserted_in=tuple(asserted_in) if asserted else (),
    )  # fmt: skip


def stream_quads(
    store: Store,
    workspace: str,
    collection: str,
    uri: str | Iterable[str] | None = None,
    profile: ExportProfile = DEFAULT_EXPORT_PROFILE,
) -> Iterator[Quad]:
    """Every quad of a collection, or of the traces rooted at ``uri`` (one URI or several), in ``profile``,
    as Neo4j sends rows.

    Raises:
        TraceNotFound: a URI is not the root of a trace in this workspace and collection.
    """
    decompiler = Decompiler(profile, namespaces(store, workspace, collection))
    uris: list[str] | None = None
    if uri is not None:
        uris = []
        for root in [uri] if isinstance(uri, str) else list(uri):
            members = store.read(Q.trace_members, workspace=workspace, collection=collection, uri=root)
            if not members:
                raise TraceNotFound(f"no trace {root!r} in workspace {workspace!r}, collection {collection!r}")
            uris += [m for m in members[0]["uris"] if m not in uris]
    for r in store.stream(Q.export_entities, workspace=workspace, collection=collection, uris=uris):
        entity = StoredEntity(
            uri=r["uri"], kind=r["kind"] or "iri", graph=r["graph"], labels=tuple(r["labels"]),
            props=native(r["props"]), links=tuple((t, k or "iri", u) for t, k, u in r["links"]),
            statement_links=tuple((t, sid, native(props)) for t, sid, props in r["statement_links"]),
        )  # fmt: skip
        yield from decompiler.entity(entity, {s["id"]: _statement(s) for s in r["statements"]})
    if uri is not None:
        return
    for r in store.stream(Q.export_facts, workspace=workspace, collection=collection, reserved=STRUCTURE_KEYS):
        yield from decompiler.facts(stored_facts(r))
    for r in store.stream(Q.export_statements, workspace=workspace, collection=collection):
        st = _statement(r["statement"], True, r["asserted_in"])
        nested = {s["id"]: _statement(s) for s in r["nested"]}
        yield from decompiler.statement(st, nested)


def stored_facts(row: Any) -> StoredFacts:
    """A node's native facts as ``export_facts`` (and the triples service) read them."""
    props: dict[str, Any] = {}
    for key, value, tags in row["props"]:
        props[key] = native(value)
        if tags is not None:
            props["_" + key] = tags
    return StoredFacts(uri=row["uri"], kind=row["kind"] or "iri", props=props,
                       rels=tuple((p, k or "iri", u) for p, k, u in row["rels"]))  # fmt: skip


def namespaces(store: Store, workspace: str, collection: str) -> Namespaces:
    """The collection's namespace table, to read its relationship types and property keys back as IRIs."""
    rows = store.read(Q.prefixes, workspace=workspace, collection=collection)
    return Namespaces().learn((r["prefix"], r["namespace"]) for r in rows)


def export_quads(
    store: Store,
    workspace: str,
    collection: str,
    uri: str | Iterable[str] | None = None,
    profile: ExportProfile = DEFAULT_EXPORT_PROFILE,
) -> list[Quad]:
    """:func:`stream_quads` as a list, for callers that want everything at once (small traces, tests)."""
    return list(stream_quads(store, workspace, collection, uri, profile))
