"""Schema installation: every constraint and index exists afterwards, and installing again changes nothing."""

from __future__ import annotations

from tgneo.store import Store, install_schema
from tgneo.store.schema import SCHEMA


def _schema_state(store: Store) -> set[tuple[str, str]]:
    with store.driver.session(database=store.database) as session:
        constraints = {("constraint", r["name"]) for r in session.run("SHOW CONSTRAINTS YIELD name")}
        indexes = {("index", r["name"]) for r in session.run("SHOW INDEXES YIELD name")}
    return constraints | indexes


def test_schema_install_creates_every_declared_item(store: Store) -> None:
    install_schema(store)
    names = {name for _, name in _schema_state(store)}
    assert {item.name for item in SCHEMA} <= names


def test_schema_install_is_idempotent(store: Store) -> None:
    install_schema(store)
    before = _schema_state(store)
    statements = install_schema(store)
    assert statements, "install_schema ran nothing"
    assert _schema_state(store) == before


def test_resource_identity_is_unique_per_workspace_and_collection(store: Store, collection: str) -> None:
    import pytest

    from tgneo.errors import StoreError

    with store.driver.session(database=store.database) as session:
        session.run("CREATE (:Resource {workspace: 'w', collection: $c, uri: 'urn:x'})", c=collection).consume()
        session.run(  # the same IRI in another collection is another node
            "CREATE (:Resource {workspace: 'w', collection: $c, uri: 'urn:x'})", c=collection + "-other"
        ).consume()

    def duplicate(tx):  # type: ignore[no-untyped-def]
        tx.run("CREATE (:Resource {workspace: 'w', collection: $c, uri: 'urn:x'})", c=collection).consume()

    with pytest.raises(StoreError, match="ConstraintValidationFailed"):
        store.write_transaction(duplicate, "creating a duplicate resource")
