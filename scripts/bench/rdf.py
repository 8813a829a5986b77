"""Benchmark the RDF bridge side by side in one run: import speed against rdflib-neo4j, and memory at two sizes.

    .venv/bin/python scripts/bench/rdf.py [--quick]

Against the Neo4j of ``NEO4J_URI`` (same server, same moment for both importers), with a generated
knowledge graph in N-Triples (labels with language tags, integers, doubles, dates, plain strings,
IRI links) of 1,000,000 triples (200,000 with ``--quick``) and a file a tenth that size:

* ``import_vs_rdflib_neo4j``: seconds rdflib-neo4j (Neo4j Labs' RDFLib store, PyPI ``rdflib-neo4j``,
  installed by ``pip install -e '.[bench]'``) takes to import the large file ÷ seconds ``tgneo import``
  takes. rdflib-neo4j MERGEs ``:Resource {uri}`` without a workspace, so its IRIs live under a host
  unique to this run, and the run adds a temporary index on ``:Resource(uri)`` (what its own docs
  ask for; a uniqueness constraint is impossible on a shared database) and drops it afterwards.
* ``import_memory_large_vs_small`` / ``export_memory_large_vs_small``: peak RSS of ``tgneo import`` /
  ``tgneo export`` (separate processes, ``ru_maxrss`` of the child) for the large file ÷ for the small.
* ``import_vs_statement_floor``: seconds ``tgneo import`` takes ÷ seconds of the bare statement floor
  below (goal ≤ 2: the import costs at most twice the writes its model cannot avoid).
* ``statement_floor_vs_rdflib_neo4j``: seconds rdflib-neo4j takes ÷ seconds Neo4j alone takes to
  ``CREATE`` one bare node per triple holding that triple's terms (what DESIGN §3 stores every triple
  as, minus its relationships, its indexes, parsing, checking and the journal: only the write calls are
  timed, two batches at once like ``tgneo import``). No import that keeps one node per triple can beat
  rdflib-neo4j by more than this on this server, so it is the ceiling for ``import_vs_rdflib_neo4j``.
* ``light_floor_vs_rdflib_neo4j``: the same for the lighter model rdflib-neo4j itself uses (literals as
  properties of their subject, IRI objects as relationships), kept lossless and scoped to a workspace:
  what a change of DESIGN §3 could hope for, again counting Neo4j's writes alone.

Every collection is ``bench-*`` and is deleted at the end. The last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
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


def statement_floor(path: Path, batch: int = 10_000, writers: int = 2) -> float:
    """Wall seconds of the ``CREATE`` calls alone for one unindexed node per triple of ``path`` (see the docstring).

    The file is parsed by pyoxigraph into memory before the clock starts; the nodes carry the properties
    a ``:Statement`` has (id, s, p, o, o_kind, o_datatype, o_lang, workspace, collection, graph) under a
    label no index covers; ``writers`` batches are written at once, as ``tgneo import`` does; the nodes
    are deleted afterwards.
    """
    import hashlib
    from concurrent.futures import ThreadPoolExecutor

    import pyoxigraph as ox

    driver, database = _driver()
    query = ("UNWIND $rows AS r CREATE (:BenchStatementFloor {workspace: $ws, collection: 'floor', id: r[0], s: r[1], "
             "p: r[2], o: r[3], o_kind: r[4], o_datatype: r[5], o_lang: r[6], graph: ''})")  # fmt: skip
    rows: list[list[str | None]] = []
    for q in ox.parse(path=str(path), format=ox.RdfFormat.N_TRIPLES):
        s, p, o = q.subject.value, q.predicate.value, q.object
        key = hashlib.sha256(f"{s} {p} {o}".encode()).hexdigest()[:32]
        if isinstance(o, ox.Literal):
            rows.append([key, s, p, o.value, "literal", o.datatype.value, o.language])
        else:
            rows.append([key, s, p, o.value, "iri", None, None])
    batches = [rows[i : i + batch] for i in range(0, len(rows), batch)]
    try:
        started = time.perf_counter()
        with ThreadPoolExecutor(max_workers=writers) as pool:
            list(pool.map(lambda b: driver.execute_query(query, rows=b, ws="bench-floor", database_=database), batches))
        return time.perf_counter() - started
    finally:
        with driver.session(database=database) as session:
            session.run("MATCH (n:BenchStatementFloor) CALL (n) { DELETE n } IN TRANSACTIONS OF 10000 ROWS").consume()
        driver.close()


def light_floor(path: Path, batch: int = 5_000, writers: int = 2) -> float:
    """Wall seconds of the write calls alone for the lighter model rdflib-neo4j uses, kept lossless and scoped.

    Each subject is one ``:Resource {workspace, collection, uri}`` (under tgneo's unique key) whose
    literal triples are list properties named by predicate IRI, each value the literal in N-Triples
    form (``"Entity 1"@en``: datatype and language kept); each IRI triple is one
    ``(:Resource)-[:TRIPLE {p}]->(:Resource)``. No journal, no provenance, no ``:Statement`` nodes. The
    file is parsed and grouped before the clock starts; ``writers`` batches go at once.
    """
    from concurrent.futures import ThreadPoolExecutor

    import pyoxigraph as ox

    driver, database = _driver()
    workspace = f"bench-light-{uuid.uuid4().hex[:8]}"
    subjects: dict[str, dict[str, list[str]]] = {}
    links: list[list[str]] = []
    for q in ox.parse(path=str(path), format=ox.RdfFormat.N_TRIPLES):
        s, p, o = q.subject.value, q.predicate.value, q.object
        if isinstance(o, ox.Literal):
            subjects.setdefault(s, {}).setdefault(p, []).append(str(o))
        else:
            subjects.setdefault(s, {})
            subjects.setdefault(o.value, {})
            links.append([s, p, o.value])
    nodes = [{"uri": uri, "props": props} for uri, props in sorted(subjects.items())]
    links.sort()
    node_query = ("UNWIND $rows AS r MERGE (n:Resource {workspace: $ws, collection: 'light', uri: r.uri}) "
                  "ON CREATE SET n.kind = 'iri', n.graph = '' SET n += r.props")  # fmt: skip
    link_query = ("UNWIND $rows AS l MATCH (a:Resource {workspace: $ws, collection: 'light', uri: l[0]}) "
                  "MATCH (b:Resource {workspace: $ws, collection: 'light', uri: l[2]}) "
                  "MERGE (a)-[:TRIPLE {p: l[1]}]->(b)")  # fmt: skip

    def phase(query: str, rows: list[Any]) -> None:
        chunks = [rows[i : i + batch] for i in range(0, len(rows), batch)]
        with ThreadPoolExecutor(max_workers=writers) as pool:
            list(pool.map(lambda c: driver.execute_query(query, rows=c, ws=workspace, database_=database), chunks))

    try:
        started = time.perf_counter()
        phase(node_query, nodes)
        phase(link_query, links)
        return time.perf_counter() - started
    finally:
        driver.close()
        drop(workspace)


def drop(workspace: str) -> None:
    driver, database = _driver()
    # statements first (three relationships each), so that no transaction deletes a predicate's
    # hundreds of thousands of relationships at once; then the resources, then anything left
    with driver.session(database=database) as session:
        for query in (
            "MATCH (n:Statement {workspace: $ws}) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS",
            "MATCH (n:Resource {workspace: $ws}) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 1000 ROWS",
            "MATCH (n {workspace: $ws}) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 1000 ROWS",
        ):
            session.run(query, ws=workspace).consume()
    driver.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="200k triples instead of 1M")
    args = parser.parse_args()
    large = 200_000 if args.quick else 1_000_000
    small = large // 10
    run = uuid.uuid4().hex[:8]
    host = f"bench-{run}.example"
    workspace = f"bench-rdf-{run}"
    env = {**os.environ}
    with tempfile.TemporaryDirectory(prefix="tgneo-bench-rdf-") as folder:
        big, little = Path(folder) / "large.nt", Path(folder) / "small.nt"
        generate(big, large, host)
        generate(little, small, host + "-small")
        try:
            import_small, rss_import_small = tgneo_timed(
                ["import", str(little), "--workspace", workspace, "--collection", "small"], env)  # fmt: skip
            import_large, rss_import_large = tgneo_timed(
                ["import", str(big), "--workspace", workspace, "--collection", "large"], env)  # fmt: skip
            print(f"tgneo import: {large} triples in {import_large:.1f}s ({large / import_large:,.0f} triples/s), "
                  f"peak RSS {rss_import_large / 1024:.0f} MiB; {small} in {import_small:.1f}s, "
                  f"{rss_import_small / 1024:.0f} MiB", flush=True)  # fmt: skip
            out = Path(folder) / "out.nt"
            export_args = ["export", "--workspace", workspace, "--format", "nt", "-o", str(out), "--collection"]
            export_small, rss_export_small = tgneo_timed([*export_args, "small"], env)
            export_large, rss_export_large = tgneo_timed([*export_args, "large"], env)
            print(f"tgneo export: {large} triples in {export_large:.1f}s ({large / export_large:,.0f} triples/s), "
                  f"peak RSS {rss_export_large / 1024:.0f} MiB; {small} in {export_small:.1f}s, "
                  f"{rss_export_small / 1024:.0f} MiB", flush=True)  # fmt: skip
            baseline = rdflib_neo4j_import(big, host)
            print(f"rdflib-neo4j import: {large} triples in {baseline:.1f}s ({large / baseline:,.0f} triples/s)",
                  flush=True)  # fmt: skip
            floor = statement_floor(big)
            print(f"one bare node per triple (CREATE calls alone): {large} in {floor:.1f}s "
                  f"({large / floor:,.0f} nodes/s)", flush=True)  # fmt: skip
            light = light_floor(big)
            print(f"lighter model (literals as properties, links as relationships; writes alone): {large} in "
                  f"{light:.1f}s ({large / light:,.0f} triples/s)", flush=True)  # fmt: skip
        finally:
            drop(workspace)
    figures = {
        "import_vs_rdflib_neo4j": round(baseline / import_large, 3),
        "import_memory_large_vs_small": round(rss_import_large / rss_import_small, 3),
        "export_memory_large_vs_small": round(rss_export_large / rss_export_small, 3),
        "import_vs_statement_floor": round(import_large / floor, 3),
        "statement_floor_vs_rdflib_neo4j": round(baseline / floor, 3),
        "light_floor_vs_rdflib_neo4j": round(baseline / light, 3),
    }
    rates = {
        "triples": large,
        "tgneo_import_triples_per_s": round(large / import_large),
        "tgneo_export_triples_per_s": round(large / export_large),
        "rdflib_neo4j_import_triples_per_s": round(large / baseline),
        "statement_floor_nodes_per_s": round(large / floor),
        "light_floor_triples_per_s": round(large / light),
        "import_peak_rss_mib": round(rss_import_large / 1024),
        "export_peak_rss_mib": round(rss_export_large / 1024),
    }
    print(json.dumps({"bench": "rdf", "ratios": figures, "figures": rates}))


if __name__ == "__main__":
    main()
