"""Constraints and indexes, declared once in :data:`SCHEMA` and installed idempotently (``IF NOT EXISTS``).

The identity constraints (one ``:Resource`` per IRI, one ``:Statement`` per triple, per workspace
and collection) are what make ``MERGE`` safe under concurrent writers; the range indexes serve the
trace reader. Schema statements cannot take ``$parameters`` for labels or property names, so they
are built here from ``Label`` members and fixed property names only; no user string ever reaches
them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tgneo.store.driver import Store
from tgneo.vocab import Label

Kind = Literal["unique", "range"]


@dataclass(frozen=True)
class SchemaItem:
    """One constraint or index: a name, a label and its properties."""

    name: str
    kind: Kind
    label: Label
    properties: tuple[str, ...]

    def cypher(self) -> str:
        props = ", ".join(f"n.{p}" for p in self.properties)
        target = f"FOR (n:{self.label.value})"
        # DDL takes no parameters: name, label and properties come only from SCHEMA below.
        if self.kind == "unique":
            unique = f"REQUIRE ({props}) IS UNIQUE"
            return f"CREATE CONSTRAINT {self.name} IF NOT EXISTS {target} {unique}"  # cypher-label-ok
        return f"CREATE INDEX {self.name} IF NOT EXISTS {target} ON ({props})"  # cypher-label-ok


SCHEMA: tuple[SchemaItem, ...] = (
    # Identity: one node per IRI and one statement node per (s, p, o) in each workspace + collection.
    SchemaItem("tgneo_resource_key", "unique", Label.RESOURCE, ("workspace", "collection", "uri")),
    SchemaItem("tgneo_statement_key", "unique", Label.STATEMENT, ("workspace", "collection", "id")),
    # The trace reader: label lookups (rdfs:label statements by subject) and newest-first listing.
    SchemaItem("tgneo_statement_subject", "range", Label.STATEMENT, ("workspace", "collection", "s", "p")),
    SchemaItem("tgneo_question_time", "range", Label.QUESTION, ("workspace", "collection", "startedAtTime")),
    # Atomic imports (store.imports): the journal, and what an unfinished import created or changed.
    SchemaItem("tgneo_import_key", "unique", Label.IMPORT, ("workspace", "collection", "id")),
    SchemaItem("tgneo_resource_import", "range", Label.RESOURCE, ("workspace", "collection", "tg_import")),
    SchemaItem("tgneo_statement_import", "range", Label.STATEMENT, ("workspace", "collection", "tg_import")),
    SchemaItem("tgneo_undo_import", "range", Label.IMPORT_UNDO, ("workspace", "collection", "undo_import")),
    SchemaItem("tgneo_undo_key", "range", Label.IMPORT_UNDO, ("workspace", "collection", "undo_key")),
)


def install_schema(store: Store, items: tuple[SchemaItem, ...] = SCHEMA) -> list[str]:
    """Create every constraint and index that is missing, wait until they are online, and return the DDL run."""
    statements = [item.cypher() for item in items]
    for statement in statements:
        store.run_schema(statement)
    store.run_schema("CALL db.awaitIndexes(300)")
    return statements
