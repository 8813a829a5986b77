"""The one place tgneo holds a Neo4j driver: lifecycle, transactions, retries, error translation.

Reads go with read routing and writes in write transactions, so a ``neo4j://`` routing URI to a
cluster works as well as the local ``bolt://`` server. Driver exceptions never leave this package:
an unreachable server becomes ``StoreUnavailable`` (HTTP 503), anything else ``StoreError``; an unreachable
or refusing server's message names the remedy (:class:`Origin`: start the local instance, check ``NEO4J_URI``,
set the password), and with no ``NEO4J_URI`` and no local instance nothing is tried (``Neo4jNotConfigured``).

Why one bookmark manager per store: on a cluster a read goes to a follower, which may not yet have
applied the write this process committed a moment before (an answer's sources read right after they
were recorded, a trace read back for OTLP export right after its last step). Every session the store
opens (reads, writes, streams, schema statements) shares the store's
:class:`~neo4j.api.BookmarkManager`, so the driver hands each transaction the bookmarks of the writes
before it and the server waits until it has them: whatever this store wrote, it reads back. A caller
that writes with its own driver can pass its own manager and so chain tgneo's reads after its writes.

Why tgneo retries itself instead of using the driver's managed transactions: the driver retries
every retryable error alike for ``max_transaction_retry_time`` (30 s by default in neo4j 6.1),
printing a warning each time. That suits deadlocks: sixteen writers locking the same statement nodes
can keep hitting ``DeadlockDetected``, a transient error that always clears, and tgneo too retries
those for ``retry_seconds`` (30 s by default) with jittered exponential backoff. It does not suit a
server that is simply not there: a command run against a stopped Neo4j should fail in a moment with
one clear line, not after 30 s of chatter. So a connection failure is retried only once this store
has reached Neo4j before (a restart or a cluster failover mid-flight), never on first
contact. Every retry is logged on the ``tgneo.store`` logger. Schema statements retry too: two
processes installing the schema at once deadlock on the labels' schema locks, and one of two
``CREATE … IF NOT EXISTS`` that both found the index missing is refused as already existing (run
again, it finds the index and does nothing).
"""

from __future__ import annotations

import logging
import random
import shlex
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import neo4j
from neo4j import GraphDatabase, NotificationDisabledClassification, Transaction
from neo4j.api import BookmarkManager
from neo4j.exceptions import (
    AuthError,
    DriverError,
    Neo4jError,
    ServiceUnavailable,
    SessionExpired,
)

from tgneo.config import Settings
from tgneo.errors import Neo4jNotConfigured, QueryTimedOut, StoreError, StoreUnavailable
from tgneo.store.graph_version import refuse
from tgneo.store.queries import CypherQuery

T = TypeVar("T")
ENTITY_GONE = "Neo.ClientError.Statement.EntityNotFound"
SCHEMA_RACE = "Neo.ClientError.Schema.EquivalentSchemaRuleAlreadyExists"
"""What the loser of two concurrent ``CREATE … IF NOT EXISTS`` of one index is told; run again, it is a no-op."""
log = logging.getLogger("tgneo.store")

READ = neo4j.READ_ACCESS
WRITE = neo4j.WRITE_ACCESS
_FIRST_DELAY = 0.05
_MAX_DELAY = 2.0


URI_VAR = "NEO4J_URI"
CREDENTIAL_VARS = "NEO4J_USERNAME and NEO4J_PASSWORD"


@dataclass(frozen=True)
class Origin:
    """Who named the Neo4j a store talks to, so that a failure to reach it, or a refusal, names the remedy.

    Why a store needs to know: "unreachable" means "start it" for a local ``tgneo db`` instance and "check the
    address" for a server the user named; "refused" means a wrong password, or none sent at all. The text is made
    when the error happens (:meth:`unreachable`, :meth:`refused`), by looking the URI up among the local instances.
    """

    uri: str | None = None
    """What named the URI (``NEO4J_URI``, ``tgneo.connect(uri=…)``); ``None``: the local default instance did."""
    credentials: str = CREDENTIAL_VARS
    """What named the username and password."""
    password_sent: bool = True
    """Whether a password was sent at all (none: a server with authentication on refuses every request)."""
    home: Path | None = None
    """Where the local instances are (``TGNEO_HOME``); ``None``: the default home."""

    def _local(self, uri: str) -> tuple[str, Path] | None:
        """The ``tgneo db`` instance ``uri`` reaches: the ``--instance`` option naming it (empty for the default
        one), and its directory."""
        from tgneo.provision.server import DEFAULT_INSTANCE, instance_at

        instance = instance_at(uri, self.home)
        if instance is None:
            return None
        named = "" if instance.name == DEFAULT_INSTANCE else f" --instance {shlex.quote(instance.name)}"
        return named, instance.directory

    def unreachable(self, uri: str) -> str:
        """What to do when nothing answers at ``uri``: start the local instance it names, or check the address."""
        local = self._local(uri)
        if local is not None:
            return f"Start it: tgneo db start{local[0]}"
        if self.uri is None:
            return "Start it: tgneo db start"
        return f"Check {self.uri}: no Neo4j answers at that address"

    def refused(self, uri: str) -> str:
        """What to do when the server at ``uri`` refuses the credentials sent (or the lack of them)."""
        local = self._local(uri)
        if local is not None and self.uri is None:  # its own password file was read, and refused
            return f"The password in {local[1] / 'password'} is not this server's: removing {local[1]} starts afresh"
        if local is not None:
            return f'It is a local tgneo instance: eval "$(tgneo db env{local[0]})" sets {CREDENTIAL_VARS} for it'
        if not self.password_sent:
            return f"No password was sent: set {self.credentials} to an account of that server"
        return f"Check {self.credentials}: that server has no such user with that password"


def resolve_connection(settings: Settings) -> tuple[str, tuple[str, str] | None]:
    """URI and auth: ``NEO4J_URI``'s (with ``NEO4J_USERNAME``/``NEO4J_PASSWORD``), else the local default instance's.

    Why no fallback to ``bolt://127.0.0.1:7687`` when there is no instance: whatever listens there (someone else's
    Neo4j, a container) refuses tgneo with an error that names neither cause nor remedy
    (``Unsupported authentication token, missing key 'scheme'``). Nothing is tried instead, and the error says what
    to run or set. A home with the default instance, or ``NEO4J_URI`` set, works as before.

    Raises:
        Neo4jNotConfigured: ``NEO4J_URI`` is unset and ``settings.home`` holds no default instance.
    """
    if settings.neo4j_uri:
        auth = (settings.neo4j_username, settings.neo4j_password) if settings.neo4j_password else None
        return settings.neo4j_uri, auth
    from tgneo.provision import LocalNeo4j

    local = LocalNeo4j(settings.home)
    if not local.exists():
        raise Neo4jNotConfigured(_nothing_configured(settings.home))
    password = local.instance.password()
    return local.instance.bolt_uri, ((settings.neo4j_username, password) if password else None)


def _nothing_configured(home: Path) -> str:
    """The one line that says tgneo knows of no Neo4j, and the three ways to give it one."""
    from tgneo.provision.server import instance_names

    others = instance_names(home)
    shown = ", ".join(others[:5]) + (f" and {len(others) - 5} more" if len(others) > 5 else "")
    where = f"no local instance in {home}" if not others else f"no default instance in {home} (only {shown})"
    pick = ' eval "$(tgneo db env --instance NAME)" to use one of those,' if others else ""
    return (
        f"no Neo4j to connect to: {URI_VAR} is not set and there is {where}. Run tgneo db start for a local "
        f"Neo4j,{pick} or set {URI_VAR}, {CREDENTIAL_VARS} to use your own"
    )


def _reason(e: BaseException) -> str:
    """The driver's message on one line (deadlock reports span several)."""
    text = f"{e.code}: {e.message}" if isinstance(e, Neo4jError) else str(e)
    return " ".join(text.split())


def _unreachable(uri: str, e: BaseException, origin: Origin) -> StoreUnavailable:
    return StoreUnavailable(f"Neo4j is unreachable at {uri}: {_reason(e).rstrip('.')}. {origin.unreachable(uri)}")


@contextmanager
def translate_errors(action: str, uri: str, origin: Origin | None = None) -> Iterator[None]:
    """Turn driver exceptions into tgneo's typed errors naming what failed, where, and what to do about it.

    A connection or credentials failure is the server's, whatever was being done: its message names the
    server, the reason and the remedy (``origin``'s: start the local instance, check ``NEO4J_URI``, set the
    password), not the internal query that happened to meet it (that goes to the log).
    A query the server refused names the query: that is what to look at.
    """
    origin = origin if origin is not None else Origin()
    try:
        yield
    except (ServiceUnavailable, SessionExpired) as e:
        log.info("Neo4j unreachable while %s", action)
        raise _unreachable(uri, e, origin) from e
    except AuthError as e:
        log.info("Neo4j refused the credentials while %s", action)
        message = " ".join((e.message or "").split()).rstrip(".")
        raise StoreUnavailable(f"Neo4j at {uri} refused the credentials: {message}. {origin.refused(uri)}") from e
    except Neo4jError as e:
        raise StoreError(f"Neo4j error while {action}: {_reason(e)}") from e
    except (DriverError, OSError) as e:
        log.info("Neo4j unreachable while %s", action)
        raise _unreachable(uri, e, origin) from e


class Store:
    """A driver plus a database name. Cheap to share between threads; close it once.

    Args:
        uri: ``bolt://``, ``neo4j://`` (routing) or their ``+s`` variants.
        auth: ``(username, password)``, or ``None`` when the server runs without authentication.
        database: the database every query runs against.
        connect_timeout: seconds before an unreachable server counts as down.
        retry_seconds: how long a transaction that failed transiently (a deadlock, a lost leader) is
            retried before the error reaches the caller.
        check_model: refuse a database that holds another graph model than this tgneo's, before the first
            query (:mod:`tgneo.store.graph_version`); only ``tgneo db migrate`` turns this off.
        bookmark_manager: the causal chain every session of this store joins (module docstring); by default a
            new one of the driver's (``GraphDatabase.bookmark_manager()``). Pass your own to chain tgneo's
            reads after writes your code made through another driver or session.
        origin: who named ``uri`` and ``auth``, for the remedy an unreachable server or a refusal names
            (:class:`Origin`); by default these arguments themselves.
    """

    def __init__(
        self,
        uri: str,
        auth: tuple[str, str] | None = None,
        database: str = "neo4j",
        connect_timeout: float = 5.0,
        retry_seconds: float = 30.0,
        check_model: bool = True,
        bookmark_manager: BookmarkManager | None = None,
        origin: Origin | None = None,
    ) -> None:
        self.uri = uri
        self.origin = origin or Origin("the uri given to Store", "the auth given to Store", auth is not None)
        self.database = database
        self.bookmark_manager = bookmark_manager or GraphDatabase.bookmark_manager()
        """Shared by every session this store opens: a read sees every write this store made before it."""
        self.retry_seconds = retry_seconds
        self.check_model = check_model
        self._model_ok = False
        self._reached = False
        self._round_trips = 0
        self._count_lock = threading.Lock()
        with translate_errors("creating the driver", uri, self.origin):
            self.driver: neo4j.Driver = GraphDatabase.driver(
                uri,
                auth=auth,
                connection_timeout=connect_timeout,
                connection_acquisition_timeout=max(connect_timeout * 2, 10.0),
                # A fresh database has not seen every label, type and property the named queries
                # mention; those "unrecognized" notices are noise. Deprecations still surface.
                notifications_disabled_classifications=[
                    NotificationDisabledClassification.UNRECOGNIZED,
                    NotificationDisabledClassification.HINT,
                ],
            )

    @classmethod
    def from_settings(
        cls, settings: Settings | None = None, check_model: bool = True, *, uri_from: str = URI_VAR,
        credentials_from: str = CREDENTIAL_VARS,
    ) -> Store:  # fmt: skip
        """A store configured from ``NEO4J_*`` (or the local ``tgneo db`` server).

        ``uri_from`` and ``credentials_from`` say what set ``settings``' URI and credentials, for the remedy an error
        names (:class:`Origin`): the environment variables, unless a caller such as ``tgneo.connect(uri=…)`` says.

        Raises:
            Neo4jNotConfigured: no ``NEO4J_URI`` and no local default instance (:func:`resolve_connection`).
        """
        settings = settings or Settings.from_env()
        uri, auth = resolve_connection(settings)
        origin = Origin(uri_from if settings.neo4j_uri else None, credentials_from, auth is not None, settings.home)
        return cls(uri, auth, settings.neo4j_database, settings.neo4j_connect_timeout, settings.neo4j_retry_seconds,
                   check_model, origin=origin)  # fmt: skip

    def close(self) -> None:
        self.driver.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def round_trips(self) -> int:
        """Transactions (one query each, or a unit of work) sent to Neo4j so far, retries included.

        Benchmarks read it before and after a question to count what a question costs in round trips.
        """
        return self._round_trips

    def _count(self) -> None:
        with self._count_lock:
            self._round_trips += 1

    def _session(self, access: str, **config: Any) -> neo4j.Session:
        """A session on this store's database, in ``access`` mode, joined to its bookmark manager.

        The only place a session is opened: no unit of work escapes the causal chain or runs in a mode
        it does not declare (a read in WRITE mode would load a cluster's leader; a write in READ mode is
        refused by the server, on one server too).
        """
        return self.driver.session(database=self.database, default_access_mode=access,
                                   bookmark_manager=self.bookmark_manager, **config)  # fmt: skip

    def verify(self) -> None:
        """Raise ``StoreUnavailable`` unless Neo4j answers and accepts the credentials."""
        with translate_errors("connecting", self.uri, self.origin):
            self.driver.verify_connectivity()
        self._reached = True

    def ensure_model(self) -> None:
        """Refuse (``NeedsMigration``) a database of another graph model; checked once per store, on first use."""
        if self._model_ok or not self.check_model:
            return
        from tgneo.store.queries import Q

        record = self.read_unchecked(Q.model_state)[0]
        legacy = [r["name"] for r in self.read_unchecked(Q.legacy_schema)]
        refuse(record["model"], record["migration"], legacy)
        self._model_ok = True

    # ------------------------------------------------------------------------------------ transactions
    def read(self, query: CypherQuery, **params: Any) -> list[neo4j.Record]:
        """Run one read query (read routing) as its own transaction and return its records."""
        self.ensure_model()
        return self.read_unchecked(query, **params)

    def read_unchecked(self, query: CypherQuery, **params: Any) -> list[neo4j.Record]:
        """:meth:`read` without the graph-model check (the check itself, the migration)."""
        return self._retrying(f"running {query.name}", READ, lambda session: list(session.run(query.text, params)))

    def stream(self, query: CypherQuery, **params: Any) -> Iterator[neo4j.Record]:
        """Yield a read query's records as Neo4j sends them, inside one read transaction (one snapshot).

        For results too large to hold (an export of a whole collection): the driver fetches records in
        batches while the caller consumes them, so memory stays flat. A transient failure before the first
        record is retried as :meth:`read` retries; after it, records have been handed out, so a failure
        raises ``StoreError`` or ``StoreUnavailable`` from wherever the caller is in the iteration.
        """
        self.ensure_model()
        action = f"running {query.name}"
        backoff = _Backoff(self, action)
        while True:
            self._count()
            handed = False
            try:
                with self._session(READ, fetch_size=2000) as session, session.begin_transaction() as tx:
                    for record in tx.run(query.text, params):
                        handed = True
                        yield record
                    self._reached = True
                return
            except (Neo4jError, DriverError, OSError) as e:
                if handed or not backoff.wait(e):
                    with translate_errors(backoff.gave_up(action), self.uri, self.origin):
                        raise
                    raise  # pragma: no cover - translate_errors always raises

    def read_bounded(
        self, query: CypherQuery, max_rows: int, timeout: float, **params: Any
    ) -> tuple[list[neo4j.Record], bool]:
        """Run one read query in a read transaction that Neo4j stops after ``timeout`` seconds.

        At most ``max_rows`` records are pulled; the rest is never sent. Returns the records and
        whether there were more.

        Raises:
            QueryTimedOut: the query ran longer than ``timeout`` (and was rolled back).
        """

        def attempt(session: neo4j.Session) -> tuple[list[neo4j.Record], bool]:
            try:
                with session.begin_transaction(timeout=timeout) as tx:
                    records = tx.run(query.text, params).fetch(max_rows + 1)
            except Neo4jError as e:
                if "TransactionTimedOut" in (e.code or ""):
                    raise QueryTimedOut(f"{query.name} ran longer than {timeout:g}s and was stopped") from e
                raise
            return records[:max_rows], len(records) > max_rows

        self.ensure_model()
        return self._retrying(f"running {query.name}", READ, attempt)

    def write(self, query: CypherQuery, **params: Any) -> list[neo4j.Record]:
        """Run one write query as its own transaction — atomic, as every single statement is — and return its records.

        It runs as an auto-commit transaction: one round trip fewer than ``BEGIN … COMMIT`` around it,
        which is a good part of what a recorded step costs.
        """
        self.ensure_model()
        return self._retrying(f"running {query.name}", WRITE, lambda session: list(session.run(query.text, params)))

    def write_transaction(self, work: Callable[[Transaction], T], action: str) -> T:
        """Run ``work`` in one write transaction: all of it commits, or none of it."""
        return self.transaction(work, action, WRITE)

    def transaction(self, work: Callable[[Transaction], T], action: str, access: str = READ) -> T:
        """Run ``work`` in one transaction, retrying it whole while the failure is transient.

        ``work`` may run more than once, so it must not have side effects outside the transaction.

        Raises:
            StoreUnavailable: Neo4j cannot be reached (at once on first contact; after
                ``retry_seconds`` of retries when this store had reached it before).
            StoreError: Neo4j refused the transaction, or kept failing transiently for
                ``retry_seconds``.
        """

        def attempt(session: neo4j.Session) -> T:
            with session.begin_transaction() as tx:
                result = work(tx)
                tx.commit()
            return result

        self.ensure_model()
        return self._retrying(action, access, attempt)

    def _retrying(
        self, action: str, access: str, attempt: Callable[[neo4j.Session], T], also: frozenset[str] = frozenset()
    ) -> T:
        """Run ``attempt`` in a fresh session until it succeeds or fails for good (see :meth:`transaction`);
        errors of the codes in ``also`` count as transient too."""
        backoff = _Backoff(self, action, also)
        while True:
            self._count()
            try:
                with self._session(access) as session:
                    result = attempt(session)
                self._reached = True
                return result
            except (Neo4jError, DriverError, OSError) as e:
                if not backoff.wait(e):
                    with translate_errors(backoff.gave_up(action), self.uri, self.origin):
                        raise
                    raise  # pragma: no cover - translate_errors always raises

    def _transient(self, e: BaseException, also: frozenset[str] = frozenset()) -> bool:
        """Whether retrying can help: a transient Neo4j error, or a lost server that once answered."""
        if isinstance(e, ServiceUnavailable | SessionExpired):
            return self._reached
        # a node the query was reading was deleted by a concurrent transaction (two prunes of one collection):
        # run again, the query sees the committed state
        return isinstance(e, Neo4jError) and (e.is_retryable() or e.code == ENTITY_GONE or e.code in also)

    def run_schema(self, statement: str) -> None:
        """Run one schema statement (DDL cannot be parameterised; callers build it from the vocabulary).

        Retried like any transaction (module docstring): every statement tgneo runs here is idempotent
        (``IF NOT EXISTS``, ``IF EXISTS``), so running it again is always safe.
        """
        self.ensure_model()
        self._retrying("installing the schema", WRITE, lambda session: session.run(statement).consume(),
                       also=frozenset({SCHEMA_RACE}))  # vetted DDL, see store.schema  # fmt: skip

    def server_info(self) -> dict[str, str]:
        """Name, version and edition of the server (e.g. ``5.26.30`` / ``community``)."""
        from tgneo.store.queries import Q

        record = self.read_unchecked(Q.server_components)[0]
        return {"name": record["name"], "version": record["version"], "edition": record["edition"]}


class _Backoff:
    """When to retry a failed attempt of a store's unit of work, and how long to wait first (jittered, doubling)."""

    def __init__(self, store: Store, action: str, also: frozenset[str] = frozenset()) -> None:
        self.store, self.action, self.also = store, action, also
        self.started = time.monotonic()
        self.delay = _FIRST_DELAY
        self.tries = 1

    def wait(self, e: BaseException) -> bool:
        """Sleep and return ``True`` when ``e`` is transient and ``retry_seconds`` allow another attempt."""
        waited = time.monotonic() - self.started
        if not self.store._transient(e, self.also) or waited + self.delay > self.store.retry_seconds:
            return False
        pause = self.delay * random.uniform(0.5, 1.5)
        log.warning("%s: attempt %d failed transiently, retrying in %.2fs: %s", self.action, self.tries, pause,
                    _reason(e))  # fmt: skip
        time.sleep(pause)
        self.delay = min(self.delay * 2, _MAX_DELAY)
        self.tries += 1
        return True

    def gave_up(self, action: str) -> str:
        """``action``, saying how long it was retried when it was."""
        if self.tries == 1:
            return action
        return f"{action} (gave up after {self.tries} attempts in {time.monotonic() - self.started:.1f}s)"
