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
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path

from tests.conftest import Neo4jServer, _docker_engine_answers
from tgneo.config import default_home
from tgneo.provision import NEO4J_VERSION, LocalNeo4j
from tgneo.provision.maven import plugin_jars
from tgneo.provision.plugins import conf_settings, parse_plugins
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
def private_neo4j(name: str, *, plugins: Iterable[str] = ()) -> Iterator[Neo4jServer]:
    """An empty-on-demand Neo4j 5.26 with ``plugins`` (none unless asked) no other test touches; stopped afterwards."""
    home = default_home()
    asked = parse_plugins(plugins)
    if _docker_engine_answers():
        with _container(asked, home) as server:
            yield server
        return
    LocalNeo4j(home, name).stop()  # an instance a killed run left behind may run other plugins: start it afresh
    local = LocalNeo4j(
        home, name, bolt_port=free_port(), http_port=free_port(), auth=True, heap="1g", pagecache="512m",
        plugins=asked,
    )  # fmt: skip
    status = local.start(timeout=240)
    try:
        instance = status.instance
        yield Neo4jServer(instance.bolt_uri, "neo4j", instance.password(), "local", instance.http_url)
    finally:
        local.stop()
