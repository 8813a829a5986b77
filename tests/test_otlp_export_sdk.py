"""tgneo's own traces out through the OpenTelemetry SDK: what the SDK's batch processor and OTLP/HTTP exporter do
for tgneo, against real receivers on loopback.

Every receiver is real: tgneo's own ``POST /v1/traces`` (the session's ``tgneo serve``), an HTTP server that
answers 503 before it takes a batch, one that reads gzip (tests/otlp_endpoint.py), and an OpenTelemetry Collector
built from its Go modules (tests/otel_collector.py) forwarding to both. Questions are answered for real (the
runtime, ``tgneo ask`` in a subprocess), and what arrives is held against the stored trace and against the mapping
``tgneo export --format otlp-json`` encodes.
"""

from __future__ import annotations

import json
import logging
import re
import subprocess
import sys
import threading
import uuid
from typing import Any

import pytest

from tests.clirun import tgneo
from tests.conftest import Neo4jServer
from tests.otel_collector import collector
from tests.otlp_endpoint import Post, otlp_endpoint
from tests.serving import Served
from tests.test_otlp_export import (
    ARITHMETIC,
    POLONIUM,
    W,
    answer,
    assert_spans_match,
    attributes,
    parse_otlp_json,
    spans_of,
    without_sdk_flags,
)
from tests.test_otlp_export import sample as sample  # noqa: F401  (the sample corpus, loaded once)
from tgneo.kinds import SessionKind
from tgneo.llm.offline import OfflineLLM
from tgneo.otlp.export import otlp_json, span_id
from tgneo.service.runtime import Runtime
from tgneo.store import Store
from tgneo.store.otlp_receive import Counts, counts
from tgneo.store.traces import get_trace, list_traces

OWN = re.compile(r"(\d+) span\(s\) of tgneo's own export \(instrumentation scope 'tgneo'\) not recorded again")


def left_out(message: str) -> int:
    """How many spans of tgneo's own a receiver's answer says it left out (0 when it says nothing of them)."""
    found = OWN.search(message)
    return int(found.group(1)) if found else 0


def spans_by_id(posts: list[Post]) -> dict[bytes, Any]:
    """Every span the posts brought, by span id (a span sent twice would be one entry: counted apart)."""
    spans = [s for p in posts for s in spans_of(p.request())]
    found = {s.span_id: s for s in spans}
    assert len(found) == len(spans), "a span arrived twice"
    return found


def test_tgneo_serve_gets_every_span_of_an_answer_and_records_none_of_them_again(
    neo4j_server: Neo4jServer, store: Store, sample: str, served: Served,  # noqa: F811
    caplog: pytest.LogCaptureFixture,
) -> None:  # fmt: skip
    """The trap docs/pipelines.md sets: a user's OTEL_EXPORTER_OTLP_* pointed at tgneo serve, read by tgneo too."""
    collection = f"own-{uuid.uuid4().hex[:8]}"
    headers = f"Authorization=Bearer%20{served.a.token},X-Tgneo-Collection={collection}"
    settings = neo4j_server.settings(otlp_traces_endpoint=f"{served.base}/v1/traces", otlp_headers=headers)
    runtime = Runtime(store, settings, llm=OfflineLLM())
    with caplog.at_level(logging.INFO, logger="tgneo.otlp"):
        messages = answer(runtime, SessionKind.GRAPH_RAG, POLONIUM, sample)
        runtime.close()
    trace = get_trace(store, W, sample, messages[-1]["trace"])
    said = [r.getMessage() for r in caplog.records if r.name == "tgneo.otlp" and left_out(r.getMessage())]
    assert said and all(m.startswith(f"OTLP export to {served.base}/v1/traces: the receiver says: ") for m in said)
    # the receiver counted every span of the answer as it arrived (partialSuccess, read off each answer)...
    assert sum(left_out(m) for m in said) == len(trace["steps"])
    # ...and kept none: no trace, no span tree in the collection the headers named
    assert list_traces(store, served.a.workspace, collection).traces == []
    assert counts(store, served.a.workspace, collection) == Counts(0, 0, 0)
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING and r.name == "tgneo.otlp"]


def test_a_receiver_answering_503_twice_still_gets_every_span_by_the_sdks_retries(
    neo4j_server: Neo4jServer, store: Store, sample: str  # noqa: F811
) -> None:  # fmt: skip
    with otlp_endpoint(statuses=(503, 503)) as busy:
        runtime = Runtime(store, neo4j_server.settings(otlp_endpoint=busy.url), llm=OfflineLLM())
        messages = answer(runtime, SessionKind.GRAPH_RAG, POLONIUM, sample)
        runtime.close()  # the batch is retried with backoff (about 1 s, then 2 s) within the exporter's 10 s
        (post,) = busy.accepted()
    assert [p.status for p in busy.answered] == [503, 503, 200]
    assert len({p.raw for p in busy.answered}) == 1, "each try sends the same batch"
    trace = get_trace(store, W, sample, messages[-1]["trace"])
    assert_spans_match(trace, spans_of(post.request()), W, sample)
    assert without_sdk_flags(post.request()) == parse_otlp_json(otlp_json(trace))


def test_tgneo_ask_exports_gzip_and_delivers_its_spans_before_its_process_exits(
    neo4j_server: Neo4jServer, store: Store, sample: str  # noqa: F811
) -> None:  # fmt: skip
    with otlp_endpoint() as endpoint:
        env = {
            **neo4j_server.env(),
            "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": f"{endpoint.url}/v1/traces",
            "OTEL_EXPORTER_OTLP_COMPRESSION": "gzip",
            # the processor's timer would wait ten minutes: only the flush at exit can send the spans in time
            "OTEL_BSP_SCHEDULE_DELAY": "600000",
        }
        asked = tgneo(None, "ask", ARITHMETIC, "--engine", "agent", "--json", "--workspace", W, "--collection", sample,
                      env=env)  # fmt: skip
        posts = endpoint.accepted()  # the process has exited: what it sent has arrived
    assert posts, "tgneo ask exited without delivering its spans"
    assert all(p.headers["content-encoding"] == "gzip" and p.raw[:2] == b"\x1f\x8b" and p.raw != p.body for p in posts)
    root = next(m for m in map(json.loads, asked.stdout.splitlines()) if m["message_type"] == "explain")
    trace = get_trace(store, W, sample, root["explain_id"])
    assert_spans_match(trace, list(spans_by_id(posts).values()), W, sample)


def test_the_deprecated_tgneo_otlp_names_still_export_and_warn_once_naming_the_standard_variable(
    neo4j_server: Neo4jServer, store: Store, sample: str  # noqa: F811
) -> None:  # fmt: skip
    with otlp_endpoint() as endpoint:
        env = {**neo4j_server.env(), "TGNEO_OTLP_ENDPOINT": endpoint.url, "TGNEO_OTLP_HEADERS": "x-api-key=s3cret"}
        asked = tgneo(None, "-v", "ask", ARITHMETIC, "--engine", "agent", "--json", "--workspace", W, "--collection",
                      sample, env=env)  # fmt: skip
        posts = endpoint.accepted()
    assert posts and all(p.path == "/v1/traces" and p.headers["x-api-key"] == "s3cret" for p in posts)
    root = next(m for m in map(json.loads, asked.stdout.splitlines()) if m["message_type"] == "explain")
    assert_spans_match(get_trace(store, W, sample, root["explain_id"]), list(spans_by_id(posts).values()), W, sample)
    warned = [line for line in asked.stderr.splitlines() if "WARNING tgneo.otlp:" in line]
    assert len(warned) == 2, asked.stderr
    removed = "is deprecated and will be removed in the next release: set"
    assert f"TGNEO_OTLP_ENDPOINT {removed} OTEL_EXPORTER_OTLP_ENDPOINT" in warned[0]
    assert f"TGNEO_OTLP_HEADERS {removed} OTEL_EXPORTER_OTLP_HEADERS" in warned[1]
    # once per process, however many runtimes read the settings
    code = (
        "import logging; logging.basicConfig(format='%(levelname)s %(name)s: %(message)s')\n"
        "from tgneo.config import Settings; from tgneo.otlp.export_http import OtlpTarget\n"
        "for _ in range(3): print(OtlpTarget.from_settings(Settings.from_env()).url)\n"
    )
    run = subprocess.run([sys.executable, "-c", code], env={**env, "OTEL_EXPORTER_OTLP_ENDPOINT": "http://new:4318"},
                         capture_output=True, text=True, timeout=60, check=False)  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["http://new:4318/v1/traces"] * 3, "the standard variable wins"
    assert [line.split(" is deprecated")[0] for line in run.stderr.splitlines()] == [
        "WARNING tgneo.otlp: TGNEO_OTLP_ENDPOINT",
        "WARNING tgneo.otlp: TGNEO_OTLP_HEADERS",
    ]
    assert run.stderr.splitlines()[0].endswith(" — it is set, and wins")


def test_ten_answers_are_exported_by_one_thread_not_one_thread_each(
    neo4j_server: Neo4jServer, store: Store, sample: str  # noqa: F811
) -> None:  # fmt: skip
    with otlp_endpoint() as endpoint:
        runtime = Runtime(store, neo4j_server.settings(otlp_endpoint=endpoint.url), llm=OfflineLLM())
        before = {t.ident for t in threading.enumerate()}
        roots = [answer(runtime, SessionKind.AGENT, ARITHMETIC, sample)[-1]["trace"] for _ in range(10)]
        started = [t.name for t in threading.enumerate() if t.ident not in before]
        runtime.close()
        posts = endpoint.accepted()
    assert started == ["OtelBatchSpanRecordProcessor"], started  # the SDK processor's one worker
    assert not any(t.name == "OtelBatchSpanRecordProcessor" and t.is_alive() for t in threading.enumerate()
                   if t.ident not in before), "close() stops it"  # fmt: skip
    expected = {bytes.fromhex(span_id(s["uri"])) for r in roots for s in get_trace(store, W, sample, r)["steps"]}
    assert set(spans_by_id(posts)) == expected and len(expected) >= 10 * 5
    assert len(posts) < 10, "batched: fewer requests than answers"


def test_through_a_real_collector_the_spans_reach_a_backend_unchanged_and_tgneo_serve_does_not_record_them(
    neo4j_server: Neo4jServer, store: Store, sample: str, served: Served  # noqa: F811
) -> None:  # fmt: skip
    """A Collector that forwards every service's spans to a backend and to tgneo serve (for the user's pipelines):
    tgneo's own spans come back to tgneo through it, and tgneo serve still records them not again."""
    collection = f"own-{uuid.uuid4().hex[:8]}"
    with otlp_endpoint() as backend:
        exporters: dict[str, dict[str, object]] = {
            "otlphttp/backend": {"endpoint": backend.url},
            "otlphttp/tgneo": {"endpoint": served.base, "headers": {
                "Authorization": f"Bearer {served.a.token}", "X-Tgneo-Collection": collection}},
        }  # fmt: skip
        with collector(exporters) as running:
            runtime = Runtime(store, neo4j_server.settings(otlp_endpoint=running.base), llm=OfflineLLM())
            messages = answer(runtime, SessionKind.AGENT, ARITHMETIC, sample)
            runtime.close()
            post = backend.next(timeout=60)
            log = running.wait_for_log("Partial success response")
    trace = get_trace(store, W, sample, messages[-1]["trace"])
    assert post.headers["content-encoding"] == "gzip"  # the Collector's otlphttp exporter compresses by default
    request = post.request()
    assert_spans_match(trace, spans_of(request), W, sample)
    assert without_sdk_flags(request) == parse_otlp_json(otlp_json(trace)), "ids, attributes, scope, resource kept"
    assert {attributes(s)["tgneo.trace"] for s in spans_of(request)} == {trace["uri"]}
    # tgneo serve answered the Collector that it left tgneo's own spans out; it recorded nothing
    (said,) = [line for line in log.splitlines() if "Partial success response" in line]
    assert left_out(said) == len(trace["steps"]), said
    assert list_traces(store, served.a.workspace, collection).traces == []
    assert counts(store, served.a.workspace, collection) == Counts(0, 0, 0)
