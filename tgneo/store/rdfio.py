"""Quads into and out of Neo4j: the storage half of ``tgneo import`` and ``tgneo export``.

Import compiles quads with the same mapping-driven compiler the recorder uses and writes them in
batches of whole subjects (an entity's triples are never split across transactions, so every batch
is a consistent set of nodes). Export reads entities and statements back and decompiles them in the
requested profile; for the ``trustgraph`` profile, TrustGraph-produced RDF comes back as exactly the
same quads.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from tgneo.errors import BadRequest, TraceNotFound
from tgneo.graphmodel import Profile, StoredEntity, StoredStatement, compile_quads, decompile
from tgneo.rdf.terms import Quad
from tgneo.store.driver import Store
from tgneo.store.queries import Q
from tgneo.store.values import native
from tgneo.store.writer import check_scope, write_batch
from tgneo.vocab import PROVENANCE_GRAPHS

Progress = Callable[[int], None]


@dataclass(frozen=True)
class ImportStats:
    """What an import wrote."""

    quads: int
    batches: int


def _batches(quads: list[Quad], size: int) -> Iterable[list[Quad]]:
    """Slices of about ``size`` quads that never split the provenance triples of one subject."""
    groups: dict[object, list[Quad]] = defaultdict(list)
    singles: list[list[Quad]] = []
    for q in quads:
        if q.g in PROVENANCE_GRAPHS:
            groups[q.s].append(q)
        else:
            singles.append([q])
    batch: list[Quad] = []
    for group in [*groups.values(), *singles]:
        batch.extend(group)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def import_quads(
    store: Store,
    workspace: str,
    collection: str,
    quads: Iterable[Quad],
    batch_size: int = 2000,
    progress: Progress | None = None,
) -> ImportStats:
    """Write quads into ``workspace``/``collection``; each batch is one transaction."""
    check_scope(workspace, collection)
    if batch_size < 1:
        raise BadRequest(f"batch size must be at least 1, not {batch_size}")
    all_quads = list(dict.fromkeys(quads))
    batches = 0
    for batch in _batches(all_quads, batch_size):
        write_batch(store, workspace, collection, compile_quads(batch), what=f"importing {len(batch)} quads")
        batches += 1
        if progress:
            progress(len(batch))
    return ImportStats(len(all_quads), batches)


def export_quads(
    store: Store,
    workspace: str,
    collection: str,
    uri: str | None = None,
    profile: Profile = "trustgraph",
) -> list[Quad]:
    """Every quad of a collection, or of the trace rooted at ``uri``, in ``profile``."""
    uris: list[str] | None = None
    ids: list[str] | None = None
    if uri is not None:
        members = store.read(Q.trace_members, workspace=workspace, collection=collection, uri=uri)
        if not members:
            raise TraceNotFound(f"no trace {uri!r} in workspace {workspace!r}, collection {collection!r}")
        uris, ids = list(members[0]["uris"]), list(members[0]["statement_ids"])
    entities = [
        StoredEntity(
            uri=r["uri"],
            kind=r["kind"] or "iri",
            graph=r["graph"],
            labels=tuple(r["labels"]),
            props=native(r["props"]),
            links=tuple((t, k or "iri", u) for t, k, u in r["links"]),
            statement_links=tuple((t, sid) for t, sid in r["statement_links"]),
        )
        for r in store.read(Q.export_entities, workspace=workspace, collection=collection, uris=uris)
    ]
    statements = [
        StoredStatement(
            id=r["id"],
            s=r["s"],
            s_kind=r["s_kind"],
            p=r["p"],
            o=r["o"],
            o_kind=r["o_kind"],
            o_datatype=r["o_datatype"],
            o_lang=r["o_lang"],
            asserted_in=tuple(r["asserted_in"]) if uri is None else (),
        )
        for r in store.read(Q.export_statements, workspace=workspace, collection=collection, ids=ids)
    ]
    return decompile(entities, statements, profile)
