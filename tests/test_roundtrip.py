"""TrustGraph-produced RDF through `tgneo import` and `tgneo export`: the same quads come back.

tests/data/trustgraph_sessions.nq was written by TrustGraph 2.11.1's own provenance builders
(scripts/make_trustgraph_fixture.py): extraction provenance, the knowledge graph with labels and
vocabulary, and a GraphRAG, DocRAG, ReAct (with a GraphRAG sub-trace and a failed tool),
plan-then-execute and supervisor session. The CLI runs against the real Neo4j, in this process
(:func:`tests.clirun.invoke`): what is checked is what the commands write and print; the refusals, whose exit code
and stderr without a traceback are the process's, run in a subprocess.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.clirun import TGNEO, invoke
from tests.conftest import Neo4jServer
from tgneo.rdf.star import isomorphic, parse, serialize
from tgneo.rdf.terms import Quad
from tgneo.store import Store
from tgneo.vocab import GRAPH_RETRIEVAL, PROV, TG

FIXTURE = Path(__file__).parent / "data" / "trustgraph_sessions.nq"


def tgneo(server: Neo4jServer, *args: str) -> subprocess.CompletedProcess[str]:
    return invoke(server, *args)


def fixture_quads() -> set[Quad]:
    return set(parse(FIXTURE.read_bytes(), "nquads"))


@pytest.fixture
def imported(neo4j_server: Neo4jServer, collection: str) -> str:
    result = tgneo(neo4j_server, "import", str(FIXTURE), "--workspace", "w", "--collection", collection)
    assert f"imported {len(fixture_quads())} quads" in result.stderr
    return collection


def test_the_fixture_really_has_every_session_kind() -> None:
    quads = fixture_quads()
    types = {q.o for q in quads if q.g == GRAPH_RETRIEVAL and str(q.p).endswith("#type")}
    assert {TG.GraphRagQuestion, TG.DocRagQuestion, TG.AgentQuestion, TG.Plan, TG.Decomposition, TG.Error} <= types
    assert any(q.p == TG.contains for q in quads) and any(q.p == TG.edge for q in quads)


def test_import_then_export_gives_back_exactly_the_same_quads(neo4j_server: Neo4jServer, imported: str) -> None:
    exported = tgneo(neo4j_server, "export", "--workspace", "w", "--collection", imported, "--profile", "trustgraph")
    assert set(parse(exported.stdout, "nquads")) == fixture_quads()
    assert exported.stdout == serialize(fixture_quads(), "nquads")  # canonical N-Quads: byte for byte


def test_every_selected_edge_leads_to_its_document(store: Store, imported: str) -> None:
    with store.driver.session(database=store.database) as session:
        record = session.run(
            "MATCH (sel:EdgeSelection {workspace: 'w', collection: $c}) "
            "RETURN count(sel) AS selections, count { MATCH (:Focus)-[:SELECTED_EDGE]->(sel)-[:EDGE]->(:TgStatement)"
            "<-[:CONTAINS]-(:TgSubgraph)-[:WAS_DERIVED_FROM*]->(:TgDocument) } AS chains, "
            "sum(CASE WHEN EXISTS { (:Focus)-[:SELECTED_EDGE]->(sel)-[:EDGE]->(:TgStatement)<-[:CONTAINS]-(:TgSubgraph)"
            "-[:WAS_DERIVED_FROM*]->(:TgDocument) } THEN 1 ELSE 0 END) AS covered",
            c=imported,
        ).single()
    assert record is not None
    assert record["selections"] == 4  # two in the GraphRAG session, two in the ReAct sub-trace
    assert record["covered"] == record["selections"]


def test_export_of_one_trace_is_that_trace(neo4j_server: Neo4jServer, imported: str) -> None:
    root = "urn:trustgraph:agent:00000000-0000-4000-8000-000000000003"
    exported = set(parse(tgneo(neo4j_server, "export", root, "--workspace", "w", "--collection", imported,
                               "--profile", "trustgraph").stdout, "nquads"))  # fmt: skip
    assert exported < fixture_quads()
    subjects = {str(q.s) for q in exported}
    assert root in subjects and "urn:trustgraph:question:00000000-0000-4000-8000-000000000004" in subjects
    assert not any("000000000001" in s for s in subjects)  # the standalone GraphRAG session is another trace


@pytest.mark.parametrize("fmt", ["trig", "json-ld"])
def test_other_quad_formats_round_trip_too(neo4j_server: Neo4jServer, imported: str, fmt: str) -> None:
    exported = tgneo(
        neo4j_server, "export", "--workspace", "w", "--collection", imported, "--format", fmt, "--profile", "trustgraph"
    ).stdout
    assert isomorphic(parse(exported, fmt), fixture_quads())


def test_the_prov_profile_types_literals_and_round_trips_in_its_own_profile(
    neo4j_server: Neo4jServer, imported: str, tmp_path: Path
) -> None:
    prov = tgneo(neo4j_server, "export", "--workspace", "w", "--collection", imported, "--profile", "prov").stdout
    quads = set(parse(prov, "nquads"))
    started = {q.o for q in quads if q.p == PROV.startedAtTime}
    assert started and all(str(o.datatype).endswith("#dateTime") for o in started)  # type: ignore[union-attr]
    again_file = tmp_path / "prov.nq"
    again_file.write_text(prov)
    tgneo(neo4j_server, "import", str(again_file), "--workspace", "w", "--collection", imported + "-prov")
    again = tgneo(neo4j_server, "export", "--workspace", "w", "--collection", imported + "-prov", "--profile", "prov")
    assert set(parse(again.stdout, "nquads")) == quads


EDGE_CASES = Path(__file__).parent / "data" / "edge_cases.nq"


def test_awkward_rdf_survives_the_round_trip_unchanged(neo4j_server: Neo4jServer, collection: str) -> None:
    """Non-canonical numbers, typed strings, language tags, repeated single-valued predicates, unmapped
    classes and predicates, literals where IRIs belong, nested and subject quoted triples, blank nodes."""
    tgneo(neo4j_server, "import", str(EDGE_CASES), "--workspace", "w", "--collection", collection)
    exported = tgneo(neo4j_server, "export", "--workspace", "w", "--collection", collection, "--profile", "trustgraph")
    assert isomorphic(parse(exported.stdout, "nquads"), parse(EDGE_CASES.read_bytes(), "nquads"))


def test_a_malformed_file_is_refused_with_its_line_and_nothing_is_written(
    neo4j_server: Neo4jServer, store: Store, collection: str, tmp_path: Path
) -> None:
    bad = tmp_path / "bad.nq"
    bad.write_text('<urn:a> <urn:b> <urn:c> .\n<urn:a> <urn:b> "unterminated .\n')
    result = subprocess.run(
        [*TGNEO, "import", str(bad), "--collection", collection], env=neo4j_server.env(),
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode == 1
    assert "line 2" in result.stderr and "Traceback" not in result.stderr
    with store.driver.session(database=store.database) as session:
        record = session.run("MATCH (n {collection: $c}) RETURN count(n) AS n", c=collection).single()
    assert record is not None and record["n"] == 0


def test_an_unknown_format_is_refused_naming_the_formats(neo4j_server: Neo4jServer, tmp_path: Path) -> None:
    odd = tmp_path / "data.xyz"
    odd.write_text("")
    result = subprocess.run(
        [*TGNEO, "import", str(odd)], env=neo4j_server.env(), capture_output=True,
        text=True, timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode == 1 and "nquads" in result.stderr


def test_typed_numbers_are_native_and_follow_the_export_profile(
    neo4j_server: Neo4jServer, store: Store, collection: str, tmp_path: Path
) -> None:
    typed = tmp_path / "typed.nq"
    typed.write_text(
        "<urn:ex:c> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <https://trustgraph.ai/ns/Chunk> "
        "<urn:graph:source> .\n"
        '<urn:ex:c> <https://trustgraph.ai/ns/charOffset> "12"^^<http://www.w3.org/2001/XMLSchema#integer> '
        "<urn:graph:source> .\n"
    )
    tgneo(neo4j_server, "import", str(typed), "--workspace", "w", "--collection", collection)
    with store.driver.session(database=store.database) as session:
        record = session.run("MATCH (c:TgChunk {collection: $c}) RETURN c.charOffset AS v", c=collection).single()
    assert record is not None and record["v"] == 12
    plain = tgneo(
        neo4j_server, "export", "--workspace", "w", "--collection", collection, "--profile", "trustgraph"
    ).stdout
    prov = ("--profile", "prov")
    typed_out = tgneo(neo4j_server, "export", "--workspace", "w", "--collection", collection, *prov).stdout
    assert '<https://trustgraph.ai/ns/charOffset> "12" <urn:graph:source>' in plain
    assert '"12"^^<http://www.w3.org/2001/XMLSchema#integer> <urn:graph:source>' in typed_out
