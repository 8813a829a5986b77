"""All-or-nothing imports of any size: a journal, marks on what an import creates, undo records, recovery.

A file of a million triples cannot be one Neo4j transaction, yet ``tgneo import`` must leave a
collection exactly as it was when anything fails, including Neo4j itself going away mid-import. So:

1. :func:`begin` writes a journal node ``(:TgImport {id, state: 'running', heartbeat, host, pid})``.
2. Every batch (``cypher/record_batch.cypher`` with ``$import``) first checks that the journal still
   says ``running`` and beats its heartbeat, then writes. Each node it *creates* carries
   ``tg_import = id``; each change to a node it did *not* create (labels and properties of an
   entity, its facts — the relationships and property values of the knowledge graph —, graphs a
   statement is asserted in, relationships added to it) leaves a ``:TgImportUndo`` record holding what
   was there before (a snapshot of the node before its first change). A node (or namespace prefix)
   another unfinished import created and this one needs is *claimed* (a ``:TgImportUndo`` of kind
   ``claim``), so that import's rollback keeps it.
3. :func:`commit` flips the journal to ``committed`` (the point of no return), then releases the
   marks and drops the records in slices, and removes the journal.
4. :func:`rollback` flips it to ``rolling_back``, applies the undo records, deletes the nodes the
   import created (unless a live import claimed them), and removes the journal. Every slice is
   idempotent, so a rollback interrupted by a crash simply runs again.
5. :func:`recover` runs at the start of every import and export: it finishes committed imports,
   finishes half-done rollbacks, and rolls back running imports whose owner is gone (a process on
   this host that no longer exists, or a heartbeat older than ``lease_seconds``).

Readers may see an import's nodes before it commits (Neo4j has no snapshot across transactions);
what this guarantees is that a failed import leaves nothing behind once recovered. One limit: when
two imports add the *same* new label or property to the same older node at the same time and one of
them fails, the rollback removes it even though the other import wanted it too.
"""

from __future__ import annotations

import logging
import os
import socket
import uuid
from dataclasses import dataclass

from tgneo.errors import StoreError
from tgneo.store.driver import Store
from tgneo.store.queries import CypherQuery, Q

log = logging.getLogger("tgneo.store")

SLICE = 5000
"""Nodes (or records) one commit or rollback transaction handles."""
LEASE_SECONDS = 120.0
"""A running import whose heartbeat is older than this counts as abandoned (its batches beat it)."""


@dataclass(frozen=True)
class Unfinished:
    """An import found unfinished, and what recovery did with it."""

    id: str
    state: str
    action: str  # "released" | "rolled back" | "left running"


def begin(store: Store, workspace: str, collection: str, digest: str, source: str) -> str:
    """Open a journal for a new import and return its id."""
    import_id = uuid.uuid4().hex
    store.write(
        Q.import_begin, workspace=workspace, collection=collection, import_id=import_id, digest=digest,
        source=source, host=socket.gethostname(), pid=os.getpid(),
    )  # fmt: skip
    return import_id


def _move(store: Store, workspace: str, collection: str, import_id: str, from_: list[str], to: str) -> str | None:
    params = {"workspace": workspace, "collection": collection, "import_id": import_id, "from": from_, "to": to}
    records = store.write(Q.import_state, **params)
    return records[0]["before"] if records else None


def _slices(store: Store, query: CypherQuery, workspace: str, collection: str, import_id: str) -> None:
    while True:
        records = store.write(query, workspace=workspace, collection=collection, import_id=import_id, limit=SLICE)
        if not records or records[0]["done"] == 0:
            return


def _forget(store: Store, workspace: str, collection: str, import_id: str) -> None:
    _move(store, workspace, collection, import_id, ["committed"], "done")
    store.write(Q.import_forget, workspace=workspace, collection=collection, import_id=import_id)


def commit(store: Store, workspace: str, collection: str, import_id: str) -> None:
    """Make every batch of the import permanent.

    Raises:
        StoreError: the journal is no longer running (recovery rolled it back), or Neo4j failed.
    """
    before = _move(store, workspace, collection, import_id, ["running"], "committed")
    if before != "running":
        raise StoreError(f"import {import_id} could not commit: it is {before or 'gone'}")
    release(store, workspace, collection, import_id)


def release(store: Store, workspace: str, collection: str, import_id: str) -> None:
    """Finish a committed import: drop its marks and records, then its journal."""
    _slices(store, Q.import_release, workspace, collection, import_id)
    _forget(store, workspace, collection, import_id)


def rollback(store: Store, workspace: str, collection: str, import_id: str) -> None:
    """Undo everything the import wrote; safe to call again after an interruption."""
    before = _move(store, workspace, collection, import_id, ["running", "rolling_back"], "rolling_back")
    if before not in ("running", "rolling_back"):
        return
    _slices(store, Q.import_undo, workspace, collection, import_id)
    _slices(store, Q.import_drop_resources, workspace, collection, import_id)
    _slices(store, Q.import_drop_statements, workspace, collection, import_id)
    _slices(store, Q.import_drop_prefixes, workspace, collection, import_id)
    _move(store, workspace, collection, import_id, ["rolling_back"], "rolled_back")
    store.write(Q.import_forget, workspace=workspace, collection=collection, import_id=import_id)


def _owner_gone(host: str | None, pid: int | None) -> bool:
    """Whether the process that ran an import is known to be gone (only knowable on its own host)."""
    if host != socket.gethostname() or pid is None:
        return False
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


def recover(store: Store, workspace: str, collection: str, lease_seconds: float = LEASE_SECONDS) -> list[Unfinished]:
    """Finish or undo the imports into this collection that never finished (see the module docstring)."""
    found: list[Unfinished] = []
    for r in store.read(Q.import_unfinished, workspace=workspace, collection=collection):
        state, import_id = r["state"], r["id"]
        if state == "committed":
            release(store, workspace, collection, import_id)
            action = "released"
        elif state == "rolling_back" or _owner_gone(r["host"], r["pid"]) or r["seconds_since"] >= lease_seconds:
            rollback(store, workspace, collection, import_id)
            action = "rolled back"
        else:
            action = "left running"
        log.info("recovery: import %s (%s) %s", import_id, state, action)
        found.append(Unfinished(import_id, state, action))
    return found
