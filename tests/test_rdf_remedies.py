"""Every remedy an RDF error or note suggests works: each test reads the advice out of the message and follows it.

A message that names an option that does not exist, or one that leads back to the same error, fails here.
"""

from __future__ import annotations

import re
import uuid
from pathlib import Path

import pytest
from rdflib import Dataset

from tests.clirun import invoke as tgneo  # in this process: these tests check what the commands print and store
from tests.conftest import Neo4jServer

W = f"test-ws-remedies-{uuid.uuid4().hex[:8]}"
FIXTURE = Path(__file__).parent / "data" / "trustgraph_sessions.nq"
FACT = '<http://example.org/a> <http://example.org/p> "a fact" .\n'


@pytest.fixture(scope="module")
def collection(neo4j_server: Neo4jServer) -> str:
    """A collection holding the TrustGraph fixture: a knowledge graph, source provenance and traces."""
    name = f"test-remedies-{uuid.uuid4().hex[:8]}"
    tgneo(neo4j_server, "import", str(FIXTURE), "--workspace", W, "--collection", name)
    return name


def error_of(result: object) -> str:
    stderr = str(getattr(result, "stderr", ""))
    assert getattr(result, "returncode", 0) != 0, stderr
    (line,) = [line for line in stderr.splitlines() if line.startswith("error:")]
    return line


def test_an_unknown_extension_suggests_format_names_and_each_one_is_accepted(
    neo4j_server: Neo4jServer, tmp_path: Path
) -> None:
    facts = tmp_path / "facts.txt"
    facts.write_text(FACT)
    message = error_of(tgneo(neo4j_server, "import", str(facts), "--workspace", W, "--collection", "x", ok=False))
    match = re.search(r"or pass --format ([\w|-]+)", message)
    assert match, message
    names = match.group(1).split("|")
    assert {"nt", "nquads", "turtle", "trig", "json-ld"} <= set(names)
    for line_format in ("nt", "nquads"):  # the names that read a line of N-Triples
        assert line_format in names
        collection = f"test-remedies-{uuid.uuid4().hex[:8]}"
        result = tgneo(neo4j_server, "import", str(facts), "--format", line_format, "--workspace", W,
                       "--collection", collection)  # fmt: skip
        assert "imported 1 quads" in result.stderr


def test_a_graph_name_in_n_triples_suggests_nquads_which_reads_it(neo4j_server: Neo4jServer, tmp_path: Path) -> None:
    quads = tmp_path / "facts.nt"
    quads.write_text(FACT.replace(" .\n", " <urn:g:mine> .\n"))
    collection = f"test-remedies-{uuid.uuid4().hex[:8]}"
    args = ("--workspace", W, "--collection", collection)
    message = error_of(tgneo(neo4j_server, "import", str(quads), *args, ok=False))
    match = re.search(r"use (\w+)\)", message)
    assert match and "line 1" in message, message
    tgneo(neo4j_server, "import", str(quads), "--format", match.group(1), *args)
    exported = tgneo(neo4j_server, "export", "--format", "nquads", "--profile", "trustgraph", *args).stdout
    assert "<urn:g:mine>" in exported


def test_json_ld_refuses_triple_terms_and_each_quoting_it_suggests_works(
    neo4j_server: Neo4jServer, collection: str
) -> None:
    args = ("--format", "json-ld", "--workspace", W, "--collection", collection)
    message = error_of(tgneo(neo4j_server, "export", *args, "--quoted", "triple-term", ok=False))
    match = re.search(r"use --quoted (\S+) or (\S+)$", message)
    assert match, message
    for quoted in match.groups():
        result = tgneo(neo4j_server, "export", *args, "--quoted", quoted)
        assert len(Dataset().parse(data=result.stdout, format="json-ld")) > 0


def named_graphs(text: str, fmt: str) -> set[str]:
    dataset = Dataset().parse(data=text, format=fmt)
    return {
        str(g.identifier)
        for g in dataset.graphs()
        if len(g) and str(g.identifier) != str(Dataset().default_graph.identifier)
    }


def test_the_merge_note_suggests_formats_that_keep_graphs_apart_and_a_graph_to_pick(
    neo4j_server: Neo4jServer, collection: str
) -> None:
    args = ("--workspace", W, "--collection", collection)
    note = tgneo(neo4j_server, "export", "--format", "turtle", *args).stderr
    match = re.search(
        r"merged into the default graph \(use (.+) to keep graphs apart, or (--graph) to pick one\)", note
    )
    assert match, note
    formats = re.split(r", | or ", match.group(1))
    assert formats == ["nquads", "trig", "json-ld"]
    for fmt in formats:
        result = tgneo(neo4j_server, "export", "--format", fmt, *args)
        assert "merged" not in result.stderr
        assert {"urn:graph:retrieval", "urn:graph:source"} <= named_graphs(result.stdout, fmt)
    picked = tgneo(neo4j_server, "export", "--format", "turtle", match.group(2), "retrieval", *args)
    assert "the graph retrieval is merged into the default graph" in picked.stderr
    assert "--graph" not in picked.stderr and "keep graphs apart" not in picked.stderr  # nothing left to advise
    everything = tgneo(neo4j_server, "export", "--format", "nquads", "--graph", "retrieval", *args).stdout
    assert len(Dataset().parse(data=picked.stdout, format="turtle")) == len(
        Dataset().parse(data=everything, format="nquads")
    )
