"""A private, empty Neo4j with APOC, for tests that must own a whole database.

Why private: the coexistence tests set up *other* tools' schemas (LangChain's ``vector`` index on
``:Chunk``, n10s's constraint on ``:Resource`` …), wipe everything between scenarios and need both
orders (tgneo first, theirs first) on an empty database. Doing that on the session's shared server
would destroy the other tests' data, or a user's when ``NEO4J_URI`` names their own server.

Why APOC: the libraries tgneo shares a database with write through it (see ``data/apoc/pom.xml``).
It goes into this test server only; tgneo never calls it. The jars come from Maven Central, for the
container as for the local server: a Docker engine gets ``neo4j:5.26-community`` with the jars
mounted on ``/plugins``, otherwise the Maven-provisioned local server runs a private instance.
"""

from __future__ import annotations

import contextlib
import fcntl
import shutil
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

from tests.conftest import Neo4jServer, _docker_engine_answers
from tgneo.config import default_home
from tgneo.errors import ProvisioningError
from tgneo.provision import LocalNeo4j
from tgneo.provision.server import copy_maven_dependencies, free_port

APOC_POM = Path(__file__).parent / "data" / "apoc" / "pom.xml"
UNRESTRICTED = "apoc.*"
"""What ``dbms.security.procedures.unrestricted`` allows: LangChain's schema read (``apoc.meta.data``)
leaves APOC's sandbox, and LangChain's documentation asks for exactly this setting."""


class _ApocNeo4j(LocalNeo4j):
    """A local instance whose ``neo4j.conf`` also lets APOC out of the procedure sandbox."""

    def neo4j_conf(self) -> str:
        return super().neo4j_conf() + f"dbms.security.procedures.unrestricted={UNRESTRICTED}\n"


def apoc_version() -> str:
    node = ET.parse(APOC_POM).getroot().find("m:properties/m:apoc.version", {"m": "http://maven.apache.org/POM/4.0.0"})
    assert node is not None and node.text, f"{APOC_POM} pins no apoc.version"
    return node.text.strip()


def apoc_jars(home: Path) -> Path:
    """APOC Core and its two own dependencies, resolved once into ``home/apoc-<version>/lib``."""
    version = apoc_version()

    def has_apoc(lib: Path) -> None:
        if not list(lib.glob(f"apoc-core-{version}*.jar")):
            raise ProvisioningError(f"Maven resolved no apoc-core-{version} jar into {lib}")

    home.mkdir(parents=True, exist_ok=True)
    with open(home / ".apoc.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return copy_maven_dependencies(
            APOC_POM.read_text(encoding="utf-8"), home / f"apoc-{version}",
            exclude_artifact_ids=("commons-lang3", "commons-text", "slf4j-api"), verify=has_apoc, marker=version,
        )  # fmt: skip


@contextlib.contextmanager
def private_neo4j(name: str) -> Iterator[Neo4jServer]:
    """An empty-on-demand Neo4j 5.26 with APOC that no other test touches; stopped afterwards."""
    home = default_home()
    jars = apoc_jars(home)
    if _docker_engine_answers():
        from testcontainers.neo4j import Neo4jContainer

        container = Neo4jContainer("neo4j:5.26-community").with_volume_mapping(str(jars), "/plugins", "ro")
        container.with_env("NEO4J_dbms_security_procedures_unrestricted", UNRESTRICTED)
        with container:
            yield Neo4jServer(container.get_connection_url(), "neo4j", container.password, "testcontainers")
        return
    local = LocalNeo4j(home, name)
    local.stop()  # an instance a killed run left behind may lack the jars: start it afresh
    local = _ApocNeo4j(
        home, name, bolt_port=free_port(), http_port=free_port(), auth=True, heap="1g", pagecache="512m"
    )  # fmt: skip
    plugins = local.instance.directory / "plugins"
    shutil.rmtree(plugins, ignore_errors=True)
    plugins.mkdir(parents=True)
    for jar in jars.glob("*.jar"):
        shutil.copy2(jar, plugins / jar.name)
    status = local.start(timeout=240)
    try:
        instance = status.instance
        yield Neo4jServer(instance.bolt_uri, "neo4j", instance.password(), "local", instance.http_url)
    finally:
        local.stop()
