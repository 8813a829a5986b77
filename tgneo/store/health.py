"""Health checks an operator (and the fault benches) run over a store: is anything half-written?

Every step is one transaction (the recorder), every document one transaction, every import journaled,
so a crash — Neo4j stopped, the server killed — should leave nothing half-written. :func:`half_written`
is the check that says so, or names what is not: it looks for the shapes a non-atomic write would
leave (``cypher/half_written.cypher``).

:func:`residue` is the other check months of operation call for: garbage nothing keeps alive — a
statement retracted from the graph that no trace quotes any more, a forgotten chunk or removed
document no trace names. A prune sweeps what the traces it deletes kept (``retention.sweep``); a prune
cut off before its sweep, or a store pruned by an older tgneo, leaves some, and :func:`sweep_residue`
deletes it in bounded transactions (``tgneo traces check --sweep``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tgneo.native import STRUCTURE_KEYS
from tgneo.scope import check_name
from tgneo.store import audit
from tgneo.store.driver import Store
from tgneo.store.queries import Q
from tgneo.store.retention import sweep

__all__ = ["Problem", "Residue", "half_written", "residue", "sweep_residue"]


@dataclass(frozen=True)
class Problem:
    """A node a half-done write would leave, and what is wrong with it."""

    uri: str
    problem: str


def half_written(store: Store, workspace: str | None = None) -> list[Problem]:
    """Everything that looks half-written in ``workspace`` (every workspace when ``None``); empty when healthy."""
    if workspace is not None:
        check_name(workspace, "workspace")
    return [Problem(r["uri"], r["problem"]) for r in store.read(Q.half_written, workspace=workspace)]


@dataclass(frozen=True)
class Residue:
    """A statement (``kind`` "statement", ``key`` its id) or bare resource (``key`` its uri) nothing keeps alive."""

    collection: str
    kind: str
    key: str


def residue(store: Store, workspace: str, collection: str | None = None, *, limit: int = 10_000) -> list[Residue]:
    """Garbage in ``workspace`` (one collection, or all): at most ``limit`` statements and ``limit`` resources.

    A collection with an unfinished import is skipped (its batches may hold a statement unreferenced
    for a moment); run the check again once ``tgneo import`` has finished or been recovered.
    """
    check_name(workspace, "workspace")
    if collection is not None:
        check_name(collection, "collection")
    rows = store.read(Q.residue, workspace=workspace, collection=collection, reserved=STRUCTURE_KEYS, limit=limit)
    return [Residue(r["collection"], r["kind"], r["key"]) for r in rows]


def sweep_residue(
    store: Store,
    workspace: str,
    collection: str | None = None,
    *,
    who: str,
    progress: Callable[[int], None] | None = None,
    batch: int = 500,
) -> int:
    """Delete :func:`residue` in transactions of at most ``batch`` keys, until none is left; how many went.

    Each key is checked again as it is deleted (``retention.sweep``), so a statement an import or a
    trace took up in the meantime stays. ``progress(deleted)`` after each transaction; the sweep is
    recorded in the audit log as done by ``who``.
    """
    deleted = 0
    while found := residue(store, workspace, collection, limit=batch):
        by_collection: dict[str, tuple[list[str], list[str]]] = {}
        for r in found:
            statements, resources = by_collection.setdefault(r.collection, ([], []))
            (statements if r.kind == "statement" else resources).append(r.key)
        went = sum(sweep(store, workspace, name, s, r, slice_size=batch) for name, (s, r) in by_collection.items())
        if not went:
            break  # what is left is kept alive after all (taken up since it was found)
        deleted += went
        if progress:
            progress(deleted)
    audit.record("sweep", who=who, workspace=workspace, collection=collection, swept=deleted)
    return deleted
