#!/usr/bin/env python3
"""Benchmark tgneo's recorder and trace reader against the real Neo4j, side by side in one run.

Prints, as its LAST line, JSON ``{"bench": "recorder", "ratios": {...}, "absolute": {...}}`` with:

* ``recorder_vs_floor``: recorder time per step ÷ one bare ``UNWIND … CREATE`` transaction writing
  the same rows (every row of the step's compiled batch, as one node each: no lookups, no
  relationships, no checks — the speed of light for that much data in one round trip). Goal ≤ 1.5.
* ``tg_writer_vs_recorder``: TrustGraph's Neo4j writer pattern (``trustgraph-flow``
  ``storage/triples/neo4j/write.py``: per triple, MERGE the subject, MERGE the object node or literal,
  MERGE the relationship, each an auto-commit query) on the same triples ÷ the recorder: the median
  of three rounds (it swings with the disk's sync). Goal ≥ 20.
* ``trace_read_large_vs_small``: ``get_trace`` p50 with 100k stored sessions (10k with ``--quick``)
  ÷ with 1k, all in the same workspace and collection. Goal ≤ 1.5.

The three timings of each pair are interleaved step by step, so machine noise hits both sides alike.
Absolute p50/p95 (ms) are printed for context only. Uses NEO4J_* or the local `tgneo db` server; all
data goes to ``bench-*`` collections, removed at the end.

    python scripts/bench/recorder.py --quick
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
import uuid
from collections.abc import Callable
from typing import Any

from rdflib.term import Literal, URIRef
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from tgneo import uris
from tgneo.explain import entities as ent
from tgneo.explain.recorder import Recorder
from tgneo.graphmodel.compiler import compile_quads
from tgneo.rdf.terms import Quad, QuotedTriple
from tgneo.store import Store, install_schema
from tgneo.store.rdf_import import import_quads
from tgneo.store.traces import get_trace
from tgneo.vocab import RDFS

console = Console(stderr=True)
EX = "http://example.org/bench/"
TS = "2025-06-01T10:15:30.123456Z"


def edge(i: int) -> QuotedTriple:
    return QuotedTriple(URIRef(f"{EX}e{i % 997}"), URIRef(f"{EX}p{i % 13}"), URIRef(f"{EX}e{(i * 7 + 1) % 997}"))


ROUNDS = 3
"""TrustGraph's pattern is bound by the disk's sync (75 auto-commits per step), so its ratio swings
from run to run; it is measured in three rounds, each interleaved step by step, and the median given."""
EDGES_PER_FOCUS = 25  # TrustGraph's default edge limit (tg-invoke-graph-rag --edge-limit 25)


def session(n: int, edges: int = EDGES_PER_FOCUS) -> list[ent.Entity]:
    """One GraphRAG session (5 steps) whose Focus selects ``edges`` knowledge-graph edges."""
    sid = str(uuid.UUID(int=random.getrandbits(128)))
    q = ent.GraphRagQuestion(uri=uris.question_uri(sid), query=f"bench question {n}", timestamp=TS)
    g = ent.Grounding(uri=uris.grounding_uri(sid), question=q.uri, concepts=(f"c{n % 50}", f"d{n % 31}"),
                      in_token=12, out_token=5, model="bench")  # fmt: skip
    x = ent.Exploration(uri=uris.exploration_uri(sid), grounding=g.uri, edge_count=edges, entities=(f"{EX}e{n % 997}",))
    f = ent.Focus(
        uri=uris.focus_uri(sid), exploration=x.uri, session_id=sid, in_token=40, out_token=9, model="bench",
        edges=tuple(ent.EdgeSelection(edge=edge(n + k), concept=f"c{k}", score=0.5 + k / 100, reasoning="bench")
                    for k in range(edges)),
    )  # fmt: skip
    s = ent.Synthesis(uri=uris.synthesis_uri(sid), focus=f.uri, document=uris.graphrag_answer_uri(sid), in_token=100,
                      out_token=8, model="bench")  # fmt: skip
    return [q, g, x, f, s]


def kg_quads() -> list[Quad]:
    """Labels for the shared knowledge-graph entities, so trace reads resolve them."""
    return [Quad(URIRef(f"{EX}e{i}"), RDFS.label, Literal(f"entity {i}")) for i in range(997)]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ms(values: list[float]) -> dict[str, float]:
    return {"p50": round(percentile(values, 0.5) * 1000, 3), "p95": round(percentile(values, 0.95) * 1000, 3)}


# ------------------------------------------------------------------------------------------ writers
FLOOR = "UNWIND $rows AS row CREATE (n:BenchFloor) SET n = row"
TG_NODE = "MERGE (n:BenchNode {uri: $uri, user: $user, collection: $collection})"
TG_LITERAL = "MERGE (n:BenchLiteral {value: $value, user: $user, collection: $collection})"
TG_REL_NODE = (
    "MATCH (src:BenchNode {uri: $src, user: $user, collection: $collection}) "
    "MATCH (dest:BenchNode {uri: $dest, user: $user, collection: $collection}) "
    "MERGE (src)-[:BenchRel {uri: $uri, user: $user, collection: $collection}]->(dest)"
)
TG_REL_LITERAL = (
    "MATCH (src:BenchNode {uri: $src, user: $user, collection: $collection}) "
    "MATCH (dest:BenchLiteral {value: $dest, user: $user, collection: $collection}) "
    "MERGE (src)-[:BenchRel {uri: $uri, user: $user, collection: $collection}]->(dest)"
)


def flat_rows(step: ent.Entity, collection: str) -> list[dict[str, Any]]:
    """Every row of the step's compiled batch as one flat property map (the floor writes these)."""
    batch = compile_quads(step.triples())
    rows: list[dict[str, Any]] = []
    for kind, items in batch.params().items():
        for item in items:
            row: dict[str, Any] = {"collection": collection, "row": kind}
            for key, value in item.items():
                if isinstance(value, dict):
                    row.update({f"{key}_{k}": v for k, v in value.items() if not isinstance(v, dict | list)})
                elif isinstance(value, list):
                    row[key] = [v for v in value if isinstance(v, str | int | float)]
                else:
                    row[key] = value
            rows.append(row)
    return rows


def tg_writer(store: Store, step: ent.Entity, collection: str) -> None:
    """TrustGraph's writer pattern: three auto-commit queries per triple."""
    run = store.driver.execute_query
    db = store.database
    for quad in step.triples():
        s = str(quad.s)
        run(TG_NODE, uri=s, user="bench", collection=collection, database_=db)
        if isinstance(quad.o, URIRef):
            run(TG_NODE, uri=str(quad.o), user="bench", collection=collection, database_=db)
            run(TG_REL_NODE, src=s, dest=str(quad.o), uri=str(quad.p), user="bench", collection=collection,
                database_=db)  # fmt: skip
        else:
            run(TG_LITERAL, value=str(quad.o), user="bench", collection=collection, database_=db)
            run(TG_REL_LITERAL, src=s, dest=str(quad.o), uri=str(quad.p), user="bench", collection=collection,
                database_=db)  # fmt: skip


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def progress() -> Progress:
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    console=console, transient=False)  # fmt: skip


def bench_writes(store: Store, sessions: int, run_id: str) -> dict[str, Any]:
    rec_c, floor_c, tg_c = f"bench-rec-{run_id}", f"bench-floor-{run_id}", f"bench-tg-{run_id}"
    recorder = Recorder(store, "bench", rec_c)
    with store.driver.session(database=store.database) as s:
        for stmt in (
            "CREATE INDEX bench_tg_node IF NOT EXISTS FOR (n:BenchNode) ON (n.user, n.collection, n.uri)",
            "CREATE INDEX bench_tg_lit IF NOT EXISTS FOR (n:BenchLiteral) ON (n.user, n.collection, n.value)",
        ):
            s.run(stmt).consume()  # the indexes TrustGraph's writer creates  # fmt: skip
    warm = session(-1)
    for step in warm:  # plan caches and connections warm for all three
        recorder.record(step)
        store.driver.execute_query(FLOOR, rows=flat_rows(step, floor_c), database_=store.database)
        tg_writer(store, step, tg_c)
    rec_t: list[float] = []
    floor_t: list[float] = []
    tg_t: list[float] = []
    tg_ratios: list[float] = []
    per_round = max(1, sessions // ROUNDS)
    with progress() as bar:
        task = bar.add_task("writes: recorder | floor | TrustGraph pattern", total=per_round * ROUNDS)
        for round_ in range(ROUNDS):
            rec_round = tg_round = 0.0
            for n in range(round_ * per_round, (round_ + 1) * per_round):
                for step in session(n):
                    rows = flat_rows(step, floor_c)
                    rec = timed(lambda step=step: recorder.record(step))  # type: ignore[misc]
                    floor_t.append(timed(lambda rows=rows: store.driver.execute_query(  # type: ignore[misc]
                        FLOOR, rows=rows, database_=store.database)))  # fmt: skip
                    tg = timed(lambda step=step: tg_writer(store, step, tg_c))  # type: ignore[misc]
                    rec_t.append(rec)
                    tg_t.append(tg)
                    rec_round += rec
                    tg_round += tg
                bar.advance(task)
            tg_ratios.append(tg_round / rec_round)
    return {
        "recorder_vs_floor": statistics.median(rec_t) / statistics.median(floor_t),
        "tg_writer_vs_recorder": statistics.median(tg_ratios),
        "tg_writer_vs_recorder_rounds": [round(r, 2) for r in tg_ratios],
        "recorder_step_ms": ms(rec_t),
        "floor_step_ms": ms(floor_t),
        "tg_writer_step_ms": ms(tg_t),
    }


def load_sessions(store: Store, collection: str, count: int, start: int, label: str) -> list[str]:
    """Bulk-load ``count`` sessions (batched, as `tgneo import` does); return their question URIs."""
    questions: list[str] = []
    per_batch = 100
    with progress() as bar:
        task = bar.add_task(label, total=count)
        for first in range(start, start + count, per_batch):
            quads: list[Quad] = []
            for n in range(first, min(first + per_batch, start + count)):
                steps = session(n)
                questions.append(steps[0].uri)
                for step in steps:
                    quads.extend(step.triples())
            import_quads(store, "bench", collection, quads, batch_size=len(quads) + 1)
            bar.advance(task, min(per_batch, start + count - first))
    return questions


def read_p50(store: Store, collection: str, questions: list[str], samples: int) -> list[float]:
    picks = random.sample(questions, min(samples, len(questions)))
    for uri in picks[:10]:
        get_trace(store, "bench", collection, uri)  # warm
    return [timed(lambda uri=uri: get_trace(store, "bench", collection, uri)) for uri in picks]  # type: ignore[misc]


def bench_reads(store: Store, small: int, large: int, samples: int, run_id: str) -> dict[str, Any]:
    collection = f"bench-read-{run_id}"
    import_quads(store, "bench", collection, kg_quads())
    questions = load_sessions(store, collection, small, 0, f"load {small} sessions")
    small_t = read_p50(store, collection, questions, samples)
    questions += load_sessions(store, collection, large - small, small, f"load {large - small} more sessions")
    large_t = read_p50(store, collection, questions[:small], samples // 2)  # the same traces as before …
    large_t += read_p50(store, collection, questions[small:], samples - samples // 2)  # … and new ones
    small_again = read_p50(store, collection, questions[:small], samples)
    return {
        "trace_read_large_vs_small": statistics.median(large_t) / statistics.median(small_t),
        "trace_read_small_ms": ms(small_t),
        "trace_read_large_ms": ms(large_t),
        "trace_read_small_again_ms": ms(small_again),
    }


def cleanup(store: Store, run_id: str) -> None:
    with store.driver.session(database=store.database) as s:
        s.run(
            "MATCH (n) WHERE n.collection STARTS WITH 'bench-' AND n.collection ENDS WITH $id "
            "CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS",
            id=run_id,
        ).consume()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="10k instead of 100k stored sessions, fewer writes")
    parser.add_argument("--sessions", type=int, help="sessions recorded for the write timings")
    parser.add_argument("--keep", action="store_true", help="keep the bench-* collections afterwards")
    args = parser.parse_args(argv)
    random.seed(42)
    write_sessions = args.sessions or (40 if args.quick else 200)
    small, large = 1_000, (10_000 if args.quick else 100_000)
    run_id = uuid.uuid4().hex[:8]
    with Store.from_settings() as store:
        store.verify()
        install_schema(store)
        info = store.server_info()
        console.print(f"Neo4j {info['version']} {info['edition']} at {store.uri}; run {run_id}")
        try:
            writes = bench_writes(store, write_sessions, run_id)
            reads = bench_reads(store, small, large, 200 if args.quick else 400, run_id)
        finally:
            if not args.keep:
                cleanup(store, run_id)
    ratios = {
        "recorder_vs_floor": round(writes.pop("recorder_vs_floor"), 3),
        "tg_writer_vs_recorder": round(writes.pop("tg_writer_vs_recorder"), 2),
        "trace_read_large_vs_small": round(reads.pop("trace_read_large_vs_small"), 3),
    }
    goals = {"recorder_vs_floor": "<= 1.5", "tg_writer_vs_recorder": ">= 20", "trace_read_large_vs_small": "<= 1.5"}
    for key, value in ratios.items():
        console.print(f"{key:28} {value:>8}   goal {goals[key]}")
    print(json.dumps({"bench": "recorder", "quick": args.quick, "sessions": {"written": write_sessions,
                      "stored_small": small, "stored_large": large}, "absolute": {**writes, **reads},
                      "ratios": ratios}))  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
