#!/usr/bin/env python3
"""Benchmark ``tgneo load documents`` against the real Neo4j, side by side in one run.

Loads copies of the sample corpus (each copy a distinct document: its own source IRI) with the
offline provider, and for each copy, in turn: loads it (new), loads it again (unchanged). Prints, as
its LAST line, JSON ``{"bench": "ingest", "ratios": {...}, "absolute": {...}}`` with:

* ``unchanged_vs_new``: time to load a document that is already stored ÷ time to load it the first
  time (an unchanged document is decoded and compared, not extracted or written). Goal ≤ 0.2.
* ``write_share``: time inside the document's one write transaction ÷ the whole first load (the
  rest is reading, decoding, chunking, extraction and embedding in Python). Context, no goal.

and, for context, documents/s, chunks/s and statements/s of first loads, and Neo4j transactions per
document (new and unchanged; the load's fixed cost — schema check, model check — is counted apart).

With ``--before CHECKOUT`` (a checkout of an earlier tgneo, see ``before.py``) that tgneo's own ingest
bench runs first, with the same copies of the same corpus, on a private server of its own (twice: the
first run warms that freshly started server up, and only the second counts), and the
JSON adds ``statements_per_s_vs_before`` and ``documents_per_s_vs_before`` (this tgneo ÷ that one; goal
≥ 2 for statements/s) and the earlier figures.
Uses NEO4J_* or the local `tgneo db` server; all data goes to a ``bench-ingest-*`` collection, removed
at the end.

    python scripts/bench/ingest.py --quick
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from before import Before  # scripts/bench/before.py
from cleanup import drop_collections  # scripts/bench/cleanup.py
from rich.console import Console

from tgneo.ingest.loader import Hooks, LoadReport, load_documents
from tgneo.ingest.sample import sources
from tgneo.ingest.sources import Source
from tgneo.llm.offline import OfflineLLM
from tgneo.store import Store

T = TypeVar("T")
console = Console(stderr=True)
WORKSPACE = "bench"


class CountingStore(Store):
    """The real store, counting transactions and the time spent in write transactions."""

    transactions = 0
    write_seconds = 0.0

    def transaction(self, work: Callable[[Any], T], action: str, access: str = "READ") -> T:  # type: ignore[override]
        self.transactions += 1
        started = time.perf_counter()
        try:
            return super().transaction(work, action, access)
        finally:
            if action.startswith("loading "):
                self.write_seconds += time.perf_counter() - started


class Clock:
    """Per-document time inside a load, from reading its bytes to its outcome (the load's fixed cost excluded)."""

    def __init__(self) -> None:
        self.started: dict[str, float] = {}
        self.seconds: dict[str, float] = {}
        self.outcomes: dict[str, str] = {}

    def source(self, source: Source, name: str, iri: str) -> Source:
        def read() -> bytes:
            self.started[name] = time.perf_counter()
            return source.read()

        return Source(name, iri, read)

    def done(self, name: str, outcome: str) -> None:
        self.seconds[name] = time.perf_counter() - self.started[name]
        self.outcomes[name] = outcome


def load_copy(store: CountingStore, collection: str, copy: list[Source], clock: Clock) -> tuple[int, LoadReport]:
    """Load one copy of the corpus; return the transactions it took beyond the load's fixed cost."""
    before = store.transactions
    report = load_documents(store, OfflineLLM(), WORKSPACE, collection, copy, hooks=Hooks(done=clock.done))
    return store.transactions - before, report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="3 copies of the sample instead of 15")
    parser.add_argument("--keep", action="store_true", help="keep the bench collection afterwards")
    parser.add_argument("--before", type=Path, metavar="CHECKOUT", help="an earlier tgneo (before.py), measured first")
    args = parser.parse_args(argv)
    earlier: dict[str, Any] | None = None
    if args.before is not None:
        with Before(args.before) as then:
            shape = ["--quick"] if args.quick else []
            then.bench("ingest.py", *shape)  # a warm-up: its server has just started, this one has been running
            earlier = {"commit": then.commit, **then.bench("ingest.py", *shape)}
        console.print(f"before ({then.commit}): {earlier['absolute']}")
    copies = 3 if args.quick else 15
    run_id = uuid.uuid4().hex[:8]
    collection = f"bench-ingest-{run_id}"
    store = CountingStore.from_settings()
    assert isinstance(store, CountingStore)
    new_s: list[float] = []
    again_s: list[float] = []
    new_tx: list[float] = []
    again_tx: list[float] = []
    chunks = statements = 0
    try:
        store.verify()
        before = store.transactions
        load_documents(store, OfflineLLM(), WORKSPACE, collection, [])  # the load's fixed cost, measured apart
        fixed = store.transactions - before
        for n in range(copies):
            first, second = Clock(), Clock()
            corpus = sources()
            names = [f"{n}/{s.name}" for s in corpus]
            iris = [f"urn:bench:{run_id}:{n}:{s.name}" for s in corpus]
            args_ = list(zip(corpus, names, iris, strict=True))
            tx, report = load_copy(store, collection, [first.source(*a) for a in args_], first)
            new_tx.append((tx - fixed) / len(corpus))
            chunks += report.chunks
            statements += report.statements
            tx, report = load_copy(store, collection, [second.source(*a) for a in args_], second)
            assert report.unchanged == len(corpus), report.summary()
            again_tx.append((tx - fixed) / len(corpus))
            new_s += [first.seconds[name] for name in names]
            again_s += [second.seconds[name] for name in names]
            console.print(f"copy {n + 1}/{copies}: {len(new_s)} documents loaded")
    finally:
        if not args.keep:
            with store.driver.session(database=store.database) as session:
                drop_collections(session, WORKSPACE, [collection])
        store.close()
    total = sum(new_s)
    ratios = {
        "unchanged_vs_new": round(statistics.median(again_s) / statistics.median(new_s), 3),
        "write_share": round(store.write_seconds / total, 3),
    }
    absolute: dict[str, Any] = {
        "documents": len(new_s),
        "statements_per_document": round(statements / len(new_s), 1),
        "documents_per_s": round(len(new_s) / total, 2),
        "chunks_per_s": round(chunks / total, 1),
        "statements_per_s": round(statements / total, 1),
        "new_ms_p50": round(statistics.median(new_s) * 1000, 1),
        "unchanged_ms_p50": round(statistics.median(again_s) * 1000, 1),
        "transactions_per_new_document": statistics.median(new_tx),
        "transactions_per_unchanged_document": statistics.median(again_tx),
        "transactions_per_load": fixed,
    }
    console.print(f"unchanged_vs_new {ratios['unchanged_vs_new']:>8}   goal <= 0.2")
    console.print(f"write_share      {ratios['write_share']:>8}")
    if earlier is not None:
        old = earlier["absolute"]
        ratios["statements_per_s_vs_before"] = round(absolute["statements_per_s"] / old["statements_per_s"], 3)
        ratios["documents_per_s_vs_before"] = round(absolute["documents_per_s"] / old["documents_per_s"], 3)
        absolute["before"] = {"commit": earlier["commit"], **old}
        console.print(f"statements/s vs before {ratios['statements_per_s_vs_before']:>8}   goal >= 2")
        console.print(f"documents/s vs before  {ratios['documents_per_s_vs_before']:>8}")
    print(json.dumps({"bench": "ingest", "quick": args.quick, "absolute": absolute, "ratios": ratios}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
