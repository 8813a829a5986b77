"""A question that fails midway on a real server: the stream ends with an error message, Neo4j stays whole."""

from __future__ import annotations

import json

import requests

from tests.conftest import Neo4jServer
from tests.ingesting import hold_a_fact, query
from tests.openai_server import OFFLINE_DIMENSIONS, OpenAIServer, serve
from tests.serving import running, serve_cmd
from tgneo.provision.server import free_port
from tgneo.store import Store


def test_an_llm_failure_mid_question_ends_the_stream_with_an_error_and_keeps_the_committed_steps(
    neo4j_server: Neo4jServer, store: Store, collection: str
) -> None:
    hold_a_fact(store, "default", collection)  # something to ask about: a collection holding nothing is refused
    with serve(OpenAIServer(dimensions=OFFLINE_DIMENSIONS)) as llm:
        env = {**neo4j_server.env(), "TGNEO_LLM": "openai", "OPENAI_BASE_URL": llm.url, "OPENAI_API_KEY": llm.api_key,
               "TGNEO_LLM_MODEL": "test-model", "TGNEO_LLM_RETRIES": "0"}  # fmt: skip
        port = free_port()
        with running(serve_cmd(port, "--workers", "1"), env, port) as base:
            url, body = f"{base}/api/v1/graph-rag", {"query": "Who discovered polonium?", "collection": collection}
            requests.post(url, json=body, timeout=120)  # the provider learns its dimensions; the answer is not ours
            llm.always = "500"  # from now on the model fails
            response = requests.post(url, json=body, timeout=120)
    messages = [json.loads(line) for line in response.text.splitlines()]
    assert response.status_code == 200
    assert [m["message_type"] for m in messages] == ["explain", "chunk"]
    question, final = messages
    assert final["end_of_session"] is True and final["error"]["type"] == "llm-error"
    assert "500" in final["error"]["message"] and final["trace"] == question["explain_id"]
    rows = query(store, "MATCH (q:TgResource {workspace: 'default', collection: $c, uri: $u}) "
                 "RETURN labels(q) AS labels, COUNT { (q)<-[:WAS_DERIVED_FROM]-() } AS children",
                 c=collection, u=question["explain_id"])  # fmt: skip
    assert "GraphRagQuestion" in rows[0]["labels"] and rows[0]["children"] == 0  # the Question, and nothing half-done
