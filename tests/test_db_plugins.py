"""`tgneo db start --plugin apoc`: the user's tools get APOC on tgneo's local server, and the instance keeps it until
`--no-plugin apoc` removes it; without it, no APOC at all.

Why these tests start a server of their own: what is under test is how an instance is started (its ``plugins/``, its
``neo4j.conf``, what ``tgneo db start`` and ``tgneo db status`` say), so one private instance, ``plugins``, runs
through the real CLI as a user starts it, on free ports with 1g heap and 512m page cache, and goes once through the
plugin rule of a start (``LocalNeo4j.start``), recording what it shows at each step (:func:`lifecycle`):

1. ``tgneo db start --plugin apoc`` on a new instance;
2. ``tgneo db stop``, then a plain ``tgneo db start``: APOC is kept (issue 50: it used to be removed, nine
   "removing apoc-…jar" lines, and LangChain's ``Neo4jGraph()`` failed after the restart); a plain start while it
   runs then reuses it as it runs;
3. ``tgneo db start --no-plugin apoc`` while it runs, over an APOC jar copied into its ``plugins/`` by hand
   (the state issue 37 found): restarted without APOC, data kept, nothing of APOC left, and remembered;
4. ``tgneo db start --plugin apoc`` while it runs without: restarted with APOC, data kept. The other tests use
   this last server with APOC; those about an instance without plugins read what step 3 recorded.

Four starts of its server in all, the module's whole cost in Neo4j starts.
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

from tests.clirun import TGNEO
from tgneo.config import default_home
from tgneo.errors import ProvisioningError
from tgneo.provision import NEO4J_VERSION, LocalNeo4j
from tgneo.provision.maven import plugin_jars
from tgneo.provision.plugins import APOC, ENV_VAR, requested_plugins
from tgneo.provision.server import free_port

pytestmark = pytest.mark.slow
INSTANCE = "plugins"
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
        [*TGNEO, *args],
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


def _env(name: str) -> dict[str, str]:
    printed = tgneo("db", "env", "--instance", name).stdout.strip()  # what `eval "$(tgneo db env)"` would set
    words = shlex.split(printed)
    assert words[0] == "export", printed
    return dict(word.split("=", 1) for word in words[1:])


def _started(result: subprocess.CompletedProcess[str]) -> subprocess.CompletedProcess[str]:
    assert result.returncode == 0, result.stderr
    return result


def _status_json(name: str) -> dict[str, object]:
    result = tgneo("db", "status", "--instance", name, "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


def _status_plugins_line(name: str) -> list[str]:
    return re.findall(r"^plugins\s+(.*)$", tgneo("db", "status", "--instance", name).stdout, re.M)


def _apoc(started: Started) -> str:
    """What APOC says on this server: its version and that ``apoc.meta.data`` (``Neo4jGraph()``'s first call, refused
    when sandboxed) runs; or the server's error."""
    try:
        with started.driver() as driver:
            version = driver.execute_query("RETURN apoc.version() AS version").records[0]["version"]
            driver.execute_query("CALL apoc.meta.data() YIELD label RETURN count(*) AS n")
    except ClientError as e:
        return f"{e.code}: {e.message}"
    return f"APOC {version}, apoc.meta.data runs"


APOC_ANSWERS = f"APOC {APOC.version}, apoc.meta.data runs"


def _builtins(started: Started) -> list[list[str]]:
    """The names of the server's procedures and functions that are not APOC's."""
    with started.driver() as driver:
        return [
            driver.execute_query(
                f"SHOW {kind} YIELD name WHERE NOT name STARTS WITH 'apoc.' RETURN collect(name) AS names"
            ).records[0]["names"]
            for kind in ("PROCEDURES", "FUNCTIONS")
        ]


def _still_there(started: Started) -> int:
    with started.driver() as driver:
        records = driver.execute_query("MATCH (n:WrittenBeforeTheRestarts {text: 'still here'}) RETURN count(n) AS n")
    return int(records.records[0]["n"])


@dataclass(frozen=True)
class Lifecycle:
    """What ``plugins`` showed at each step of :func:`lifecycle` (pids from ``tgneo db status --json``)."""

    first: Started
    """After step 1, ``tgneo db start --plugin apoc`` on a new instance."""
    first_pid: object
    kept: subprocess.CompletedProcess[str]
    """Step 2: a plain ``tgneo db start`` after ``tgneo db stop``."""
    kept_pid: object
    kept_plugins_dir: list[str]
    kept_apoc: str
    reused: subprocess.CompletedProcess[str]
    """A plain ``tgneo db start`` while it ran with APOC."""
    reused_pid: object
    reused_apoc: str
    removed: subprocess.CompletedProcess[str]
    """Step 3: ``tgneo db start --no-plugin apoc`` while it ran with APOC (and a jar of APOC's copied in by hand)."""
    removed_pid: object
    removed_env: dict[str, str]
    removed_plugins_dir: list[str]
    removed_apoc: str
    removed_conf: str
    removed_status: list[str]
    removed_status_json: object
    removed_builtins: list[list[str]]
    removed_kept_data: int
    next_plain_start_plugins: tuple[str, ...]
    """What a plain start would run with after ``--no-plugin apoc`` (read as ``tgneo db start`` reads it)."""
    added: subprocess.CompletedProcess[str]
    """Step 4: ``tgneo db start --plugin apoc`` while it ran without."""
    added_pid: object
    added_env: dict[str, str]
    added_kept_data: int
    added_apoc: str
    final: Started
    """After step 4: the instance with APOC the other tests use."""


@pytest.fixture(scope="module")
def lifecycle() -> Iterator[Lifecycle]:
    directory = default_home() / "instances" / INSTANCE
    tgneo("db", "stop", "--instance", INSTANCE)  # a killed run's leftover: a new instance, on free ports
    shutil.rmtree(directory, ignore_errors=True)
    ports = ("--bolt-port", str(free_port()), "--http-port", str(free_port()))
    try:
        _started(tgneo("db", "start", "--instance", INSTANCE, *ports, "--heap", "1g", "--pagecache", "512m",
                       "--plugin", "apoc"))  # fmt: skip
        first = Started(INSTANCE, _env(INSTANCE))
        first_pid = _status_json(INSTANCE)["pid"]

        tgneo("db", "stop", "--instance", INSTANCE)
        kept = tgneo("db", "start", "--instance", INSTANCE)
        kept_pid = _status_json(INSTANCE)["pid"]
        kept_plugins_dir = sorted(p.name for p in (directory / "plugins").iterdir())
        kept_apoc = _apoc(first)
        reused = _started(tgneo("db", "start", "--instance", INSTANCE))
        reused_pid, reused_apoc = _status_json(INSTANCE)["pid"], _apoc(first)

        with first.driver() as driver:
            driver.execute_query("MATCH (n) DETACH DELETE n")
            driver.execute_query("CREATE (:WrittenBeforeTheRestarts {text: 'still here'})")
        core = next(plugin_jars(default_home(), "apoc", server_version=NEO4J_VERSION).glob("apoc-core-*.jar"))
        shutil.copy2(core, directory / "plugins" / "apoc-copied-by-hand.jar")
        removed = _started(tgneo("db", "start", "--instance", INSTANCE, "--no-plugin", "apoc"))
        removed_status_json = _status_json(INSTANCE)
        removed_pid, removed_env = removed_status_json["pid"], _env(INSTANCE)
        removed_plugins_dir = sorted(p.name for p in (directory / "plugins").iterdir())
        removed_apoc = _apoc(first)
        removed_conf = (directory / "conf" / "neo4j.conf").read_text(encoding="utf-8")
        removed_status = _status_plugins_line(INSTANCE)
        removed_builtins = _builtins(first)
        removed_kept_data = _still_there(first)
        next_plain_start_plugins = LocalNeo4j(default_home(), INSTANCE).instance.plugins

        added = _started(tgneo("db", "start", "--instance", INSTANCE, "--plugin", "apoc"))
        added_pid, added_env = _status_json(INSTANCE)["pid"], _env(INSTANCE)
        added_kept_data, added_apoc = _still_there(first), _apoc(first)
        yield Lifecycle(
            first, first_pid, kept, kept_pid, kept_plugins_dir, kept_apoc, reused, reused_pid, reused_apoc,
            removed, removed_pid, removed_env, removed_plugins_dir, removed_apoc, removed_conf, removed_status,
            removed_status_json["plugins"], removed_builtins, removed_kept_data, next_plain_start_plugins,
            added, added_pid, added_env, added_kept_data, added_apoc, Started(INSTANCE, added_env),
        )  # fmt: skip
    finally:
        tgneo("db", "stop", "--instance", INSTANCE)


@pytest.fixture(scope="module")
def with_apoc(lifecycle: Lifecycle) -> Started:
    """``plugins`` after its last step: APOC added back by ``--plugin apoc``."""
    return lifecycle.final


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
    (tmp_path / "my_graph.py").write_text(_manual_block("python", "graph.add_graph_documents("), encoding="utf-8")
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


def test_the_apoc_allowlist_hides_no_builtin_procedure_or_function(with_apoc: Started, lifecycle: Lifecycle) -> None:
    assert _builtins(with_apoc) == lifecycle.removed_builtins


# -------------------------------------------------------------- issue 50: an instance keeps the plugins it was given
def test_a_plain_start_after_a_stop_keeps_apoc_and_its_settings(lifecycle: Lifecycle) -> None:
    assert lifecycle.kept.returncode == 0, lifecycle.kept.stderr
    assert lifecycle.kept_apoc == APOC_ANSWERS  # what LangChain's Neo4jGraph() calls first, out of the sandbox


def test_a_plain_start_after_a_stop_removes_no_jar_of_apoc(lifecycle: Lifecycle) -> None:
    apoc_jars = sorted(p.name for p in plugin_jars(default_home(), "apoc", server_version=NEO4J_VERSION).glob("*.jar"))
    assert "removed" not in lifecycle.kept.stderr and "removing" not in lifecycle.kept.stderr, lifecycle.kept.stderr
    assert lifecycle.kept_plugins_dir == apoc_jars


def test_db_start_says_which_plugins_are_on_and_how_to_remove_one(lifecycle: Lifecycle) -> None:
    line = (
        f"  plugins  apoc (APOC Core {APOC.version}) (kept until tgneo db start --instance {INSTANCE} --no-plugin apoc)"
    )
    assert line in lifecycle.kept.stderr.splitlines(), lifecycle.kept.stderr


def test_db_start_says_when_no_plugin_is_on(lifecycle: Lifecycle) -> None:
    assert "  plugins  none" in lifecycle.removed.stderr.splitlines(), lifecycle.removed.stderr


def test_no_plugin_restarts_a_running_instance_without_apoc_saying_why(lifecycle: Lifecycle) -> None:
    notice = f"restarting instance {INSTANCE} to remove apoc (plugins load only at start; its data stays)"
    assert notice in lifecycle.removed.stderr, lifecycle.removed.stderr
    assert lifecycle.removed_pid != lifecycle.reused_pid


def test_no_plugin_keeps_the_data_the_address_and_the_password(lifecycle: Lifecycle) -> None:
    assert (lifecycle.removed_kept_data, lifecycle.removed_env) == (1, lifecycle.first.env)


def test_no_plugin_is_remembered_for_the_next_plain_start(lifecycle: Lifecycle) -> None:
    assert lifecycle.next_plain_start_plugins == ()
    assert lifecycle.removed_status_json == []


def test_apoc_is_unknown_after_no_plugin(lifecycle: Lifecycle) -> None:
    assert "Unknown function 'apoc.version'" in lifecycle.removed_apoc, lifecycle.removed_apoc


def test_no_plugin_leaves_no_apoc_jar_not_even_one_copied_by_hand(lifecycle: Lifecycle) -> None:
    assert lifecycle.removed_plugins_dir == []


def test_what_a_start_takes_out_of_plugins_is_said_in_one_line(lifecycle: Lifecycle) -> None:
    said = [line for line in lifecycle.removed.stderr.splitlines() if "removed" in line]
    assert len(said) == 1 and "apoc-copied-by-hand.jar" in said[0] and "apoc-core-" in said[0], said


def test_a_start_without_plugins_lets_no_procedure_out_of_the_sandbox(lifecycle: Lifecycle) -> None:
    assert "dbms.security.procedures" not in lifecycle.removed_conf


def test_db_status_names_the_plugins_on(with_apoc: Started, lifecycle: Lifecycle) -> None:
    assert _status_plugins_line(INSTANCE) == [f"apoc (APOC Core {APOC.version})"]
    assert lifecycle.removed_status == ["none"]


def test_db_status_json_lists_the_plugins_on(with_apoc: Started, lifecycle: Lifecycle) -> None:
    assert (_status_json(INSTANCE)["plugins"], lifecycle.removed_status_json) == (["apoc"], [])


def test_asking_for_apoc_restarts_a_running_plain_instance_saying_why(lifecycle: Lifecycle) -> None:
    notice = f"restarting instance {INSTANCE} to add apoc (plugins load only at start"
    assert notice in lifecycle.added.stderr, lifecycle.added.stderr
    assert lifecycle.added_pid != lifecycle.removed_pid


def test_the_restart_that_adds_apoc_keeps_the_data(lifecycle: Lifecycle) -> None:
    assert lifecycle.added_kept_data == 1


def test_the_restart_that_adds_apoc_keeps_the_address_and_password(lifecycle: Lifecycle) -> None:
    assert lifecycle.added_env == lifecycle.first.env


def test_apoc_answers_after_the_restart_that_added_it(lifecycle: Lifecycle) -> None:
    assert lifecycle.added_apoc == APOC_ANSWERS


def test_a_plain_start_reuses_a_running_apoc_instance_as_it_runs(lifecycle: Lifecycle) -> None:
    assert lifecycle.reused_pid == lifecycle.kept_pid
    assert f"with plugins: apoc (APOC Core {APOC.version})" in lifecycle.reused.stderr, lifecycle.reused.stderr


def test_apoc_still_answers_on_the_reused_instance(lifecycle: Lifecycle) -> None:
    assert lifecycle.reused_apoc == APOC_ANSWERS


def test_tgneo_neo4j_plugins_asks_for_what_the_flag_asks(with_apoc: Started) -> None:
    pid = _status_json(INSTANCE)["pid"]
    result = tgneo("db", "start", "--instance", INSTANCE, env=_shell(**{ENV_VAR: "apoc"}))
    assert result.returncode == 0, result.stderr
    assert _status_json(INSTANCE)["pid"] == pid  # the same server, reused


def test_no_plugin_on_the_command_line_wins_over_tgneo_neo4j_plugins() -> None:
    assert requested_plugins((), {ENV_VAR: "apoc"}, without=("apoc",)) == ()
    assert requested_plugins((), {ENV_VAR: "apoc"}) == ("apoc",)


def test_an_unknown_plugin_is_refused_naming_the_known_ones() -> None:
    for option in ("--plugin", "--no-plugin"):
        result = tgneo("db", "start", "--instance", "plugins-unknown", option, "gds")
        assert result.returncode == 1
        assert "unknown Neo4j plugin 'gds'" in result.stderr and "knows apoc" in result.stderr
    assert not (default_home() / "instances" / "plugins-unknown").exists()  # refused before anything was made


def test_an_unknown_plugin_in_the_environment_is_refused_too() -> None:
    result = tgneo("db", "start", "--instance", "plugins-unknown", env=_shell(**{ENV_VAR: "apoc, gds"}))
    assert result.returncode == 1 and "unknown Neo4j plugin 'gds'" in result.stderr


def test_adding_and_removing_one_plugin_at_once_is_refused_before_anything_is_made() -> None:
    result = tgneo("db", "start", "--instance", "plugins-both", "--plugin", "apoc", "--no-plugin", "apoc")
    assert result.returncode == 1
    assert "apoc is both added (--plugin) and removed (--no-plugin)" in result.stderr, result.stderr
    assert not (default_home() / "instances" / "plugins-both").exists()


def test_apoc_is_refused_for_a_server_of_another_minor_version() -> None:
    with pytest.raises(ProvisioningError, match=r"does not match Neo4j 5\.20\.0: a 5\.20\.x release is needed"):
        plugin_jars(default_home(), "apoc", server_version="5.20.0")


def test_db_start_help_says_who_needs_apoc_and_that_tgneo_never_calls_it() -> None:
    help_text = " ".join(tgneo("db", "start", "--help").stdout.split())
    assert "LangChain's Neo4jGraph()" in help_text and "tgneo itself never calls APOC" in help_text


def test_db_start_help_says_how_to_remove_a_plugin() -> None:
    help_text = " ".join(tgneo("db", "start", "--help").stdout.split())
    assert "To remove a plugin: tgneo db start --no-plugin NAME" in help_text
