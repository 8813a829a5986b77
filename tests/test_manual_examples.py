"""The manual's neomodel example (docs/graph-model.md) runs as written, on recorded traces and on imported TrustGraph
RDF."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

from tests import scenarios
from tests.conftest import Neo4jServer
from tgneo.explain.recorder import Recorder
from tgneo.ogm import disconnect
from tgneo.rdf.star import parse
from tgneo.store import Store
from tgneo.store.rdf_import import import_quads

PAGE = Path(__file__).parent.parent / "docs" / "graph-model.md"
FIXTURE = Path(__file__).parent / "data" / "trustgraph_sessions.nq"


def neomodel_example() -> str:
    text = PAGE.read_text()
    section = text[text.index("## Navigate traces in Python") :]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match, "docs/graph-model.md lost its neomodel example"
    return match.group(1)


def run_example(neo4j_server: Neo4jServer, collection: str, monkeypatch: pytest.MonkeyPatch) -> str:
    for name, value in neo4j_server.env().items():
        if name.startswith("NEO4J_"):
            monkeypatch.setenv(name, value)
    code = neomodel_example().replace('"my-collection"', repr(collection))
    namespace: dict[str, object] = {}
    printed = io.StringIO()
    try:
        with contextlib.redirect_stdout(printed):
            exec(compile(code, "docs/graph-model.md (neomodel example)", "exec"), namespace)
    finally:
        store = namespace.get("store")
        if isinstance(store, Store):
            disconnect(store)
            store.close()
    return printed.getvalue()


def test_the_example_walks_a_recorded_trace_to_its_document_and_answer(
    neo4j_server: Neo4jServer, store: Store, collection: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    recorder = Recorder(store, "default", collection)
    for step, contents in [
        *scenarios.corpus().steps,
        *scenarios.docrag(uri_chunk := "urn:chunk:x"),
        *scenarios.graphrag(),
    ]:
        if step.uri != uri_chunk:
            recorder.record(step, contents)
    printed = run_example(neo4j_server, collection, monkeypatch)
    assert printed.startswith("What did Marie Curie discover? 2025-06-01 10:15:30.123456+00:00\n")
    assert "0.93 names a discovery http://example.org/marie-curie http://example.org/discovered" in printed
    assert "  from Marie Curie, a biography page 1" in printed
    assert printed.rstrip().splitlines()[-1].startswith("Marie Curie discovered radium.")


def test_the_example_runs_on_imported_trustgraph_rdf(
    neo4j_server: Neo4jServer, store: Store, collection: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import_quads(store, "default", collection, parse(FIXTURE.read_bytes(), "nquads"))
    printed = run_example(neo4j_server, collection, monkeypatch)
    assert "  from " in printed and " page " in printed  # every selected edge leads to its document
    assert printed.rstrip().splitlines()[-1].startswith("urn:trustgraph:")  # no text in RDF: the answer's id
