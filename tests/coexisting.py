"""The graphs Neo4j users already have, built by the real libraries, for the coexistence tests.

Each :class:`Neighbour` sets up one tool's schema and data exactly as that tool does (its own
library calls, or for LLM Graph Builder, an application rather than a library, its own statements
replayed from its source), and reads back what a user of that tool sees: its retrievers' answers
and its nodes. tgneo's side (:func:`tgneo_setup`, :func:`tgneo_view`) is the sample corpus, one
GraphRAG and one Document RAG question, and the knowledge graph tgneo exports.

A view is plain data (strings, numbers, sorted lists), so a test compares it to the view of the same
tool alone on an empty database: equal means the other side left it untouched.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from langchain_core.documents import Document
from langchain_core.embeddings import DeterministicFakeEmbedding
from langchain_neo4j import Neo4jGraph, Neo4jVector
from langchain_neo4j.graphs.graph_document import GraphDocument, Node, Relationship
from langchain_neo4j.vectorstores.neo4j_vector import SearchType
from neo4j import Driver, GraphDatabase
from neo4j_graphrag.components.embedder import TextChunkEmbedder
from neo4j_graphrag.components.kg_writer import Neo4jWriter
from neo4j_graphrag.components.lexical_graph import LexicalGraphBuilder
from neo4j_graphrag.components.types import DocumentInfo, Neo4jNode, Neo4jRelationship, TextChunk, TextChunks
from neo4j_graphrag.embeddings.base import Embedder
from neo4j_graphrag.indexes import create_fulltext_index, create_vector_index
from neo4j_graphrag.retrievers import HybridRetriever, VectorRetriever
from neo4j_graphrag.types import RetrieverResult
from rdflib import Graph
from rdflib.namespace import XSD
from rdflib.term import Literal
from rdflib_neo4j import HANDLE_VOCAB_URI_STRATEGY, Neo4jStore, Neo4jStoreConfig

from tests.conftest import Neo4jServer
from tgneo.engines import DocRag, GraphRag, Request
from tgneo.explain.events import AnswerChunk, ExplainEvent
from tgneo.ingest.loader import load_documents
from tgneo.ingest.sample import QUESTIONS, sources
from tgneo.llm.offline import OfflineLLM
from tgneo.store import Store, install_schema
from tgneo.store.rdf_export import export_quads
from tgneo.store.traces import get_trace

DIMENSIONS = 384
"""LLM Graph Builder's default embedding size (all-MiniLM-L6-v2); every neighbour's embeddings use it."""

WORKSPACE, COLLECTION = "w", "coexist"

TEXTS = [
    "Ada Lovelace wrote the first published algorithm for Charles Babbage's Analytical Engine.",
    "Charles Babbage designed the Difference Engine and later the Analytical Engine.",
    "The Analytical Engine was a proposed mechanical general-purpose computer.",
    "Alan Turing formalised algorithm and computation with the Turing machine.",
    "Grace Hopper developed one of the first compilers for a programming language.",
]
QUESTION = "Who wrote an algorithm for the Analytical Engine?"

TURTLE = """
@prefix ex: <http://example.org/people/> .
@prefix schema: <https://schema.org/> .
ex:ada a schema:Person ; schema:name "Ada Lovelace" ; schema:birthDate "1815-12-10" ; schema:knows ex:babbage .
ex:babbage a schema:Person ; schema:name "Charles Babbage" , "Babbage"@en .
"""


def driver_for(server: Neo4jServer) -> Driver:
    return GraphDatabase.driver(server.uri, auth=(server.username, server.password or ""))


def rows(driver: Driver, cypher: str, **params: Any) -> list[dict[str, Any]]:
    return [r.data() for r in driver.execute_query(cypher, params).records]


def wipe(driver: Driver) -> None:
    """An empty database: no constraint, no index but Neo4j's own token lookups, no node."""
    for c in rows(driver, "SHOW CONSTRAINTS YIELD name RETURN name"):
        driver.execute_query(f"DROP CONSTRAINT `{c['name']}`")
    for i in rows(driver, "SHOW INDEXES YIELD name, type WHERE type <> 'LOOKUP' RETURN name"):
        driver.execute_query(f"DROP INDEX `{i['name']}`")
    with driver.session() as session:
        session.run("MATCH (n) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS").consume()


def schema(driver: Driver) -> list[dict[str, Any]]:
    """Every index but the token lookups, with its state: what each side's set-up left behind."""
    return rows(
        driver,
        "SHOW INDEXES YIELD name, type, entityType, labelsOrTypes, properties, state, owningConstraint "
        "WHERE type <> 'LOOKUP' RETURN name, type, entityType, labelsOrTypes, properties, state, "
        "owningConstraint IS NOT NULL AS constraint ORDER BY name",
    )


def _embedding() -> DeterministicFakeEmbedding:
    return DeterministicFakeEmbedding(size=DIMENSIONS)


@contextmanager
def langchain_graph(server: Neo4jServer) -> Iterator[Neo4jGraph]:
    """LangChain's ``Neo4jGraph`` (its driver shared by the ``Neo4jVector`` stores built on it), closed after."""
    graph = Neo4jGraph(url=server.uri, username=server.username, password=server.password or "")
    try:
        yield graph
    finally:
        graph.close()


def _similar(store: Neo4jVector) -> list[list[Any]]:
    return [[d.page_content, round(score, 6)] for d, score in store.similarity_search_with_score(QUESTION, k=3)]


def _graph_documents() -> list[Any]:
    """What an LLM graph transformer hands ``add_graph_documents``: entities and typed relationships."""
    ada, babbage, engine = (
        Node(id="Ada Lovelace", type="Person"),
        Node(id="Charles Babbage", type="Person"),
        Node(id="Analytical Engine", type="Machine"),
    )
    return [
        GraphDocument(
            nodes=[ada, babbage, engine],
            relationships=[
                Relationship(source=ada, target=engine, type="WROTE_ALGORITHM_FOR"),
                Relationship(source=babbage, target=engine, type="DESIGNED"),
            ],
            source=Document(page_content=TEXTS[0] + " " + TEXTS[1], metadata={"id": "lovelace-babbage"}),
        )
    ]


def _entities(driver: Driver) -> list[list[Any]]:
    return [
        [r["a"], r["type"], r["b"]]
        for r in rows(
            driver,
            "MATCH (a:__Entity__)-[r]->(b:__Entity__) "
            "RETURN coalesce(a.id, a.name) AS a, type(r) AS type, coalesce(b.id, b.name) AS b ORDER BY a, type, b",
        )
    ]


# ------------------------------------------------------------------------------------------ the neighbours
@dataclass(frozen=True)
class Neighbour:
    """One tool a Neo4j user runs beside tgneo: how it sets itself up, and what its user then sees."""

    name: str
    setup: Callable[[Neo4jServer], None]
    view: Callable[[Neo4jServer], dict[str, Any]]
    indexes: tuple[str, ...]  # the index names its set-up must leave ONLINE

    def __str__(self) -> str:
        return self.name


def langchain_setup(server: Neo4jServer) -> None:
    """``Neo4jVector.from_texts`` with hybrid search (its ``vector`` and ``keyword`` indexes on
    ``:Chunk``) and ``Neo4jGraph.add_graph_documents`` with sources and the ``__Entity__`` base label."""
    with langchain_graph(server) as graph:
        Neo4jVector.from_texts(TEXTS, _embedding(), search_type=SearchType.HYBRID, graph=graph)
        graph.add_graph_documents(_graph_documents(), include_source=True, baseEntityLabel=True)


def langchain_view(server: Neo4jServer) -> dict[str, Any]:
    with langchain_graph(server) as graph:
        view: dict[str, Any] = {
            "similar": _similar(Neo4jVector.from_existing_index(_embedding(), index_name="vector", graph=graph)),
            "hybrid": _similar(
                Neo4jVector.from_existing_index(
                    _embedding(), index_name="vector", keyword_index_name="keyword", search_type=SearchType.HYBRID,
                    graph=graph,
                )
            ),
        }  # fmt: skip
    with driver_for(server) as driver:
        view["entities"] = _entities(driver)
        view["documents"] = [r["text"] for r in rows(driver, "MATCH (d:Document) RETURN d.text AS text ORDER BY text")]
        view["chunks"] = rows(driver, "MATCH (c:Chunk) RETURN count(c) AS n")[0]["n"]
    return view


class _Embedder(Embedder):
    """neo4j-graphrag's ``Embedder`` over LangChain's deterministic embedding (same vectors as the others)."""

    def embed_query(self, text: str) -> list[float]:
        return list(_embedding().embed_query(text))


GRAPHRAG_VECTOR, GRAPHRAG_FULLTEXT = "graphrag_chunk_embedding", "graphrag_chunk_text"
GRAPHRAG_CHUNKS = "MATCH (:Document)<-[:FROM_DOCUMENT]-(c:Chunk) RETURN c.text AS t ORDER BY c.index"


def graphrag_setup(server: Neo4jServer) -> None:
    """neo4j-graphrag's ``create_vector_index``/``create_fulltext_index`` on ``:Chunk``, then its own
    components writing a lexical graph (``Document``, ``Chunk`` with embeddings) and extracted
    entities through ``Neo4jWriter``, as ``SimpleKGPipeline`` does after its LLM step."""
    with driver_for(server) as driver:
        create_vector_index(driver, GRAPHRAG_VECTOR, label="Chunk", embedding_property="embedding",
                            dimensions=DIMENSIONS, similarity_fn="cosine")  # fmt: skip
        create_fulltext_index(driver, GRAPHRAG_FULLTEXT, label="Chunk", node_properties=["text"])
        chunks = TextChunks(chunks=[TextChunk(text=t, index=i, chunk_id=f"chunk-{i}") for i, t in enumerate(TEXTS)])
        embedded = asyncio.run(TextChunkEmbedder(_Embedder()).run(chunks))
        lexical = asyncio.run(
            LexicalGraphBuilder().run(embedded, DocumentInfo(path="computing.txt", document_id="computing"))
        )
        graph = lexical.graph
        graph.nodes += [
            Neo4jNode(id="ada", label="Person", properties={"name": "Ada Lovelace"}),
            Neo4jNode(id="engine", label="Machine", properties={"name": "Analytical Engine"}),
        ]
        graph.relationships += [
            Neo4jRelationship(start_node_id="ada", end_node_id="engine", type="WROTE_ALGORITHM_FOR"),
            Neo4jRelationship(start_node_id="ada", end_node_id="chunk-0", type="FROM_CHUNK"),
        ]
        result = asyncio.run(Neo4jWriter(driver).run(graph))
        assert result.status == "SUCCESS", result.metadata


def graphrag_view(server: Neo4jServer) -> dict[str, Any]:
    with driver_for(server) as driver:
        vector = VectorRetriever(driver, GRAPHRAG_VECTOR, _Embedder(), return_properties=["text"])
        hybrid = HybridRetriever(driver, GRAPHRAG_VECTOR, GRAPHRAG_FULLTEXT, _Embedder(), return_properties=["text"])
        return {
            "vector": _retrieved(vector.search(query_text=QUESTION, top_k=3)),
            "hybrid": _retrieved(hybrid.search(query_text=QUESTION, top_k=3)),
            "entities": _entities(driver),
            "chunks": [r["t"] for r in rows(driver, GRAPHRAG_CHUNKS)],
        }


def _retrieved(result: RetrieverResult) -> list[list[Any]]:
    return [[item.content, round((item.metadata or {})["score"], 6)] for item in result.items]


# LLM Graph Builder (neo4j-labs/llm-graph-builder, backend/src/post_processing.py and make_relationships.py at
# 1ade47de) is an application: these are its statements, run in its order (data first, indexes in post-processing).
LGB_VECTOR_INDEX = """
CREATE VECTOR INDEX {index_name} IF NOT EXISTS FOR (n:{node_label}) ON (n.{embedding_property})
OPTIONS {{
  indexConfig: {{
    `vector.dimensions`: {embedding_dimension},
    `vector.similarity_function`: 'cosine'
  }}
}}
"""
LGB_VECTOR_INDEXES = (("vector", "Chunk"), ("entity_vector", "__Entity__"), ("community_vector", "`__Community__`"))
LGB_ENTITIES = "CREATE FULLTEXT INDEX entities FOR (n{labels_str}) ON EACH [n.id, n.description];"
LGB_KEYWORD = "CREATE FULLTEXT INDEX keyword FOR (n:Chunk) ON EACH [n.text]"
LGB_COMMUNITY = "CREATE FULLTEXT INDEX community_keyword FOR (n:`__Community__`) ON EACH [n.summary]"
LGB_FILTER_LABELS = ("Chunk", "Document", "__Community__")
LGB_CHUNKS = """
UNWIND $data AS row
MATCH (d:Document {fileName: $fileName})
MERGE (c:Chunk {id: row.chunkId})
SET c.embedding = row.embeddings, c.text = row.text, c.position = row.position, c.fileName = $fileName
MERGE (c)-[:PART_OF]->(d)
"""
# backend/src/communities.py at 1ade47de: after GDS's Leiden wrote each entity's `communities` list
LGB_COMMUNITY_CONSTRAINT = "CREATE CONSTRAINT IF NOT EXISTS FOR (c:__Community__) REQUIRE c.id IS UNIQUE;"
LGB_COMMUNITY_LEVELS = """
MATCH (e:`__Entity__`)
UNWIND range(0, size(e.communities) - 1 , 1) AS index
CALL {
  WITH e, index
  WITH e, index
  WHERE index = 0
  MERGE (c:`__Community__` {id: toString(index) + '-' + toString(e.communities[index])})
  ON CREATE SET c.level = index
  MERGE (e)-[:IN_COMMUNITY]->(c)
  RETURN count(*) AS count_0
}
CALL {
  WITH e, index
  WITH e, index
  WHERE index > 0
  MERGE (current:`__Community__` {id: toString(index) + '-' + toString(e.communities[index])})
  ON CREATE SET current.level = index
  MERGE (previous:`__Community__` {id: toString(index - 1) + '-' + toString(e.communities[index - 1])})
  ON CREATE SET previous.level = index - 1
  MERGE (previous)-[:IN_COMMUNITY]->(current)
  RETURN count(*) AS count_1
}
RETURN count(*)
"""
LGB_COMMUNITY_SUMMARIES = """
UNWIND $data AS row
MERGE (c:__Community__ {id:row.community})
SET c.summary = row.summary
"""
LGB_HAS_ENTITY = """
UNWIND $batch_data AS data
MATCH (c:Chunk {id: data.chunk_id})
CALL apoc.merge.node([data.node_type], {id: data.node_id}) YIELD node AS n
MERGE (c)-[:HAS_ENTITY]->(n)
"""


def llm_graph_builder_setup(server: Neo4jServer) -> None:
    """A file through LLM Graph Builder: its ``Document``, its chunks with embeddings, entities through
    LangChain's ``add_graph_documents`` (as it does) and ``HAS_ENTITY``, then its post-processing
    indexes (``vector``, ``entity_vector``, ``community_vector``, ``keyword``, ``community_keyword``,
    and ``entities`` over every label ``db.labels()`` lists but its own three)."""
    with driver_for(server) as driver:
        driver.execute_query("MERGE (d:Document {fileName: $f}) SET d.status = 'Completed'", f="computing.txt")
        data = [{"chunkId": f"lgb-{i}", "text": t, "position": i + 1, "embeddings": _embedding().embed_query(t)}
                for i, t in enumerate(TEXTS)]  # fmt: skip
        driver.execute_query(LGB_CHUNKS, data=data, fileName="computing.txt")
        with langchain_graph(server) as graph:
            graph.add_graph_documents(_graph_documents(), baseEntityLabel=True)
        batch = [{"chunk_id": "lgb-0", "node_type": "Person", "node_id": "Ada Lovelace"}]
        driver.execute_query(LGB_HAS_ENTITY, batch_data=batch)
        lgb_post_processing(driver, DIMENSIONS)


def lgb_post_processing(driver: Driver, dimensions: int, only: Collection[str] | None = None) -> None:
    """LLM Graph Builder's post-processing indexes, in its order, over the labels ``db.labels()`` lists then
    (``only``: just the indexes of these names, as when the user left some post-processing steps off)."""

    def wanted(name: str) -> bool:
        return only is None or name in only

    with driver.session() as session:
        labels = [r["label"] for r in session.run("CALL db.labels()") if r["label"] not in LGB_FILTER_LABELS]
        for name in ("entities", "keyword", "community_keyword"):
            session.run(f"DROP INDEX {name} IF EXISTS;").consume()
        for name, statement in (
            ("entities", LGB_ENTITIES.format(labels_str=":" + "|".join(f"`{label}`" for label in labels))),
            ("keyword", LGB_KEYWORD),
            ("community_keyword", LGB_COMMUNITY),
        ):
            if wanted(name):
                session.run(statement).consume()
        for name, label in LGB_VECTOR_INDEXES:
            session.run(f"DROP INDEX {name} IF EXISTS;").consume()
            if not wanted(name):
                continue
            session.run(LGB_VECTOR_INDEX.format(index_name=name, node_label=label, embedding_property="embedding",
                                                embedding_dimension=dimensions)).consume()  # fmt: skip
    driver.execute_query("CALL db.awaitIndexes(300)")


def llm_graph_builder_view(server: Neo4jServer) -> dict[str, Any]:
    """Its chat's "fulltext" mode (LangChain ``Neo4jVector`` on ``vector`` + ``keyword``) and a
    full-text entity lookup on ``entities``."""
    with langchain_graph(server) as graph:
        chat = Neo4jVector.from_existing_index(
            _embedding(), index_name="vector", keyword_index_name="keyword", search_type=SearchType.HYBRID, graph=graph
        )
        view: dict[str, Any] = {"chat": _similar(chat)}
    with driver_for(server) as driver:
        view["entities_index"] = [
            r["id"]
            for r in rows(driver, "CALL db.index.fulltext.queryNodes('entities', $q) YIELD node, score "
                                  "RETURN node.id AS id ORDER BY score DESC, id", q="Lovelace OR Babbage OR Engine")
        ]  # fmt: skip
        view["entities"] = _entities(driver)
        view["has_entity"] = rows(driver, "MATCH (c:Chunk)-[:HAS_ENTITY]->(e) RETURN c.id AS chunk, e.id AS entity")
    return view


def n10s_setup(server: Neo4jServer) -> None:
    """n10s's uniqueness constraint on ``:Resource(uri)``, then RDF imported by rdflib-neo4j (n10s's model)."""
    with driver_for(server) as driver:
        driver.execute_query("CREATE CONSTRAINT n10s_unique_uri FOR (r:Resource) REQUIRE r.uri IS UNIQUE")
        config = Neo4jStoreConfig(handle_vocab_uri_strategy=HANDLE_VOCAB_URI_STRATEGY.IGNORE)
        graph = Graph(store=Neo4jStore(config=config, neo4j_driver=driver))  # a driver it would not close itself
        graph.parse(data=TURTLE, format="turtle")
        graph.close(True)


def n10s_view(server: Neo4jServer) -> dict[str, Any]:
    with driver_for(server) as driver:
        return {
            "resources": [
                [r["uri"], sorted(r["labels"]), json.dumps(r["props"], sort_keys=True)]
                for r in rows(driver, "MATCH (r:Resource) RETURN r.uri AS uri, labels(r) AS labels, "
                                      "properties(r) AS props ORDER BY uri")
            ],
            "links": rows(driver, "MATCH (a:Resource)-[r]->(b:Resource) RETURN a.uri AS a, type(r) AS t, b.uri AS b "
                                  "ORDER BY a, t, b"),
        }  # fmt: skip


NEIGHBOURS = (
    Neighbour("langchain", langchain_setup, langchain_view, ("vector", "keyword")),
    Neighbour("neo4j-graphrag", graphrag_setup, graphrag_view, (GRAPHRAG_VECTOR, GRAPHRAG_FULLTEXT)),
    Neighbour(
        "llm-graph-builder",
        llm_graph_builder_setup,
        llm_graph_builder_view,
        ("vector", "entity_vector", "community_vector", "keyword", "community_keyword", "entities"),
    ),  # fmt: skip
    Neighbour("n10s", n10s_setup, n10s_view, ("n10s_unique_uri",)),
)


# ------------------------------------------------------------------------------------------ tgneo's side
def tgneo_setup(server: Neo4jServer) -> list[str]:
    """tgneo's schema and the sample corpus; returns the schema statements it ran."""
    with Store.from_settings(server.settings()) as store:
        installed = install_schema(store)
        report = load_documents(store, OfflineLLM(), WORKSPACE, COLLECTION, sources())
        assert report.loaded == 4, report
        return installed


_VARYING = re.compile(
    r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"  # session ids
    r"|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z?"  # timestamps
)
_CLOCK_KEYS = ("startedAtTime", "endedAtTime", "durationMs", "timestamp", "totals")


def _steady(value: Any) -> Any:
    """A trace with what differs between two identical runs (ids, clocks, durations) taken out."""
    if isinstance(value, dict):
        return {k: _steady(v) for k, v in value.items() if k not in _CLOCK_KEYS}
    if isinstance(value, list):
        return [_steady(v) for v in value]
    if isinstance(value, str):
        return _VARYING.sub("…", value)
    return value


def tgneo_view(server: Neo4jServer) -> dict[str, Any]:
    """What a tgneo user sees: the knowledge graph and its provenance as exported RDF (clock values
    taken out), and the traces of a GraphRAG and a Document RAG answer to the sample's first question."""
    question = QUESTIONS[0].text
    with Store.from_settings(server.settings()) as store:
        exported = sorted(
            " ".join(str(t) for t in q)
            for q in export_quads(store, WORKSPACE, COLLECTION)
            if not (isinstance(q.o, Literal) and q.o.datatype == XSD.dateTime)
        )
        view: dict[str, Any] = {"export": exported}
        for engine in (GraphRag, DocRag):
            events = list(engine(store, OfflineLLM()).answer(Request(question, WORKSPACE, COLLECTION, {})))
            root = next(e for e in events if isinstance(e, ExplainEvent)).explain_id
            view[engine.__name__] = {
                "answer": "".join(e.text for e in events if isinstance(e, AnswerChunk)),
                "trace": _steady(get_trace(store, WORKSPACE, COLLECTION, root)["steps"]),
            }
    return view
