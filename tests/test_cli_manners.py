"""Small things a user meets first: one clear line per problem, help that names what exists, output
where the docs say it goes, files with ordinary permissions."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import click
import requests
from click.testing import CliRunner

from tests.clirun import tgneo
from tests.conftest import Neo4jServer
from tests.ingesting import hold_a_fact
from tests.serving import ROOT, serve_cmd
from tgneo.cli import cli
from tgneo.engines import ENGINES
from tgneo.provision.server import free_port
from tgneo.store import Store


def test_a_path_that_does_not_exist_is_named_once_with_the_reason(neo4j_server: Neo4jServer, tmp_path: Path) -> None:
    missing = tmp_path / "notes.txt"
    result = tgneo(neo4j_server, "load", "documents", str(missing), ok=False)
    assert result.returncode == 1
    assert result.stderr.splitlines() == [f"skipped {missing}: no such file or directory"]


def test_neo4j_down_names_the_server_and_the_reason_not_an_internal_query(tmp_path: Path) -> None:
    down = {**Neo4jServer(f"bolt://127.0.0.1:{free_port()}", "neo4j", "x", "env").env(), "TGNEO_HOME": str(tmp_path)}
    result = tgneo(None, "ask", "Who?", env=down, ok=False, timeout=60)
    (line,) = result.stderr.splitlines()
    assert line.startswith("error: Neo4j is unreachable at bolt://127.0.0.1:")
    assert "running" not in line and "while" not in line


def test_an_exported_file_gets_the_permissions_any_new_file_gets(
    neo4j_server: Neo4jServer, store: Store, collection: str, tmp_path: Path
) -> None:
    hold_a_fact(store, "default", collection)
    target = tmp_path / "kg.nq"
    tgneo(neo4j_server, "export", "--collection", collection, "--format", "nquads", "-o", str(target))
    umask = os.umask(0)
    os.umask(umask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~umask


def test_ask_help_lists_every_engine_option_with_its_default() -> None:
    text = " ".join(CliRunner().invoke(cli, ["ask", "--help"]).output.split())
    for engine in ENGINES.values():
        for name, default in engine.defaults.items():
            assert f"{name} ({default})" in text, name
    assert "see tgneo/engines" not in text and "Lise Meitner" not in text  # nobody the sample does not know


def test_access_logs_go_to_stderr_and_stdout_stays_clean(neo4j_server: Neo4jServer, tmp_path: Path) -> None:
    port, out, err = free_port(), tmp_path / "out", tmp_path / "err"
    with out.open("w") as stdout, err.open("w") as stderr:
        server = subprocess.Popen(serve_cmd(port, "--workers", "1"), env=neo4j_server.env(), cwd=ROOT, stdout=stdout,
                                  stderr=stderr)  # fmt: skip
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    if requests.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                        break
                except requests.ConnectionError:
                    assert time.monotonic() < deadline, err.read_text()
                    time.sleep(0.2)
            requests.get(f"http://127.0.0.1:{port}/api/v1/traces", timeout=10)
        finally:
            server.terminate()
            server.wait(timeout=60)
    logged = [json.loads(line) for line in err.read_text().splitlines() if line.startswith("{")]
    assert any(r["path"] == "/api/v1/traces" for r in logged)
    assert "/api/v1/traces" not in out.read_text()


def _scoped_commands(group: click.Group, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], str]]:
    """Every command taking --workspace or --collection, with which of the two it takes."""
    found = []
    for name, command in group.commands.items():
        found += [((*path, name), p.name) for p in command.params if p.name in ("workspace", "collection")]
        if isinstance(command, click.Group):
            found += _scoped_commands(command, (*path, name))
    return found


def test_every_command_refuses_a_blank_or_overlong_workspace_or_collection_before_doing_anything() -> None:
    scoped = _scoped_commands(cli)
    assert len({path for path, _ in scoped}) >= 15  # the walk found the CLI (19 today), not nothing
    for path, option in scoped:
        for bad, reason in (("", "must be a non-empty string"), ("x" * 201, "at most 200 are accepted")):
            result = CliRunner().invoke(cli, [*path, f"--{option}", bad])
            assert result.exit_code == 2, (path, option, result.output)
            assert f"Invalid value for '--{option}'" in result.output and reason in result.output, result.output


def test_reembedding_all_collections_without_reembed_or_with_a_graph_is_refused_naming_why() -> None:
    for args, why in (
        (["--all-collections"], "give --reembed too"),
        (["--reembed", "--all-collections", "--graph", "neo4j-graphrag"], "leave out --graph"),
    ):
        result = CliRunner().invoke(cli, ["load", "index", *args])
        assert result.exit_code == 2 and why in result.output, result.output
