"""The CLI as a script sees it: piped output whole and unwrapped, one clear line per error, a word when
nothing matched, and bad options refused."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from tests import scenarios
from tests.clirun import tgneo
from tests.conftest import Neo4jServer
from tgneo.explain.recorder import Recorder
from tgneo.provision.server import free_port
from tgneo.store import Store

LONG_QUERY = "Which of the elements that Marie Curie discovered was named after her homeland, and when? " * 2


@pytest.fixture
def three_traces(store: Store, collection: str) -> list[str]:
    recorder = Recorder(store, "w", collection)
    roots = []
    for _ in range(3):
        session = scenarios.graphrag()
        question = session[0][0]
        session[0] = (type(question)(uri=question.uri, query=LONG_QUERY, timestamp=scenarios.TS), {})
        for step, contents in session:
            recorder.record(step, contents)
        roots.append(question.uri)
    return roots


def test_piped_traces_list_keeps_uris_and_the_cursor_on_one_line(
    neo4j_server: Neo4jServer, collection: str, three_traces: list[str]
) -> None:
    listed = tgneo(neo4j_server, "traces", "list", "--workspace", "w", "--collection", collection, "--limit", "2")
    rows = [line for line in listed.stdout.splitlines()[1:] if line.strip()]
    assert len(rows) == 2 and all(any(root in row for root in three_traces) for row in rows)
    assert all(LONG_QUERY.strip() in row for row in rows)  # not folded, not cut
    (more,) = [line for line in listed.stderr.splitlines() if line.startswith("more:")]
    cursor = more.split("--cursor ", 1)[1]
    json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))  # the whole token, on one line
    rest = tgneo(neo4j_server, "traces", "list", "--workspace", "w", "--collection", collection, "--cursor", cursor)
    assert sum(root in rest.stdout for root in three_traces) == 1


def test_piped_trace_show_prints_every_uri_whole(
    neo4j_server: Neo4jServer, collection: str, three_traces: list[str]
) -> None:
    shown = tgneo(neo4j_server, "trace", "show", three_traces[0], "--workspace", "w", "--collection", collection)
    assert "…" not in shown.stdout
    assert three_traces[0] in shown.stdout and three_traces[0].replace("question", "prov:synthesis") in shown.stdout


def test_an_error_is_one_unwrapped_line(neo4j_server: Neo4jServer, collection: str) -> None:
    missing = "urn:trustgraph:question:" + "x" * 150
    result = tgneo(neo4j_server, "trace", "show", missing, "--collection", collection, ok=False)
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f"error: no trace {missing!r} in workspace 'default', collection {collection!r}"
    ]


@pytest.mark.parametrize(
    "text",
    ["urn:x :smile:", "urn:trustgraph:question:1\nurn:trustgraph:question:2", "[bold]urn:y[/bold] :rocket:"],
    ids=["an-emoji-code", "a-pasted-list", "markup-and-emoji"],
)
def test_an_error_line_prints_the_users_text_as_typed(neo4j_server: Neo4jServer, collection: str, text: str) -> None:
    result = tgneo(neo4j_server, "trace", "show", text, "--collection", collection, ok=False)
    assert result.returncode == 1
    assert result.stderr.splitlines() == [f"error: no trace {text!r} in workspace 'default', collection {collection!r}"]
    assert not any(ord(c) > 0x2000 for c in result.stderr)  # no 😄, no ❓, no 🚀


@pytest.mark.parametrize(
    "args",
    [
        ("export",),
        ("export", "urn:trustgraph:question:x"),
        ("trace", "show", "urn:trustgraph:question:x"),
        ("traces", "list"),
        ("import", "IMPORT"),
    ],
    ids=lambda a: " ".join(a[:2]),
)
def test_neo4j_down_is_one_quick_clear_line_on_every_command(args: tuple[str, ...], tmp_path: Path) -> None:
    data = tmp_path / "one.nq"
    data.write_text("<urn:a> <urn:b> <urn:c> .\n")
    down = {**Neo4jServer(f"bolt://127.0.0.1:{free_port()}", "neo4j", "x", "env").env(), "TGNEO_HOME": str(tmp_path)}
    result = tgneo(None, *[str(data) if a == "IMPORT" else a for a in args], env=down, ok=False, timeout=60)
    assert result.returncode == 1
    (line,) = result.stderr.splitlines()
    assert line.startswith("error: Neo4j is unreachable at bolt://127.0.0.1:") and "retried" not in line
    log = (tmp_path / "logs" / "tgneo.log").read_text()
    assert "unreachable" in log and "failed transiently" not in log  # logged, and not retried: it never answered


def test_exporting_an_empty_collection_says_so(neo4j_server: Neo4jServer, collection: str) -> None:
    result = tgneo(neo4j_server, "export", "--workspace", "w", "--collection", collection)
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        f"nothing to export: workspace 'w', collection {collection!r} holds no triples"
    ]


def test_exporting_says_how_many_quads(neo4j_server: Neo4jServer, collection: str, three_traces: list[str]) -> None:
    result = tgneo(neo4j_server, "export", "--workspace", "w", "--collection", collection)
    quads = len(result.stdout.splitlines())
    assert result.stderr.splitlines() == [f"exported {quads} quads from workspace 'w', collection {collection!r}"]


def test_listing_an_empty_collection_says_so(neo4j_server: Neo4jServer, collection: str) -> None:
    result = tgneo(neo4j_server, "traces", "list", "--workspace", "w", "--collection", collection)
    assert result.stdout == ""
    assert result.stderr.splitlines() == [f"no traces in workspace 'w', collection {collection!r}"]


def test_traces_list_json_counts_every_step(
    neo4j_server: Neo4jServer, collection: str, three_traces: list[str]
) -> None:
    result = tgneo(neo4j_server, "traces", "list", "--workspace", "w", "--collection", collection, "--json")
    assert [t["steps"] for t in json.loads(result.stdout)["traces"]] == [5, 5, 5]


@pytest.mark.parametrize("size", ["0", "-5"])
def test_a_batch_size_below_one_is_refused(
    neo4j_server: Neo4jServer, collection: str, size: str, tmp_path: Path
) -> None:
    data = tmp_path / "one.nq"
    data.write_text("<urn:a> <urn:b> <urn:c> .\n")
    result = tgneo(neo4j_server, "import", str(data), "--collection", collection, "--batch-size", size, ok=False)
    assert result.returncode == 2 and "--batch-size" in result.stderr and f"{size} is not in the range" in result.stderr


def test_import_reports_on_one_line_without_a_stray_blank(
    neo4j_server: Neo4jServer, collection: str, tmp_path: Path
) -> None:
    data = tmp_path / "two.nq"
    data.write_text("<urn:a> <urn:b> <urn:c> .\n<urn:a> <urn:b> <urn:d> .\n")
    result = tgneo(neo4j_server, "import", str(data), "--workspace", "w", "--collection", collection)
    assert result.stderr.splitlines() == [f"imported 2 quads into w/{collection} in 1 transaction(s)"]


def test_a_relative_iri_names_the_base_option_that_fixes_it(
    neo4j_server: Neo4jServer, collection: str, tmp_path: Path
) -> None:
    data = tmp_path / "relative.ttl"
    data.write_text("<a> <b> <c> .\n")
    refused = tgneo(neo4j_server, "import", str(data), "--collection", collection, ok=False)
    assert refused.returncode == 1 and "--base" in refused.stderr and "base=" not in refused.stderr
    accepted = tgneo(neo4j_server, "import", str(data), "--collection", collection, "--base", "http://example.org/")
    assert "imported 1 quads" in accepted.stderr
    exported = tgneo(neo4j_server, "export", "--collection", collection, "--format", "nt")
    assert exported.stdout == "<http://example.org/a> <http://example.org/b> <http://example.org/c> .\n"
