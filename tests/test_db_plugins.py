"""`tgneo db start --plugin apoc`: the user's tools get APOC on tgneo's local server; without the flag, no APOC at all.

Why these tests start servers of their own: what is under test is how an instance is started (its ``plugins/``,
its ``neo4j.conf``, what ``tgneo db status`` says), so two private instances run through the real CLI, as a user
starts them, each on its own free ports with 1g heap and 512m page cache, stopped when the module ends:

* ``plugins-apoc``, started once with ``--plugin apoc``;
* ``plugins-none``, which goes once through the plugin rule of a start (``LocalNeo4j.start``), recording what it
  shows at each step: a plain start over APOC jars copied into its ``plugins/`` by hand (the state issue 37 found),
  ``--plugin apoc`` while it runs (restarted with APOC, its data kept), a plain start while it runs with APOC
  (reused as it runs), then ``tgneo db stop`` and a plain start, which leaves it without APOC for the other tests.
  Three starts of its server (four in the module), for the newcomer's path both ways: ``scripts/demo.sh``'s plain
  ``tgneo db start``, then the manual's ``tgneo db start --plugin apoc``, and the other way round.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from neo4j import Driver, GraphDatabase
from neo4j.exceptions import ClientError

from tgneo.config import default_home
from tgneo.errors import ProvisioningError
from tgneo.provision import NEO4J_VERSION
from tgneo.provision.maven import plugin_jars
from tgneo.provision.plugins import APOC, ENV_VAR
from tgneo.provision.server import free_port

pytestmark = pytest.mark.slow
WITH_APOC, WITHOUT = "plugins-apoc", "plugins-none"
BUILTINS_TGNEO_CALLS = (
    "CALL db.index.vector.queryNodes('plugin_check_vector', 1, [1.0, 0.0, 0.0]) YIELD node RETURN node.text",
    "CALL db.index.fulltext.queryNodes('plugin_check_text', 'landing') YIELD node RETURN node.text",
    "MATCH (n:PluginCheck) CALL db.create.setNodeVectorProperty(n, 'embedding', [1.0, 0.0, 0.0]) RETURN n.text",
    "RETURN vector.similarity.cosine([1.0, 0.0], [1.0, 0.0]) AS similarity",
    "CALL db.labels() YIELD label RETURN label",
    "CALL db.relationshipTypes() YIELD relationshipType RETURN relationshipType",
    "CALL db.propertyKeys() YIELD propertyKey RETURN propertyKey",
    "CALL db.awaitIndexes(60)",
    "CALL dbms.components() YIELD versions RETURN versions",
    "SHOW INDEXES YIELD name RETURN name",
)
"""Built-in procedures, functions and commands tgneo's queries use (``grep -r 'db\\.' tgneo``)."""


def tgneo(*args: str, env: dict[str, str] | None = None, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tgneo.cli", *args],
        capture_output=True, text=True, timeout=timeout, env=env or _shell(), check=False,
    )  # fmt: skip


def _shell(**extra: str) -> dict[str, str]:
    """The environment of a user who has not set ``TGNEO_NEO4J_PLUGINS`` (plus ``extra``)."""
    env = {k: v for k, v in os.environ.items() if k != ENV_VAR}
    return {**env, **extra}


@dataclass(frozen=True)
class Started:
    """A private instance started through the CLI, and what ``tgneo db env`` prints for it."""

    name: str
    env: dict[str, str]

    @property
    def directory(self) -> Path:
        return default_home() / "instances" / self.name

    def driver(self) -> Driver:
        auth = (self.env["NEO4J_USERNAME"], self.env["NEO4J_PASSWORD"])
        return GraphDatabase.driver(self.env["NEO4J_URI"], auth=auth)


def _start(name: str, *args: str) -> Started:
    tgneo("db", "stop", "--instance", name)  # a killed run's leftover: start afresh on free ports
    ports = ("--bolt-port", str(free_port()), "--http-port", str(free_port()))
    started = tgneo("db", "start", "--instance", name, *ports, "--heap", "1g", "--pagecache", "512m", *args)
    assert started.returncode == 0, started.stderr
    printed = tgneo("db", "env", "--instance", name).stdout.strip()  # what `eval "$(tgneo db env)"` would set
    words = shlex.split(printed)
    assert words[0] == "export", printed
    return Started(name, dict(word.split("=", 1) for word in words[1:]))


@pytest.fixture(scope="module")
def with_apoc() -> Iterator[Started]:
    started = _start(WITH_APOC, "--plugin", "apoc")
    try:
        yield started
    finally:
        tgneo("db", "stop", "--instance", WITH_APOC)


@dataclass(frozen=True)
class Lifecycle:
    """What ``plugins-none`` showed at each step of :func:`lifecycle` (pids from ``tgneo db status --json``)."""

    left_by_hand: list[str]
    """Its ``plugins/`` after the first plain start, APOC's jars having been copied there by hand."""
    first_pid: object
    added: subprocess.CompletedProcess[str]
    """``tgneo db start --plugin apoc`` while it ran without plugins."""
    added_pid: object
    env_before: dict[str, str]
    env_after: dict[str, str]
    kept_after_restart: int
    """How many of the nodes written before that restart were still there after it."""
    apoc_after_restart: str
    reused: subprocess.CompletedProcess[str]
    """A plain ``tgneo db start`` while it ran with APOC."""
    reused_pid: object
    apoc_after_reuse: str
    final: Started
    """After ``tgneo db stop`` and a plain ``tgneo db start``: the instance without plugins the other tests use."""


def _apoc_version(started: Started) -> str:
    with started.driver() as driver:
        return str(driver.execute_query("RETURN apoc.version() AS version").records[0]["version"])


def _env(name: str) -> dict[str, str]:
    words = shlex.split(tgneo("db", "env", "--instance", name).stdout.strip())
    return dict(word.split("=", 1) for word in words[1:])


@pytest.fixture(scope="module")
def lifecycle() -> Iterator[Lifecycle]:
    plugins = default_home() / "instances" / WITHOUT / "plugins"
    tgneo("db", "stop", "--instance", WITHOUT)  # a killed run's leftover
    plugins.mkdir(parents=True, exist_ok=True)
    for jar in plugin_jars(default_home(), "apoc", server_version=NEO4J_VERSION).glob("*.jar"):
        shutil.copy2(jar, plugins / jar.name)  # APOC copied in by hand
    try:
        plain = _start(WITHOUT)
        left_by_hand = sorted(p.name for p in plugins.iterdir())
        first_pid = _status_json(WITHOUT)["pid"]
        with plain.driver() as driver:
            driver.execute_query("MATCH (n) DETACH DELETE n")
            driver.execute_query("CREATE (:WrittenBeforeTheRestart {text: 'still here'})")
        added = tgneo("db", "start", "--instance", WITHOUT, "--plugin", "apoc")
        assert added.returncode == 0, added.stderr
        added_pid, env_after = _status_json(WITHOUT)["pid"], _env(WITHOUT)
        with plain.driver() as driver:
            kept = driver.execute_query("MATCH (n:WrittenBeforeTheRestart {text: 'still here'}) RETURN count(n) AS n")
        apoc_after_restart = _apoc_version(plain)
        reused = tgneo("db", "start", "--instance", WITHOUT)
        assert reused.returncode == 0, reused.stderr
        reused_pid, apoc_after_reuse = _status_json(WITHOUT)["pid"], _apoc_version(plain)
        tgneo("db", "stop", "--instance", WITHOUT)
        final = tgneo("db", "start", "--instance", WITHOUT)
        assert final.returncode == 0, final.stderr
        yield Lifecycle(
            left_by_hand, first_pid, added, added_pid, plain.env, env_after, kept.records[0]["n"],
            apoc_after_restart, reused, reused_pid, apoc_after_reuse, Started(WITHOUT, _env(WITHOUT)),
        )  # fmt: skip
    finally:
        tgneo("db", "stop", "--instance", WITHOUT)


@pytest.fixture(scope="module")
def without_plugins(lifecycle: Lifecycle) -> Started:
    """``plugins-none`` after a plain start of it stopped with APOC (put there by an earlier ``--plugin apoc``)."""
    return lifecycle.final


def _status_json(name: str) -> dict[str, object]:
    result = tgneo("db", "status", "--instance", name, "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


def test_langchain_neo4j_graph_with_its_defaults_writes_graph_documents_on_an_apoc_instance(
    with_apoc: Started, monkeypatch: pytest.MonkeyPatch
) -> None:
    from langchain_core.documents import Document
    from langchain_neo4j import Neo4jGraph
    from langchain_neo4j.graphs.graph_document import GraphDocument, Node, Relationship

    with with_apoc.driver() as driver:
        driver.execute_query("MATCH (n) DETACH DELETE n")
    for key, value in with_apoc.env.items():
        monkeypatch.setenv(key, value)
    graph = Neo4jGraph()  # its defaults: NEO4J_URI/USERNAME/PASSWORD, and the schema read by apoc.meta.data
    try:
        mission, moon = Node(id="Apollo 11", type="Mission"), Node(id="Moon", type="Place")
        source = Document(page_content="Apollo 11 landed on the Moon in July 1969.", metadata={"source": "landing.txt"})
        landed = Relationship(source=mission, target=moon, type="LANDED_ON")
        graph.add_graph_documents(
            [GraphDocument(nodes=[mission, moon], relationships=[landed], source=source)],
            include_source=True, baseEntityLabel=True,
        )  # fmt: skip
        graph.refresh_schema()
        assert "LANDED_ON" in graph.schema
    finally:
        graph.close()
    with with_apoc.driver() as driver:
        mentioned = driver.execute_query(
            "MATCH (:Document {source: 'landing.txt'})-[:MENTIONS]->(e:__Entity__) RETURN count(e) AS n"
        ).records[0]["n"]
        edges = driver.execute_query(
            "MATCH (:__Entity__:Mission {id: 'Apollo 11'})-[r:LANDED_ON]->(:__Entity__:Place {id: 'Moon'}) "
            "RETURN count(r) AS n"
        ).records[0]["n"]
    assert (mentioned, edges) == (2, 1)


def _manual_block(language: str, containing: str) -> str:
    page = Path(__file__).resolve().parent.parent / "docs" / "existing-graphs.md"
    found = [
        b for b in re.findall(rf"^```{language}\n(.*?)^```$", page.read_text("utf-8"), re.M | re.S) if containing in b
    ]
    assert len(found) == 1, f"docs/existing-graphs.md has {len(found)} {language} blocks with {containing!r}"
    return str(found[0])


def test_the_manuals_langchain_walk_through_answers_as_written_on_an_apoc_instance(
    with_apoc: Started, tmp_path: Path
) -> None:
    with with_apoc.driver() as driver:
        driver.execute_query("MATCH (n) DETACH DELETE n")
    (tmp_path / "my_graph.py").write_text(_manual_block("python", "graph = Neo4jGraph()"), encoding="utf-8")
    walk = _manual_block("bash", "--graph langchain")
    commands = [line.split("  #")[0].strip() for line in walk.splitlines() if line.strip()]
    assert commands[:2] == ["tgneo db start --plugin apoc", 'eval "$(tgneo db env)"']  # the fixture's, on its instance
    env = _shell(**with_apoc.env, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    printed = ""
    for command in commands[2:]:
        result = subprocess.run(
            command, shell=True, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600, check=False
        )
        assert result.returncode == 0, (command, result.stderr)
        printed = result.stdout + result.stderr  # the answer, then -x's explanation and its sources
    assert "Apollo 11 landed on the Moon" in printed and "apollo11.txt" in printed


def test_an_apoc_instance_still_serves_every_builtin_procedure_tgneo_uses(with_apoc: Started) -> None:
    with with_apoc.driver() as driver:
        driver.execute_query("MATCH (n:PluginCheck) DETACH DELETE n")
        driver.execute_query(
            "CREATE VECTOR INDEX plugin_check_vector IF NOT EXISTS FOR (n:PluginCheck) ON n.embedding OPTIONS "
            "{indexConfig: {`vector.dimensions`: 3, `vector.similarity_function`: 'cosine'}}"
        )
        driver.execute_query(
            "CREATE FULLTEXT INDEX plugin_check_text IF NOT EXISTS FOR (n:PluginCheck) ON EACH [n.text]"
        )
        driver.execute_query("CREATE (:PluginCheck {text: 'the landing'})")
        setter, *others = BUILTINS_TGNEO_CALLS[2:]
        driver.execute_query(setter)  # the embedding the vector search below finds
        for query in others:  # a procedure the allowlist hid would raise ProcedureNotFound here
            driver.execute_query(query)
        found = [driver.execute_query(query).records[0][0] for query in BUILTINS_TGNEO_CALLS[:2]]
    assert found == ["the landing", "the landing"]


def test_the_apoc_allowlist_hides_no_builtin_procedure_or_function(
    with_apoc: Started, without_plugins: Started
) -> None:
    def builtins(started: Started) -> list[list[str]]:
        with started.driver() as driver:
            return [
                driver.execute_query(
                    f"SHOW {kind} YIELD name WHERE NOT name STARTS WITH 'apoc.' RETURN collect(name) AS names"
                ).records[0]["names"]
                for kind in ("PROCEDURES", "FUNCTIONS")
            ]

    assert builtins(with_apoc) == builtins(without_plugins)


def test_a_start_without_plugins_leaves_no_apoc_jar_in_plugins(without_plugins: Started) -> None:
    assert sorted(p.name for p in (without_plugins.directory / "plugins").iterdir()) == []


def test_apoc_is_unknown_on_an_instance_started_without_plugins(without_plugins: Started) -> None:
    with without_plugins.driver() as driver, pytest.raises(ClientError, match=r"Unknown function 'apoc\.version'"):
        driver.execute_query("RETURN apoc.version() AS version")


def test_a_start_without_plugins_lets_no_procedure_out_of_the_sandbox(without_plugins: Started) -> None:
    conf = (without_plugins.directory / "conf" / "neo4j.conf").read_text(encoding="utf-8")
    assert "dbms.security.procedures" not in conf


def test_db_status_names_the_plugins_on(with_apoc: Started, without_plugins: Started) -> None:
    lines = {
        started.name: re.findall(r"^plugins\s+(.*)$", tgneo("db", "status", "--instance", started.name).stdout, re.M)
        for started in (with_apoc, without_plugins)
    }
    assert lines == {WITH_APOC: [f"apoc (APOC Core {APOC.version})"], WITHOUT: ["none"]}


def test_db_status_json_lists_the_plugins_on(with_apoc: Started, without_plugins: Started) -> None:
    assert (_status_json(WITH_APOC)["plugins"], _status_json(WITHOUT)["plugins"]) == (["apoc"], [])


def test_an_unknown_plugin_is_refused_naming_the_known_ones() -> None:
    result = tgneo("db", "start", "--instance", "plugins-unknown", "--plugin", "gds")
    assert result.returncode == 1
    assert "unknown Neo4j plugin 'gds'" in result.stderr and "knows apoc" in result.stderr
    assert not (default_home() / "instances" / "plugins-unknown").exists()  # refused before anything was made


def test_an_unknown_plugin_in_the_environment_is_refused_too() -> None:
    result = tgneo("db", "start", "--instance", "plugins-unknown", env=_shell(**{ENV_VAR: "apoc, gds"}))
    assert result.returncode == 1 and "unknown Neo4j plugin 'gds'" in result.stderr


def test_a_plain_start_removes_apoc_copied_into_plugins_by_hand(lifecycle: Lifecycle) -> None:
    assert lifecycle.left_by_hand == []


def test_asking_for_apoc_restarts_a_running_plain_instance_saying_why(lifecycle: Lifecycle) -> None:
    notice = f"restarting instance {WITHOUT} to add apoc (plugins load only at start"
    assert notice in lifecycle.added.stderr, lifecycle.added.stderr
    assert lifecycle.added_pid != lifecycle.first_pid


def test_the_restart_that_adds_apoc_keeps_the_data(lifecycle: Lifecycle) -> None:
    assert lifecycle.kept_after_restart == 1


def test_the_restart_that_adds_apoc_keeps_the_address_and_password(lifecycle: Lifecycle) -> None:
    assert lifecycle.env_after == lifecycle.env_before


def test_apoc_answers_after_the_restart_that_added_it(lifecycle: Lifecycle) -> None:
    assert lifecycle.apoc_after_restart == APOC.version


def test_a_plain_start_reuses_a_running_apoc_instance_as_it_runs(lifecycle: Lifecycle) -> None:
    assert lifecycle.reused_pid == lifecycle.added_pid
    assert f"with plugins: apoc (APOC Core {APOC.version})" in lifecycle.reused.stderr, lifecycle.reused.stderr


def test_a_plain_start_on_a_running_apoc_instance_says_how_to_remove_apoc(lifecycle: Lifecycle) -> None:
    said = " ".join(lifecycle.reused.stderr.split())
    assert f"to remove it: tgneo db stop --instance {WITHOUT}, then tgneo db start" in said, said


def test_apoc_still_answers_on_the_reused_instance(lifecycle: Lifecycle) -> None:
    assert lifecycle.apoc_after_reuse == APOC.version


def test_tgneo_neo4j_plugins_asks_for_what_the_flag_asks(with_apoc: Started) -> None:
    pid = _status_json(WITH_APOC)["pid"]
    result = tgneo("db", "start", "--instance", WITH_APOC, env=_shell(**{ENV_VAR: "apoc"}))
    assert result.returncode == 0, result.stderr
    assert _status_json(WITH_APOC)["pid"] == pid  # the same server, reused


def test_apoc_is_refused_for_a_server_of_another_minor_version() -> None:
    with pytest.raises(ProvisioningError, match=r"does not match Neo4j 5\.20\.0: a 5\.20\.x release is needed"):
        plugin_jars(default_home(), "apoc", server_version="5.20.0")


def test_db_start_help_says_who_needs_apoc_and_that_tgneo_never_calls_it() -> None:
    help_text = " ".join(tgneo("db", "start", "--help").stdout.split())
    assert "LangChain's Neo4jGraph()" in help_text and "tgneo itself never calls APOC" in help_text


def test_db_start_help_says_how_to_remove_a_plugin() -> None:
    help_text = " ".join(tgneo("db", "start", "--help").stdout.split())
    assert "To remove a plugin: tgneo db stop, then tgneo db start without it" in help_text
