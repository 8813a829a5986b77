#!/usr/bin/env python3
"""Benchmark ``tgneo serve``'s question streams against the real Neo4j, side by side in one run.

Starts ``tgneo serve`` (its defaults: one worker per core, 32 threads each) on a free loopback port,
loads the sample corpus into a ``bench-serve-*`` collection, then runs rounds of concurrent streaming
clients — 1, 10 and 50 (20 with ``--quick``) — each asking questions over NDJSON (GraphRAG, Document RAG
and the agent in turn) with ``?timestamps=true``. Prints, as its LAST line, JSON
``{"bench": "serve", "ratios": {...}, "absolute": {...}}`` with:

* ``lost_events``: explain events missing or out of order, over every question of the largest
  round, each checked afterwards against what Neo4j holds: every step of the stored trace (but the
  Thought, EdgeSelection and ChunkSelection sub-entities, which travel inside their step's message)
  must have arrived exactly once, after every step it derives from, and nothing else. Goal 0.
* ``first_event_ms_vs_tg_poll``: p95 of the time from a step's commit (``committed_at``, stamped as
  ``Recorder.record`` returns) to its explain message being read by the client, ÷ 200 ms — the
  interval at which TrustGraph's explain client polls the store for an entity. Goal ≤ 0.1.

* ``otlp_lost_spans``: spans sent to ``POST /v1/traces`` by 50 concurrent exporters (the OpenTelemetry SDK's
  own ``OTLPSpanExporter`` behind a ``BatchSpanProcessor`` each, its batches small so that span trees arrive in
  pieces, children before their root, interleaved with the other exporters'), less the spans the server kept.
  Goal 0. With it, ``otlp_unrecorded_trees``: span trees sent that did not become a trace. Goal 0.

and, for context, questions per second at each client count, the p50/p95 delivery times, failed
questions, and spans per second received. All data goes to the ``bench`` workspace; the collections are
removed at the end.

    python scripts/bench/serve.py --quick
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import requests
from rich.console import Console

from tgneo.ingest.loader import load_documents
from tgneo.ingest.sample import QUESTIONS, sources
from tgneo.llm.offline import OfflineLLM
from tgneo.provision.server import free_port
from tgneo.store import Store
from tgneo.store.otlp_receive import counts
from tgneo.store.traces import get_trace

console = Console(stderr=True)
WORKSPACE = "bench"
ROOT = Path(__file__).resolve().parents[2]
ASKS = [
    ("graph-rag", {"query": QUESTIONS[0].text}),
    ("document-rag", {"query": QUESTIONS[1].text}),
    ("graph-rag", {"query": QUESTIONS[2].text}),
    ("agent", {"question": "What is 1934 - 1867?", "pattern": "react"}),
]
INNER = {"Thought", "EdgeSelection", "ChunkSelection"}
"""Sub-entities announced inside their step's message, never as a message of their own."""


@dataclass
class Asked:
    """One streamed question: what arrived, when, and whether it ended well."""

    root: str | None = None
    explain: list[str] = field(default_factory=list)
    delays_ms: list[float] = field(default_factory=list)
    ok: bool = False
    ended: bool = False
    """A final message arrived (an answer or an error): the stream did not end in silence."""


def ask(base: str, collection: str, service: str, body: dict[str, Any], timeout: float = 300) -> Asked:
    asked = Asked()
    with requests.post(f"{base}/api/v1/{service}", params={"timestamps": "true"}, stream=True, timeout=timeout,
                       json={**body, "collection": collection, "workspace": WORKSPACE}) as response:  # fmt: skip
        if response.status_code != 200:  # refused before it streamed: a JSON error is an answer too
            asked.ended = response.headers.get("Content-Type", "").startswith("application/json") and (
                "error" in response.json()
            )
            return asked
        for line in response.iter_lines():
            received = time.time()
            message = json.loads(line)
            if message.get("message_type") == "explain":
                asked.explain.append(message["explain_id"])
                asked.delays_ms.append((received - message["committed_at"]) * 1000)
                asked.root = asked.root or message["explain_id"]
            if message.get("end_of_session") or message.get("end_of_dialog"):
                asked.ok = "error" not in message
                asked.ended = True
    return asked


def run_round(base: str, collection: str, clients: int, per_client: int) -> tuple[list[Asked], float]:
    results: list[Asked] = []
    lock = threading.Lock()

    def client(number: int) -> None:
        for i in range(per_client):
            service, body = ASKS[(number + i) % len(ASKS)]
            try:
                asked = ask(base, collection, service, body)
            except requests.RequestException:
                asked = Asked()
            with lock:
                results.append(asked)

    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results, time.perf_counter() - started


def lost(store: Store, collection: str, asked: Asked) -> int:
    """Explain events missing, duplicated, unknown or out of order for one question, against Neo4j."""
    if asked.root is None:
        return 1
    trace = get_trace(store, WORKSPACE, collection, asked.root)
    steps = {s["uri"]: s for s in trace["steps"] if s["type"] not in INNER}
    missing = len(set(steps) - set(asked.explain))
    extra = len(set(asked.explain) - set(steps)) + (len(asked.explain) - len(set(asked.explain)))
    seen: set[str] = set()
    disorder = 0
    for uri in asked.explain:
        parents = [p for p in steps.get(uri, {}).get("parents", []) if p in steps]
        disorder += any(p not in seen for p in parents)
        seen.add(uri)
    return missing + extra + disorder


EXPORTERS = 50
SPANS_PER_TREE = 6


def export_trees(base: str, collection: str, trees: int) -> None:
    """One exporter: ``trees`` agent span trees (GenAI conventions), through the SDK's batch processor."""
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    provider = TracerProvider()
    exporter = OTLPSpanExporter(
        endpoint=f"{base}/v1/traces",
        headers={"X-Tgneo-Collection": collection, "X-Tgneo-Workspace": WORKSPACE},
        timeout=120,
    )
    provider.add_span_processor(BatchSpanProcessor(exporter, max_export_batch_size=4, schedule_delay_millis=50))
    tracer = provider.get_tracer("bench")
    for n in range(trees):
        with tracer.start_as_current_span("invoke_agent bench") as root:
            root.set_attributes({"gen_ai.operation.name": "invoke_agent", "input.value": f"Question {n}?"})
            for step in range(2):
                with tracer.start_as_current_span("chat model") as chat:
                    chat.set_attributes(
                        {
                            "gen_ai.operation.name": "chat",
                            "gen_ai.usage.input_tokens": 40 + step,
                            "gen_ai.usage.output_tokens": 5,
                            "gen_ai.response.model": "bench-model",
                        }
                    )
                with tracer.start_as_current_span("execute_tool lookup") as tool:
                    tool.set_attributes(
                        {
                            "gen_ai.operation.name": "execute_tool",
                            "gen_ai.tool.name": "lookup",
                            "gen_ai.tool.call.arguments": json.dumps({"n": n, "step": step}),
                            "gen_ai.tool.call.result": f"result {n}.{step}",
                        }
                    )
            with tracer.start_as_current_span("chat model") as last:
                last.set_attributes({"gen_ai.operation.name": "chat", "output.value": f"Answer {n}."})
    provider.force_flush(timeout_millis=300_000)
    provider.shutdown()


def otlp_round(base: str, store: Store, collection: str, trees: int) -> dict[str, Any]:
    """:data:`EXPORTERS` exporters at once, each sending ``trees`` span trees; what the server kept of them."""
    threads = [threading.Thread(target=export_trees, args=(base, collection, trees)) for _ in range(EXPORTERS)]
    started = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    seconds = time.monotonic() - started
    sent_spans, sent_trees = EXPORTERS * trees * SPANS_PER_TREE, EXPORTERS * trees
    kept = counts(store, WORKSPACE, collection)
    console.print(f"{EXPORTERS} exporters: {sent_spans} spans of {sent_trees} trees in {seconds:.1f}s; kept "
                  f"{kept.spans} spans, {kept.recorded} trees recorded")  # fmt: skip
    return {"lost": sent_spans - kept.spans, "unrecorded": sent_trees - kept.recorded, "spans": sent_spans,
            "spans_per_second": round(sent_spans / seconds, 1)}  # fmt: skip


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2) if ordered else 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="20 clients at most, fewer questions each")
    parser.add_argument("--keep", action="store_true", help="keep the benchmark's collection")
    args = parser.parse_args()
    sys.setswitchinterval(0.001)  # like the server: the clients' own GIL waits must not pad the measure
    rounds = (1, 10, 20) if args.quick else (1, 10, 50)
    per_client = 2 if args.quick else 4
    collection = f"bench-serve-{uuid.uuid4().hex[:8]}"
    spans_collection = f"bench-otlp-{uuid.uuid4().hex[:8]}"
    store = Store.from_settings()
    console.print(f"loading the sample corpus into {WORKSPACE}/{collection}")
    load_documents(store, OfflineLLM(), WORKSPACE, collection, sources())
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "TGNEO_TOKENS"}
    server = subprocess.Popen([sys.executable, "-m", "tgneo.cli", "serve", "--port", str(port)], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    qps: dict[str, float] = {}
    delays: list[float] = []
    failures = 0
    lost_events = 0
    otlp: dict[str, Any] = {}
    try:
        wait_until_up(base)
        ask(base, collection, *ASKS[0])  # warm up: schema check, first connections
        for clients in rounds:
            results, seconds = run_round(base, collection, clients, per_client)
            qps[str(clients)] = round(len(results) / seconds, 2)
            failures += sum(not r.ok for r in results)
            console.print(f"{clients:3} clients: {len(results)} questions in {seconds:.1f}s = {qps[str(clients)]} q/s")
            if clients == rounds[-1]:
                delays = [d for r in results for d in r.delays_ms]
                lost_events = sum(lost(store, collection, r) for r in results)
        otlp = otlp_round(base, store, spans_collection, 2 if args.quick else 6)
    finally:
        server.terminate()
        server.wait(timeout=60)
        if not args.keep:
            with store.driver.session(database=store.database) as s:
                for c in (collection, spans_collection):
                    s.run("MATCH (n {workspace: $w, collection: $c}) CALL (n) { DETACH DELETE n } IN TRANSACTIONS "
                          "OF 10000 ROWS", w=WORKSPACE, c=c).consume()  # fmt: skip
        store.close()
    ratios = {"lost_events": lost_events, "first_event_ms_vs_tg_poll": round(pct(delays, 0.95) / 200, 4),
              "otlp_lost_spans": otlp.get("lost"), "otlp_unrecorded_trees": otlp.get("unrecorded")}  # fmt: skip
    goals = {"lost_events": "== 0", "first_event_ms_vs_tg_poll": "<= 0.1", "otlp_lost_spans": "== 0",
             "otlp_unrecorded_trees": "== 0"}  # fmt: skip
    for key, value in ratios.items():
        console.print(f"{key:28} {value:>8}   goal {goals[key]}")
    absolute = {
        "questions_per_second": qps,
        "delivery_ms": {"p50": pct(delays, 0.5), "p95": pct(delays, 0.95), "max": pct(delays, 1.0)},
        "explain_events_checked": len(delays),
        "failed_questions": failures,
        "clients": list(rounds),
        "questions_per_client": per_client,
        "otlp": {
            "exporters": EXPORTERS,
            "spans_sent": otlp.get("spans"),
            "spans_per_second": otlp.get("spans_per_second"),
        },
    }
    print(json.dumps({"bench": "serve", "quick": args.quick, "absolute": absolute, "ratios": ratios}))
    return 0 if failures == 0 and otlp.get("lost") == 0 and otlp.get("unrecorded") == 0 else 1


def wait_until_up(base: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            if requests.get(f"{base}/healthz", timeout=2).status_code == 200:
                return
        except requests.ConnectionError:
            pass
        if time.monotonic() > deadline:
            raise SystemExit(f"the server did not answer within {seconds:.0f} s")
        time.sleep(0.2)


if __name__ == "__main__":
    sys.exit(main())
