"""A trace exports from the CLI in formats without named graphs (Turtle, N-Triples) as the trace API
does — its graphs merged, said on stderr — and the count printed is the count written."""

from __future__ import annotations

import logging
import uuid
import warnings
from pathlib import Path

import pytest
from rdflib import Dataset, Graph

from tests.clirun import invoke as tgneo  # in this process: these tests check what the commands print and store
from tests.conftest import Neo4jServer
from tgneo.engines import GraphRag, Request
from tgneo.explain.events import SessionEnd
from tgneo.ingest.loader import load_documents
from tgneo.ingest.sample import QUESTIONS, sources
from tgneo.llm.offline import OfflineLLM
from tgneo.store import Store

W = f"test-ws-formats-{uuid.uuid4().hex[:8]}"


@pytest.fixture(scope="module")
def trace(store: Store) -> tuple[str, str]:
    collection = f"test-formats-{uuid.uuid4().hex[:8]}"
    assert load_documents(store, OfflineLLM(), W, collection, sources()).loaded == 4
    end = list(GraphRag(store, OfflineLLM()).answer(Request(QUESTIONS[0].text, W, collection)))[-1]
    assert isinstance(end, SessionEnd) and end.trace
    return collection, end.trace


def written(stderr: str) -> int:
    (line,) = [line for line in stderr.splitlines() if line.startswith("exported ")]
    return int(line.split()[1])


@pytest.mark.parametrize(("fmt", "rdflib_format"), [("turtle", "turtle"), ("nt", "nt")])
def test_a_trace_exports_as_a_format_without_named_graphs_its_graphs_merged(
    neo4j_server: Neo4jServer, trace: tuple[str, str], tmp_path: Path, fmt: str, rdflib_format: str
) -> None:
    collection, uri = trace
    out = tmp_path / f"trace.{fmt}"
    result = tgneo(neo4j_server, "export", uri, "--format", fmt, "--quoted", "reification", "--workspace", W,
                   "--collection", collection, "-o", str(out))  # fmt: skip
    assert "has no named graphs: the graph retrieval is merged into the default graph" in result.stderr
    graph = Graph().parse(out, format=rdflib_format)
    assert len(graph) > 0 and written(result.stderr) >= len(graph)
    if fmt == "nt":  # one statement a line, each once
        assert written(result.stderr) == len(out.read_text().splitlines()) == len(graph)


def test_the_count_printed_is_the_count_written_when_quoted_triples_are_reified(
    neo4j_server: Neo4jServer, trace: tuple[str, str], tmp_path: Path
) -> None:
    collection, uri = trace
    out = tmp_path / "trace.nq"
    result = tgneo(neo4j_server, "export", uri, "--format", "nquads", "--quoted", "reification", "--workspace", W,
                   "--collection", collection, "-o", str(out))  # fmt: skip
    dataset = Dataset().parse(out, format="nquads")
    assert written(result.stderr) == len(out.read_text().splitlines()) == len(dataset)
    assert "merged" not in result.stderr  # N-Quads keeps its graphs


RDFLIB_FORMAT = {"nquads": "nquads", "trig": "trig", "json-ld": "json-ld", "turtle": "turtle", "nt": "nt"}


@pytest.mark.parametrize("fmt", ["nquads", "trig", "json-ld", "turtle", "nt"])
def test_the_default_prov_export_is_read_by_rdflib_without_a_warning(
    neo4j_server: Neo4jServer, trace: tuple[str, str], tmp_path: Path, fmt: str, caplog: pytest.LogCaptureFixture
) -> None:
    collection, uri = trace
    out = tmp_path / f"trace.{fmt}"
    result = tgneo(neo4j_server, "export", uri, "--format", fmt, "--workspace", W, "--collection", collection,
                   "-o", str(out))  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.simplefilter("ignore", DeprecationWarning)  # rdflib's own, about its API
        data = Dataset().parse(out, format=RDFLIB_FORMAT[fmt])
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text
    assert len(data) > 0 and "<<" not in out.read_text()  # reified: RDF 1.1
    if fmt in ("nquads", "nt"):
        assert written(result.stderr) == len(data)


@pytest.mark.parametrize(("fmt", "oxigraph"), [("nquads", "N_QUADS"), ("trig", "TRIG"), ("json-ld", "JSON_LD")])
def test_the_default_prov_export_is_read_by_pyoxigraph_and_the_prov_package(
    neo4j_server: Neo4jServer, trace: tuple[str, str], tmp_path: Path, fmt: str, oxigraph: str
) -> None:
    import pyoxigraph
    from prov.model import ProvDocument

    collection, uri = trace
    out = tmp_path / f"trace.{fmt}"
    tgneo(neo4j_server, "export", uri, "--format", fmt, "--workspace", W, "--collection", collection, "-o", str(out))
    assert len(list(pyoxigraph.parse(path=str(out), format=getattr(pyoxigraph.RdfFormat, oxigraph)))) > 0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.simplefilter("ignore", DeprecationWarning)  # rdflib's own, raised inside the prov package
        document = ProvDocument.deserialize(source=str(out), format="rdf", rdf_format=fmt)
    assert document.bundles or document.get_records()


def test_the_default_prov_export_imports_back_to_what_was_exported(
    neo4j_server: Neo4jServer, trace: tuple[str, str], tmp_path: Path
) -> None:
    collection, uri = trace
    first, second = tmp_path / "first.nq", tmp_path / "second.nq"
    tgneo(neo4j_server, "export", uri, "--workspace", W, "--collection", collection, "-o", str(first))
    again = f"test-formats-again-{uuid.uuid4().hex[:6]}"
    tgneo(neo4j_server, "import", str(first), "--workspace", W, "--collection", again)
    tgneo(neo4j_server, "export", uri, "--workspace", W, "--collection", again, "-o", str(second))
    assert second.read_text() == first.read_text()


def test_the_trustgraph_profile_keeps_quoted_triples_by_default(
    neo4j_server: Neo4jServer, trace: tuple[str, str]
) -> None:
    collection, uri = trace
    result = tgneo(neo4j_server, "export", uri, "--profile", "trustgraph", "--workspace", W, "--collection", collection)
    assert "<< " in result.stdout and "urn:tgneo:triple:" not in result.stdout
