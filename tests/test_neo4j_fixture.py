"""The session fixture reaches a real Neo4j 5.26 Community, and tgneo's store works against it."""

from __future__ import annotations

from tests.conftest import Neo4jServer
from tgneo.store import Store


def test_fixture_reaches_neo4j_5_26_community(store: Store) -> None:
    info = store.server_info()
    assert info["version"].startswith("5.26."), info
    assert info["edition"] == "community"


def test_fixture_server_requires_authentication(neo4j_server: Neo4jServer) -> None:
    """Security by default: the local server runs with auth on, so a wrong password is refused."""
    import pytest

    from tgneo.errors import StoreUnavailable

    if neo4j_server.password is None:
        pytest.fail(f"the {neo4j_server.origin} server runs without authentication")
    with Store(neo4j_server.uri, ("neo4j", "not-the-password"), connect_timeout=3) as wrong:
        with pytest.raises(StoreUnavailable, match="refused the credentials"):
            wrong.verify()


def test_collections_are_unique_per_test(collection: str) -> None:
    assert collection.startswith("test-test-collections-are-unique-per-test-")


def test_generated_passwords_are_never_read_as_an_option_by_neo4j_admin() -> None:
    """``neo4j-admin dbms set-initial-password -x…`` fails; one ``token_urlsafe`` password in 64 began so."""
    from tgneo.provision.server import _new_password

    passwords = [_new_password() for _ in range(2000)]
    assert all(p.isalnum() and p.isascii() and len(p) == 24 for p in passwords)
    assert len(set(passwords)) == len(passwords)
