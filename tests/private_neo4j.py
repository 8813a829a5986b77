"""A private, empty Neo4j (with the server plugins a test asks for), for tests that must own a whole database.

Why private: the coexistence tests set up *other* tools' schemas (LangChain's ``vector`` index on
``:Chunk``, n10s's constraint on ``:Resource`` …), wipe everything between scenarios and need both
orders (tgneo first, theirs first) on an empty database. Doing that on the session's shared server
would destroy the other tests' data, or a user's when ``NEO4J_URI`` names their own server.

Why plugins, and why through the product: the libraries tgneo shares a database with (LangChain's
``Neo4jGraph``, neo4j-graphrag's ``Neo4jWriter``) write through APOC, so the tests that run them ask for
``plugins=("apoc",)`` and get it exactly as ``tgneo db start --plugin apoc`` gives it to a user
(:mod:`tgneo.provision.plugins`: the jars resolved once from Maven Central, the ``neo4j.conf`` settings).
Every other test asks for none: tgneo itself never calls APOC. A Docker engine gets ``neo4j:5.26-community``
with the same resolved jars mounted on ``/plugins`` and the same settings as ``NEO4J_*`` variables;
otherwise the Maven-provisioned local server runs a private instance.

Why shared within a session: a start costs 20 to 60 seconds on CI's two cores, and what the modules need is an
*empty database* on a server of their own, not a server started for them. So the session has two: ``apoc_neo4j``
(with APOC) and ``plain_neo4j`` (with no plugin), fixtures of ``tests/conftest.py``, each a new store at the
session's start (:func:`private_neo4j` with ``new_store``) in an instance named for the session
(:func:`session_instance`); a module takes one through :func:`emptied` (no node, no constraint, no index but
Neo4j's token lookups), and modules run one after another, so none sees another's graph.
The tests whose subject is a start itself (``tgneo db start``, its plugins, Neo4j restarted under load) start
their own servers.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path

from neo4j import GraphDatabase

from tests import kept_servers
from tests.conftest import Neo4jServer, _docker_engine_answers
from tgneo.config import default_home
from tgneo.provision import NEO4J_VERSION, LocalNeo4j
from tgneo.provision.maven import plugin_jars
from tgneo.provision.plugins import PLUGINS, conf_settings, parse_plugins
from tgneo.provision.server import free_port


def docker_env(settings: dict[str, str]) -> dict[str, str]:
    """``neo4j.conf`` settings as the Neo4j image reads them (``.`` → ``_``, ``_`` → ``__``, ``NEO4J_`` first)."""
    return {"NEO4J_" + key.replace("_", "__").replace(".", "_"): value for key, value in settings.items()}


@contextlib.contextmanager
def _container(plugins: tuple[str, ...], home: Path) -> Iterator[Neo4jServer]:
    from testcontainers.neo4j import Neo4jContainer

    with tempfile.TemporaryDirectory(prefix="tgneo-plugins-") as mounted:
        for name in plugins:  # several plugins' jars side by side, as the instance's plugins/ holds them
            for jar in plugin_jars(home, name, server_version=NEO4J_VERSION).glob("*.jar"):
                shutil.copy2(jar, Path(mounted) / jar.name)
        container = Neo4jContainer("neo4j:5.26-community")
        if plugins:
            container.with_volume_mapping(mounted, "/plugins", "ro")
        for key, value in docker_env(conf_settings(plugins)).items():
            container.with_env(key, value)
        with container:
            yield Neo4jServer(container.get_connection_url(), "neo4j", container.password, "testcontainers")


@contextlib.contextmanager
def private_neo4j(
    name: str, *, plugins: Iterable[str] = (), new_store: bool = False, kept: bool = False
) -> Iterator[Neo4jServer]:
    """An empty-on-demand Neo4j 5.26 with ``plugins`` (none unless asked) no other test touches; stopped afterwards.
    With ``new_store``, the instance's directory is removed first, and again after the stop: every node id its store
    ever gave is this run's, and no store is left behind (a container's store is new anyway).

    With ``kept`` (a session's shared server) and :mod:`tests.kept_servers`'s owner set, it is left running for the
    owner instead, and an earlier session of that owner's left running is taken as it runs (emptied by each module
    that takes it, as always)."""
    home = default_home()
    asked = parse_plugins(plugins)
    if _docker_engine_answers():
        with _container(asked, home) as server:
            yield server
        return
    kept = kept and kept_servers.owner() is not None
    if kept and LocalNeo4j(home, name).status().running:  # the owner's earlier session started it
        instance = LocalNeo4j(home, name).start(timeout=240).instance
        yield Neo4jServer(instance.bolt_uri, "neo4j", instance.password(), "local", instance.http_url)
        return
    LocalNeo4j(home, name).stop()  # an instance a killed run left behind may run other plugins: start it afresh
    if new_store:
        shutil.rmtree(home / "instances" / name, ignore_errors=True)
    local = LocalNeo4j(
        home, name, bolt_port=free_port(), http_port=free_port(), auth=True, heap="1g", pagecache="512m",
        plugins=asked, without_plugins=[p for p in PLUGINS if p not in asked],  # exactly these: it keeps no other
    )  # fmt: skip
    status = local.start(timeout=240)
    if kept:
        kept_servers.keep(name, remove=new_store)
    try:
        instance = status.instance
        yield Neo4jServer(instance.bolt_uri, "neo4j", instance.password(), "local", instance.http_url)
    finally:
        if not kept:  # a kept one the owner stops (tests.kept_servers.stop)
            local.stop()
            if new_store:
                shutil.rmtree(home / "instances" / name, ignore_errors=True)


SHARED_APOC, SHARED_PLAIN = "shared-apoc", "shared-plain"
"""The kinds of the session's two shared private servers (``apoc_neo4j``, ``plain_neo4j`` in ``conftest.py``)."""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process
        return True
    return True


def session_instance(kind: str) -> str:
    """The instance name of this session's shared server of ``kind``: ``kind-<pid of pytest>``, so that two sessions
    on one machine (two developers' runs in one home) never stop or remove each other's server; ``kind-<owner>`` when
    :mod:`tests.kept_servers` keeps it for a process that runs several sessions. Those left behind by sessions (or
    owners) that are gone (killed before their teardown) are stopped and removed first."""
    home = default_home()
    for directory in sorted((home / "instances").glob(f"{kind}-*")):
        pid = directory.name.removeprefix(f"{kind}-")
        if pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid)):
            LocalNeo4j(home, directory.name).stop()
            shutil.rmtree(directory, ignore_errors=True)
    return f"{kind}-{kept_servers.owner() or os.getpid()}"


def emptied(server: Neo4jServer) -> Neo4jServer:
    """``server`` (a private one: never the session's ``NEO4J_URI``) with an empty database: no node, no constraint,
    no index but Neo4j's own token lookups, as a module that owns a whole database finds a new one."""
    with GraphDatabase.driver(server.uri, auth=(server.username, server.password or "")) as driver:
        with driver.session() as session:  # CALL … IN TRANSACTIONS needs an auto-commit transaction
            session.run("MATCH (n) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS").consume()
        for record in driver.execute_query("SHOW CONSTRAINTS YIELD name RETURN name").records:
            driver.execute_query(f"DROP CONSTRAINT `{record['name']}`")
        for record in driver.execute_query("SHOW INDEXES YIELD name, type WHERE type <> 'LOOKUP' RETURN name").records:
            driver.execute_query(f"DROP INDEX `{record['name']}`")
        indexes = driver.execute_query("SHOW INDEXES YIELD type WHERE type <> 'LOOKUP' RETURN count(*) AS n").records
        nodes = driver.execute_query("MATCH (n) RETURN count(n) AS n").records
        assert (indexes[0]["n"], nodes[0]["n"]) == (0, 0), f"{server.uri} is not empty"
    return server
