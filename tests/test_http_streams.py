"""Native question streams on a real server: NDJSON and SSE over `requests`, the same over a WebSocket."""

from __future__ import annotations

import json
import time
from typing import Any

import requests
from websockets.sync.client import connect

from tests.ingesting import query
from tests.serving import SLOW_MODEL_SECONDS, Served, SlowServed
from tests.verifying import assert_summary_is_the_stored_check, is_verification_message, verdict_of
from tgneo.ingest.sample import QUESTIONS
from tgneo.store import Store
from tgneo.store.traces import get_trace

POLONIUM = QUESTIONS[0].text
SLOW_ITERATIONS = 16
"""A slow agent question's iterations: uninterrupted, it makes this many model calls (about 5 s)."""
QUIET_SECONDS = SLOW_MODEL_SECONDS * 8
"""A running agent calls its model every SLOW_MODEL_SECONDS or so: this long without a call means it stopped."""


def ndjson(served: Served, service: str, body: dict[str, Any], **kwargs: Any) -> list[dict[str, Any]]:
    tenant = served.a
    response = requests.post(f"{served.base}/api/v1/{service}", json={"collection": tenant.collection, **body},
                             headers=tenant.headers, timeout=120, **kwargs)  # fmt: skip
    assert response.status_code == 200, response.text
    assert response.headers["Content-Type"].startswith("application/x-ndjson")
    return [json.loads(line) for line in response.text.splitlines()]


def shape(messages: list[dict[str, Any]]) -> list[str]:
    """explain:<last segment kind> / chunk / final, collapsing runs of chunks."""
    out: list[str] = []
    for m in messages:
        if m.get("end_of_session") or m.get("end_of_dialog"):
            out.append("final")
        elif m["message_type"] == "explain":
            out.append("explain")
        elif not out or out[-1] != m["message_type"]:
            out.append(m["message_type"])
    return out


def stored_uris(store: Store, workspace: str, collection: str, uris: list[str]) -> set[str]:
    rows = query(store, "MATCH (n:TgResource {workspace: $w, collection: $c}) WHERE n.uri IN $uris AND n:TgExplain "
                 "RETURN n.uri AS uri", w=workspace, c=collection, uris=uris)  # fmt: skip
    return {r["uri"] for r in rows}


def test_graph_rag_streams_explain_steps_before_the_answer_then_the_synthesis_then_the_final_message(
    served: Served, store: Store
) -> None:
    messages = ndjson(served, "graph-rag", {"query": POLONIUM})
    assert shape(messages) == ["explain"] * 4 + ["chunk", "explain", "final"]
    kinds = [m["explain_id"].split(":")[2] for m in messages if m["message_type"] == "explain"]
    assert kinds == ["question", "prov", "prov", "prov", "prov"]
    assert [m["explain_id"].split(":")[3] for m in messages if m["message_type"] == "explain"][1:] == [
        "grounding", "exploration", "focus", "synthesis",
    ]  # fmt: skip
    final = messages[-1]
    assert final["end_of_session"] is True and final["in_token"] > 0 and final["out_token"] > 0
    assert {s["title"] for s in final["sources"]} >= {"Polonium and radium"}
    assert "Polonium" in "".join(m["response"] for m in messages if m["message_type"] == "chunk")


def test_every_explained_step_is_in_neo4j_when_its_message_arrives(served: Served, store: Store) -> None:
    """Write-before-emit as a client sees it: each explain message is looked up in Neo4j as it arrives.

    All five steps and the final message must arrive, so an empty or cut stream fails instead of checking nothing.
    """
    tenant = served.a
    checked: list[str] = []
    last: dict[str, Any] = {}
    with requests.post(f"{served.base}/api/v1/graph-rag", json={"query": POLONIUM, "collection": tenant.collection},
                       headers=tenant.headers, stream=True, timeout=120) as response:  # fmt: skip
        assert response.status_code == 200, response.text
        assert response.headers["Content-Type"].startswith("application/x-ndjson")
        for line in response.iter_lines():
            last = json.loads(line)
            if last["message_type"] == "explain":
                uri = last["explain_id"]
                assert stored_uris(store, tenant.workspace, tenant.collection, [uri]) == {uri}, f"{uri} not yet stored"
                checked.append(uri)
    assert [uri.split(":")[3] for uri in checked[1:]] == ["grounding", "exploration", "focus", "synthesis"]
    assert checked[0].split(":")[2] == "question" and len(set(checked)) == 5
    assert last.get("end_of_session") is True, last


def test_document_rag_streams_question_grounding_exploration_focus_chunks_synthesis(served: Served) -> None:
    messages = ndjson(served, "document-rag", {"query": "Who discovered polonium?", "doc-limit": 3})
    assert shape(messages) == ["explain"] * 4 + ["chunk", "explain", "final"]
    assert messages[-1]["message_type"] == "chunk" and messages[-1]["end_of_session"] is True
    assert messages[-2]["explain_id"].endswith("/synthesis")


def test_agent_streams_until_end_of_dialog_with_token_totals(served: Served) -> None:
    messages = ndjson(served, "agent", {"question": "What is 1934 - 1867?", "pattern": "react"})
    final = messages[-1]
    assert final["end_of_dialog"] is True and final["message_type"] == "answer"
    assert "67" in "".join(m.get("content", "") for m in messages if m["message_type"] == "answer")
    iteration = next(m for m in messages if m.get("explain_id", "").endswith("/i1"))
    assert {t["s"]["i"] for t in iteration["explain_triples"]} == {iteration["explain_id"]}  # client quirk §6.3


def test_sse_carries_the_same_messages_as_events(served: Served) -> None:
    tenant = served.a
    body = {"query": POLONIUM, "collection": tenant.collection}
    headers = {**tenant.headers, "Accept": "text/event-stream"}
    response = requests.post(f"{served.base}/api/v1/graph-rag", json=body, headers=headers, timeout=120)
    assert response.headers["Content-Type"].startswith("text/event-stream")
    events = [block for block in response.text.split("\n\n") if block]
    assert events[0].startswith("id: 1\ndata: ")
    messages = [json.loads(block.split("data: ", 1)[1]) for block in events]
    assert shape(messages) == ["explain"] * 4 + ["chunk", "explain", "final"]


def test_timestamps_mark_each_explain_message_with_its_commit_time(served: Served) -> None:
    before = time.time()
    messages = ndjson(served, "graph-rag", {"query": POLONIUM}, params={"timestamps": "true"})
    stamps = [m["committed_at"] for m in messages if m["message_type"] == "explain"]
    assert len(stamps) == 5 and stamps == sorted(stamps) and before <= stamps[0] <= time.time()
    assert all("committed_at" not in m for m in messages if m["message_type"] != "explain")


def test_the_websocket_stream_answers_question_after_question_on_one_socket(served: Served) -> None:
    tenant = served.a
    with connect(f"{served.ws}/api/v1/stream", additional_headers=tenant.headers, open_timeout=10) as ws:
        for service, body in (("graph-rag", {"query": POLONIUM}), ("agent", {"question": "What is 2 + 2?"})):
            ws.send(json.dumps({"service": service, "request": {**body, "collection": tenant.collection}}))
            messages = []
            while not (messages and (messages[-1].get("end_of_session") or messages[-1].get("end_of_dialog"))):
                messages.append(json.loads(ws.recv(timeout=120)))
            assert messages[0]["message_type"] == "explain"
        ws.send(json.dumps({"service": "graph-rag", "request": {"query": ""}}))
        refused = json.loads(ws.recv(timeout=30))
        assert refused["error"]["type"] == "BadRequest" and "query" in refused["error"]["message"]


# --------------------------------------------------------------------------------------------------
# "verify": true on each road: the check's step after the answer, its summary on the final message


def assert_verified_stream(messages: list[dict[str, Any]], store: Store, served: Served) -> dict[str, Any]:
    """The answer streams as it would unverified; then comes the Verification's explain message (after every piece
    of the answer and the answer step's own message), then the final message carrying the check's summary, which is
    the check the store holds. Returns the summary."""
    final = messages[-1]
    assert final.get("end_of_session") or final.get("end_of_dialog"), final
    assert "error" not in final, final
    check = final["verification"]
    (at,) = [i for i, m in enumerate(messages) if is_verification_message(m)]
    assert at == len(messages) - 2, [m["message_type"] for m in messages]
    answered = [i for i, m in enumerate(messages[:-1]) if m["message_type"] in ("chunk", "answer")]
    assert answered and max(answered) < at  # the check comes after the whole answer …
    verification = messages[at]
    answer_step = messages[at - 1] if messages[at - 1]["message_type"] == "explain" else None
    assert answer_step is not None and verification["explain_id"].startswith(answer_step["explain_id"] + "/")
    assert verification["explain_id"] == check["uri"] and verdict_of(verification) == check["verdict"]
    root = next(m for m in messages if m["message_type"] == "explain")["explain_id"]
    tenant = served.a
    assert_summary_is_the_stored_check(check, get_trace(store, tenant.workspace, tenant.collection, root))
    return dict(check)


def test_verify_on_the_ndjson_stream_checks_a_graph_rag_answer_after_it_is_given(served: Served, store: Store) -> None:
    messages = ndjson(served, "graph-rag", {"query": POLONIUM, "verify": True})
    assert shape(messages) == ["explain"] * 4 + ["chunk", "explain", "explain", "final"]
    check = assert_verified_stream(messages, store, served)
    assert check["verdict"] == "supported" and check["sufficient"] is True
    assert max(i["necessity"] for i in check["items"]) > 0  # some edge the answer could not do without
    unverified = ndjson(served, "graph-rag", {"query": POLONIUM})
    assert "verification" not in unverified[-1] and not any(is_verification_message(m) for m in unverified)


def test_verify_on_the_sse_stream_checks_a_document_rag_answer(served: Served, store: Store) -> None:
    tenant = served.a
    body = {"query": "Who discovered polonium?", "doc-limit": 3, "collection": tenant.collection, "verify": True}
    headers = {**tenant.headers, "Accept": "text/event-stream"}
    response = requests.post(f"{served.base}/api/v1/document-rag", json=body, headers=headers, timeout=120)
    assert response.status_code == 200 and response.headers["Content-Type"].startswith("text/event-stream")
    messages = [json.loads(block.split("data: ", 1)[1]) for block in response.text.split("\n\n") if block]
    assert shape(messages) == ["explain"] * 4 + ["chunk", "explain", "explain", "final"]
    check = assert_verified_stream(messages, store, served)
    assert all(i["iri"].startswith("urn:trustgraph:prov:chunk:") for i in check["items"])  # chunk selections


def test_verify_on_the_websocket_checks_an_agent_answer_within_the_budget_asked(served: Served, store: Store) -> None:
    tenant = served.a
    with connect(f"{served.ws}/api/v1/stream", additional_headers=tenant.headers, open_timeout=10) as ws:
        request = {"question": "Who discovered polonium?", "collection": tenant.collection, "verify": 3}
        ws.send(json.dumps({"service": "agent", "request": request}))
        messages: list[dict[str, Any]] = []
        while not (messages and messages[-1].get("end_of_dialog")):
            messages.append(json.loads(ws.recv(timeout=120)))
    check = assert_verified_stream(messages, store, served)
    assert len(check["items"]) == 1  # a budget of 3 re-runs: the two whole-answer ones and one leave-one-out
    assert check["items"][0]["iri"].endswith("/observation")


def test_a_verify_that_is_no_budget_is_refused_before_any_stream(served: Served) -> None:
    tenant = served.a
    for wrong in (1, "yes", 65):
        body = {"query": POLONIUM, "collection": tenant.collection, "verify": wrong}
        response = requests.post(f"{served.base}/api/v1/graph-rag", json=body, headers=tenant.headers, timeout=30)
        assert response.status_code == 400 and "verify" in response.json()["error"]["message"], response.text


def _steps_after_hanging_up(
    slow_served: SlowServed, store: Store, root: str, calls_before: int
) -> tuple[int, set[str]]:
    """Wait until the slow model has had no new request for QUIET_SECONDS; then the number of model calls
    made since ``calls_before`` and the labels of the steps recorded under ``root``."""
    calls = slow_served.chat_requests()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        time.sleep(QUIET_SECONDS)
        now = slow_served.chat_requests()
        if now == calls:
            break
        calls = now
    tenant = slow_served.a
    rows = query(store, "MATCH (q:TgResource {workspace: $w, collection: $c, uri: $u}) "
                 "OPTIONAL MATCH (s:TgExplain)-[:WAS_DERIVED_FROM]->+(q) UNWIND labels(s) AS label "
                 "RETURN collect(DISTINCT label) AS labels",
                 w=tenant.workspace, c=tenant.collection, u=root)  # fmt: skip
    return calls - calls_before, set(rows[0]["labels"])


def _slow_agent(slow_served: SlowServed) -> dict[str, Any]:
    return {"question": "How tall is the tallest tower of Warsaw?", "pattern": "react",
            "max-iterations": SLOW_ITERATIONS, "collection": slow_served.a.collection}  # fmt: skip


def test_a_slow_agent_left_alone_makes_every_model_call(slow_served: SlowServed, store: Store) -> None:
    """The control for the two tests below: uninterrupted, the slow question runs all its iterations."""
    before = slow_served.chat_requests()
    response = requests.post(f"{slow_served.base}/api/v1/agent", json=_slow_agent(slow_served),
                             headers=slow_served.a.headers, timeout=120)  # fmt: skip
    root = json.loads(response.text.splitlines()[0])["explain_id"]
    calls, labels = _steps_after_hanging_up(slow_served, store, root, before)
    assert calls == SLOW_ITERATIONS and "Conclusion" in labels, (calls, labels)


def test_closing_the_websocket_mid_answer_stops_the_engine(slow_served: SlowServed, store: Store) -> None:
    tenant, before = slow_served.a, slow_served.chat_requests()
    with connect(f"{slow_served.ws}/api/v1/stream", additional_headers=tenant.headers, open_timeout=10) as ws:
        ws.send(json.dumps({"service": "agent", "request": _slow_agent(slow_served)}))
        root = json.loads(ws.recv(timeout=60))["explain_id"]
    calls, labels = _steps_after_hanging_up(slow_served, store, root, before)
    assert "Conclusion" not in labels, labels
    assert 1 <= calls < SLOW_ITERATIONS // 2, calls  # it started, and stopped long before its iterations ran out


def test_closing_the_http_stream_mid_answer_stops_the_engine(slow_served: SlowServed, store: Store) -> None:
    tenant, before = slow_served.a, slow_served.chat_requests()
    response = requests.post(f"{slow_served.base}/api/v1/agent", json=_slow_agent(slow_served),
                             headers=tenant.headers, stream=True, timeout=60)  # fmt: skip
    root = json.loads(next(response.iter_lines()))["explain_id"]
    response.close()
    calls, labels = _steps_after_hanging_up(slow_served, store, root, before)
    assert "Conclusion" not in labels, labels
    assert 1 <= calls < SLOW_ITERATIONS // 2, calls
