#!/usr/bin/env python3
"""Benchmark the GraphRAG engine on generated knowledge graphs of growing size, side by side in one run.

Knowledge graphs of 10k, 100k and 1M statements (1M skipped with ``--quick``) are generated with full
extraction provenance (document → page → chunk → subgraph ``tg:contains`` every statement), written
through tgneo's own write path and indexed (entity names and embeddings) with the offline provider.
Then the same questions are asked of every size, interleaved question by question, with the offline
LLM, against the real server. Prints, as its LAST line, JSON ``{"bench": "engines", "ratios": {...}}``:

* ``db_round_trips_per_question`` — transactions sent to Neo4j for one whole GraphRAG question: all
  four stages and their recording (the Store counts them). Goal ≤ 10 (TrustGraph's own spec counts
  about 9,451 queries per question before optimisation).
* ``explain_overhead`` — time per question with recording ÷ the same engine with recording off
  (``GraphRag(record=False)``), interleaved on the smallest graph, each question asked once untimed first so
  that both timed runs find the same vectors cached, the two taking turns going first. Goal ≤ 1.10.
* ``latency_1m_vs_10k`` (full run) or ``latency_100k_vs_10k`` (``--quick``) — p50 question latency on
  the large graph ÷ on the small one. Goal ≤ 2 (index-backed: cost follows the neighbourhood).

With ``--before CHECKOUT`` (a checkout of an earlier tgneo, see ``before.py``) that tgneo's own engines
bench first runs on a private server of its own, with the same sizes and questions, and the JSON adds
``p50_100k_before_vs_now``: its p50 latency at 100k ÷ this tgneo's (goal ≥ 1: no slower).

Absolute p50/p95 latencies per size and the round trips of each stage are printed for context. Data
goes to ``bench-engines-*`` collections, removed at the end (``--keep`` keeps them).

    python scripts/bench/engines.py --quick
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from before import Before  # scripts/bench/before.py
from cleanup import drop_collections  # scripts/bench/cleanup.py
from rdflib.term import Literal, URIRef
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from tgneo import uris
from tgneo.engines import GraphRag, Request
from tgneo.explain.events import ExplainEvent, SessionEnd
from tgneo.explain.source import Activity, DerivedEntity, Document, Subgraph
from tgneo.graphmodel.compiler import compile_quads
from tgneo.ingest.index import index_collection
from tgneo.llm.offline import OfflineLLM
from tgneo.rdf.terms import Quad, QuotedTriple
from tgneo.store import Store, install_schema
from tgneo.store.schema import install_search_schema
from tgneo.store.write_path import write_batch
from tgneo.vocab import RDFS, TRUSTGRAPH_ENTITIES

console = Console(stderr=True)
WORKSPACE = "bench"
BEFORE_SIZE = 100_000
"""The graph size whose p50 latency is compared with an earlier tgneo's (--before)."""
TS = "2025-06-01T10:15:30.123456Z"
SYLLABLES = ("ka", "ro", "mi", "ten", "vo", "la", "shi", "dor", "e", "an", "bel", "quo", "ris", "tu", "mar", "zen")
RELATIONS = ("discovered", "born in", "worked at", "married", "studied", "founded", "wrote", "visited",
             "named after", "member of", "taught", "built", "led", "won", "lived in", "invented")  # fmt: skip
STATEMENTS_PER_ENTITY = 10
STATEMENTS_PER_CHUNK = 20
CHUNKS_PER_PAGE = 5
PAGES_PER_DOCUMENT = 4
CHUNKS_PER_BATCH = 50
RELATION_NAME = {URIRef(f"{TRUSTGRAPH_ENTITIES}{r.replace(' ', '-')}"): r for r in RELATIONS}


def name_of(i: int) -> str:
    """A unique, pronounceable two-word name for entity ``i`` (deterministic)."""
    rng = random.Random(i * 7919)
    first = "".join(rng.choice(SYLLABLES) for _ in range(2 + i % 2)).capitalize()
    last = "".join(SYLLABLES[(i // len(SYLLABLES) ** k) % len(SYLLABLES)] for k in range(4)).capitalize()
    return f"{first} {last}"


def entity(i: int) -> URIRef:
    return URIRef(f"{TRUSTGRAPH_ENTITIES}bench-{i}")


def relation(k: int) -> URIRef:
    return URIRef(f"{TRUSTGRAPH_ENTITIES}{RELATIONS[k].replace(' ', '-')}")


def statements(count: int, entities: int) -> Iterator[QuotedTriple]:
    """``count`` facts among ``entities`` entities: neighbours mostly near each other, some far."""
    rng = random.Random(count)
    for n in range(count):
        s = n // STATEMENTS_PER_ENTITY
        o = (s + rng.choice((1, 2, 3, 5, 8, rng.randrange(entities)))) % entities
        yield QuotedTriple(entity(s), relation(rng.randrange(len(RELATIONS))), entity(o))


def batches(count: int) -> Iterator[tuple[list[Quad], dict[str, str]]]:
    """Quads and chunk texts for ``count`` statements, ``CHUNKS_PER_BATCH`` chunks at a time, with provenance."""
    entities = max(2, count // STATEMENTS_PER_ENTITY)
    labelled: set[int] = set()
    quads: list[Quad] = [Quad(relation(k), RDFS.label, Literal(r)) for k, r in enumerate(RELATIONS)]
    texts: dict[str, str] = {}
    chunk: list[QuotedTriple] = []
    chunk_no = 0
    for triple in statements(count, entities):
        chunk.append(triple)
        if len(chunk) == STATEMENTS_PER_CHUNK:
            quads += provenance(chunk_no, chunk, texts, labelled)
            chunk, chunk_no = [], chunk_no + 1
            if chunk_no % CHUNKS_PER_BATCH == 0:
                yield quads, texts
                quads, texts = [], {}
    if chunk:
        quads += provenance(chunk_no, chunk, texts, labelled)
    if quads:
        yield quads, texts


def provenance(n: int, facts: list[QuotedTriple], texts: dict[str, str], labelled: set[int]) -> list[Quad]:
    """One chunk's facts, their labels, its subgraph, and (first time) its page and document."""
    page_no, doc_no = n // CHUNKS_PER_PAGE, n // (CHUNKS_PER_PAGE * PAGES_PER_DOCUMENT)
    doc, page = f"https://trustgraph.ai/doc/bench-{doc_no}", uris.page_uri(f"bench-{page_no}")
    chunk = uris.chunk_uri(f"bench-{n}")
    out: list[Quad] = []
    if n % (CHUNKS_PER_PAGE * PAGES_PER_DOCUMENT) == 0:
        out += Document(uri=doc, title=f"Generated document {doc_no}", page_count=PAGES_PER_DOCUMENT).triples()
    if n % CHUNKS_PER_PAGE == 0:
        decoder = Activity(component_name="text-decoder", component_version="bench", uri=uris.activity_uri(
            f"bench-page-{page_no}"), timestamp=TS)  # fmt: skip
        out += DerivedEntity(uri=page, parent=doc, activity=decoder, page_number=page_no % PAGES_PER_DOCUMENT + 1,
                             ).triples()  # fmt: skip
    chunker = Activity(component_name="chunker", component_version="bench", uri=uris.activity_uri(
        f"bench-chunk-{n}"), timestamp=TS)  # fmt: skip
    out += DerivedEntity(uri=chunk, parent=page, activity=chunker, chunk_index=n % CHUNKS_PER_PAGE).triples()
    extractor = Activity(component_name="kg-extractor", component_version="bench", uri=uris.activity_uri(
        f"bench-extract-{n}"), timestamp=TS)  # fmt: skip
    out += Subgraph(uri=uris.subgraph_uri(f"bench-{n}"), chunk=chunk, activity=extractor, statements=tuple(facts),
                    llm_model="bench").triples()  # fmt: skip
    sentences = []
    for fact in facts:
        out.append(Quad(fact.s, fact.p, fact.o))
        for term in (fact.s, fact.o):
            i = int(str(term).rsplit("-", 1)[1])
            if i not in labelled:
                labelled.add(i)
                out.append(Quad(term, RDFS.label, Literal(name_of(i))))
        s_name, o_name = (name_of(int(str(t).rsplit("-", 1)[1])) for t in (fact.s, fact.o))
        sentences.append(f"{s_name} {RELATION_NAME[fact.p]} {o_name}.")
    texts[chunk] = " ".join(sentences)
    return out


def generate(store: Store, llm: OfflineLLM, collection: str, count: int, progress: Progress) -> None:
    total = (count + STATEMENTS_PER_CHUNK * CHUNKS_PER_BATCH - 1) // (STATEMENTS_PER_CHUNK * CHUNKS_PER_BATCH)
    task = progress.add_task(f"generate {count:,} statements", total=total)
    for quads, texts in batches(count):
        write_batch(store, WORKSPACE, collection, compile_quads(quads, texts), what="writing generated data")
        progress.advance(task)
    index = progress.add_task(f"index {count:,}", total=None)
    index_collection(store, llm, WORKSPACE, collection, progress=lambda _, n: progress.advance(index, n))


def question(i: int, entities: int) -> str:
    return f"What did {name_of(random.Random(i).randrange(entities))} discover?"


def ask(engine: GraphRag, store: Store, text: str, collection: str) -> tuple[float, int, Counter[str], bool]:
    """One question: its latency, its round trips, the round trips of each stage, and whether it succeeded."""
    stages: Counter[str] = Counter()
    before = store.round_trips
    started = time.perf_counter()
    stream = engine.answer(Request(text, WORKSPACE, collection))
    ok, mark = False, before
    for event in stream:
        stage = event.kind if isinstance(event, ExplainEvent) else type(event).__name__
        stages[stage] += store.round_trips - mark
        mark = store.round_trips
        ok = ok or isinstance(event, SessionEnd)
    elapsed = time.perf_counter() - started
    return elapsed, store.round_trips - before, stages, ok


def p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 1)


def _short(size: int) -> str:
    return f"{size // 1_000_000}m" if size >= 1_000_000 else f"{size // 1000}k"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="10k and 100k statements only (no 1M)")
    parser.add_argument("--questions", type=int, default=30, help="questions asked of each size")
    parser.add_argument("--keep", action="store_true", help="keep the bench-engines-* collections")
    parser.add_argument("--sizes", type=int, nargs="+", help="statement counts instead (smallest first), to try it out")
    parser.add_argument("--before", type=Path, metavar="CHECKOUT", help="an earlier tgneo (before.py), measured first")
    args = parser.parse_args(argv)
    sizes = tuple(args.sizes) if args.sizes else (10_000, 100_000) if args.quick else (10_000, 100_000, 1_000_000)
    earlier: dict[str, Any] | None = None
    if args.before is not None:  # the same sizes, interleaved the same way: a server holding 1M answers slower
        with Before(args.before) as then:
            shape = ["--sizes", *map(str, sizes), "--questions", str(args.questions)]
            earlier = {"commit": then.commit, **then.bench("engines.py", *shape)}
        console.print(f"before ({then.commit}): {earlier['absolute']}")
    run_id = uuid.uuid4().hex[:8]
    llm = OfflineLLM()
    collections = {size: f"bench-engines-{size}-{run_id}" for size in sizes}
    with Store.from_settings() as store:
        store.verify()
        install_schema(store)
        install_search_schema(store, llm.dimensions)
        try:
            with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                          console=console) as progress:  # fmt: skip
                for size, collection in collections.items():
                    generate(store, llm, collection, size, progress)
                recorded, unrecorded = GraphRag(store, llm), GraphRag(store, llm, record=False)
                latency: dict[int, list[float]] = {size: [] for size in sizes}
                trips: list[int] = []
                per_stage: Counter[str] = Counter()
                with_rec: list[float] = []
                without_rec: list[float] = []
                failures = 0
                task = progress.add_task("questions, interleaved", total=args.questions)
                small = sizes[0]
                for i in range(args.questions):
                    # Once untimed first: the offline answers keep each text's vector (tgneo.llm.offline.meaning),
                    # so whichever of the two timed runs came first would pay the embedding of ~500 edges that the
                    # other finds cached. Both timed runs see the same caches, and take turns going first.
                    ask(unrecorded, store, question(i, small // 10), collections[small])
                    order = (True, False) if i % 2 == 0 else (False, True)
                    for recording in order:
                        engine = recorded if recording else unrecorded
                        elapsed, n, stages, ok = ask(engine, store, question(i, small // 10), collections[small])
                        failures += not ok
                        if recording:
                            latency[small].append(elapsed)
                            trips.append(n)
                            per_stage.update(stages)
                            with_rec.append(elapsed)
                        else:
                            without_rec.append(elapsed)
                    for size in sizes[1:]:
                        ask(unrecorded, store, question(i, size // 10), collections[size])  # the same caches
                        elapsed, _, _, ok = ask(recorded, store, question(i, size // 10), collections[size])
                        latency[size].append(elapsed)
                        failures += not ok
                    progress.advance(task)
        finally:
            if not args.keep:
                try:
                    with store.driver.session(database=store.database) as s:
                        drop_collections(s, WORKSPACE, collections.values())
                except Exception as e:  # the measurements stand; say what is left behind
                    console.print(f"could not remove the bench-engines-*-{run_id} collections: {e}")
    small, large = sizes[0], sizes[-1]
    label = f"latency_{_short(large)}_vs_{_short(small)}"
    ratios = {
        "db_round_trips_per_question": statistics.median(trips),
        "explain_overhead": round(statistics.median(with_rec) / statistics.median(without_rec), 3),
        label: round(statistics.median(latency[large]) / statistics.median(latency[small]), 3),
    }
    goals = {"db_round_trips_per_question": "<= 10", "explain_overhead": "<= 1.10", label: "<= 2"}
    for key, value in ratios.items():
        console.print(f"{key:30} {value:>8}   goal {goals[key]}")
    absolute: dict[str, Any] = {
        f"latency_{size}_ms": {"p50": p(latency[size], 0.5), "p95": p(latency[size], 0.95)} for size in sizes
    }
    absolute["round_trips_per_stage"] = {k: round(v / len(trips), 2) for k, v in per_stage.items()}
    absolute["recording_off_ms"] = {"p50": p(without_rec, 0.5)}
    absolute["failed_questions"] = failures
    if earlier is not None and BEFORE_SIZE in latency:
        key = f"latency_{BEFORE_SIZE}_ms"
        ratios["p50_100k_before_vs_now"] = round(earlier["absolute"][key]["p50"] / absolute[key]["p50"], 3)
        absolute["before"] = {"commit": earlier["commit"], key: earlier["absolute"][key]}
        console.print(f"{'p50_100k_before_vs_now':30} {ratios['p50_100k_before_vs_now']:>8}   goal >= 1")
    print(json.dumps({"bench": "engines", "quick": args.quick, "sizes": list(sizes), "questions": args.questions,
                      "absolute": absolute, "ratios": ratios}))  # fmt: skip
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
