"""The one write path: a compiled batch (a recorded step, a document, or a slice of an import) in one transaction.

The recorder, the loader and the importer all write through :func:`write_batch` (or :func:`record` inside a
transaction of their own), so a step written live and the same step imported from a file become the same
nodes, under the same parent check and the same all-or-nothing guarantee. It lives in ``store`` because
writing is storage's job; the recorder adds only what is the explain layer's own: emitting the event once
the write has committed.

A literal value whose Neo4j type differs from the values its property already holds (an integer where
strings are stored) cannot join them; the write reports it as a *misfit* and the same transaction stores
it as a reified edge instead (``graphmodel.compiler.WriteBatch.misfits``), so nothing is lost and nothing is
half-written.

An import's plain knowledge-graph triples (most of any large file) take :func:`write_native`, which
writes the same relationships and properties with a lighter query (``graphmodel.compiler.NativeRows``: flat rows,
each resource named once per batch).

Why the three queries merge relationships by hand instead of with ``MERGE``: a relationship's type is data here (a
predicate, a step's link, a statement's role), so it is a dynamic type, ``MERGE (a)-[r:$(type)]->(b)``. Neo4j 5.26
plans that as a scan of every relationship record, once per row, whenever it plans it on a database holding
(almost) no relationships, and caches the plan. The first import of 50,000 triples into a new database took 42.9 s
where the next took 7.8 s, and 65.7 s against 4.4 s after the database was emptied (freed records are scanned too);
measured for issue 50. Each query now locks the relationship's start node, looks for the relationship from whichever
end has fewer relationships with a one-hop variable-length match (which Neo4j can only plan as an expansion), and
creates it when missing: what ``MERGE`` does, planned the same on any database (the same import: 18.5 s then 7.6 s,
and 6.0 s then 4.5 s). ``tests/test_schema.py`` checks the plans on an empty database.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from neo4j import Transaction
from neo4j.exceptions import Neo4jError

from tgneo.errors import ImportAborted, ParentNotFound, RecordingFailed, StoreError, StoreUnavailable
from tgneo.graphmodel.compiler import NativeRows, WriteBatch, reified
from tgneo.scope import check_scope
from tgneo.store.driver import Store
from tgneo.store.queries import Q


def batch_params(
    workspace: str, collection: str, batch: WriteBatch, parents: Iterable[str] = (), import_id: str | None = None
) -> dict[str, Any]:
    """The parameters of ``record_batch`` for ``batch`` in ``workspace``/``collection`` (scope checked).

    The row lists travel in one map, ``$rows``: Neo4j keys its plan cache on each list parameter's size (0, 1,
    2–10, 11–100, …) as well as its type, so separate lists made a new plan, 0.5–1.2 s of server time for these
    statements, for almost every new mix of sizes; a map's size is not in the key, so each is planned once.
    """
    check_scope(workspace, collection)
    rows: dict[str, Any] = {"parents": list(parents), **batch.params()}
    return {"workspace": workspace, "collection": collection, "import_id": import_id, "rows": rows}


def record(
    tx: Transaction,
    workspace: str,
    collection: str,
    batch: WriteBatch,
    parents: Iterable[str] = (),
    import_id: str | None = None,
) -> list[str]:
    """Write ``batch`` inside the caller's transaction; return the missing parents (or the stopped import).

    Literal values that did not fit their key are written as reified edges in the same transaction.
    """
    record_ = tx.run(Q.record_batch.text, batch_params(workspace, collection, batch, parents, import_id)).single()
    missing = list(record_["missing"]) if record_ is not None else []
    misfits = list(record_["misfits"]) if record_ is not None else []
    if misfits and not missing:
        extra = batch_params(workspace, collection, reified(batch.misfits(misfits)), (), import_id)
        tx.run(Q.record_batch.text, extra).consume()
    return missing


_STEP_ROWS = ("resources", "entities", "links", "statements", "parts", "statement_links", "contents")
"""The rows ``record_step`` writes: a batch holding nothing else (every recorded step) needs no more."""


def step_params(workspace: str, collection: str, batch: WriteBatch, parents: Iterable[str] = ()) -> dict[str, Any]:
    """The parameters of ``record_step`` for ``batch`` (scope checked); only for a batch that :func:`is_step`. The
    rows travel in one map, as :func:`batch_params` says why."""
    check_scope(workspace, collection)
    compiled = batch.params()
    rows: dict[str, Any] = {"parents": list(parents), **{key: compiled[key] for key in _STEP_ROWS}}
    return {"workspace": workspace, "collection": collection, "rows": rows}


def is_step(batch: WriteBatch, import_id: str | None = None) -> bool:
    """Whether ``record_step`` can write ``batch``: no import, no prefixes, knowledge-graph facts or literal values."""
    return import_id is None and not (batch.prefixes or batch.facts or batch.literals)


def write_batch(
    store: Store,
    workspace: str,
    collection: str,
    batch: WriteBatch,
    *,
    parents: Iterable[str] = (),
    what: str = "writing",
    import_id: str | None = None,
) -> None:
    """Write ``batch`` into ``workspace``/``collection`` as one transaction: all of it, or nothing.

    One Cypher statement does it (``cypher/record_batch.cypher``): when a parent is missing it writes
    nothing, and any failure inside it rolls all of it back. A batch without literal values (every recorded
    step) is one auto-commit statement, the cheapest round trip; one with literals runs in a transaction,
    so that a value that does not fit its key can follow as a reified edge. A batch that :func:`is_step`
    (every recorded step) takes ``cypher/record_step.cypher``, the same writes without the import and
    knowledge-graph phases. Transient failures (deadlocks with other writers) are retried by the store.

    Args:
        parents: URIs of steps that must already be recorded entities (the step's ``parents``).
        what: How the write is named in errors (``"recording focus urn:…"``).
        import_id: The import this batch belongs to (``store.imports``): what it creates is marked
            with it and what it changes is recorded, so the whole import can be rolled back.

    Raises:
        ParentNotFound: a parent is not recorded in this workspace and collection (nothing written).
        ImportAborted: ``import_id`` is no longer running (recovery rolled it back; nothing written).
        StoreUnavailable: Neo4j cannot be reached (nothing written).
        RecordingFailed: Neo4j refused the write (nothing written).
    """
    parents = list(parents)
    try:
        if is_step(batch, import_id):
            records = store.write(Q.record_step, **step_params(workspace, collection, batch, parents))
            missing = list(records[0]["missing"]) if records else []
        elif batch.literals:
            missing = store.write_transaction(
                lambda tx: record(tx, workspace, collection, batch, parents, import_id), what
            )
        else:
            records = store.write(Q.record_batch, **batch_params(workspace, collection, batch, parents, import_id))
            missing = list(records[0]["missing"]) if records else []
    except StoreUnavailable:
        raise
    except StoreError as e:
        raise RecordingFailed(f"{what} failed and was rolled back: {e}") from e
    if import_id is not None and import_id in missing:
        raise ImportAborted(f"{what}: import {import_id} is no longer running (it was rolled back); nothing written")
    if missing:
        raise ParentNotFound(f"{what}: parent step(s) not recorded in {workspace}/{collection}: {', '.join(missing)}")


_STOPPED = "Neo.ClientError.Statement.ArithmeticError"
"""How ``import_native`` fails its own transaction when it finds its import stopped (see its header)."""


def write_native(
    store: Store,
    workspace: str,
    collection: str,
    rows: NativeRows,
    import_id: str,
    *,
    what: str = "importing",
) -> None:
    """Write one batch of an import's plain triples (``rows``: :meth:`NativeRows.freeze`) in one transaction:
    ``cypher/import_native.cypher``, then, in the same transaction, the reified edges of the literal values
    that did not fit the others of their key (in the batch, or in the database).

    Raises:
        ImportAborted: the import is no longer running (nothing written).
        StoreUnavailable: Neo4j cannot be reached (nothing written).
        RecordingFailed: Neo4j refused the write (nothing written).
    """
    check_scope(workspace, collection)
    params = {"workspace": workspace, "collection": collection, "import_id": import_id, "rows": rows.params()}

    def work(tx: Transaction) -> bool:
        found = tx.run(Q.import_native.text, params).single()
        if found is None or list(found["missing"]):
            return True
        reified = rows.reified(found["misfits"])
        if reified is not None:
            tx.run(Q.record_batch.text, batch_params(workspace, collection, reified, (), import_id)).consume()
        return False

    try:
        stopped = store.write_transaction(work, what)
    except StoreUnavailable:
        raise
    except StoreError as e:
        code = e.__cause__.code if isinstance(e.__cause__, Neo4jError) else None
        if code != _STOPPED:
            raise RecordingFailed(f"{what} failed and was rolled back: {e}") from e
        stopped = True
    if stopped:
        raise ImportAborted(f"{what}: import {import_id} is no longer running (it was rolled back); nothing written")
