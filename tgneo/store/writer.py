"""The one write path: a compiled batch (a recorded step, or a slice of an import) in one transaction.

The recorder and the importer both write through :func:`write_batch`, so a step written live and the
same step imported from a file become the same nodes, under the same parent check and the same
all-or-nothing guarantee. It lives in ``store`` because writing is storage's job; the recorder adds
only what is the explain layer's own: emitting the event once the write has committed.

An import's plain knowledge-graph triples (most of any large file) take :func:`write_plain`, which
writes the same ``:Statement`` nodes with a lighter query (``graphmodel.PlainRows``: flat rows, each resource
named once per batch, new statements created rather than merged).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from neo4j.exceptions import Neo4jError

from tgneo.errors import ImportAborted, ParentNotFound, RecordingFailed, StoreError, StoreUnavailable
from tgneo.graphmodel import WriteBatch
from tgneo.scope import check_scope
from tgneo.store.driver import Store
from tgneo.store.queries import Q


def batch_params(
    workspace: str, collection: str, batch: WriteBatch, parents: Iterable[str] = (), import_id: str | None = None
) -> dict[str, Any]:
    """The parameters of ``record_batch`` for ``batch`` in ``workspace``/``collection`` (scope checked)."""
    check_scope(workspace, collection)
    params: dict[str, Any] = {
        "workspace": workspace, "collection": collection, "parents": list(parents), "import_id": import_id,
    }  # fmt: skip
    params.update(batch.params())
    return params


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
    nothing, and any failure inside it rolls all of it back. Transient failures (deadlocks with
    other writers) are retried by the store.

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
    params = batch_params(workspace, collection, batch, parents, import_id)
    try:
        records = store.write(Q.record_batch, **params)
    except StoreUnavailable:
        raise
    except StoreError as e:
        raise RecordingFailed(f"{what} failed and was rolled back: {e}") from e
    missing = list(records[0]["missing"]) if records else []
    if import_id is not None and import_id in missing:
        raise ImportAborted(f"{what}: import {import_id} is no longer running (it was rolled back); nothing written")
    if missing:
        raise ParentNotFound(f"{what}: parent step(s) not recorded in {workspace}/{collection}: {', '.join(missing)}")


_RACED = "Neo.ClientError.Schema.ConstraintValidationFailed"
_STOPPED = "Neo.ClientError.Statement.ArithmeticError"
"""How ``import_statements`` fails its own transaction when it finds its import stopped (see its header)."""
_RACE_TRIES = 3


def write_plain(
    store: Store,
    workspace: str,
    collection: str,
    rows: dict[str, list[list[Any]]],
    import_id: str,
    *,
    what: str = "importing",
) -> None:
    """Write one batch of an import's plain triples (``rows``: :meth:`PlainRows.params`) in one transaction.

    The query CREATEs the statements it does not find. When a concurrent writer created one of them
    between the look and the write, Neo4j refuses the whole transaction on the key constraint; run
    again, the batch finds that statement and merges into it instead.

    Raises:
        ImportAborted: the import is no longer running (nothing written).
        StoreUnavailable: Neo4j cannot be reached (nothing written).
        RecordingFailed: Neo4j refused the write (nothing written).
    """
    check_scope(workspace, collection)
    params = {"workspace": workspace, "collection": collection, "import_id": import_id, **rows}
    for attempt in range(1, _RACE_TRIES + 1):
        try:
            records = store.write(Q.import_statements, **params)
            stopped = bool(records and list(records[0]["missing"]))
            break
        except StoreUnavailable:
            raise
        except StoreError as e:
            code = e.__cause__.code if isinstance(e.__cause__, Neo4jError) else None
            if code == _STOPPED:
                stopped = True
                break
            if attempt < _RACE_TRIES and code == _RACED:
                continue
            raise RecordingFailed(f"{what} failed and was rolled back: {e}") from e
    if stopped:
        raise ImportAborted(f"{what}: import {import_id} is no longer running (it was rolled back); nothing written")
