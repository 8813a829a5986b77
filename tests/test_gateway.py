"""TrustGraph's gateway socket, spoken with a plain `websockets` client: auth, envelopes, concurrency, triples."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from tests.serving import Served, SlowServed, Tenant
from tests.verifying import assert_summary_is_the_stored_check, is_verification_message
from tgneo.ingest.sample import QUESTIONS
from tgneo.store import Store
from tgneo.store.traces import get_trace
from tgneo.vocab import GRAPH_RETRIEVAL, GRAPH_SOURCE, PROV, RDFS, TG

POLONIUM = QUESTIONS[0].text
CURIE = "http://trustgraph.ai/e/marie-curie"


@contextmanager
def gateway(served: Served, tenant: Tenant | None = None, token: str | None = None) -> Iterator[ClientConnection]:
    with connect(f"{served.ws}/api/v1/socket", open_timeout=10, ping_interval=None) as ws:
        ws.send(json.dumps({"type": "auth", "token": token if token is not None else (tenant or served.a).token}))
        yield ws


def authed(ws: ClientConnection) -> dict[str, Any]:
    reply: dict[str, Any] = json.loads(ws.recv(timeout=10))
    return reply


def call(ws: ClientConnection, request_id: str, service: str, request: dict[str, Any], **envelope: Any) -> None:
    ws.send(json.dumps({"id": request_id, "service": service, "flow": "default", "request": request, **envelope}))


def until_complete(ws: ClientConnection, request_id: str) -> list[dict[str, Any]]:
    frames = []
    while True:
        frame = json.loads(ws.recv(timeout=120))
        if frame["id"] == request_id:
            frames.append(frame)
            if frame["complete"]:
                return frames


def triples(ws: ClientConnection, tenant: Tenant, **request: Any) -> list[dict[str, Any]]:
    call(ws, "t", "triples", {"collection": tenant.collection, **request})
    frames = until_complete(ws, "t")
    assert "error" not in frames[-1], frames[-1]
    return [t for f in frames for t in f["response"]["response"]]


def iri(value: str) -> dict[str, str]:
    return {"t": "i", "i": value}


def test_auth_ok_names_the_token_workspace_under_both_keys(served: Served) -> None:
    with gateway(served) as ws:
        reply = authed(ws)
    assert reply == {"type": "auth-ok", "default_workspace": served.a.workspace, "workspace": served.a.workspace}


def test_an_unknown_token_gets_auth_failed(served: Served) -> None:
    with gateway(served, token="nope") as ws:
        reply = authed(ws)
    assert reply["type"] == "auth-failed" and "token" in reply["error"]


def test_a_triples_query_answers_while_a_question_still_streams_on_the_same_socket(slow_served: SlowServed) -> None:
    tenant = slow_served.a
    with gateway(slow_served) as ws:
        authed(ws)
        call(ws, "q", "agent", {"question": "How tall is the tallest tower of Warsaw?", "pattern": "react",
                                "max-iterations": 16, "collection": tenant.collection})  # fmt: skip
        first = json.loads(ws.recv(timeout=60))
        assert first["id"] == "q" and first["complete"] is False
        root = first["response"]["explain_id"]
        call(ws, "t", "triples", {"s": iri(root), "g": GRAPH_RETRIEVAL, "collection": tenant.collection, "limit": 100})
        order: list[tuple[str, bool]] = []
        while ("t", True) not in order:
            frame = json.loads(ws.recv(timeout=120))
            order.append((frame["id"], frame["complete"]))
            if frame["id"] == "t":
                assert {t["s"]["i"] for t in frame["response"]["response"]} == {root}  # the Question's own triples
    assert ("q", True) not in order, order  # answered while the question (16 slow model calls) still ran


def test_pings_are_answered(served: Served) -> None:
    with gateway(served) as ws:
        authed(ws)
        started = time.monotonic()
        assert ws.ping().wait(10)
        assert time.monotonic() - started < 10


@pytest.mark.parametrize(
    ("frame", "where"),
    [
        ("not json", "not valid JSON"),
        (json.dumps([1, 2]), "object"),
        (json.dumps({"service": "triples"}), "id"),
        (json.dumps({"id": "x", "service": "sparql", "request": {}}), "unknown service 'sparql'"),
        (json.dumps({"id": "x", "service": "triples", "request": {"s": {"t": "q"}}}), "s.t"),
        (json.dumps({"id": "x", "service": "triples", "request": {"limit": "many"}}), "limit"),
        (json.dumps({"id": "x", "service": "graph-rag", "request": {"query": 3}}), "query"),
        (json.dumps({"id": "x", "service": "graph-rag", "request": {"query": "q", "entity-limit": -1}}), "entity-"),
    ],
)
def test_bad_frames_get_a_top_level_error_and_the_socket_stays_open(served: Served, frame: str, where: str) -> None:
    with gateway(served) as ws:
        authed(ws)
        ws.send(frame)
        reply = json.loads(ws.recv(timeout=30))
        assert reply["complete"] is True and "response" not in reply
        assert where in reply["error"]["message"]
        call(ws, "after", "triples", {"s": iri(CURIE), "p": iri(str(RDFS.label)), "collection": served.a.collection})
        assert until_complete(ws, "after")[-1]["response"]["response"]


def test_labels_come_from_the_default_graph_when_g_is_absent(served: Served) -> None:
    with gateway(served) as ws:
        authed(ws)
        found = triples(ws, served.a, s=iri(CURIE), p=iri(str(RDFS.label)), limit=1)
    assert found == [{"s": iri(CURIE), "p": iri(str(RDFS.label)), "o": {"t": "l", "v": "Marie Curie"}}]


def test_children_by_derivation_and_a_quoted_edge_with_a_plain_literal_are_found(served: Served) -> None:
    tenant = served.a
    with gateway(served) as ws:
        authed(ws)
        call(ws, "q", "graph-rag", {"query": POLONIUM, "collection": tenant.collection})
        frames = until_complete(ws, "q")
        root = frames[0]["response"]["explain_id"]
        children = triples(ws, tenant, p=iri(str(PROV.wasDerivedFrom)), o=iri(root), g=GRAPH_RETRIEVAL, limit=10)
        assert [c["s"]["i"] for c in children] == [root.replace("question", "prov:grounding")]
        questions = triples(ws, tenant, p=iri(str(TG.query)), g=GRAPH_RETRIEVAL, limit=1000)
        assert root in {q["s"]["i"] for q in questions}
        edge = {"t": "t", "tr": {"s": iri(CURIE), "p": iri("http://trustgraph.ai/e/discovered-in"),
                                 "o": {"t": "l", "v": "1898"}}}  # fmt: skip
        containing = triples(ws, tenant, p=iri(str(TG.contains)), o=edge, g=GRAPH_SOURCE, limit=10)
        assert containing and all(t["s"]["i"].startswith("https://trustgraph.ai/subgraph/") for t in containing)
        assert all(t["g"] == GRAPH_SOURCE and t["o"]["t"] == "t" for t in containing)


def test_streaming_triples_come_in_batches_and_only_the_last_is_complete(served: Served) -> None:
    with gateway(served) as ws:
        authed(ws)
        call(ws, "s", "triples", {"s": iri(CURIE), "collection": served.a.collection, "limit": 25,
                                  "streaming": True, "batch-size": 10})  # fmt: skip
        frames = until_complete(ws, "s")
    assert [len(f["response"]["response"]) for f in frames] == [10, 10, 5]
    assert [f["complete"] for f in frames] == [False, False, True]


def test_the_same_query_twice_answers_in_the_same_order(served: Served) -> None:
    with gateway(served) as ws:
        authed(ws)
        first = triples(ws, served.a, s=iri(CURIE), limit=30)
        second = triples(ws, served.a, s=iri(CURIE), limit=30)
    assert first == second and len(first) == 30


def test_a_pattern_less_query_lists_every_graph_and_g_selects_one(served: Served) -> None:
    with gateway(served) as ws:
        authed(ws)
        everything = triples(ws, served.a, limit=5000)
        source_only = triples(ws, served.a, g=GRAPH_SOURCE, limit=5000)
    assert {t.get("g", "") for t in everything} >= {"", GRAPH_SOURCE}
    assert source_only and {t["g"] for t in source_only} == {GRAPH_SOURCE}


def test_a_verified_question_ends_with_the_check_and_every_explain_id_it_sends_can_be_fetched(
    served: Served, store: Store
) -> None:
    """``verify`` asked on TrustGraph's socket: the final message carries the check's summary; the Verification step
    stays off the socket (its ``triples`` service, the ``trustgraph`` profile, never serves it), so every explain id
    sent is one TrustGraph's client can look up."""
    tenant = served.a
    with gateway(served) as ws:
        authed(ws)
        call(ws, "q", "graph-rag", {"query": POLONIUM, "collection": tenant.collection, "streaming": True,
                                    "explainable": True, "verify": True})  # fmt: skip
        frames = until_complete(ws, "q")
        messages = [f["response"] for f in frames]
        explained = [m["explain_id"] for m in messages if m["message_type"] == "explain"]
        assert [e.split(":")[3] for e in explained[1:]] == ["grounding", "exploration", "focus", "synthesis"]
        assert not any(is_verification_message(m) for m in messages)
        final = messages[-1]
        assert final["end_of_session"] is True and [f["complete"] for f in frames].count(True) == 1
        trace = get_trace(store, tenant.workspace, tenant.collection, explained[0])
        assert_summary_is_the_stored_check(final["verification"], trace)
        for uri in explained:
            assert triples(ws, tenant, s=iri(uri), g=GRAPH_RETRIEVAL, limit=100), uri
        assert triples(ws, tenant, s=iri(final["verification"]["uri"]), g=GRAPH_RETRIEVAL, limit=100) == []
        children = triples(ws, tenant, p=iri(str(PROV.wasDerivedFrom)), o=iri(explained[-1]), g=GRAPH_RETRIEVAL)
        assert children == []  # nothing of the check under the answer: TrustGraph's trace reader sees its own steps
