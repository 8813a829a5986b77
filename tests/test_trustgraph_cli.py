"""TrustGraph's own CLI (trustgraph-cli 2.11.1, unmodified) against `tgneo serve`, with a token.

Each command runs as a subprocess with TRUSTGRAPH_URL and TRUSTGRAPH_TOKEN, exactly as a user runs
it; its output is checked for the entities of the trace it shows.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import pytest
import requests

from tests.serving import Served, tg
from tgneo.ingest.sample import QUESTIONS

POLONIUM = QUESTIONS[0].text


def ok(result: subprocess.CompletedProcess[str]) -> subprocess.CompletedProcess[str]:
    """TrustGraph's commands print some failures as `Exception: …` and still exit 0: insist on neither."""
    assert result.returncode == 0, result.stderr + result.stdout
    assert "Exception" not in result.stdout + result.stderr, result.stdout + result.stderr
    return result


@pytest.fixture(scope="module")
def graph_rag(served: Served) -> subprocess.CompletedProcess[str]:
    tenant = served.a
    return ok(tg("tg-invoke-graph-rag", "-x", "-C", tenant.collection, "-q", POLONIUM, env=tenant.tg_env(served.base)))


def question_uri(output: str, prefix: str = "urn:trustgraph:question:") -> str:
    found = re.search(re.escape(prefix) + r"[0-9a-f-]{36}", output)
    assert found, output
    return found.group(0)


def test_invoke_graph_rag_x_prints_every_step_the_answer_and_the_sources(
    graph_rag: subprocess.CompletedProcess[str],
) -> None:
    err = graph_rag.stderr
    for line in ("[question]", f"Query: {POLONIUM}", "[grounding]", "- marie curie", "[exploration]",
                 "Seed entities:", "- Marie Curie", "[focus]", "Edge: (Polonium, named after, Poland)",
                 "Edge: (Poland, native country of, Marie Curie)", "Score: 0.", "[synthesis]",
                 "Document: urn:trustgraph:synthesis:", "Sources:",
                 "- Polonium and radium (https://trustgraph.ai/doc/"):  # fmt: skip
        assert line in err, f"{line!r} missing from:\n{err}"
    assert "Polonium" in graph_rag.stdout


def test_invoke_document_rag_x_prints_question_grounding_exploration_synthesis(served: Served) -> None:
    tenant = served.a
    result = ok(tg("tg-invoke-document-rag", "-x", "-C", tenant.collection, "-q", "Who discovered polonium?",
                   env=tenant.tg_env(served.base)))  # fmt: skip
    for line in ("[question] urn:trustgraph:docrag:", "Concept: polonium", "Chunks retrieved:", "[synthesis]"):
        assert line in result.stderr, result.stderr
    assert "Polonium was discovered by Marie Curie and Pierre Curie" in result.stdout


def test_invoke_agent_x_prints_session_analysis_observation_conclusion(served: Served) -> None:
    tenant = served.a
    result = ok(tg("tg-invoke-agent", "-x", "-C", tenant.collection, "-q", "What is 1934 - 1867?",
                   env=tenant.tg_env(served.base)))  # fmt: skip
    for line in ("[session] urn:trustgraph:agent:", "Query: What is 1934 - 1867?", "[analysis: calculator]",
                 "[observation]", "[conclusion]"):  # fmt: skip
        assert line in result.stderr, result.stderr
    assert "67" in result.stdout


def test_list_explain_traces_shows_the_question(served: Served, graph_rag: subprocess.CompletedProcess[str]) -> None:
    tenant = served.a
    env = tenant.tg_env(served.base)
    result = ok(tg("tg-list-explain-traces", "-C", tenant.collection, "--format", "json", env=env))
    sessions = json.loads(result.stdout)
    mine = next(s for s in sessions if s["id"] == question_uri(graph_rag.stderr))
    assert mine["type"] == "GraphRAG" and mine["question"] == POLONIUM


def test_show_explain_trace_with_provenance_walks_edges_to_their_documents(
    served: Served, graph_rag: subprocess.CompletedProcess[str]
) -> None:
    tenant = served.a
    uri = question_uri(graph_rag.stderr)
    result = ok(tg("tg-show-explain-trace", "-C", tenant.collection, "--show-provenance", uri,
                   env=tenant.tg_env(served.base)))  # fmt: skip
    out = result.stdout
    assert f"=== GraphRAG Session: {uri} ===" in out and f"Question: {POLONIUM}" in out
    assert re.search(r"Retrieved \d+ edges from knowledge graph", out)
    assert "(Polonium, named after, Poland)" in out
    assert re.search(r"Source: https://trustgraph.ai/subgraph/\S+ -> urn:chunk:\S+ -> urn:\w+:\S+ -> "
                     r"https://trustgraph.ai/doc/", out), out  # fmt: skip
    assert "Content: urn:chunk:" in out
    answer = out.split("Answer:", 1)[1]
    assert "Polonium" in answer and "Error fetching content" not in answer


def test_show_explain_trace_as_json(served: Served, graph_rag: subprocess.CompletedProcess[str]) -> None:
    tenant = served.a
    uri = question_uri(graph_rag.stderr)
    result = ok(tg("tg-show-explain-trace", "-C", tenant.collection, "--format", "json", uri,
                   env=tenant.tg_env(served.base)))  # fmt: skip
    trace = json.loads(result.stdout)
    assert trace["type"] == "graphrag" and trace["question"] == POLONIUM
    edges = trace["focus"]["selected_edges"]
    assert edges and all(e["edge"]["s"] and e["score"] is not None for e in edges)
    assert trace["synthesis"]["document"].startswith("urn:trustgraph:synthesis:")


def test_show_extraction_provenance_draws_document_chunks_and_edges(served: Served) -> None:
    tenant = served.a
    graph = ok(tg("tg-query-graph", "-C", tenant.collection, "-p", "http://purl.org/dc/elements/1.1/title",
                  "-o", "Polonium and radium", "-g", "urn:graph:source", env=tenant.tg_env(served.base)))  # fmt: skip
    document = graph.stdout.split()[0]
    result = ok(tg("tg-show-extraction-provenance", "-C", tenant.collection, document, env=tenant.tg_env(served.base)))
    assert result.stdout.startswith(f"Document: {document}")
    assert "Chunk: Polonium" in result.stdout and "Edge: (polonium, named-after, poland)" in result.stdout


def test_query_graph_finds_a_quoted_edge_in_the_source_graph(served: Served) -> None:
    tenant = served.a
    edge = "<<http://trustgraph.ai/e/polonium http://trustgraph.ai/e/named-after http://trustgraph.ai/e/poland>>"
    result = ok(tg("tg-query-graph", "-C", tenant.collection, "-p", "https://trustgraph.ai/ns/contains", "-o", edge,
                   "-g", "urn:graph:source", env=tenant.tg_env(served.base)))  # fmt: skip
    lines = result.stdout.splitlines()
    assert lines and all(line.startswith("https://trustgraph.ai/subgraph/") and edge in line for line in lines)


def test_load_turtle_then_query_graph_and_show_graph_read_it_back(served: Served, tmp_path: Path) -> None:
    tenant = served.a
    collection = tenant.collection + "-turtle"
    ttl = tmp_path / "ada.ttl"
    ttl.write_text('@prefix ex: <http://example.org/> .\n'
                   'ex:ada ex:wrote ex:notes ; ex:born "1815"^^<http://www.w3.org/2001/XMLSchema#integer> ;\n'
                   '  <http://www.w3.org/2000/01/rdf-schema#label> "Ada Lovelace"@en .\n')  # fmt: skip
    env = tenant.tg_env(served.base)
    loaded = ok(tg("tg-load-turtle", "-i", "doc-ada", "-C", collection, str(ttl), env=env))
    assert "Triples loaded." in loaded.stdout and "File loaded." in loaded.stdout
    deadline = time.monotonic() + 30  # the client closes without waiting; the server applies what it read
    while True:
        found = ok(tg("tg-query-graph", "-C", collection, "-s", "http://example.org/ada", env=env)).stdout
        if found.count("\n") == 3 or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert 'http://example.org/ada http://example.org/born "1815"^^http://www.w3.org/2001/XMLSchema#integer' in found
    assert '"Ada Lovelace"@en' in found
    shown = ok(tg("tg-show-graph", "-C", collection, env=env)).stdout
    assert "http://example.org/ada http://example.org/wrote http://example.org/notes" in shown


def test_get_document_content_and_list_collections(served: Served, graph_rag: subprocess.CompletedProcess[str]) -> None:
    tenant = served.a
    env = tenant.tg_env(served.base)
    document = re.search(r"Document: (urn:trustgraph:synthesis:\S+)", graph_rag.stderr)
    assert document
    content = ok(tg("tg-get-document-content", document.group(1), env=env))
    assert content.stdout.strip() == graph_rag.stdout.strip()
    listed = ok(tg("tg-list-collections", env=env)).stdout
    assert tenant.collection in listed and served.b.collection not in listed


# --------------------------------------------------------------------------------------------------
# a verified answer: TrustGraph's client asks for the check, and its CLI reads the trace as before

SDK_VERIFY = """
import os, sys
from trustgraph.api import Api, ExplainabilityClient, ProvenanceEvent, RAGChunk

collection, question = sys.argv[1], sys.argv[2]
socket = Api(url=os.environ["TRUSTGRAPH_URL"], token=os.environ["TRUSTGRAPH_TOKEN"]).socket()
flow = socket.flow("default")
explain = ExplainabilityClient(flow, retry_delay=0.2, max_retries=10)
try:
    # what tg-invoke-graph-rag -x runs, with tgneo's own request field passed through the SDK's **kwargs
    for item in flow.graph_rag_explain(query=question, collection=collection, verify=True):
        if isinstance(item, RAGChunk):
            print(item.content, end="", flush=True)
        elif isinstance(item, ProvenanceEvent):
            entity = item.entity or explain.fetch_entity(
                item.explain_id, graph=item.explain_graph or "urn:graph:retrieval", collection=collection)
            print(f"[{entity.entity_type if entity else 'not found'}] {item.explain_id}", file=sys.stderr)
finally:
    socket.close()
print()
"""


@pytest.fixture(scope="module")
def verified(served: Served) -> subprocess.CompletedProcess[str]:
    """A GraphRAG answer asked with ``verify`` through TrustGraph's own SDK (trustgraph-base 2.11.1, unmodified)."""
    tenant = served.a
    return ok(subprocess.run([sys.executable, "-c", SDK_VERIFY, tenant.collection, POLONIUM], capture_output=True,
                             text=True, timeout=180, check=False, env=tenant.tg_env(served.base)))  # fmt: skip


def test_trustgraphs_client_asking_for_the_check_reads_every_step_it_is_sent_and_the_answer(
    served: Served, verified: subprocess.CompletedProcess[str]
) -> None:
    kinds = re.findall(r"^\[([\w ]+)\] ", verified.stderr, re.M)
    assert kinds == ["question", "grounding", "exploration", "focus", "synthesis"], verified.stderr
    assert verified.stdout.startswith("Polonium was named after Poland")
    tenant = served.a
    uri = question_uri(verified.stderr)
    trace = requests.get(f"{served.base}/api/v1/traces/{quote(uri, safe='')}", timeout=30,
                         params={"collection": tenant.collection}, headers=tenant.headers).json()  # fmt: skip
    assert trace["verification"]["verdict"] == "supported"  # the check was made and recorded all the same


def test_show_explain_trace_reads_a_verified_trace_as_it_reads_any(
    served: Served, verified: subprocess.CompletedProcess[str], graph_rag: subprocess.CompletedProcess[str]
) -> None:
    tenant = served.a
    env = tenant.tg_env(served.base)
    uri = question_uri(verified.stderr)
    shown = ok(tg("tg-show-explain-trace", "-C", tenant.collection, "--show-provenance", uri, env=env)).stdout
    assert f"=== GraphRAG Session: {uri} ===" in shown and "(Polonium, named after, Poland)" in shown
    assert "Polonium" in shown.split("Answer:", 1)[1] and "Verification" not in shown
    as_json = json.loads(ok(tg("tg-show-explain-trace", "-C", tenant.collection, "--format", "json", uri,
                               env=env)).stdout)  # fmt: skip
    plain = json.loads(ok(tg("tg-show-explain-trace", "-C", tenant.collection, "--format", "json",
                             question_uri(graph_rag.stderr), env=env)).stdout)  # fmt: skip
    assert set(as_json) == set(plain) and set(as_json["synthesis"]) == set(plain["synthesis"])
    assert as_json["synthesis"]["document"].startswith("urn:trustgraph:synthesis:")
    listed = json.loads(ok(tg("tg-list-explain-traces", "-C", tenant.collection, "--format", "json", env=env)).stdout)
    assert uri in {s["id"] for s in listed}


def test_a_trace_verified_after_the_fact_still_reads_in_trustgraphs_cli(served: Served) -> None:
    """``tg-invoke-graph-rag -x`` answers, tgneo checks the stored answer (``POST …/verify``), TrustGraph's CLI reads
    the trace exactly as before the check."""
    tenant = served.a
    env = tenant.tg_env(served.base)
    asked = ok(tg("tg-invoke-graph-rag", "-x", "-C", tenant.collection, "-q", POLONIUM, env=env))
    uri = question_uri(asked.stderr)
    before = ok(tg("tg-show-explain-trace", "-C", tenant.collection, "--show-provenance", uri, env=env)).stdout
    checked = requests.post(f"{served.base}/api/v1/traces/{quote(uri, safe='')}/verify", timeout=120,
                            json={"collection": tenant.collection}, headers=tenant.headers)  # fmt: skip
    assert checked.status_code == 200, checked.text
    after = ok(tg("tg-show-explain-trace", "-C", tenant.collection, "--show-provenance", uri, env=env)).stdout
    assert after == before and "Answer:" in after
