"""Removing a benchmark's collections without exhausting Neo4j's transaction memory.

Statements go first, in small batches: each takes its SUBJECT/PREDICATE/OBJECT relationships with it,
so a dense resource (a predicate every statement of a 1M-statement graph points at) is left with no
relationships before it is deleted. Deleting resources first would detach such a node — hundreds of
thousands of relationships — in one transaction, past ``db.memory.transaction.total.max``.
"""

from __future__ import annotations

from collections.abc import Iterable

from neo4j import Session

_DROPS = (
    "MATCH (n:Statement {workspace: $w, collection: $c}) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS",
    "MATCH (n:Resource {workspace: $w, collection: $c}) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 1000 ROWS",
    "MATCH (n {workspace: $w, collection: $c}) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 1000 ROWS",
)


def drop_collections(session: Session, workspace: str, collections: Iterable[str]) -> None:
    """Delete every node of ``collections`` in ``workspace``: statements, then resources, then the rest."""
    for collection in collections:
        for query in _DROPS:
            session.run(query, w=workspace, c=collection).consume()
