"""One path for every road: ``tgneo ask --json`` writes the very bytes ``POST /api/v1/{service}`` streams.

The in-process CLI and the server run the same engine factory, pipeline and wire codec, so for the same
recorded answer their NDJSON differs only in what must differ between two runs: the session's ids
(uuids in URIs) and the times (timestamps, durations).
"""

from __future__ import annotations

import re

import pytest
import requests

from tests.clirun import tgneo
from tests.conftest import Neo4jServer
from tests.serving import Served
from tgneo.ingest.sample import QUESTIONS

UUID = re.compile(rb"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
TIMESTAMP = re.compile(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z")
DURATION = re.compile(rb'("[^"]*(?:DurationMs|duration_ms)[^"]*"\}?,"o":\{"t":"l","v":")\d+(")')


def without_ids_and_times(ndjson: bytes) -> bytes:
    """The stream with every uuid, ISO timestamp and measured duration replaced by a placeholder."""
    return DURATION.sub(rb"\1<ms>\2", TIMESTAMP.sub(b"<time>", UUID.sub(b"<id>", ndjson)))


QUESTIONS_BY_SERVICE = {
    "graph-rag": {"query": QUESTIONS[0].text},
    "document-rag": {"query": "Who discovered polonium?"},
    "agent": {"question": "What is 1934 - 1867?", "pattern": "react"},
}


@pytest.mark.parametrize("service", list(QUESTIONS_BY_SERVICE))
def test_ask_json_writes_the_same_ndjson_as_the_http_stream(
    neo4j_server: Neo4jServer, served: Served, service: str
) -> None:
    a, body = served.a, QUESTIONS_BY_SERVICE[service]
    over_http = requests.post(
        f"{served.base}/api/v1/{service}", json={**body, "collection": a.collection}, headers=a.headers, timeout=120
    )
    assert over_http.status_code == 200 and over_http.headers["Content-Type"].startswith("application/x-ndjson")
    question = body.get("query", body.get("question", ""))
    pattern = ["--pattern", body["pattern"]] if "pattern" in body else []
    cli = tgneo(neo4j_server, "ask", question, "--engine", service, "--json", *pattern,
                "--workspace", a.workspace, "--collection", a.collection)  # fmt: skip
    in_process = cli.stdout.encode()
    assert in_process.count(b"\n") == over_http.content.count(b"\n") > 3
    assert without_ids_and_times(in_process) == without_ids_and_times(over_http.content)


def test_the_comparison_sees_a_difference_that_is_not_an_id_or_a_time() -> None:
    """The normalisation hides only ids and times: a changed word, or a non-ASCII escape, still differs."""
    line = b'{"id":"urn:trustgraph:question:0b6c1f9e-8d53-4f7e-9a51-2f4f8a1f0c33","v":"2026-11-23T10:00:00.1Z"}\n'
    other = line.replace(b"0b6c1f9e", b"1c7d2a0f").replace(b"10:00:00.1", b"11:12:13.4")
    assert without_ids_and_times(line) == without_ids_and_times(other)
    assert without_ids_and_times(b'{"response":"Polonium"}') != without_ids_and_times(b'{"response":"Radium"}')
    assert without_ids_and_times('{"r":"Skłodowska"}'.encode()) != without_ids_and_times(b'{"r":"Sk\\u0142odowska"}')
