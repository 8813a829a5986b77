"""Sixteen writers at once, all selecting the same 25 edges: no write fails, nothing is duplicated.

Deadlocks between transactions that lock shared statement nodes are transient; tgneo takes its locks
in a deterministic order and retries what Neo4j says is transient, so a caller never sees one.
"""

from __future__ import annotations

import random
import uuid
from concurrent.futures import ThreadPoolExecutor

from rdflib.term import URIRef

from tgneo import uris
from tgneo.explain import entities as ent
from tgneo.explain.recorder import Recorder
from tgneo.rdf.terms import Quad, QuotedTriple
from tgneo.store import Store
from tgneo.store.rdf_import import import_quads

EX = "http://example.org/shared/"
SHARED = [QuotedTriple(URIRef(f"{EX}s{i}"), URIRef(f"{EX}p{i % 3}"), URIRef(f"{EX}o{i}")) for i in range(25)]
WRITERS = 16


def session(n: int) -> list[ent.Entity]:
    """A GraphRAG session whose Focus selects all 25 shared edges, in an order of its own."""
    sid = str(uuid.UUID(int=random.Random(n).getrandbits(128)))
    edges = SHARED[:]
    random.Random(n).shuffle(edges)
    q = ent.GraphRagQuestion(uri=uris.question_uri(sid), query=f"question {n}")
    g = ent.Grounding(uri=uris.grounding_uri(sid), question=q.uri, concepts=("shared",))
    x = ent.Exploration(uri=uris.exploration_uri(sid), grounding=g.uri, edge_count=25, entities=(f"{EX}s{n % 25}",))
    f = ent.Focus(uri=uris.focus_uri(sid), exploration=x.uri, session_id=sid,
                  edges=tuple(ent.EdgeSelection(edge=e, score=0.5, reasoning="shared") for e in edges))  # fmt: skip
    s = ent.Synthesis(uri=uris.synthesis_uri(sid), focus=f.uri, document=uris.graphrag_answer_uri(sid))
    return [q, g, x, f, s]


def totals(store: Store, collection: str) -> dict[str, int]:
    with store.driver.session(database=store.database) as db:
        record = db.run(
            """
            CALL () { MATCH (n:Focus {collection: $c}) RETURN count(n) AS focus }
            CALL () { MATCH (n:Synthesis {collection: $c}) RETURN count(n) AS synthesis }
            CALL () { MATCH (n:EdgeSelection {collection: $c}) RETURN count(n) AS selections }
            CALL () { MATCH (n:TgStatement {collection: $c}) RETURN count(n) AS statements }
            CALL () { MATCH (:EdgeSelection {collection: $c})-[r:EDGE]->() RETURN count(r) AS edge_links }
            CALL () { MATCH (:TgStatement {collection: $c})-[r:SUBJECT]->() RETURN count(r) AS subject_links }
            RETURN focus, synthesis, selections, statements, edge_links, subject_links
            """,
            c=collection,
        ).single()
    assert record is not None
    return dict(record)


def test_sixteen_recorders_selecting_the_same_edges_lose_no_step(store: Store, collection: str) -> None:
    sessions = 400
    recorder = Recorder(store, "w", collection)

    def run(n: int) -> int:
        for step in session(n):
            recorder.record(step)
        return n

    with ThreadPoolExecutor(WRITERS) as pool:
        done = list(pool.map(run, range(sessions)))  # re-raises the first failure, if any
    assert len(done) == sessions
    assert totals(store, collection) == {
        "focus": sessions, "synthesis": sessions, "selections": sessions * 25, "statements": 25,
        "edge_links": sessions * 25, "subject_links": 25,
    }  # fmt: skip


def test_sixteen_concurrent_imports_of_shared_edges_lose_nothing(store: Store, collection: str) -> None:
    per_import = 25

    def run(i: int) -> int:
        quads: list[Quad] = [q for n in range(i * per_import, (i + 1) * per_import) for s in session(n)
                             for q in s.triples()]  # fmt: skip
        return import_quads(store, "w", collection, quads, batch_size=145).quads

    with ThreadPoolExecutor(WRITERS) as pool:
        imported = list(pool.map(run, range(WRITERS)))
    assert len(imported) == WRITERS
    assert totals(store, collection) == {
        "focus": WRITERS * per_import, "synthesis": WRITERS * per_import, "selections": WRITERS * per_import * 25,
        "statements": 25, "edge_links": WRITERS * per_import * 25, "subject_links": 25,
    }  # fmt: skip
