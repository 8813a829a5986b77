"""Benchmark the RDF bridge side by side in one run: import speed against rdflib-neo4j and the floor, memory.

    .venv/bin/python scripts/bench/rdf.py [--quick] [--before CHECKOUT]

Against the Neo4j of ``NEO4J_URI`` (same server, same moment for every importer), with a generated
knowledge graph in N-Triples (labels with language tags, integers, doubles, dates, plain strings,
IRI links) of 1,000,000 triples (200,000 with ``--quick``) and a file a tenth that size:

* ``import_vs_rdflib_neo4j``: seconds rdflib-neo4j (Neo4j Labs' RDFLib store, PyPI ``rdflib-neo4j``,
  installed by ``pip install -e '.[bench]'``) takes to import the large file ÷ seconds tgneo's import
  (:func:`tgneo.store.rdf_import.import_file`, the CLI's batch size) takes, both in this process, as a
  Python user calls either; the two alternate three times and their medians are compared. rdflib-neo4j
  MERGEs ``:Resource {uri}`` without a workspace, so its IRIs live under a host unique to this run and
  its nodes are deleted after each of its imports (so each one starts from nothing, as tgneo's does); the
  bench adds a temporary index on ``:Resource(uri)`` (what its own docs ask for; a uniqueness
  constraint is impossible on a shared database) and drops it.
  ``cli_import_vs_rdflib_neo4j`` is the same for one ``tgneo import`` command (its start-up included).
* ``import_vs_light_floor``: tgneo's import ÷ Neo4j's writes alone of the same native graph: the
  file parsed and shaped before the clock starts (tgneo's own naming rule and values), then each
  resource MERGEd under tgneo's key with its literal properties, and each IRI triple a typed
  relationship with its ``iri`` and ``id``, two batches at once; no journal, undo records, prefixes,
  checks or reading. What the import adds to the writes its model cannot avoid (goal ≤ 1.5).
  ``light_floor_vs_rdflib_neo4j`` puts that floor beside rdflib-neo4j.
* ``import_memory_large_vs_small`` / ``export_memory_large_vs_small``: peak RSS of ``tgneo import`` /
  ``tgneo export`` (separate processes, ``ru_maxrss`` of the child) for the large file ÷ for the small.
* ``nodes_rels_per_triple``: nodes + relationships stored per triple of the large file (every
  ``:Tgneo`` node of its collection, journal and prefixes included). With ``--before CHECKOUT`` (a
  checkout of an earlier tgneo, see ``before.py``), that tgneo imports the same file on a private
  server of its own, and ``nodes_rels_per_triple_before`` and its import time are printed too.

Everything the run writes is deleted at the end: its collections, rdflib-neo4j's nodes and index,
the floor's collection. The last line is JSON with every figure.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from before import Before  # scripts/bench/before.py
from cleanup import drop_collections  # scripts/bench/cleanup.py

ROOT = Path(__file__).resolve().parents[2]
ROUNDS = 3
"""rdflib-neo4j's and tgneo's in-process imports of the large file alternate this many times; medians compared."""
XSD = "http://www.w3.org/2001/XMLSchema#"


def generate(path: Path, triples: int, host: str) -> None:
    """A knowledge graph: ~6 triples per entity, several datatypes and language tags."""
    entities = max(1, triples // 6)
    with open(path, "w", encoding="utf-8") as out:
        n = 0
        i = 0
        while n < triples:
            s = f"<http://{host}/e/{i}>"
            lines = [
                f'{s} <http://www.w3.org/2000/01/rdf-schema#label> "Entity {i}"@en .\n',
                f'{s} <http://www.w3.org/2000/01/rdf-schema#label> "Entité {i}"@fr .\n',
                f'{s} <http://{host}/p/age> "{i % 97}"^^<{XSD}integer> .\n',
                f'{s} <http://{host}/p/weight> "{(i % 1000) / 7:.3f}"^^<{XSD}double> .\n',
                f'{s} <http://{host}/p/born> "19{i % 90 + 10}-0{i % 9 + 1}-1{i % 9}"^^<{XSD}date> .\n',
                f"{s} <http://{host}/p/knows> <http://{host}/e/{(i * 7919) % entities}> .\n",
            ]
            for line in lines[: triples - n]:
                out.write(line)
            n += len(lines[: triples - n])
            i += 1


def tgneo_timed(args: list[str], env: dict[str, str]) -> tuple[float, int]:
    """Seconds and peak RSS (KiB) of one tgneo command, measured with wait4 on that child alone."""
    started = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "tgneo.cli", *args], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)  # fmt: skip
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - started
    err = proc.stderr.read().decode() if proc.stderr else ""
    if status != 0:
        raise SystemExit(f"tgneo {' '.join(args)} failed: {err[-2000:]}")
    return seconds, usage.ru_maxrss


def rdflib_neo4j_import(path: Path, host: str) -> float:
    """Seconds for rdflib-neo4j to import ``path`` (batched, its defaults)."""
    from neo4j import GraphDatabase
    from rdflib import Graph
    from rdflib_neo4j import HANDLE_VOCAB_URI_STRATEGY, Neo4jStore, Neo4jStoreConfig

    auth = {"uri": os.environ["NEO4J_URI"], "database": os.environ.get("NEO4J_DATABASE", "neo4j"),
            "user": os.environ.get("NEO4J_USERNAME", "neo4j"), "pwd": os.environ["NEO4J_PASSWORD"]}  # fmt: skip
    driver = GraphDatabase.driver(auth["uri"], auth=(auth["user"], auth["pwd"]))
    try:
        driver.execute_query("CREATE INDEX bench_rdflib_neo4j_uri IF NOT EXISTS FOR (n:Resource) ON (n.uri)")
        driver.execute_query("CALL db.awaitIndexes(300)")
        config = Neo4jStoreConfig(auth_data=auth, handle_vocab_uri_strategy=HANDLE_VOCAB_URI_STRATEGY.IGNORE,
                                  batching=True)  # fmt: skip
        started = time.perf_counter()
        graph = Graph(store=Neo4jStore(config=config))
        graph.parse(str(path), format="nt")
        graph.close(True)
        return time.perf_counter() - started
    finally:
        with driver.session(database=auth["database"]) as session:
            session.run(
                "MATCH (n:Resource) WHERE n.uri STARTS WITH $prefix AND n.workspace IS NULL "
                "CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS",
                prefix=f"http://{host}/",
            ).consume()
        driver.execute_query("DROP INDEX bench_rdflib_neo4j_uri IF EXISTS")
        driver.close()


def _driver() -> tuple[Any, str]:
    """A driver for the Neo4j of ``NEO4J_*``, and the database to use."""
    from neo4j import GraphDatabase

    auth = (os.environ.get("NEO4J_USERNAME", "neo4j"), os.environ["NEO4J_PASSWORD"])
    return GraphDatabase.driver(os.environ["NEO4J_URI"], auth=auth), os.environ.get("NEO4J_DATABASE", "neo4j")


def tgneo_in_process(path: Path, workspace: str, collection: str) -> float:
    """Seconds for tgneo's import of ``path``, called in this process as rdflib-neo4j is (the CLI's batch size)."""
    from tgneo.rdf.formats import get_format
    from tgneo.store import Store, install_schema
    from tgneo.store.rdf_import import import_file

    with Store.from_settings() as store:
        install_schema(store)
        started = time.perf_counter()
        import_file(store, workspace, collection, path, get_format("nt"), batch_size=5_000)
        return time.perf_counter() - started


def native_rows(path: Path) -> tuple[list[list[Any]], dict[str, list[list[str]]]]:
    """The large file shaped as tgneo stores it: ``[uri, literal map]`` per resource (sorted) and
    ``[subject, object, predicate IRI, id]`` per IRI triple, by relationship type (tgneo's rule and values)."""
    import pyoxigraph as ox

    from tgneo.native import Namespaces, sidecar, stored_value

    names = Namespaces()
    values: dict[str, dict[str, list[tuple[Any, str]]]] = {}
    links: dict[str, list[list[str]]] = {}
    plain = {f"{XSD}string", "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString"}
    for q in ox.parse(path=str(path), format=ox.RdfFormat.N_TRIPLES):
        s, p, o = q.subject.value, q.predicate.value, q.object
        node = values.setdefault(s, {})
        if isinstance(o, ox.Literal):
            datatype = None if o.datatype.value in plain else o.datatype.value
            node.setdefault(names.property_key(p), []).append(stored_value(o.value, o.language, datatype))
        else:
            values.setdefault(o.value, {})
            key = hashlib.sha256(f"<{s}> <{p}> <{o.value}> .".encode()).hexdigest()
            links.setdefault(names.relationship_type(p), []).append([s, o.value, p, key])
    resources: list[list[Any]] = []
    for uri, keyed in sorted(values.items()):
        props: dict[str, Any] = {}
        for key, pairs in keyed.items():
            props[key] = pairs[0][0] if len(pairs) == 1 else [v for v, _ in pairs]
            if any(tag for _, tag in pairs):
                props[sidecar(key)] = [tag for _, tag in pairs]
        resources.append([uri, props])
    return resources, {kind: sorted(rows) for kind, rows in links.items()}


def light_floor(path: Path, workspace: str, batch: int = 5_000, writers: int = 2) -> float:
    """Wall seconds of Neo4j's writes alone for the native graph of ``path`` (see the module docstring)."""
    from concurrent.futures import ThreadPoolExecutor

    resources, links = native_rows(path)
    driver, database = _driver()
    node_query = ("UNWIND $rows AS r MERGE (n:Tgneo:TgResource {workspace: $ws, collection: 'floor', uri: r[0]}) "
                  "ON CREATE SET n.kind = 'iri', n.graph = '', n += r[1]")  # fmt: skip

    def link_query(kind: str) -> str:
        return ("UNWIND $rows AS l MATCH (a:TgResource {workspace: $ws, collection: 'floor', uri: l[0]}) "
                "MATCH (b:TgResource {workspace: $ws, collection: 'floor', uri: l[1]}) "
                f"MERGE (a)-[x:`{kind}`]->(b) "
                "ON CREATE SET x.iri = l[2], x.id = l[3], x.workspace = $ws, x.collection = 'floor'")  # fmt: skip

    def phase(query: str, rows: list[Any]) -> None:
        chunks = [rows[i : i + batch] for i in range(0, len(rows), batch)]
        with ThreadPoolExecutor(max_workers=writers) as pool:
            list(pool.map(lambda c: driver.execute_query(query, rows=c, ws=workspace, database_=database), chunks))

    try:
        started = time.perf_counter()
        phase(node_query, resources)
        for kind, rows in links.items():
            phase(link_query(kind), rows)
        return time.perf_counter() - started
    finally:
        driver.close()


def stored_per_triple(workspace: str, collection: str, triples: int) -> float:
    """Nodes + relationships tgneo stores for ``collection`` ÷ ``triples``."""
    driver, database = _driver()
    try:
        nodes = driver.execute_query("MATCH (n:Tgneo {workspace: $w, collection: $c}) RETURN count(n) AS n",
                                     w=workspace, c=collection, database_=database).records[0]["n"]  # fmt: skip
        rels = driver.execute_query("MATCH (:Tgneo {workspace: $w, collection: $c})-[r]->() RETURN count(r) AS n",
                                    w=workspace, c=collection, database_=database).records[0]["n"]  # fmt: skip
    finally:
        driver.close()
    return float(nodes + rels) / triples


def before_import(before: Before, path: Path, workspace: str, triples: int) -> tuple[float, float]:
    """Seconds for the earlier tgneo to import ``path`` on its own server, and nodes + relationships per triple
    it stored; what it wrote is deleted afterwards (its statements first, then the rest)."""
    command = ["-m", "tgneo.cli", "import", str(path), "--workspace", workspace, "--collection", "before"]
    seconds, _ = before.run(command)
    nodes = before.query("MATCH (n {workspace: $w, collection: 'before'}) RETURN count(n) AS n", w=workspace)[0]["n"]
    rels = before.query("MATCH ({workspace: $w, collection: 'before'})-[r]->() RETURN count(r) AS n", w=workspace)
    for label, rows in (("Statement", 5000), ("Resource", 1000)):
        delete = f"CALL (n) {{ DETACH DELETE n }} IN TRANSACTIONS OF {rows} ROWS"
        before.query(f"MATCH (n:{label} {{workspace: $w}}) {delete}", w=workspace)
    before.query("MATCH (n {workspace: $w}) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 1000 ROWS", w=workspace)
    return seconds, (nodes + rels[0]["n"]) / triples


def drop(workspace: str, collections: list[str]) -> None:
    driver, database = _driver()
    with driver.session(database=database) as session:
        drop_collections(session, workspace, collections)
    driver.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="200k triples instead of 1M")
    parser.add_argument("--before", type=Path, metavar="CHECKOUT",
                        help="a checkout of an earlier tgneo (before.py): it imports the same file")  # fmt: skip
    args = parser.parse_args()
    large = 200_000 if args.quick else 1_000_000
    small = large // 10
    run = uuid.uuid4().hex[:8]
    host = f"bench-{run}.example"
    workspace = f"bench-rdf-{run}"
    env = {**os.environ}
    figures: dict[str, Any] = {"triples": large}
    with tempfile.TemporaryDirectory(prefix="tgneo-bench-rdf-") as folder:
        big, little = Path(folder) / "large.nt", Path(folder) / "small.nt"
        generate(big, large, host)
        generate(little, small, host + "-small")
        try:
            import_small, rss_import_small = tgneo_timed(
                ["import", str(little), "--workspace", workspace, "--collection", "small"], env)  # fmt: skip
            cli_large, rss_import_large = tgneo_timed(
                ["import", str(big), "--workspace", workspace, "--collection", "large"], env)  # fmt: skip
            print(f"tgneo import (command): {large} triples in {cli_large:.1f}s ({large / cli_large:,.0f} triples/s), "
                  f"peak RSS {rss_import_large / 1024:.0f} MiB; {small} in {import_small:.1f}s, "
                  f"{rss_import_small / 1024:.0f} MiB", flush=True)  # fmt: skip
            per_triple = stored_per_triple(workspace, "large", large)
            print(f"stored: {per_triple:.2f} nodes + relationships per triple", flush=True)
            out = Path(folder) / "out.nt"
            export_args = ["export", "--workspace", workspace, "--format", "nt", "-o", str(out), "--collection"]
            export_small, rss_export_small = tgneo_timed([*export_args, "small"], env)
            export_large, rss_export_large = tgneo_timed([*export_args, "large"], env)
            print(f"tgneo export: {large} triples in {export_large:.1f}s ({large / export_large:,.0f} triples/s), "
                  f"peak RSS {rss_export_large / 1024:.0f} MiB; {small} in {export_small:.1f}s, "
                  f"{rss_export_small / 1024:.0f} MiB", flush=True)  # fmt: skip
            baselines: list[float] = []
            runs: list[float] = []
            for round_ in range(ROUNDS):  # interleaved, each its own server state; medians compared
                baselines.append(rdflib_neo4j_import(big, host))  # its nodes are deleted after each run
                runs.append(tgneo_in_process(big, workspace, f"in-process-{round_}"))
                drop(workspace, [f"in-process-{round_}"])
                print(f"round {round_ + 1}: rdflib-neo4j {baselines[-1]:.2f}s, tgneo {runs[-1]:.2f}s", flush=True)
            baseline, in_process = statistics.median(baselines), statistics.median(runs)
            print(f"rdflib-neo4j import: {large} triples in {baseline:.1f}s ({large / baseline:,.0f} triples/s)",
                  flush=True)  # fmt: skip
            print(f"tgneo import (in process): {large} triples in {in_process:.1f}s "
                  f"({large / in_process:,.0f} triples/s)", flush=True)  # fmt: skip
            light = light_floor(big, workspace)
            print(f"native graph, Neo4j's writes alone: {large} in {light:.1f}s ({large / light:,.0f} triples/s)",
                  flush=True)  # fmt: skip
        finally:
            drop(workspace, ["small", "large", *(f"in-process-{r}" for r in range(ROUNDS)), "floor"])
        figures |= {
            "import_vs_rdflib_neo4j": round(baseline / in_process, 3),
            "cli_import_vs_rdflib_neo4j": round(baseline / cli_large, 3),
            "import_vs_light_floor": round(in_process / light, 3),
            "light_floor_vs_rdflib_neo4j": round(baseline / light, 3),
            "import_memory_large_vs_small": round(rss_import_large / rss_import_small, 3),
            "export_memory_large_vs_small": round(rss_export_large / rss_export_small, 3),
            "nodes_rels_per_triple": round(per_triple, 3),
            "tgneo_import_s": round(in_process, 2),
            "tgneo_cli_import_s": round(cli_large, 2),
            "rdflib_neo4j_import_s": round(baseline, 2),
            "light_floor_s": round(light, 2),
            "tgneo_export_s": round(export_large, 2),
            "import_peak_rss_mib": round(rss_import_large / 1024),
            "export_peak_rss_mib": round(rss_export_large / 1024),
        }
        if args.before is not None:
            with Before(args.before) as before:
                old_seconds, old_per_triple = before_import(before, big, workspace, large)
            print(f"before ({before.commit}): import {large} triples in {old_seconds:.1f}s (command, own server), "
                  f"{old_per_triple:.2f} nodes + relationships per triple", flush=True)  # fmt: skip
            figures |= {"before_commit": before.commit, "before_cli_import_s": round(old_seconds, 2),
                        "nodes_rels_per_triple_before": round(old_per_triple, 3)}  # fmt: skip
    for name in ("import_vs_rdflib_neo4j", "import_vs_light_floor", "cli_import_vs_rdflib_neo4j",
                 "light_floor_vs_rdflib_neo4j", "import_memory_large_vs_small", "nodes_rels_per_triple"):  # fmt: skip
        print(f"{name:30} {figures[name]:>8}")
    print(json.dumps({"bench": "rdf", "quick": args.quick, "figures": figures}))


if __name__ == "__main__":
    main()
