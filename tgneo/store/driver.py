"""The one place tgneo holds a Neo4j driver: lifecycle, read/write helpers, error translation.

Reads go with read routing and writes in write transactions, so a ``neo4j://`` routing URI to a
cluster works as well as the local ``bolt://`` server. Driver exceptions never leave this package:
an unreachable server becomes ``StoreUnavailable`` (HTTP 503), anything else ``StoreError``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import neo4j
from neo4j import GraphDatabase, ManagedTransaction, NotificationDisabledClassification, RoutingControl
from neo4j.exceptions import (
    AuthError,
    DriverError,
    Neo4jError,
    ServiceUnavailable,
    SessionExpired,
)

from tgneo.config import Settings
from tgneo.errors import StoreError, StoreUnavailable
from tgneo.store.queries import CypherQuery

T = TypeVar("T")


def resolve_connection(settings: Settings) -> tuple[str, tuple[str, str] | None]:
    """URI and auth from the settings, else from the local ``tgneo db`` default instance."""
    if settings.neo4j_uri:
        auth = (settings.neo4j_username, settings.neo4j_password) if settings.neo4j_password else None
        return settings.neo4j_uri, auth
    from tgneo.provision import LocalNeo4j

    instance = LocalNeo4j(settings.home).instance
    password = instance.password()
    return instance.bolt_uri, ((settings.neo4j_username, password) if password else None)


@contextmanager
def translate_errors(action: str, uri: str) -> Iterator[None]:
    """Turn driver exceptions into tgneo's typed errors naming what failed and where."""
    try:
        yield
    except (ServiceUnavailable, SessionExpired) as e:
        raise StoreUnavailable(f"Neo4j is unreachable at {uri} while {action}: {e}") from e
    except AuthError as e:
        raise StoreUnavailable(f"Neo4j at {uri} refused the credentials while {action}: {e.message}") from e
    except Neo4jError as e:
        raise StoreError(f"Neo4j error while {action}: {e.code}: {e.message}") from e
    except (DriverError, OSError) as e:
        raise StoreUnavailable(f"Neo4j is unreachable at {uri} while {action}: {e}") from e


class Store:
    """A driver plus a database name. Cheap to share between threads; close it once.

    Args:
        uri: ``bolt://``, ``neo4j://`` (routing) or their ``+s`` variants.
        auth: ``(username, password)``, or ``None`` when the server runs without authentication.
        database: the database every query runs against.
        connect_timeout: seconds before an unreachable server counts as down.
    """

    def __init__(
        self,
        uri: str,
        auth: tuple[str, str] | None = None,
        database: str = "neo4j",
        connect_timeout: float = 5.0,
    ) -> None:
        self.uri = uri
        self.database = database
        with translate_errors("creating the driver", uri):
            self.driver: neo4j.Driver = GraphDatabase.driver(
                uri,
                auth=auth,
                connection_timeout=connect_timeout,
                connection_acquisition_timeout=max(connect_timeout * 2, 10.0),
                max_transaction_retry_time=max(connect_timeout, 5.0),
                # A fresh database has not seen every label, type and property the named queries
                # mention; those "unrecognized" notices are noise. Deprecations still surface.
                notifications_disabled_classifications=[
                    NotificationDisabledClassification.UNRECOGNIZED,
                    NotificationDisabledClassification.HINT,
                ],
            )

    @classmethod
    def from_settings(cls, settings: Settings | None = None) -> Store:
        """A store configured from ``NEO4J_*`` (or the local ``tgneo db`` server)."""
        settings = settings or Settings.from_env()
        uri, auth = resolve_connection(settings)
        return cls(uri, auth, settings.neo4j_database, settings.neo4j_connect_timeout)

    def close(self) -> None:
        self.driver.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def verify(self) -> None:
        """Raise ``StoreUnavailable`` unless Neo4j answers and accepts the credentials."""
        with translate_errors("connecting", self.uri):
            self.driver.verify_connectivity()

    def read(self, query: CypherQuery, **params: Any) -> list[neo4j.Record]:
        """Run a read query (read routing) and return its records."""
        with translate_errors(f"running {query.name}", self.uri):
            records, _, _ = self.driver.execute_query(
                query.text, params, database_=self.database, routing_=RoutingControl.READ
            )
        return list(records)

    def write(self, query: CypherQuery, **params: Any) -> list[neo4j.Record]:
        """Run one write query in its own (retried) write transaction."""
        with translate_errors(f"running {query.name}", self.uri):
            records, _, _ = self.driver.execute_query(
                query.text, params, database_=self.database, routing_=RoutingControl.WRITE
            )
        return list(records)

    def write_transaction(self, work: Callable[[ManagedTransaction], T], action: str) -> T:
        """Run ``work`` in one managed write transaction: all of it commits, or none of it."""
        with translate_errors(action, self.uri), self.driver.session(database=self.database) as session:
            return session.execute_write(work)

    def run_schema(self, statement: str) -> None:
        """Run one schema statement (DDL cannot be parameterised; callers build it from the vocabulary)."""
        with (
            translate_errors("installing the schema", self.uri),
            self.driver.session(database=self.database) as session,
        ):
            session.run(statement).consume()

    def server_info(self) -> dict[str, str]:
        """Name, version and edition of the server (e.g. ``5.26.30`` / ``community``)."""
        from tgneo.store.queries import Q

        record = self.read(Q.server_components)[0]
        return {"name": record["name"], "version": record["version"], "edition": record["edition"]}
