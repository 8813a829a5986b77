#!/usr/bin/env python3
"""Faults survived: Neo4j restarted under load, ``tgneo serve`` killed mid-question, and a soak.

Runs on a private Neo4j instance (``chaos`` under ``$TGNEO_HOME/instances``, started from the Maven-
provisioned jars on free loopback ports, stopped at the end), so stopping it harms nobody. Three rounds:

1. **Neo4j restart**: 20 questions stream over NDJSON (GraphRAG, Document RAG, the agent in turn) and
   4 ``tgneo import`` processes run (each client asks again as soon as its stream ends, so 20 streams
   are open when the stop lands) while Neo4j is stopped and started again. Every stream must end
   with an answer or an ``error`` message (a stream with no final message within its timeout is
   *hung*); ``/readyz`` must go red (503) then green; every import must have committed whole or left
   nothing once its journal is recovered (``store.imports.recover``).
2. **SIGKILL**: ``tgneo serve`` (master and workers) is killed while 6 questions stream; after a
   restart nothing may be half-written (the recorder's steps are committed whole or absent).
3. **Soak**: one question after another (two clients) for ``--soak-seconds`` (600; 60 with
   ``--quick``) against one server: RSS of the server's processes at the end ÷ after warm-up, explain
   events lost (checked against Neo4j as ``serve.py`` does), p95 latency of the last window ÷ the first.

After rounds 1 and 2 the store is checked by ``store.health.half_written``. Prints, as its LAST line,
JSON ``{"bench": "chaos", "ratios": {...}, "absolute": {...}}`` with ``chaos_half_written`` (goal 0),
``chaos_hung_streams`` (0), ``chaos_imports_partial`` (0), ``chaos_readyz_red_then_green`` (1),
``soak_lost_events`` (0), ``soak_rss_growth`` (≤ 1.1) and ``soak_p95_drift`` (≤ 1.2). Loopback only;
bounded: every wait has a deadline, and the script stops by itself.

    python scripts/bench/chaos.py --quick
    python scripts/bench/chaos.py --rounds restart,kill --quick     # what tests/test_faults.py runs
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import requests
from rich.console import Console

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cleanup import drop_collections  # noqa: E402
from serve import ASKS, WORKSPACE, Asked, ask, lost, pct  # noqa: E402  (the serve bench's client and checks)

from tgneo.config import Settings, default_home  # noqa: E402
from tgneo.ingest.loader import load_documents  # noqa: E402
from tgneo.ingest.sample import sources  # noqa: E402
from tgneo.llm.offline import OfflineLLM  # noqa: E402
from tgneo.provision import LocalNeo4j  # noqa: E402
from tgneo.provision.server import free_port
from tgneo.store import Store  # noqa: E402
from tgneo.store.collections import list_collections  # noqa: E402
from tgneo.store.health import half_written  # noqa: E402
from tgneo.store.imports import recover  # noqa: E402
from tgneo.store.migrate import migrate  # noqa: E402

console = Console(stderr=True)
COLLECTION = "chaos"
IMPORTS = [f"chaos-import-{i}" for i in range(4)]
STREAM_TIMEOUT = 150.0
"""Seconds a stream may stay silent before its client gives up and counts it hung."""


# ------------------------------------------------------------------------------------------ parts
def neo4j(home: Path) -> tuple[LocalNeo4j, dict[str, str]]:
    """The private instance, started: its handle and the environment that reaches it."""
    probe = LocalNeo4j(home, "chaos")
    instance = probe if probe.status().running else LocalNeo4j(
        home, "chaos", bolt_port=free_port(), http_port=free_port(), auth=True
    )  # fmt: skip
    console.print("starting the private Neo4j instance 'chaos' …")
    return instance, instance.start(timeout=240).env()


@contextmanager
def serving(env: dict[str, str], workers: int = 2) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``tgneo serve`` in its own process group (so SIGKILL reaches master and workers); stopped after."""
    port = free_port()
    log = open(Path(env["TGNEO_HOME"]) / "chaos-serve.log", "ab")  # noqa: SIM115 - closed below
    process = subprocess.Popen(
        [sys.executable, "-m", "tgneo.cli", "serve", "--port", str(port), "--workers", str(workers)],
        env=env, stdout=log, stderr=log, start_new_session=True,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: status(base, "/healthz") == 200, 90, "the server to answer /healthz")
        yield base, process
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        log.close()


def status(base: str, path: str) -> int | None:
    try:
        return requests.get(f"{base}{path}", timeout=5).status_code
    except requests.RequestException:
        return None


def wait_for(check: Any, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise SystemExit(f"gave up waiting {seconds:.0f} s for {what}")
        time.sleep(0.2)


class Clients:
    """``count`` streaming clients, each asking question after question until :meth:`finish`; how many
    streams are open at any moment is :attr:`in_flight`, so a fault can be timed to land on open streams."""

    def __init__(self, base: str, count: int) -> None:
        self.base, self.results, self.in_flight = base, [], 0
        self._lock = threading.Lock()
        self._done = threading.Event()
        self.threads = [threading.Thread(target=self._client, args=(n,), daemon=True) for n in range(count)]
        for t in self.threads:
            t.start()

    def _client(self, n: int) -> None:
        while not self._done.is_set():
            service, body = ASKS[n % len(ASKS)]
            n += 1
            with self._lock:
                self.in_flight += 1
            try:
                result = ask(self.base, COLLECTION, service, body, timeout=STREAM_TIMEOUT)
            except requests.RequestException:
                result = Asked()  # the connection broke or stayed silent: no final message
            with self._lock:
                self.in_flight -= 1
                self.results.append(result)

    def finish(self, seconds: float) -> int:
        """Stop asking, wait for the open streams; the number of clients still stuck after ``seconds``."""
        self._done.set()
        deadline = time.monotonic() + seconds
        for t in self.threads:
            t.join(timeout=max(0.0, deadline - time.monotonic()))
        return sum(t.is_alive() for t in self.threads)


def ntriples(path: Path, n: int, tag: str) -> Path:
    with open(path, "w") as out:
        for i in range(n):
            out.write(f"<http://example.org/chaos/{tag}/e{i}> <http://example.org/chaos/p{i % 7}> "
                      f"<http://example.org/chaos/{tag}/e{(i * 31 + 7) % n}> .\n")  # fmt: skip
    return path


def statements(store: Store, collection: str) -> int:
    """Facts asserted in the default graph of ``collection``, as ``tgneo collections`` counts them.

    Counted through :func:`list_collections` (the one definition of "a fact"), never with a query of
    this bench's own: plain IRI triples are native relationships, and a bench that counted an older
    node label would see 0 and call every whole import partial.
    """
    counts = {c.collection: c.statements for c in list_collections(store, WORKSPACE)}
    return counts.get(collection, 0)


def clear(store: Store) -> None:
    with store.driver.session(database=store.database) as session:
        drop_collections(session, WORKSPACE, [COLLECTION, *IMPORTS])


def server_rss(pgid: int) -> int:
    """Resident memory (bytes) of every process in the server's process group: master and workers."""
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            if int(fields[2]) == pgid:  # fields: state ppid pgrp …
                total += int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, IndexError, ValueError):
            continue
    return total


# ------------------------------------------------------------------------------------------ rounds
def restart_round(
    instance: LocalNeo4j, env: dict[str, str], store: Store, workdir: Path, triples: int
) -> dict[str, Any]:
    files = [ntriples(workdir / f"chaos-{i}.nt", triples, f"i{i}") for i in range(4)]
    with serving(env) as (base, _):
        imports = [
            subprocess.Popen(
                [sys.executable, "-m", "tgneo.cli", "import", str(f), "--workspace", WORKSPACE,
                 "--collection", IMPORTS[i]],
                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
            )
            for i, f in enumerate(files)
        ]  # fmt: skip
        clients = Clients(base, 20)
        wait_for(lambda: clients.in_flight == 20 and all(p.poll() is None for p in imports), 60,
                 "20 open streams and 4 running imports")  # fmt: skip
        time.sleep(1.0)
        open_streams, running = clients.in_flight, sum(p.poll() is None for p in imports)
        console.print(f"stopping Neo4j under {open_streams} open streams and {running} running imports …")
        instance.stop()
        red = False
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not red:
            red = status(base, "/readyz") == 503
            time.sleep(0.2)
        time.sleep(3.0)
        console.print("starting Neo4j again …")
        instance.start(timeout=240)
        green = False
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not green:
            green = status(base, "/readyz") == 200
            time.sleep(0.2)
        stuck = clients.finish(STREAM_TIMEOUT + 60)
        results = clients.results
        hung = stuck + sum(not r.ended for r in results)
        codes = []
        for p in imports:
            try:
                p.wait(timeout=600)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
            codes.append(p.returncode)
    partial = 0
    for i, collection in enumerate(IMPORTS):
        recover(store, WORKSPACE, collection)
        count = statements(store, collection)
        whole = count == triples
        partial += not (whole or count == 0) or (codes[i] == 0 and not whole)
        console.print(f"  import {i}: exit {codes[i]}, {count} of {triples} statements after recovery")
    answered = sum(r.ok for r in results)
    console.print(f"  streams: {answered} answered, {sum(r.ended and not r.ok for r in results)} ended with an "
                  f"error, {hung} hung; /readyz red {red}, then green {green}")  # fmt: skip
    return {"hung": hung, "answered": answered, "partial": partial, "red_then_green": int(red and green),
            "streams": len(results), "open_at_stop": open_streams, "imports_running_at_stop": running,
            "imports_committed": sum(statements(store, c) == triples for c in IMPORTS)}  # fmt: skip


def kill_round(env: dict[str, str], store: Store) -> dict[str, Any]:
    with serving(env) as (base, process):
        clients = Clients(base, 6)
        wait_for(lambda: clients.in_flight == 6, 60, "6 open streams")
        time.sleep(0.5)
        console.print(f"SIGKILL to tgneo serve (master and workers) under {clients.in_flight} open streams …")
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        clients.finish(30)
    with serving(env) as (base, _):
        after = ask(base, COLLECTION, *ASKS[0], timeout=STREAM_TIMEOUT)
    console.print(f"  after the restart a question was answered: {after.ok}")
    return {"answered_after_restart": int(after.ok)}


def soak_round(env: dict[str, str], store: Store, seconds: float) -> dict[str, Any]:
    warmup = max(10.0, seconds * 0.1)
    window = min(60.0, seconds / 3)
    timings: list[tuple[float, float]] = []  # (finished, latency)
    asked: list[Asked] = []
    lock = threading.Lock()
    with serving(env) as (base, process):
        stop_at = time.monotonic() + warmup + seconds
        rss_warm: list[int] = []

        def client(n: int) -> None:
            i = n
            while time.monotonic() < stop_at:
                service, body = ASKS[i % len(ASKS)]
                started = time.monotonic()
                try:
                    result = ask(base, COLLECTION, service, body, timeout=STREAM_TIMEOUT)
                except requests.RequestException:
                    result = Asked()
                finished = time.monotonic()
                with lock:
                    if finished - (stop_at - seconds) >= 0:  # after the warm-up
                        timings.append((finished, finished - started))
                        asked.append(result)
                i += 2

        threads = [threading.Thread(target=client, args=(n,), daemon=True) for n in range(2)]
        for t in threads:
            t.start()
        time.sleep(warmup)
        rss_warm.append(server_rss(process.pid))
        console.print(f"soak: warmed up ({rss_warm[0] / 2**20:.0f} MiB), asking for {seconds:.0f} s …")
        for t in threads:
            t.join(timeout=seconds + warmup + STREAM_TIMEOUT)
        rss_end = server_rss(process.pid)
    begin = min(f for f, _ in timings)
    end = max(f for f, _ in timings)
    first = [lat for f, lat in timings if f <= begin + window]
    last = [lat for f, lat in timings if f >= end - window]
    lost_events = sum(lost(store, COLLECTION, a) for a in asked)
    failed = sum(not a.ok for a in asked)
    console.print(f"  {len(asked)} questions, {failed} failed, {lost_events} events lost; "
                  f"RSS {rss_warm[0] / 2**20:.0f} → {rss_end / 2**20:.0f} MiB")  # fmt: skip
    return {
        "questions": len(asked), "failed": failed, "lost": lost_events,
        "rss_growth": round(rss_end / rss_warm[0], 3), "p95_first_ms": pct([x * 1000 for x in first], 0.95),
        "p95_last_ms": pct([x * 1000 for x in last], 0.95),
    }  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="A 60 s soak and smaller imports.")
    parser.add_argument("--soak-seconds", type=float, help="How long the soak asks (600; 60 with --quick).")
    parser.add_argument("--rounds", default="restart,kill,soak", help="Which rounds, comma-separated.")
    args = parser.parse_args()
    rounds = set(args.rounds.split(","))
    home = default_home()
    instance, neo_env = neo4j(home)
    env = {**os.environ, **neo_env, "TGNEO_HOME": str(home)}
    with Store.from_settings(Settings.from_env(env), check_model=False) as old:
        migrate(old)  # the private instance may hold what an earlier tgneo wrote
    store = Store.from_settings(Settings.from_env(env))
    workdir = home / "chaos-work"
    workdir.mkdir(parents=True, exist_ok=True)
    absolute: dict[str, Any] = {}
    ratios: dict[str, Any] = {}
    try:
        clear(store)
        load_documents(store, OfflineLLM(), WORKSPACE, COLLECTION, sources())
        half = 0
        if "restart" in rounds:
            r = restart_round(instance, env, store, workdir, 20_000 if args.quick else 50_000)
            store.close()
            store = Store.from_settings(Settings.from_env(env))  # a fresh pool after the restart
            absolute["restart"] = r
            half += len(half_written(store, WORKSPACE))
            ratios |= {"chaos_hung_streams": r["hung"], "chaos_imports_partial": r["partial"],
                       "chaos_readyz_red_then_green": r["red_then_green"]}  # fmt: skip
        if "kill" in rounds:
            r = kill_round(env, store)
            absolute["kill"] = r
            half += len(half_written(store, WORKSPACE))
            ratios["chaos_answered_after_kill"] = r["answered_after_restart"]
        ratios["chaos_half_written"] = half
        if "soak" in rounds:
            r = soak_round(env, store, args.soak_seconds or (60.0 if args.quick else 600.0))
            absolute["soak"] = r
            ratios |= {"soak_lost_events": r["lost"], "soak_rss_growth": r["rss_growth"],
                       "soak_p95_drift": round(r["p95_last_ms"] / max(r["p95_first_ms"], 1e-9), 3)}  # fmt: skip
    finally:
        try:
            clear(store)
        except Exception as e:  # noqa: BLE001 - cleanup must not hide the result
            console.print(f"[yellow]cleanup failed: {e}[/]")
        store.close()
        instance.stop()
    for name in ("chaos_half_written", "chaos_hung_streams", "soak_rss_growth", "soak_p95_drift"):
        ratios.setdefault(name, None)  # the four the issue names come last, in its order
        ratios[name] = ratios.pop(name)
    print(json.dumps({"bench": "chaos", "quick": args.quick, "absolute": absolute, "ratios": ratios}))
    goals = {"chaos_half_written": 0, "chaos_hung_streams": 0, "chaos_imports_partial": 0, "soak_lost_events": 0}
    bad = [k for k, v in goals.items() if ratios.get(k) not in (None, v)]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
