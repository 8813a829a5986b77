"""``tgneo trace diff`` and ``GET /api/v1/traces/diff``: what changed between two answers, in terms of provenance.

The traces are real: the sample corpus loaded into two collections of one workspace (the second without
one document), GraphRAG asked the same question in both, and with fewer edges allowed.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
import requests

from tests.clirun import tgneo
from tests.conftest import Neo4jServer
from tests.serving import Served
from tgneo.engines import GraphRag, Request
from tgneo.explain.events import SessionEnd
from tgneo.ingest.loader import load_documents
from tgneo.ingest.sample import QUESTIONS, sources
from tgneo.llm.offline import OfflineLLM
from tgneo.store import Store
from tgneo.store.traces import get_trace
from tgneo.tracediff import diff, render

W = f"test-ws-diff-{uuid.uuid4().hex[:8]}"
QUESTION = QUESTIONS[0].text


def ask(store: Store, collection: str, **options: Any) -> str:
    end = list(GraphRag(store, OfflineLLM()).answer(Request(QUESTION, W, collection, options)))[-1]
    assert isinstance(end, SessionEnd) and end.trace
    return end.trace


@pytest.fixture(scope="module")
def traces(store: Store) -> dict[str, Any]:
    full, fewer = f"test-diff-{uuid.uuid4().hex[:8]}", f"test-diff-{uuid.uuid4().hex[:8]}"
    documents = sources()
    assert load_documents(store, OfflineLLM(), W, full, documents).loaded == len(documents)
    assert load_documents(store, OfflineLLM(), W, fewer, documents[1:]).loaded == len(documents) - 1
    return {
        "full": full, "fewer": fewer, "first": ask(store, full), "again": ask(store, full),
        "three_edges": ask(store, full, edge_limit=3), "other": ask(store, fewer),
    }  # fmt: skip


def compared(store: Store, a: str, b: str, collection: str, other: str | None = None) -> dict[str, Any]:
    return diff(get_trace(store, W, collection, a), get_trace(store, W, other or collection, b))


def test_two_runs_of_one_question_match_by_what_they_selected_not_by_their_uris(
    store: Store, traces: dict[str, Any]
) -> None:
    result = compared(store, traces["first"], traces["again"], traces["full"])
    assert traces["first"] != traces["again"] and result["same_question"]
    edges = result["edges"]
    assert edges["kept"] > 3 and not edges["added"] and not edges["removed"] and not edges["changed"]
    assert result["concepts"]["kept"] and not result["concepts"]["added"] and not result["concepts"]["removed"]
    assert result["sentences"]["kept"] and not result["sentences"]["added"] and not result["sentences"]["removed"]


def test_edges_no_longer_selected_are_removed_with_their_score_and_reasoning(
    store: Store, traces: dict[str, Any]
) -> None:
    result = compared(store, traces["first"], traces["three_edges"], traces["full"])
    edges = result["edges"]
    assert edges["kept"] == 3 and not edges["added"] and edges["removed"]
    assert all(isinstance(e["score"], float) and e["reasoning"] and " · " in e["edge"] for e in edges["removed"])
    scores = [e["score"] for e in edges["removed"]]
    assert scores == sorted(scores, reverse=True)  # best first, as traces list them
    text = render(result)
    assert f"selected edges  +0 -{len(edges['removed'])} =3" in text
    assert f"  - {edges['removed'][0]['score']:.2f}  {edges['removed'][0]['edge']}" in text


def test_a_trace_compares_across_collections_of_one_workspace_from_the_cli(
    neo4j_server: Neo4jServer, traces: dict[str, Any]
) -> None:
    args = ("trace", "diff", traces["first"], traces["other"], "--workspace", W, "--collection", traces["full"],
            "--collection-b", traces["fewer"])  # fmt: skip
    result = json.loads(tgneo(neo4j_server, *args, "--json").stdout)
    assert (result["a"]["collection"], result["b"]["collection"]) == (traces["full"], traces["fewer"])
    edges = result["edges"]
    assert edges["removed"] or edges["added"], "without a document the collection selects other edges"
    text = tgneo(neo4j_server, *args).stdout
    assert text.startswith(f"A  {traces['first']}") and f"B  {traces['other']}" in text


def test_a_changed_score_or_reasoning_is_a_change_not_an_addition() -> None:
    def trace(score: float, reasoning: str) -> dict[str, Any]:
        edge = {
            "score": score,
            "reasoning": reasoning,
            "statement": {"s": "urn:x", "p": "urn:p", "o": "urn:y", "s_label": "x", "p_label": "p", "o_label": "y"},
        }
        return {"uri": "urn:q", "query": "q?", "steps": [{"uri": "urn:f", "type": "Focus", "properties": {},
                                                         "edges": [edge]}], "totals": {}}  # fmt: skip

    result = diff(trace(0.5, "because"), trace(0.75, "because"))
    (change,) = result["edges"]["changed"]
    assert change["changes"] == {"score": {"a": 0.5, "b": 0.75}} and not result["edges"]["added"]
    assert "~ 0.75  x · p · y" in render(result) and "score: 0.50 → 0.75" in render(result)


def test_the_api_answers_what_the_cli_prints(neo4j_server: Neo4jServer, served: Served, store: Store) -> None:
    b = served.b
    roots = []
    for options in ({}, {"edge-limit": 2}):
        response = requests.post(f"{served.base}/api/v1/graph-rag", headers=b.headers, timeout=120,
                                 json={"collection": b.collection, "query": QUESTION, **options})  # fmt: skip
        roots.append(json.loads(response.text.splitlines()[0])["explain_id"])
    api = requests.get(f"{served.base}/api/v1/traces/diff", headers=b.headers, timeout=60,
                       params={"collection": b.collection, "a": roots[0], "b": roots[1]})  # fmt: skip
    assert api.status_code == 200, api.text
    cli = tgneo(neo4j_server, "trace", "diff", *roots, "--workspace", b.workspace, "--collection", b.collection,
                "--json")  # fmt: skip
    assert api.json() == json.loads(cli.stdout)
    assert api.json()["edges"]["kept"] == 2 and api.json()["edges"]["removed"]


def test_the_api_names_a_missing_trace_uri_and_does_not_find_another_workspaces_trace(served: Served) -> None:
    a, b = served.a, served.b
    missing = requests.get(f"{served.base}/api/v1/traces/diff", headers=b.headers, timeout=60,
                           params={"collection": b.collection, "a": "urn:x"})  # fmt: skip
    assert missing.status_code == 400 and "a and b" in missing.json()["error"]["message"]
    asked = requests.post(f"{served.base}/api/v1/graph-rag", headers=b.headers, timeout=120,
                          json={"collection": b.collection, "query": QUESTION})  # fmt: skip
    uri = json.loads(asked.text.splitlines()[0])["explain_id"]
    params = {"collection": a.collection, "a": uri, "b": uri}
    theirs = requests.get(f"{served.base}/api/v1/traces/diff", headers=a.headers, timeout=60, params=params)
    assert theirs.status_code == 404
