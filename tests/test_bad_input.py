"""Bad input on every endpoint: a 4xx JSON error naming the problem, no stack trace, nothing changed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
import requests

from tests.ingesting import query
from tests.serving import Served
from tgneo.ingest.loader import load_documents
from tgneo.ingest.sample import sources
from tgneo.llm.offline import OfflineLLM
from tgneo.store import Store

INJECTIONS = [
    "' OR 1=1 //",
    '"}) MATCH (n) DETACH DELETE n //',
    "$workspace",
    "x\u0000y",
    "<< <urn:a> <urn:b> <urn:c> >>",
    "../../../etc/passwd",
    "{{7*7}}",
    "\U0001f642" * 300,
]


def _count(store: Store, workspace: str) -> int:
    """Every node of the workspace, whatever its labels: a scan of the whole database, as no index spans labels."""
    return int(query(store, "MATCH (n {workspace: $w}) RETURN count(n) AS n", w=workspace)[0]["n"])


@pytest.fixture(scope="module")
def verified() -> dict[str, int]:
    """The node count each workspace had when a test of this module last checked it, counted after that test.

    A module's tests run one after another on one worker, and nothing else writes to tenant a's workspace
    meanwhile (``served`` is that worker's own), so the count one test found after itself is the next test's
    count before: each test scans the session's whole database once rather than twice. A test that writes to the
    workspace itself forgets the count (:func:`_wrote`)."""
    return {}


@pytest.fixture
def unchanged(served: Served, store: Store, verified: dict[str, int]) -> Iterator[None]:
    """Whatever the test sends, tenant a's workspace holds exactly what it held before."""
    workspace = served.a.workspace
    before = verified.pop(workspace) if workspace in verified else _count(store, workspace)
    yield
    after = _count(store, workspace)
    assert after == before
    verified[workspace] = after


def _wrote(verified: dict[str, int], workspace: str) -> None:
    verified.pop(workspace, None)


def _refused(response: requests.Response, status: int | None = None, words: str = "") -> dict[str, Any]:
    assert 400 <= response.status_code < 500, (response.status_code, response.text[:500])
    if status is not None:
        assert response.status_code == status, response.text[:500]
    error: dict[str, Any] = response.json()["error"]
    assert error["type"] and error["message"] and "Traceback" not in response.text
    assert words in error["message"], error
    return error


QUESTION_BODIES = [
    ("graph-rag", b"{", 400, "not valid JSON"),
    ("graph-rag", b"[1, 2]", 400, "JSON object"),
    ("graph-rag", b"", 400, "JSON object is required"),
    ("graph-rag", {"query": 5}, 400, "query"),
    ("graph-rag", {"query": ""}, 400, "query"),
    ("graph-rag", {"query": "q" * 5000}, 400, "question"),
    ("graph-rag", {"query": "q", "entity-limit": "5"}, 400, "entity-limit"),
    ("graph-rag", {"query": "q", "edge-limit": True}, 400, "edge-limit"),
    ("graph-rag", {"query": "q", "max-path-length": 10**6}, 400, "max-path-length"),
    ("graph-rag", {"query": "q", "colour": "red"}, 400, "colour"),
    ("graph-rag", {"query": "q", "graph-seeds": ["http://x"]}, 400, "graph-seeds"),
    ("graph-rag", {"query": "q", "collection": 7}, 400, "collection"),
    ("graph-rag", {"query": "q", "collection": "c" * 500}, 400, "collection"),
    ("document-rag", {"query": "q", "doc-limit": 0}, 400, "doc-limit"),
    ("agent", {"query": "q"}, 400, "question"),
    ("agent", {"question": "q", "pattern": "ninja"}, 400, "pattern"),
    ("agent", {"question": "q", "history": [{"thought": "x"}]}, 400, "history"),
]


@pytest.mark.parametrize(("service", "body", "status", "words"), QUESTION_BODIES)
def test_questions_refuse_bad_bodies_before_anything_is_recorded(
    served: Served, unchanged: None, service: str, body: Any, status: int, words: str
) -> None:
    kwargs: dict[str, Any] = {"data": body} if isinstance(body, bytes) else {"json": body}
    url = f"{served.base}/api/v1/{service}"
    _refused(requests.post(url, headers=served.a.headers, timeout=30, **kwargs), status, words)


def test_a_huge_body_is_a_413(served: Served, unchanged: None) -> None:
    body = json.dumps({"query": "q", "collection": "x" * (2 << 20)}).encode()
    response = requests.post(f"{served.base}/api/v1/graph-rag", data=body, headers=served.a.headers, timeout=60)
    _refused(response, 413, "bytes")


@pytest.mark.parametrize(
    ("method", "path", "payload", "status", "words"),
    [
        ("POST", "/api/v1/sparql", {"query": "q"}, 404, ""),
        ("POST", "/api/v1/flow/default/service/sparql", {"query": "q"}, 404, "sparql"),
        ("GET", "/api/v1/traces", {"limit": 0}, 400, "limit"),
        ("GET", "/api/v1/traces", {"limit": "ten"}, 400, "limit"),
        ("GET", "/api/v1/traces", {"type": "gossip"}, 400, "gossip"),
        ("GET", "/api/v1/traces", {"since": "yesterday"}, 400, "since"),
        ("GET", "/api/v1/traces", {"cursor": "bogus"}, 400, "cursor"),
        ("GET", "/api/v1/traces/urn:x", {"format": "rdfxml"}, 406, "rdfxml"),
        ("GET", "/api/v1/traces/urn:x", {"format": "nquads", "profile": "mine"}, 400, "profile"),
        ("GET", "/api/v1/traces/urn:x", {"max_steps": 0}, 400, "max_steps"),
        ("GET", "/api/v1/document-stream", {}, 400, "document-id"),
        ("POST", "/api/v1/librarian", {"operation": "remove-document", "document-id": "x"}, 400, "operation"),
        ("POST", "/api/v1/librarian", {"operation": "get-document-content"}, 400, "document-id"),
        ("POST", "/api/v1/librarian", {"operation": "get-document-content", "document-id": 5}, 400, "document-id"),
        ("POST", "/api/v1/collection-management", {"operation": "delete-collection"}, 400, "operation"),
        ("POST", "/api/v1/queries/latest_traces", {"params": "limit=1"}, 400, "params"),
        ("POST", "/api/v1/flow/default/service/triples", {"limit": -1}, 400, "limit"),
        ("POST", "/api/v1/flow/default/service/triples", {"s": {"t": "i", "i": ""}}, 400, "s.i"),
        ("POST", "/api/v1/flow/default/service/triples", {"o": {"t": "l", "v": "x", "dt": "d", "ln": "en"}}, 400, "o"),
    ],
)  # fmt: skip
def test_read_endpoints_refuse_bad_parameters(
    served: Served, unchanged: None, method: str, path: str, payload: dict[str, Any], status: int, words: str
) -> None:
    url, headers = served.base + path, served.a.headers
    if method == "GET":
        response = requests.get(url, params=payload, headers=headers, timeout=30)
    else:
        response = requests.post(url, json=payload, headers=headers, timeout=30)
    _refused(response, status, words)


@pytest.mark.parametrize(
    ("params", "data", "headers", "status", "words"),
    [
        ({}, b"<urn:a> <urn:b> <urn:c> .", {}, 415, "format"),
        ({"format": "rdfxml"}, b"<a/>", {}, 415, "rdfxml"),
        ({"format": "turtle", "base": "not an iri"}, b"<a> <b> <c> .", {}, 400, "base"),
        ({"format": "turtle"}, b"<a> <b> <c> .", {}, 400, "relative"),
        ({"format": "nquads"}, b"<urn:a> <urn:b> .\n", {}, 400, "line 1"),
        ({"format": "json-ld"}, b"{", {}, 400, ""),
    ],
)
def test_rdf_import_refuses_bad_documents_and_writes_nothing(
    served: Served, unchanged: None, params: dict[str, str], data: bytes, headers: dict[str, str], status: int,
    words: str,
) -> None:  # fmt: skip
    response = requests.post(f"{served.base}/api/v1/rdf", params={"collection": served.a.collection, **params},
                             data=data, headers={**served.a.headers, **headers}, timeout=30)  # fmt: skip
    _refused(response, status, words)


@pytest.mark.parametrize("value", INJECTIONS, ids=range(len(INJECTIONS)))
def test_injection_strings_in_every_read_parameter_change_nothing(served: Served, unchanged: None, value: str) -> None:
    a, base = served.a, served.base
    reads = [
        ("GET", "/api/v1/traces", {"collection": value}),
        ("GET", "/api/v1/traces", {"workspace": value}),
        ("GET", "/api/v1/traces", {"type": value}),
        ("GET", "/api/v1/traces", {"cursor": value}),
        ("GET", "/api/v1/traces", {"since": value}),
        ("GET", f"/api/v1/traces/{quote(value, safe='')}", {"collection": a.collection}),
        ("GET", "/api/v1/traces/urn:x", {"format": value}),
        ("GET", "/api/v1/traces/urn:x", {"format": "nquads", "profile": value}),
        ("GET", f"/api/v1/content/{quote(value, safe='')}", {"collection": value}),
        ("GET", "/api/v1/document-stream", {"document-id": value, "workspace": value}),
        ("POST", f"/api/v1/queries/{quote(value, safe='')}", {}),
        ("POST", "/api/v1/queries/dependents", {"params": {"uri": value}, "collection": value}),
        ("POST", "/api/v1/queries/labels", {"params": {"uris": [value]}, "workspace": value}),
        ("POST", "/api/v1/librarian", {"operation": value, "document-id": value}),
        ("POST", "/api/v1/librarian", {"operation": "get-document-content", "document-id": value}),
        ("POST", "/api/v1/collection-management", {"operation": "list-collections", "workspace": value}),
        ("POST", "/api/v1/flow/default/service/triples",
         {"s": {"t": "i", "i": value}, "p": {"t": "i", "i": value}, "o": {"t": "l", "v": value}, "g": value,
          "collection": value}),
    ]  # fmt: skip
    for method, path, payload in reads:
        if method == "GET":
            response = requests.get(base + path, params=payload, headers=a.headers, timeout=30)
        else:
            response = requests.post(base + path, json=payload, headers=a.headers, timeout=30)
        assert response.status_code < 500, (path, payload, response.text[:300])
        assert "Traceback" not in response.text
        if response.status_code >= 400:
            assert response.json()["error"]["message"]


def test_an_injection_string_as_a_question_is_recorded_as_text_and_touches_nothing_else(
    served: Served, store: Store, verified: dict[str, int]
) -> None:
    a, value = served.a, INJECTIONS[1]
    _wrote(verified, a.workspace)
    assert load_documents(store, OfflineLLM(), a.workspace, value, sources()).loaded == 4  # something to ask
    before = _count(store, a.workspace) - _count_collection(store, a.workspace, value)
    response = requests.post(f"{served.base}/api/v1/graph-rag", json={"query": value, "collection": value},
                             headers=a.headers, timeout=120)  # fmt: skip
    messages = [json.loads(line) for line in response.text.splitlines()]
    assert messages[-1]["end_of_session"] is True and "error" not in messages[-1]
    rows = query(store, "MATCH (q:Question {workspace: $w, collection: $c}) RETURN q.query AS text",
                 w=a.workspace, c=value)  # fmt: skip
    assert [r["text"] for r in rows] == [value]
    assert _count(store, a.workspace) - _count_collection(store, a.workspace, value) == before


def _count_collection(store: Store, workspace: str, collection: str) -> int:
    rows = query(store, "MATCH (n {workspace: $w, collection: $c}) RETURN count(n) AS n", w=workspace, c=collection)
    return int(rows[0]["n"])
