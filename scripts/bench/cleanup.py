"""Removing a benchmark's collections without exhausting Neo4j's transaction memory.

Reified edges go first, then the knowledge graph's facts, in small batches, so a dense resource (a class
every entity of a 1M-triple graph is typed with) is left with no relationships before it is deleted.
Deleting resources first would detach such a node — hundreds of thousands of relationships — in one
transaction, past ``db.memory.transaction.total.max``. Every node tgneo writes carries ``:Tgneo``.
"""

from __future__ import annotations

from collections.abc import Iterable

from neo4j import Session

_DROPS = (
    "MATCH (n:TgStatement {workspace: $w, collection: $c}) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS",
    "MATCH (:TgResource {workspace: $w, collection: $c})-[r]->() WHERE r.iri IS NOT NULL "
    "CALL (r) { DELETE r } IN TRANSACTIONS OF 10000 ROWS",
    "MATCH (n:TgResource {workspace: $w, collection: $c}) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 1000 ROWS",
    "MATCH (n:Tgneo {workspace: $w, collection: $c}) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 1000 ROWS",
)


def drop_collections(session: Session, workspace: str, collections: Iterable[str]) -> None:
    """Delete every node of ``collections`` in ``workspace``: reified edges, facts, resources, then the rest."""
    for collection in collections:
        for query in _DROPS:
            session.run(query, w=workspace, c=collection).consume()
