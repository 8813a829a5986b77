"""Two workspaces, two tokens: neither sees the other's traces, on every road in."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import quote

import pytest
import requests
from websockets.exceptions import InvalidStatus
from websockets.sync.client import ClientConnection, connect

from tests.serving import Served
from tgneo.ingest.sample import QUESTIONS
from tgneo.vocab import GRAPH_RETRIEVAL

POLONIUM = QUESTIONS[0].text


@pytest.fixture(scope="module")
def a_trace(served: Served) -> dict[str, str]:
    """A GraphRAG trace of tenant a: its root and its answer's librarian document."""
    tenant = served.a
    body = {"query": POLONIUM, "collection": tenant.collection}
    response = requests.post(f"{served.base}/api/v1/graph-rag", json=body, headers=tenant.headers, timeout=120)
    messages = [json.loads(line) for line in response.text.splitlines()]
    synthesis = next(m for m in messages if m.get("explain_id", "").startswith("urn:trustgraph:prov:synthesis:"))
    document = next(t["o"]["i"] for t in synthesis["explain_triples"] if t["p"]["i"].endswith("/document"))
    return {"root": messages[0]["explain_id"], "document": document}


def _routes(served: Served, trace: dict[str, str], workspace: str | None) -> list[tuple[str, str, Any]]:
    """(method, path, json body or query params) for every HTTP road, naming ``workspace`` when given."""
    coll = served.a.collection
    scope = {"collection": coll, **({"workspace": workspace} if workspace else {})}
    wsq = {"workspace": workspace} if workspace else {}
    root, document = quote(trace["root"], safe=""), quote(trace["document"], safe="")
    return [
        ("POST", "/api/v1/graph-rag", {"query": "Who?", **scope}),
        ("POST", "/api/v1/document-rag", {"query": "Who?", **scope}),
        ("POST", "/api/v1/agent", {"question": "What is 1 + 1?", **scope}),
        ("GET", "/api/v1/traces", scope),
        ("GET", f"/api/v1/traces/{root}", scope),
        ("GET", f"/api/v1/traces/{root}", {**scope, "format": "turtle", "profile": "trustgraph"}),
        ("GET", f"/api/v1/content/{document}", wsq),
        ("POST", "/api/v1/rdf", {**scope, "format": "nt"}),
        ("POST", "/api/v1/queries/latest_traces", {"params": {"limit": 5}, **scope}),
        ("POST", "/api/v1/librarian", {"operation": "get-document-content", "document-id": trace["document"], **wsq}),
        ("POST", "/api/v1/collection-management", {"operation": "list-collections", **wsq}),
        ("GET", "/api/v1/document-stream", {"document-id": trace["document"], **wsq}),
        ("POST", "/api/v1/flow/default/service/triples", {"s": {"t": "i", "i": trace["root"]}, "g": GRAPH_RETRIEVAL,
                                                          **scope}),
    ]  # fmt: skip


def _send(served: Served, method: str, path: str, payload: Any, headers: dict[str, str]) -> requests.Response:
    url = served.base + path
    if method == "GET":
        return requests.get(url, params=payload, headers=headers, timeout=60)
    if path == "/api/v1/rdf":
        params = dict(payload)
        return requests.post(url, params=params, data=b"<urn:x> <urn:p> <urn:o> .\n", headers=headers, timeout=60)
    return requests.post(url, json=payload, headers=headers, timeout=120)


def test_every_http_road_needs_a_token(served: Served, a_trace: dict[str, str]) -> None:
    for method, path, payload in _routes(served, a_trace, None):
        for headers in ({}, {"Authorization": "Bearer not-a-token"}, {"Authorization": served.a.token}):
            response = _send(served, method, path, payload, headers)
            assert response.status_code == 401, (path, response.text)
            assert response.json()["error"]["type"] == "Unauthorized"
            assert response.headers["WWW-Authenticate"] == "Bearer"


def test_every_http_road_refuses_another_workspace(served: Served, a_trace: dict[str, str]) -> None:
    for method, path, payload in _routes(served, a_trace, served.a.workspace):
        response = _send(served, method, path, payload, served.b.headers)
        assert response.status_code == 403, (path, response.text)
        assert served.b.workspace in response.json()["error"]["message"]


def test_another_workspace_s_trace_and_texts_are_not_found(served: Served, a_trace: dict[str, str]) -> None:
    b, coll = served.b, served.a.collection
    root, document = quote(a_trace["root"], safe=""), quote(a_trace["document"], safe="")
    for params in ({"collection": coll}, {"collection": coll, "format": "nquads"}):
        assert requests.get(f"{served.base}/api/v1/traces/{root}", params=params, headers=b.headers,
                            timeout=30).status_code == 404  # fmt: skip
    assert requests.get(f"{served.base}/api/v1/content/{document}", headers=b.headers, timeout=30).status_code == 404
    assert requests.get(f"{served.base}/api/v1/document-stream", params={"document-id": a_trace["document"]},
                        headers=b.headers, timeout=30).status_code == 404  # fmt: skip
    listed = requests.get(f"{served.base}/api/v1/traces", params={"collection": coll}, headers=b.headers, timeout=30)
    assert a_trace["root"] not in listed.text
    rows = requests.post(f"{served.base}/api/v1/queries/latest_traces", json={"collection": coll},
                         headers=b.headers, timeout=30).json()["rows"]  # fmt: skip
    assert a_trace["root"] not in json.dumps(rows)
    ask = {"operation": "get-document-content", "document-id": a_trace["document"]}
    librarian = requests.post(f"{served.base}/api/v1/librarian", headers=b.headers, timeout=30, json=ask)
    assert "content" not in librarian.json() and librarian.json()["error"]["type"] == "request-error"
    # and tenant a, asking the same things, finds them all
    assert requests.get(f"{served.base}/api/v1/traces/{root}", params={"collection": coll}, headers=served.a.headers,
                        timeout=30).json()["uri"] == a_trace["root"]  # fmt: skip


@contextmanager
def _gateway(served: Served, token: str) -> Iterator[ClientConnection]:
    with connect(f"{served.ws}/api/v1/socket", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "auth", "token": token}))
        yield ws


def test_the_gateway_socket_keeps_workspaces_apart(served: Served, a_trace: dict[str, str]) -> None:
    request = {"s": {"t": "i", "i": a_trace["root"]}, "g": GRAPH_RETRIEVAL, "collection": served.a.collection}
    with _gateway(served, served.b.token) as ws:
        assert json.loads(ws.recv(timeout=10))["default_workspace"] == served.b.workspace
        ws.send(json.dumps({"id": "mine", "workspace": served.b.workspace, "service": "triples", "request": request}))
        assert json.loads(ws.recv(timeout=30))["response"]["response"] == []
        ws.send(json.dumps({"id": "theirs", "workspace": served.a.workspace, "service": "triples", "request": request}))
        refused = json.loads(ws.recv(timeout=30))
        assert refused["id"] == "theirs" and refused["error"]["type"] == "gateway-error"
        ws.send(json.dumps({"id": "q", "workspace": served.a.workspace, "service": "graph-rag",
                            "request": {"query": "Who?", "collection": served.a.collection}}))  # fmt: skip
        assert json.loads(ws.recv(timeout=30))["error"]["type"] == "gateway-error"
    with _gateway(served, served.a.token) as ws:
        ws.recv(timeout=10)
        ws.send(json.dumps({"id": "mine", "service": "triples", "request": request}))
        assert len(json.loads(ws.recv(timeout=30))["response"]["response"]) == 6
    with _gateway(served, "") as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "auth-failed"


@pytest.mark.parametrize("path", ["/api/v1/stream", "/api/v1/flow/default/import/triples"])
def test_websockets_need_a_token_and_their_own_workspace(served: Served, path: str) -> None:
    with pytest.raises(InvalidStatus) as no_token, connect(f"{served.ws}{path}", open_timeout=10):
        pass
    assert no_token.value.response.status_code == 401
    theirs = f"{served.ws}{path}?workspace={served.a.workspace}&token={served.b.token}"
    with pytest.raises(InvalidStatus) as other, connect(theirs, open_timeout=10):
        pass
    assert other.value.response.status_code == 403
    with connect(f"{served.ws}{path}?token={served.b.token}", open_timeout=10):
        pass
