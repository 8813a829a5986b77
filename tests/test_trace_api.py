"""The trace API on a real server: lists and pages, whole traces as JSON and RDF, texts, imports, named queries."""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest
import requests

from tests.ingesting import query
from tests.serving import Served, Tenant
from tgneo.ingest.sample import QUESTIONS
from tgneo.rdf.star import parse
from tgneo.store import Store


def ask(served: Served, tenant: Tenant, service: str, body: dict[str, object]) -> list[dict[str, object]]:
    response = requests.post(f"{served.base}/api/v1/{service}", json={"collection": tenant.collection, **body},
                             headers=tenant.headers, timeout=120)  # fmt: skip
    return [json.loads(line) for line in response.text.splitlines()]


@pytest.fixture(scope="module")
def asked(served: Served) -> dict[str, str]:
    """Three traces of tenant b (one per engine), oldest first: their roots by engine."""
    b = served.b
    roots = {}
    for service, body in (("graph-rag", {"query": QUESTIONS[0].text}), ("document-rag", {"query": "Who?"}),
                          ("agent", {"question": "What is 6 * 7?", "pattern": "react"})):  # fmt: skip
        roots[service] = str(ask(served, b, service, body)[0]["explain_id"])
    return roots


def get(served: Served, path: str, **params: object) -> requests.Response:
    b = served.b
    return requests.get(f"{served.base}{path}", params={"collection": b.collection, **params}, headers=b.headers,
                        timeout=60)  # fmt: skip


def test_traces_are_listed_newest_first_and_paged_with_a_cursor(served: Served, asked: dict[str, str]) -> None:
    first = get(served, "/api/v1/traces", limit=2).json()
    assert [t["uri"] for t in first["traces"]] == [asked["agent"], asked["document-rag"]]
    rest = get(served, "/api/v1/traces", limit=2, cursor=first["next_cursor"]).json()
    assert rest["traces"][0]["uri"] == asked["graph-rag"]
    only = get(served, "/api/v1/traces", type="docrag").json()["traces"]
    assert [t["uri"] for t in only] == [asked["document-rag"]]
    assert get(served, "/api/v1/traces", since="2999-01-01T00:00:00Z").json()["traces"] == []


def test_a_trace_comes_back_whole_as_json(served: Served, asked: dict[str, str]) -> None:
    trace = get(served, f"/api/v1/traces/{quote(asked['graph-rag'], safe='')}").json()
    assert trace["uri"] == asked["graph-rag"] and trace["type"] == "graphrag"
    assert [s["type"] for s in trace["steps"]][:5] == ["GraphRagQuestion", "Grounding", "Exploration", "Focus",
                                                       "Synthesis"]  # fmt: skip
    focus = next(s for s in trace["steps"] if s["type"] == "Focus")
    assert focus["edges"] and focus["edges"][0]["statement"]["sources"]


@pytest.mark.parametrize(("how", "media_type"), [({"format": "turtle"}, "text/turtle"),
                                                 ({"format": "nquads"}, "application/n-quads")])  # fmt: skip
def test_a_trace_comes_back_as_rdf_by_format_or_accept(
    served: Served, asked: dict[str, str], how: dict[str, str], media_type: str
) -> None:
    path = f"/api/v1/traces/{quote(asked['graph-rag'], safe='')}"
    by_format = get(served, path, **how, profile="trustgraph")
    b = served.b
    by_accept = requests.get(f"{served.base}{path}", params={"collection": b.collection, "profile": "trustgraph"},
                             headers={**b.headers, "Accept": media_type}, timeout=60)  # fmt: skip
    assert by_format.headers["Content-Type"].startswith(media_type) and by_format.text == by_accept.text
    quads = parse(by_format.text, how["format"])
    assert any(str(q.s) == asked["graph-rag"] for q in quads)


def test_the_prov_profile_types_its_literals(served: Served, asked: dict[str, str]) -> None:
    text = get(served, f"/api/v1/traces/{quote(asked['graph-rag'], safe='')}", format="nquads").text
    assert "^^<http://www.w3.org/2001/XMLSchema#dateTime>" in text


def test_content_gives_an_answer_text_as_json_or_plain_text(served: Served, asked: dict[str, str]) -> None:
    trace = get(served, f"/api/v1/traces/{quote(asked['graph-rag'], safe='')}").json()
    document = next(s for s in trace["steps"] if s["type"] == "Synthesis")["documents"][0]
    path = f"/api/v1/content/{quote(document['uri'], safe='')}"
    body = get(served, path).json()
    assert body["uri"] == document["uri"] and "Polonium" in body["text"]
    b = served.b
    plain = requests.get(f"{served.base}{path}", headers={**b.headers, "Accept": "text/plain"}, timeout=30)
    assert plain.text == body["text"]


def _count(store: Store, workspace: str, collection: str) -> int:
    rows = query(store, "MATCH (n {workspace: $w, collection: $c}) RETURN count(n) AS n", w=workspace, c=collection)
    return int(rows[0]["n"])


def test_rdf_imports_and_bad_rdf_is_a_400_naming_line_and_column_with_nothing_written(
    served: Served, store: Store
) -> None:
    b = served.b
    collection = b.collection + "-rdf"
    params = {"collection": collection, "format": "nquads"}
    bad = b'<urn:a> <urn:p> <urn:o> .\n<urn:b> <urn:p> "open .\n'
    response = requests.post(f"{served.base}/api/v1/rdf", params=params, data=bad, headers=b.headers, timeout=30)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["line"] == 2 and error["column"] is not None and "line 2" in error["message"]
    assert _count(store, b.workspace, collection) == 0
    good = b'<urn:a> <urn:p> <urn:o> .\n<< <urn:a> <urn:p> <urn:o> >> <urn:says> "x" <urn:g> .\n'
    response = requests.post(f"{served.base}/api/v1/rdf", params=params, data=good, headers=b.headers, timeout=30)
    # the plain triple and the quoted one go in a transaction each, under one import journal
    assert response.json() == {"workspace": b.workspace, "collection": collection, "quads": 2, "batches": 2}
    turtle = requests.post(f"{served.base}/api/v1/rdf", params={"collection": collection}, data=b"<urn:c> <urn:p> 1 .",
                           headers={**b.headers, "Content-Type": "text/turtle"}, timeout=30)  # fmt: skip
    assert turtle.json()["quads"] == 1
    assert _count(store, b.workspace, collection) > 0


def test_named_queries_answer_rows_in_the_callers_collection(served: Served, asked: dict[str, str]) -> None:
    b = served.b
    url = f"{served.base}/api/v1/queries/latest_traces"
    rows = requests.post(url, json={"collection": b.collection, "params": {"limit": 2}}, headers=b.headers,
                         timeout=30).json()  # fmt: skip
    assert [r["question"] for r in rows["rows"]] == [asked["agent"], asked["document-rag"]]
    assert rows["truncated"] is False
    labels = requests.post(
        f"{served.base}/api/v1/queries/labels",
        headers=b.headers,
        timeout=30,
        json={"collection": b.collection, "params": {"uris": ["http://trustgraph.ai/e/poland"]}},
    )
    assert labels.json()["rows"] == [{"uri": "http://trustgraph.ai/e/poland", "label": "Poland"}]


@pytest.mark.parametrize(
    ("name", "body", "status", "words"),
    [
        ("record_batch", {}, 404, "no read query named 'record_batch'"),
        ("latest_traces", {"params": {"colour": 1}}, 400, "params.colour"),
        ("latest_traces", {"params": {"limit": 100000}}, 400, "params.limit"),
        ("latest_traces", {"params": {"limit": {"$gt": 1}}}, 400, "params.limit"),
        ("latest_traces", {"params": [1]}, 400, "params"),
        ("latest_traces", {"cypher": "MATCH (n) DETACH DELETE n"}, 400, "cypher"),
    ],
)
def test_named_queries_refuse_what_is_not_theirs(
    served: Served, name: str, body: dict[str, object], status: int, words: str
) -> None:
    response = requests.post(f"{served.base}/api/v1/queries/{name}", json=body, headers=served.b.headers, timeout=30)
    assert response.status_code == status and words in response.json()["error"]["message"]


def test_openapi_describes_exactly_the_routes_the_app_serves(served: Served) -> None:
    from tgneo.config import Settings
    from tgneo.web import create_app

    spec = requests.get(f"{served.base}/openapi.json", timeout=10).json()
    app = create_app(settings=Settings(neo4j_uri="bolt://127.0.0.1:1"))
    app.extensions["tgneo.store"].close()  # only its routes are read; it never connects
    served_paths: dict[str, set[str]] = {}
    sockets = set()
    for rule in app.url_map.iter_rules():
        path = rule.rule.replace("<path:", "<").replace("<", "{").replace(">", "}")
        if rule.websocket:
            sockets.add(path)
            continue
        methods = {m.lower() for m in rule.methods or ()} - {"head", "options"}
        if path.startswith("/api/v1/{any("):
            for service in ("graph-rag", "document-rag", "agent"):
                served_paths[f"/api/v1/{service}"] = methods
        else:
            served_paths.setdefault(path, set()).update(methods)  # a path may have a rule per method
    assert {p: set(ops) for p, ops in spec["paths"].items()} == served_paths
    assert set(spec["x-websockets"]) == sockets
