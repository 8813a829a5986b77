"""tgneo's side index over a graph another tool wrote never resolves a hit to a node it was not made from.

A side index entry points at their node by element id, and Neo4j gives the id of a deleted node to the next
node it creates: when a user rebuilds their graph (here: deletes it and writes another corpus with the same
tool, neo4j-graphrag's own components or LLM Graph Builder's statements, :mod:`tests.foreign_graphs`; then
re-chunks it), entries' ids name other nodes at once, within a running server. A search must leave those out
(with a warning to rebuild the side index), and building the side index again must leave no entry pointing at
a node it was not made from.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from collections.abc import Iterator
from typing import Any

import pytest
from neo4j import Driver
from neo4j_graphrag.components.embedder import TextChunkEmbedder
from neo4j_graphrag.components.kg_writer import Neo4jWriter
from neo4j_graphrag.components.lexical_graph import LexicalGraphBuilder
from neo4j_graphrag.components.types import DocumentInfo, TextChunk, TextChunks

from tests.coexisting import LGB_CHUNKS, driver_for, rows, wipe
from tests.conftest import Neo4jServer
from tests.foreign_graphs import (
    DIMENSIONS,
    PIP_TOPICS,
    GraphragEmbedder,
    read_corpus,
    their_embedding,
    write_llm_graph_builder,
    write_neo4j_graphrag,
)
from tests.private_neo4j import private_neo4j, session_instance
from tgneo.graph_profiles import BUILTIN, GraphProfile
from tgneo.graphs.profile import ProfileGraph
from tgneo.ingest.loader import ReadDocument
from tgneo.ingest.side_index import build_side_index
from tgneo.llm.offline import OfflineLLM
from tgneo.store import Store, install_schema
from tgneo.store.foreign import clear_checks

pytestmark = [pytest.mark.filterwarnings("ignore:The default returned 'id' field:DeprecationWarning")]

W, C = "test-side-reuse", "test-rebuilt"


@pytest.fixture(scope="module")
def server() -> Iterator[Neo4jServer]:
    """A private server with APOC and a new store of its own, so that every node id it ever gave is this module's.

    Not the session's shared APOC server, emptied: after the graph-profile and fallback modules had written and
    deleted their graphs there, Neo4j gave the rebuilt graphs ids from that earlier free list rather than the ones
    this test freed, :func:`drain` notwithstanding, and no entry was misdirected (CI at ec12a2f)."""
    with private_neo4j(session_instance("side-reuse"), plugins=("apoc",), new_store=True) as s:
        yield s


@pytest.fixture(scope="module")
def driver(server: Neo4jServer) -> Iterator[Driver]:
    with driver_for(server) as d:
        yield d


def _write(name: str, server: Neo4jServer, driver: Driver, corpus: list[ReadDocument]) -> None:
    if name == "neo4j-graphrag":
        write_neo4j_graphrag(driver, corpus, their_embedding, DIMENSIONS)
    else:
        write_llm_graph_builder(server, driver, corpus, their_embedding, DIMENSIONS)


def _digest(text: str) -> str:
    return hashlib.sha1(text.encode()).hexdigest()


def misdirected(driver: Driver, profile: GraphProfile) -> dict[str, dict[str, Any]]:
    """The entries (by element id) whose element id names a node of their kind (an entity, a chunk) other than
    the one they were made from: a node whose text (an entity's name, a chunk's text) is not the text the entry
    embedded. (An id now naming a node of another kind is left out by the queries' label check, as before.)"""
    entries = rows(
        driver,
        "MATCH (n:TgResource {workspace: $w, collection: $c}) WHERE n.element IS NOT NULL AND n.embedding IS NOT NULL "
        "MATCH (t) WHERE elementId(t) = n.element "
        "AND (CASE WHEN n:TgChunk THEN $chunk_label ELSE $entity_label END) IN labels(t) "
        "RETURN n.element AS element, n:TgChunk AS chunk, n.name AS name, n.digest AS digest, "
        "toStringOrNull(t[CASE WHEN n:TgChunk THEN $chunk_text ELSE $entity_text END]) AS text",
        w=W, c=C, chunk_text=profile.chunk.text, entity_text=profile.entity.name, chunk_label=profile.chunk.label,
        entity_label=profile.entity.label,
    )  # fmt: skip
    return {e["element"]: e for e in entries if e["text"] is None or _digest(e["text"]) != e["digest"]}


REBUILDS = (("authentication.md", "vcs-support.md"), ("configuration.md", "secure-installs.md"),
            ("repeatable-installs.md", "workflow.md"))  # fmt: skip
"""The documents a user rebuilds their whole graph from, one pair after another until an entity's element id was
given to another entity (within a running server most ids are reused at once: one rebuild gave 78 of
neo4j-graphrag's entries' ids and 97 of LLM Graph Builder's to other entities, run after run here)."""
RECHUNK_PASSES = 60
"""How many times at most their tool writes a document's chunks after the chunks of another were deleted, until a
chunk's element id was given to another chunk: Neo4j hands out free ids in its own order, so new chunks are written
until one takes a freed chunk's (on a drained database it took one pass for neo4j-graphrag, five for LLM Graph
Builder, run after run here)."""


def _number(element: str) -> int:
    return int(element.rsplit(":", 1)[1])


def drain(driver: Driver) -> None:
    """Occupy every node id Neo4j holds free (what ``wipe`` freed: the other profile's test) with nodes of no tool's,
    so that the ids freed later in the test are the only ones it can give again, as in a database that only grew.
    Free ids become reusable a moment after their delete committed, hence the pauses."""
    top = -1
    while True:
        time.sleep(1.0)
        made = sorted(_number(r["e"]) for r in rows(
            driver, "UNWIND range(1, 500) AS i CREATE (n:TestDrained) RETURN elementId(n) AS e"))  # fmt: skip
        if made[0] > top and made[-1] - made[0] == len(made) - 1:
            return  # all new ids, in one run above every id given before: nothing was free any more
        top = max(top, made[-1])


def delete_theirs(driver: Driver) -> None:
    """:func:`tests.foreign_graphs.wipe_theirs`, but the ids :func:`drain` took stay taken."""
    with driver.session() as session:  # CALL … IN TRANSACTIONS needs an auto-commit transaction
        session.run("MATCH (n) WHERE NOT n:Tgneo AND NOT n:TestDrained "
                    "CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS").consume()  # fmt: skip
    for r in rows(driver, "SHOW CONSTRAINTS YIELD name WHERE NOT name STARTS WITH 'tgneo_' RETURN name"):
        driver.execute_query(f"DROP CONSTRAINT `{r['name']}` IF EXISTS")
    for r in rows(driver, "SHOW INDEXES YIELD name, type WHERE NOT name STARTS WITH 'tgneo_' AND type <> 'LOOKUP' "
                          "RETURN name"):  # fmt: skip
        driver.execute_query(f"DROP INDEX `{r['name']}` IF EXISTS")


def write_chunks(name: str, driver: Driver, document: str, texts: list[str]) -> None:
    """Their tool writes ``texts`` as the chunks of ``document`` (neo4j-graphrag's own lexical graph components; LLM
    Graph Builder's chunk statement)."""
    if name == "neo4j-graphrag":
        chunks = TextChunks(
            chunks=[TextChunk(text=text, index=i, uid=f"{document}:{i}") for i, text in enumerate(texts)]
        )
        embedded = asyncio.run(TextChunkEmbedder(GraphragEmbedder(their_embedding)).run(chunks))
        lexical = asyncio.run(LexicalGraphBuilder().run(embedded, DocumentInfo(path=document)))
        assert asyncio.run(Neo4jWriter(driver).run(lexical.graph)).status == "SUCCESS"
        return
    driver.execute_query("MERGE (d:Document {fileName: $f}) SET d.status = 'Completed'", f=document)
    data = [{"chunkId": _digest(text), "text": text, "position": i + 1, "embeddings": vector}
            for i, (text, vector) in enumerate(zip(texts, their_embedding(texts), strict=True))]  # fmt: skip
    driver.execute_query(LGB_CHUNKS, data=data, fileName=document)


def rechunk(name: str, driver: Driver, profile: GraphProfile, texts: list[str]) -> int:
    """The user re-chunks a document: its chunks (``texts``) are deleted and their tool writes new ones (pass after
    pass) until a side index entry's element id names one of them; returns how many passes that took."""
    rows(driver, "MATCH (c:Chunk) WHERE c.text IN $texts DETACH DELETE c", texts=texts)
    (doc,) = read_corpus([PIP_TOPICS / "dependency-resolution.md"])
    for n in range(1, RECHUNK_PASSES + 1):
        time.sleep(0.5)  # a freed id is reusable a moment after its delete committed
        new = [f"{chunk.text}\n\n(pass {n})" for chunk, _ in doc.chunks]
        write_chunks(name, driver, f"rechunked/dependency-resolution-{n}.md", new)
        if any(e["chunk"] for e in misdirected(driver, profile).values()):
            return n
    raise AssertionError(f"no chunk's element id was given to another chunk in {RECHUNK_PASSES} passes")


def ask(graph: ProfileGraph, llm: OfflineLLM, names: list[str], texts: list[str]) -> set[str]:
    """The element ids of the nodes a question over ``names`` (entities) and ``texts`` (chunks) resolved to."""
    seeds = graph.seed_entities(names, llm.embed(names).vectors, 5, 40) if names else []
    if texts:
        vectors = llm.embed(texts).vectors
        hits = graph.search_chunks(texts, vectors, texts[0], vectors[0], 5)
        assert all(hit.uri in graph.found.chunks for hit in hits)
    return {graph.found.elements[s.uri] for s in seeds} | set(graph.found.chunks.values())


def left_out(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "tgneo.graphs" and "left out" in r.getMessage()]


@pytest.mark.parametrize("name", ["neo4j-graphrag", "llm-graph-builder"])
def test_a_side_index_over_a_rebuilt_graph_never_resolves_a_hit_to_another_node(
    name: str, server: Neo4jServer, driver: Driver, caplog: pytest.LogCaptureFixture
) -> None:
    """neo4j-graphrag's entities and chunks have no key property (entries are checked by the digest of the text
    they embedded); LLM Graph Builder's are keyed by ``id`` (entries keep it, and the query checks it)."""
    profile, llm = BUILTIN[name], OfflineLLM()
    old = read_corpus([PIP_TOPICS / "caching.md"])
    wipe(driver)
    drain(driver)
    clear_checks()
    _write(name, server, driver, old)
    with Store.from_settings(server.settings()) as store:
        install_schema(store)
        built = build_side_index(store, llm, profile, W, C)
        assert built.entities > 50 and built.chunks > 10
        assert misdirected(driver, profile) == {}

        # the user rebuilds their graph from other documents, with their own tool
        for documents in REBUILDS:
            delete_theirs(driver)
            clear_checks()
            time.sleep(1.0)  # a freed id is reusable a moment after its delete committed
            corpus = read_corpus([PIP_TOPICS / document for document in documents])
            _write(name, server, driver, corpus)
            wrong = misdirected(driver, profile)
            if any(not e["chunk"] for e in wrong.values()):
                break
        entities = sorted({e["name"] for e in wrong.values() if not e["chunk"]})
        assert entities, f"no entity's element id was given to another entity after rebuilding from {REBUILDS}"
        remedy = f"tgneo load index --graph {name} --workspace {W} --collection {C}"
        caplog.set_level(logging.WARNING, logger="tgneo.graphs")
        # asked for what the old entries hold, nothing resolves to a node that took their ids
        assert ask(ProfileGraph(store, llm, profile, W, C), llm, entities[:12], []) & wrong.keys() == set()
        assert left_out(caplog) and all("for their entities" in w and remedy in w
                                        for w in left_out(caplog))  # fmt: skip

        # built again, the side index holds no entry pointing at a node it was not made from
        assert build_side_index(store, llm, profile, W, C).retired > 0 and misdirected(driver, profile) == {}

        # the user re-chunks one document: the new chunks take the ids of the chunks the entries were made from
        made = [chunk.text for chunk, _ in corpus[1].chunks]
        passes = rechunk(name, driver, profile, made)
        wrong = misdirected(driver, profile)
        texts = [text for text in made if _digest(text) in {e["digest"] for e in wrong.values() if e["chunk"]}]
        assert texts, f"after {passes} passes"
        caplog.clear()
        clear_checks()
        assert ask(ProfileGraph(store, llm, profile, W, C), llm, [], texts[:6]) & wrong.keys() == set()
        assert left_out(caplog) and all("for their chunks" in w and remedy in w for w in left_out(caplog))

        # built again, the side index finds their nodes and leaves nothing out
        build_side_index(store, llm, profile, W, C)
        assert misdirected(driver, profile) == {}
        now = sorted(r["name"] for r in rows(driver, "MATCH (e:__Entity__) RETURN toString(e[$p]) AS name LIMIT 8",
                                              p=profile.entity.name))  # fmt: skip
        chunks = [r["text"] for r in rows(driver, "MATCH (c:Chunk) RETURN c.text AS text LIMIT 4")]
        caplog.clear()
        again = ProfileGraph(store, llm, profile, W, C)
        assert ask(again, llm, now, chunks) and again.found.elements and again.found.chunks
        assert left_out(caplog) == []
