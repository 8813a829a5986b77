#!/usr/bin/env python3
"""How a Subgraph should hold the facts extracted from its chunk: measured, side by side, in one run.

TrustGraph 2.11 keeps one Subgraph per chunk that ``tg:contains`` each fact extracted from it. In
tgneo's native graph a fact is a typed relationship, so membership can be stored two ways:

* ``list``: a ``CONTAINS`` relationship from the subgraph to each fact's subject holding the facts as
  a list (their N-Triples spellings) and the evidence spans as aligned lists;
* ``reified``: one reified edge node per fact (``id`` its hash; ``s``, ``p``, ``o``), MERGEd under a
  key, with ``SUBJECT``/``OBJECT`` relationships to its nodes and a ``CONTAINS`` (with the evidence
  span) from the subgraph: what tgneo writes;
* ``reified_lite``: the same without ``SUBJECT``/``OBJECT``;
* ``none``: the knowledge graph and subgraph nodes alone, the base all three add to.

Each form writes the same generated documents (``--documents``, 16 chunks of 10 facts each, 7 of them
IRI-valued), one transaction per document as ``tgneo load`` does, under labels and constraints of
this bench's own (``BenchMember…``, ``bench_member_…``), three rounds interleaved; the median of the
rounds is reported. Then, for ``list`` and ``reified``, one query finds where each IRI-valued fact was
extracted (its subgraph and evidence span), as attribution and evidence-scored Focus ask for a selected
edge, and is timed. Everything it creates, constraints included, is removed at the end. Needs
``NEO4J_*`` or the local ``tgneo db`` server. The last line is JSON.

    python scripts/bench/membership.py
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import statistics
import time
import uuid
from typing import Any

from tgneo.store import Store

E = "http://trustgraph.ai/e/"
RELATIONS = ("discovered", "born-in", "won", "worked-with", "named-after")
CONSTRAINTS = (
    "CREATE CONSTRAINT bench_member_resource IF NOT EXISTS FOR (n:BenchMemberResource) "
    "REQUIRE (n.workspace, n.uri) IS UNIQUE",
    "CREATE CONSTRAINT bench_member_statement IF NOT EXISTS FOR (n:BenchMemberStatement) "
    "REQUIRE (n.workspace, n.id) IS UNIQUE",
)
ENTITIES = "UNWIND $ents AS u MERGE (n:BenchMemberResource {workspace: $ws, uri: u}) ON CREATE SET n.name = u"
SUBGRAPHS = "UNWIND $sgs AS u CREATE (:BenchMemberResource {workspace: $ws, uri: u, graph: 'urn:graph:source'})"
FACTS = (
    "UNWIND $rels AS r MATCH (a:BenchMemberResource {workspace: $ws, uri: r.s}) "
    "MATCH (b:BenchMemberResource {workspace: $ws, uri: r.o}) "
    "MERGE (a)-[x:$(r.type)]->(b) ON CREATE SET x.id = r.id, x.iri = r.p, x.workspace = $ws"
)
LITERALS = "UNWIND $lits AS r MATCH (a:BenchMemberResource {workspace: $ws, uri: r.s}) SET a[r.k] = r.v"
REIFIED = """UNWIND $members AS m
MERGE (st:BenchMemberStatement {workspace: $ws, id: m.id})
ON CREATE SET st.s = m.s, st.p = m.p, st.o = m.o, st.o_kind = m.kind, st.new = true
WITH st, m
CALL (st, m) {
  WITH st, m WHERE st.new REMOVE st.new WITH st, m
  MATCH (a:BenchMemberResource {workspace: $ws, uri: m.s}) CREATE (st)-[:SUBJECT]->(a)
  WITH st, m WHERE m.kind = 'iri'
  MATCH (b:BenchMemberResource {workspace: $ws, uri: m.o}) CREATE (st)-[:OBJECT]->(b)
}
WITH st, m MATCH (sg:BenchMemberResource {workspace: $ws, uri: m.sg})
CREATE (sg)-[:CONTAINS {sourceCharOffset: m.off, sourceCharLength: m.len}]->(st)"""
REIFIED_LITE = """UNWIND $members AS m
MERGE (st:BenchMemberStatement {workspace: $ws, id: m.id})
ON CREATE SET st.s = m.s, st.p = m.p, st.o = m.o, st.o_kind = m.kind
WITH st, m MATCH (sg:BenchMemberResource {workspace: $ws, uri: m.sg})
CREATE (sg)-[:CONTAINS {sourceCharOffset: m.off, sourceCharLength: m.len}]->(st)"""
LIST = """UNWIND $groups AS g
MATCH (sg:BenchMemberResource {workspace: $ws, uri: g.sg}) MATCH (a:BenchMemberResource {workspace: $ws, uri: g.s})
CREATE (sg)-[:CONTAINS {members: g.members, sourceCharOffset: g.offs, sourceCharLength: g.lens}]->(a)"""
FORMS = {"none": None, "list": LIST, "reified_lite": REIFIED_LITE, "reified": REIFIED}
READS = {  # where each selected edge was extracted: what attribution and evidence-scored Focus ask (the hints:
    # the planner's statistics lag behind a label just filled, and it would scan the index per row)
    "list": """UNWIND $edges AS e
MATCH (a:BenchMemberResource {workspace: $ws, uri: e.s})
USING INDEX SEEK a:BenchMemberResource(workspace, uri)
MATCH (a)<-[c:CONTAINS]-(sg)
WITH e, sg, c, [i IN range(0, size(c.members) - 1) WHERE c.members[i] = e.member] AS at WHERE size(at) > 0
RETURN count(DISTINCT e.id) AS n, collect([sg.uri, c.sourceCharOffset[at[0]]])[0] AS sample""",
    "reified": """UNWIND $edges AS e
WITH e.id AS id
MATCH (st:BenchMemberStatement {workspace: $ws, id: id})
USING INDEX SEEK st:BenchMemberStatement(workspace, id)
MATCH (st)<-[c:CONTAINS]-(sg)
RETURN count(DISTINCT id) AS n, collect([sg.uri, c.sourceCharOffset])[0] AS sample""",
}


def document(n: int) -> dict[str, list[Any]]:
    """The rows of one generated document: 60 entities, 16 chunk subgraphs of 10 facts, in every form."""
    rnd = random.Random(n)
    ents = [f"{E}ent-{n}-{i}" for i in range(60)]
    rels: dict[str, dict[str, str]] = {}
    lits: list[dict[str, str]] = []
    members: list[dict[str, Any]] = []
    groups: dict[tuple[str, str], dict[str, Any]] = {}
    sgs = [f"urn:sg:{n}:{c}" for c in range(16)]
    for sg in sgs:
        for f in range(10):
            s, p = rnd.choice(ents), rnd.choice(RELATIONS)
            o, lit = (rnd.choice(ents), None) if f < 7 else (None, str(rnd.randint(1800, 1950)))
            key = hashlib.sha256(f"{s} {p} {o or lit}".encode()).hexdigest()
            if o:
                rels[key] = {"s": s, "o": o, "p": E + p, "type": p.upper().replace("-", "_"), "id": key}
            else:
                lits.append({"s": s, "k": p.replace("-", "_"), "v": lit or ""})
            members.append({"id": key, "s": s, "p": E + p, "o": o or lit, "kind": "iri" if o else "literal",
                            "sg": sg, "off": 3, "len": 40})  # fmt: skip
            group = groups.setdefault((sg, s), {"sg": sg, "s": s, "members": [], "offs": [], "lens": []})
            group["members"].append(f"<{E}{p}> " + (f"<{o}>" if o else f'"{lit}"'))
            group["offs"].append(3)
            group["lens"].append(40)
    return {"ents": ents, "sgs": sgs, "rels": list(rels.values()), "lits": lits, "members": members,
            "groups": list(groups.values())}  # fmt: skip


def write(store: Store, form: str, docs: range) -> tuple[float, float | None]:
    """Seconds to write ``docs`` in ``form``, one transaction each (the rows are built before the clock), and
    seconds to read back where every IRI-valued fact was extracted (subgraph and evidence span), in one query."""
    workspace = f"bench-member-{form}-{uuid.uuid4().hex[:6]}"
    rows = [document(n) for n in docs]
    extra = FORMS[form]
    try:
        started = time.perf_counter()
        for r in rows:

            def work(tx: Any, r: dict[str, list[Any]] = r) -> None:
                for query in (ENTITIES, SUBGRAPHS, FACTS, LITERALS, *([extra] if extra else [])):
                    tx.run(query, ws=workspace, **r).consume()

            with store.driver.session(database=store.database) as session:
                session.execute_write(work)
        seconds = time.perf_counter() - started
        reading: float | None = None
        if form in READS:
            edges = {m["id"]: m for r in rows for m in r["members"] if m["kind"] == "iri"}.values()
            asked = [{"id": m["id"], "s": m["s"], "member": f"<{m['p']}> <{m['o']}>"} for m in edges]
            started = time.perf_counter()
            found = store.driver.execute_query(READS[form], edges=asked, ws=workspace, database_=store.database)
            reading = time.perf_counter() - started
            if found.records[0]["n"] < len(asked):
                raise SystemExit(f"{form}: found the sources of {found.records[0]['n']} of {len(asked)} facts")
    finally:  # whatever happened, the bench leaves nothing behind
        with store.driver.session(database=store.database) as session:
            session.run("MATCH (n:BenchMemberStatement {workspace: $ws}) CALL (n) { DETACH DELETE n } "
                        "IN TRANSACTIONS OF 5000 ROWS", ws=workspace).consume()  # fmt: skip
            session.run("MATCH (n:BenchMemberResource {workspace: $ws}) CALL (n) { DETACH DELETE n } "
                        "IN TRANSACTIONS OF 1000 ROWS", ws=workspace).consume()  # fmt: skip
    return seconds, reading


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--documents", type=int, default=40, help="documents per form and round")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    seconds: dict[str, list[float]] = {form: [] for form in FORMS}
    reads: dict[str, list[float]] = {form: [] for form in READS}
    with Store.from_settings() as store:
        try:
            for statement in CONSTRAINTS:
                store.driver.execute_query(statement, database_=store.database)
            store.driver.execute_query("CALL db.awaitIndexes(120)", database_=store.database)
            for round_ in range(args.rounds):
                for form in FORMS:
                    first = round_ * 1000
                    written, took = write(store, form, range(first, first + args.documents))
                    seconds[form].append(written)
                    if took is not None:
                        reads[form].append(took)
                print(f"round {round_ + 1}: " + ", ".join(f"{f} {s[-1]:.2f}s" for f, s in seconds.items()), flush=True)
        finally:
            for name in ("bench_member_resource", "bench_member_statement"):
                store.driver.execute_query(f"DROP CONSTRAINT {name} IF EXISTS", database_=store.database)
    median = {form: round(statistics.median(s), 3) for form, s in seconds.items()}
    read = {form: round(statistics.median(s), 3) for form, s in reads.items()}
    figures = (
        {f"{form}_s": value for form, value in median.items()}
        | {f"{form}_read_s": value for form, value in read.items()}
        | {
            "facts": args.documents * 160,
            "list_vs_reified": round(median["list"] / median["reified"], 3),
            "reified_lite_vs_reified": round(median["reified_lite"] / median["reified"], 3),
            "list_vs_reified_read": round(read["list"] / read["reified"], 3),
        }
    )
    for form, value in median.items():
        print(f"{form:14} write {value:>6.2f}s" + (f"   read {read[form]:>6.3f}s" if form in read else ""))
    print(json.dumps({"bench": "membership", "figures": figures}))


if __name__ == "__main__":
    main()
