"""Collections as a user manages them: which exist and what they hold, asking only ones that hold
something, and dropping one.

A collection is not declared anywhere: it exists while some node carries its name (every node is keyed
by workspace and collection). So a question to a mistyped collection must be refused *before* its
Question is recorded — otherwise the typo becomes a collection holding one empty trace — and dropping
one means deleting every node that carries its name, in bounded batches.
"""

from __future__ import annotations

import shlex
import time
from collections.abc import Callable
from dataclasses import dataclass

from tgneo.errors import EmptyCollection
from tgneo.native import STRUCTURE_KEYS
from tgneo.scope import DEFAULT_SCOPE, check_name, check_scope
from tgneo.store.driver import Store
from tgneo.store.queries import Q
from tgneo.vocab import GRAPH_SOURCE

__all__ = ["DROP_BATCH", "CollectionCounts", "drop_collection", "list_collections", "require_content"]

DROP_BATCH = 2_000
"""Nodes deleted per transaction by :func:`drop_collection`."""
HOLDS_TTL = 60.0
"""Seconds a collection found to hold content is believed to still hold it (see :func:`require_content`)."""
_holding: dict[tuple[int, str, str], float] = {}


@dataclass(frozen=True)
class CollectionCounts:
    """A collection and what it holds (see ``cypher/collection_counts.cypher``)."""

    collection: str
    documents: int
    chunks: int
    statements: int
    questions: int
    resources: int


def list_collections(store: Store, workspace: str) -> list[CollectionCounts]:
    """Every collection of ``workspace`` that holds anything, in name order, with its counts."""
    check_name(workspace, "workspace")
    return [
        CollectionCounts(
            r["collection"], r["documents"], r["chunks"], r["statements"], r["questions"], r["resources"]
        )  # fmt: skip
        for r in store.read(Q.collection_counts, workspace=workspace, reserved=STRUCTURE_KEYS)
    ]


def require_content(store: Store, workspace: str, collection: str) -> None:
    """Refuse a question to a collection that holds nothing to answer from, before anything is recorded.

    Content only grows between loads, so a positive answer is remembered per store for
    :data:`HOLDS_TTL` seconds: a question pays this round trip once a minute per collection, not each
    time (a collection dropped meanwhile is then found empty by the engines' own searches, which say so).

    Raises:
        EmptyCollection: ``workspace``/``collection`` holds no statement and no document; the message
            names the workspace's collections that do hold something, and nothing was recorded.
    """
    key = (id(store), workspace, collection)
    now = time.monotonic()
    if _holding.get(key, 0.0) > now:
        return
    found = store.read(Q.holds_content, workspace=workspace, collection=collection, source_graph=GRAPH_SOURCE,
                       reserved=STRUCTURE_KEYS)  # fmt: skip
    if found and found[0]["holds"]:
        _holding[key] = now + HOLDS_TTL
        return
    known = [c.collection for c in list_collections(store, workspace) if c.documents or c.statements]
    listed = ", ".join(known) if known else "none yet"
    raise EmptyCollection(
        f"workspace {workspace!r}, collection {collection!r} holds no documents and no knowledge graph, so "
        f"nothing was asked or recorded. Collections of workspace {workspace!r} with content: {listed}. "
        f"Load documents with `tgneo load documents PATH{_options(workspace)} --collection {shlex.quote(collection)}`, "
        "or ask one of those."
    )


def _options(workspace: str) -> str:
    """``--workspace W`` for a printed command, when W is not the default (the shell it is pasted into may not have
    ``TGNEO_WORKSPACE``)."""
    return "" if workspace == DEFAULT_SCOPE else f" --workspace {shlex.quote(workspace)}"


def drop_collection(
    store: Store, workspace: str, collection: str, progress: Callable[[int], None] | None = None
) -> int:
    """Delete every node of ``workspace``/``collection``, :data:`DROP_BATCH` per transaction; return how many nodes.

    Reified edges go first (a handful of relationships each), then the knowledge graph's facts, then
    resources — so no transaction holds a dense entity's relationships at once — then import journals and
    the namespace table. Nothing of another collection or workspace is touched: every query is keyed by
    both names.

    Args:
        progress: called with the number of nodes each batch deleted.
    """
    check_scope(workspace, collection)
    _holding.pop((id(store), workspace, collection), None)
    total = 0
    steps = (Q.drop_collection_statements, Q.drop_collection_facts, Q.drop_collection_resources,
             Q.drop_collection_imports)  # fmt: skip
    for query in steps:
        while True:
            deleted = int(
                store.write(query, workspace=workspace, collection=collection, batch=DROP_BATCH)[0]["deleted"]
            )
            total += deleted if query is not Q.drop_collection_facts else 0
            if progress is not None and deleted and query is not Q.drop_collection_facts:
                progress(deleted)
            if deleted < DROP_BATCH:
                break
    return total
