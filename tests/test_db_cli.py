"""`tgneo db`: start is idempotent, stop then start works, env feeds the official driver, bad setups fail clearly.

These run the real CLI in a subprocess against a separate instance (its own ports and data), so the
session's server is never disturbed.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
from neo4j import GraphDatabase

from tests.clirun import TGNEO
from tgneo.config import default_home
from tgneo.provision.server import free_port

pytestmark = pytest.mark.slow
INSTANCE = "lifecycle"


def tgneo(*args: str, env: dict[str, str] | None = None, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*TGNEO, *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env or dict(os.environ),
        check=False,
    )


def _parse_env(line: str) -> dict[str, str]:
    import shlex

    words = shlex.split(line)
    assert words[0] == "export", line
    return dict(word.split("=", 1) for word in words[1:])


@pytest.fixture(scope="module")
def lifecycle_ports() -> Iterator[tuple[int, int]]:
    ports = (free_port(), free_port())
    yield ports
    tgneo("db", "stop", "--instance", INSTANCE)


def _start(ports: tuple[int, int]) -> subprocess.CompletedProcess[str]:
    return tgneo("db", "start", "--instance", INSTANCE, "--bolt-port", str(ports[0]), "--http-port", str(ports[1]))


def test_db_start_prints_the_bolt_uri_and_browser_answers(lifecycle_ports: tuple[int, int]) -> None:
    result = _start(lifecycle_ports)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"bolt://127.0.0.1:{lifecycle_ports[0]}"
    browser = requests.get(f"http://127.0.0.1:{lifecycle_ports[1]}/browser/", timeout=10)
    assert browser.status_code == 200
    assert "<html" in browser.text.lower()


def test_db_env_feeds_the_official_driver(lifecycle_ports: tuple[int, int]) -> None:
    assert _start(lifecycle_ports).returncode == 0
    result = tgneo("db", "env", "--instance", INSTANCE)
    assert result.returncode == 0, result.stderr
    env = _parse_env(result.stdout.strip())
    assert env["NEO4J_URI"] == f"bolt://127.0.0.1:{lifecycle_ports[0]}"
    with GraphDatabase.driver(env["NEO4J_URI"], auth=(env["NEO4J_USERNAME"], env["NEO4J_PASSWORD"])) as driver:
        records, _, _ = driver.execute_query("CALL dbms.components() YIELD versions, edition RETURN *")
    assert records[0]["versions"][0].startswith("5.26.")
    assert records[0]["edition"] == "community"


def test_the_started_jvm_compiles_only_what_stays_hot(lifecycle_ports: tuple[int, int]) -> None:
    """The server's own JVM (not the bootloader's) runs with tgneo's compile threshold scaling, as its JMX says."""
    assert _start(lifecycle_ports).returncode == 0
    env = _parse_env(tgneo("db", "env", "--instance", INSTANCE).stdout.strip())
    with GraphDatabase.driver(env["NEO4J_URI"], auth=(env["NEO4J_USERNAME"], env["NEO4J_PASSWORD"])) as driver:
        records, _, _ = driver.execute_query(
            "CALL dbms.queryJmx('java.lang:type=Runtime') YIELD attributes "
            "RETURN attributes.InputArguments.value AS arguments"
        )
    arguments = records[0]["arguments"]
    assert "-XX:CompileThresholdScaling=10" in arguments
    assert "-XX:+UseG1GC" in arguments and "-XX:TieredStopAtLevel=1" not in arguments  # the bootloader's stay its own


def _pid(instance_dir: Path) -> int:
    return int((instance_dir / "run" / "neo4j.pid").read_text().strip())


def test_db_status_json_names_the_instances_own_ports(lifecycle_ports: tuple[int, int]) -> None:
    """scripts/demo.sh reads the Browser URL from here, so it is right whatever port the instance uses."""
    import json

    assert _start(lifecycle_ports).returncode == 0
    status = tgneo("db", "status", "--instance", INSTANCE, "--json")
    assert status.returncode == 0, status.stderr
    reported = json.loads(status.stdout)
    assert reported["running"] is True
    assert reported["browser"] == f"http://127.0.0.1:{lifecycle_ports[1]}/browser/"
    assert reported["bolt"] == f"bolt://127.0.0.1:{lifecycle_ports[0]}"


def test_the_demo_takes_the_browser_url_from_the_running_instance() -> None:
    demo = (Path(__file__).parent.parent / "scripts" / "demo.sh").read_text()
    assert "tgneo db status --json" in demo and ":7474" not in demo and "TGNEO_HTTP_PORT" not in demo


def test_db_start_prints_an_env_hint_naming_its_instance_that_reaches_it(lifecycle_ports: tuple[int, int]) -> None:
    started = _start(lifecycle_ports)
    assert f'eval "$(tgneo db env --instance {INSTANCE})"' in started.stderr
    hinted = started.stderr.split('eval "$(tgneo ', 1)[1].split(')"', 1)[0]  # the command as printed
    env = _parse_env(tgneo(*hinted.split()).stdout.strip())
    assert env["NEO4J_URI"] == f"bolt://127.0.0.1:{lifecycle_ports[0]}"


def test_db_start_twice_reuses_the_running_server(lifecycle_ports: tuple[int, int]) -> None:
    assert _start(lifecycle_ports).returncode == 0
    instance_dir = default_home() / "instances" / INSTANCE
    pid = _pid(instance_dir)
    again = _start(lifecycle_ports)
    assert again.returncode == 0, again.stderr
    assert "reusing running Neo4j" in again.stderr
    assert _pid(instance_dir) == pid


def test_db_stop_then_start_works(lifecycle_ports: tuple[int, int]) -> None:
    assert _start(lifecycle_ports).returncode == 0
    stopped = tgneo("db", "stop", "--instance", INSTANCE)
    assert stopped.returncode == 0 and "Neo4j stopped" in stopped.stderr
    assert tgneo("db", "status", "--instance", INSTANCE).returncode == 3
    started = _start(lifecycle_ports)
    assert started.returncode == 0, started.stderr
    status = tgneo("db", "status", "--instance", INSTANCE)
    assert status.returncode == 0 and "running" in status.stdout


def test_db_start_cleans_a_stale_pid_file(lifecycle_ports: tuple[int, int]) -> None:
    assert tgneo("db", "stop", "--instance", INSTANCE).returncode == 0
    pid_file = default_home() / "instances" / INSTANCE / "run" / "neo4j.pid"
    pid_file.parent.mkdir(parents=True, exist_ok=True)
    dead = subprocess.Popen(["true"])
    dead.wait()
    pid_file.write_text(f"{dead.pid}\n")
    started = _start(lifecycle_ports)
    assert started.returncode == 0, started.stderr
    assert "stale pid file" in started.stderr
    assert _pid(pid_file.parent.parent) != dead.pid


def test_db_stop_when_nothing_runs_says_so(lifecycle_ports: tuple[int, int]) -> None:
    tgneo("db", "stop", "--instance", INSTANCE)
    result = tgneo("db", "stop", "--instance", INSTANCE)
    assert result.returncode == 0
    assert "not running" in result.stderr


def test_missing_maven_is_one_clear_sentence(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "TGNEO_MVN"}
    env.update(TGNEO_HOME=str(tmp_path / "fresh-home"), PATH=str(tmp_path))  # no mvn on PATH
    result = tgneo("db", "start", "--instance", "no-maven", env=env, timeout=120)
    assert result.returncode != 0
    assert "apt-get install maven" in result.stderr
    assert "Traceback" not in result.stderr


def test_missing_java_names_the_debian_package(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from tgneo.errors import MissingTool
    from tgneo.provision.maven import find_java

    for var in ("TGNEO_JAVA", "JAVA_HOME"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(MissingTool, match="apt-get install openjdk-17-jre-headless"):
        find_java(jvm_dirs=())
