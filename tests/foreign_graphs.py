"""The knowledge graphs of the three tools tgneo's graph profiles read, each written by that tool's own code.

No extraction LLM is involved: every writer is fed what tgneo's offline pipeline reads from the same
documents (:func:`tgneo.ingest.loader.read_documents`: each chunk's text and the facts extracted from it),
so the three graphs and tgneo's own store hold the same knowledge, each in its tool's shape:

* **neo4j-graphrag** — its ``TextChunkEmbedder``, ``LexicalGraphBuilder`` (``Document {path}``, ``Chunk``,
  ``FROM_DOCUMENT``, ``NEXT_CHUNK``), entities and ``FROM_CHUNK`` through ``Neo4jWriter``, then its
  ``SinglePropertyExactMatchResolver``, as ``SimpleKGPipeline`` runs them after its LLM step; a vector index
  made by its ``create_vector_index``;
* **langchain** — as a LangChain user writes it: a loader's documents split into chunks, each chunk a
  ``Document`` whose metadata holds the file as ``source``; ``Neo4jGraph.add_graph_documents(include_source=True,
  baseEntityLabel=True)`` with each chunk as the source (so one ``Document {id: md5(text), source}`` per chunk)
  and ``Neo4jVector.from_documents`` (hybrid: its ``vector`` and ``keyword`` indexes) over the same chunks;
* **llm-graph-builder** — an application, not a library: its statements (``tests/coexisting.py``, read from
  its backend), run in its order: ``Document {fileName}``, ``Chunk {id, text, position, embedding}``,
  ``PART_OF``, ``FIRST_CHUNK``/``NEXT_CHUNK``, entities through LangChain's ``add_graph_documents`` and
  ``HAS_ENTITY``, then its post-processing indexes.

``embed`` stands for the user's embedding model (their vectors: tgneo never computes them).
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import struct
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_neo4j import Neo4jGraph, Neo4jVector
from langchain_neo4j.graphs.graph_document import GraphDocument, Node, Relationship
from langchain_neo4j.vectorstores.neo4j_vector import SearchType
from neo4j import Driver
from neo4j_graphrag.components.embedder import TextChunkEmbedder
from neo4j_graphrag.components.kg_writer import Neo4jWriter
from neo4j_graphrag.components.lexical_graph import LexicalGraphBuilder
from neo4j_graphrag.components.resolver import SinglePropertyExactMatchResolver
from neo4j_graphrag.components.types import DocumentInfo, Neo4jNode, Neo4jRelationship, TextChunk, TextChunks
from neo4j_graphrag.embeddings.base import Embedder
from neo4j_graphrag.indexes import create_vector_index

from tests.coexisting import (
    LGB_CHUNKS,
    LGB_HAS_ENTITY,
    lgb_post_processing,
)
from tests.conftest import Neo4jServer
from tgneo.ingest.facts import Fact
from tgneo.ingest.loader import ReadDocument, read_documents
from tgneo.ingest.sources import Source
from tgneo.llm.offline import OfflineLLM

REPO = Path(__file__).resolve().parents[1]
PIP_TOPICS = REPO / "scripts" / "bench" / "quality" / "pip-24.2-topics"
"""pip 24.2's topic guides (MIT, see ``scripts/bench/quality/SOURCE.md``): text no one here wrote."""
GRAPHRAG_VECTOR = "chunk_embeddings"
"""The vector index a neo4j-graphrag user names (``create_vector_index``): the profile finds it by label."""
ENTITY_TYPE = "Concept"
"""The type label every entity gets (the offline extractor names no types)."""

DIMENSIONS = 1536
"""Their embedding model's dimensions (OpenAI's text-embedding-3-small): never the offline embedder's."""

Embed = Callable[[Sequence[str]], list[list[float]]]


def their_embedding(texts: Sequence[str]) -> list[list[float]]:
    """Their model's vectors, as far as tgneo can tell: deterministic, :data:`DIMENSIONS` long, unrelated to
    tgneo's (so only tgneo's side index or their full-text indexes can answer with the offline provider)."""
    out = []
    for text in texts:
        seed = hashlib.sha256(str(text).encode()).digest() * (DIMENSIONS * 4 // 32)
        out.append([v / 2**31 for v in struct.unpack(f"<{DIMENSIONS}i", seed[: DIMENSIONS * 4])])
    return out


def wipe_theirs(driver: Driver) -> None:
    """Remove every node, constraint and index that is not tgneo's (tgneo's traces stay)."""
    with driver.session() as session:  # CALL … IN TRANSACTIONS needs an auto-commit transaction
        session.run("MATCH (n) WHERE NOT n:Tgneo CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS").consume()
    for record in driver.execute_query("SHOW CONSTRAINTS YIELD name WHERE NOT name STARTS WITH 'tgneo_' "
                                       "RETURN name").records:  # fmt: skip
        driver.execute_query(f"DROP CONSTRAINT `{record['name']}` IF EXISTS")
    for record in driver.execute_query("SHOW INDEXES YIELD name, type WHERE NOT name STARTS WITH 'tgneo_' "
                                       "AND type <> 'LOOKUP' RETURN name").records:  # fmt: skip
        driver.execute_query(f"DROP INDEX `{record['name']}` IF EXISTS")


def read_corpus(files: Sequence[Path]) -> list[ReadDocument]:
    """What tgneo's offline pipeline reads from ``files``: their chunks and each chunk's facts."""
    return list(read_documents(OfflineLLM(), [Source.from_path(p) for p in files]))


def relation_type(relation: str) -> str:
    """A relation name as the relationship type the tools' LLM prompts ask for (``UPPER_SNAKE``)."""
    return re.sub(r"[^A-Za-z0-9]+", "_", relation).strip("_").upper()[:60] or "RELATED_TO"


def _facts(facts: Sequence[Fact]) -> Iterator[Fact]:
    """The facts between two entities (literal values are properties in these tools, not relationships)."""
    for fact in facts:
        if not fact.literal and fact.s.strip() and fact.o.strip() and fact.s != fact.o:
            yield fact


@dataclass(frozen=True)
class Built:
    """A graph written: the tool, and how many documents, chunks and entity relationships it holds."""

    profile: str
    documents: int
    chunks: int
    facts: int


class GraphragEmbedder(Embedder):
    """neo4j-graphrag's ``Embedder`` over the user's model."""

    def __init__(self, embed: Embed) -> None:
        super().__init__()
        self.embed = embed

    def embed_query(self, text: str) -> list[float]:
        return self.embed([text])[0]


class _LangchainEmbeddings(Embeddings):
    def __init__(self, embed: Embed) -> None:
        self.embed = embed

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return self.embed(texts)

    def embed_query(self, text: str) -> list[float]:
        return self.embed([text])[0]


def write_neo4j_graphrag(driver: Driver, documents: Sequence[ReadDocument], embed: Embed, dimensions: int) -> Built:
    """neo4j-graphrag's own components, as ``SimpleKGPipeline`` runs them after its extraction step."""
    create_vector_index(driver, GRAPHRAG_VECTOR, label="Chunk", embedding_property="embedding",
                        dimensions=dimensions, similarity_fn="cosine")  # fmt: skip
    chunks = facts = 0
    for d, doc in enumerate(documents):
        text_chunks = TextChunks(
            chunks=[TextChunk(text=chunk.text, index=i, uid=f"d{d}c{i}") for i, (chunk, _) in enumerate(doc.chunks)]
        )
        embedded = asyncio.run(TextChunkEmbedder(GraphragEmbedder(embed)).run(text_chunks))
        lexical = asyncio.run(LexicalGraphBuilder().run(embedded, DocumentInfo(path=shown_path(doc))))
        graph = lexical.graph
        for i, (_, chunk_facts) in enumerate(doc.chunks):
            ids: dict[str, str] = {}
            for fact in _facts(chunk_facts):
                for name in (fact.s, fact.o):
                    if name not in ids:
                        ids[name] = f"d{d}c{i}:{len(ids)}"
                        graph.nodes.append(Neo4jNode(id=ids[name], label=ENTITY_TYPE, properties={"name": name}))
                        graph.relationships.append(
                            Neo4jRelationship(start_node_id=ids[name], end_node_id=f"d{d}c{i}", type="FROM_CHUNK")
                        )
                graph.relationships.append(
                    Neo4jRelationship(start_node_id=ids[fact.s], end_node_id=ids[fact.o], type=relation_type(fact.p))
                )
                facts += 1
        result = asyncio.run(Neo4jWriter(driver).run(graph))
        assert result.status == "SUCCESS", result.metadata
        chunks += len(doc.chunks)
    asyncio.run(SinglePropertyExactMatchResolver(driver).run())
    return Built("neo4j-graphrag", len(documents), chunks, facts)


def shown_path(doc: ReadDocument) -> str:
    """The path a user hands neo4j-graphrag's pipeline: relative to the repository when the file is in it."""
    path = Path(doc.source.name)
    return str(path.relative_to(REPO)) if path.is_relative_to(REPO) else str(path)


def langchain_source(doc: ReadDocument) -> str:
    """The ``source`` a LangChain loader puts in each of a file's documents' metadata (here: the file's name)."""
    return Path(doc.source.name).name


def _graph_document(chunk_facts: Sequence[Fact], source: Document) -> tuple[GraphDocument, int]:
    """What an LLM graph transformer hands ``add_graph_documents`` for one chunk, and how many facts it holds."""
    nodes: dict[str, Node] = {}
    relationships = []
    for fact in _facts(chunk_facts):
        s = nodes.setdefault(fact.s, Node(id=fact.s, type=ENTITY_TYPE))
        o = nodes.setdefault(fact.o, Node(id=fact.o, type=ENTITY_TYPE))
        relationships.append(Relationship(source=s, target=o, type=relation_type(fact.p)))
    return GraphDocument(nodes=list(nodes.values()), relationships=relationships, source=source), len(relationships)


def write_langchain(server: Neo4jServer, documents: Sequence[ReadDocument], embed: Embed) -> Built:
    """LangChain's ``add_graph_documents`` (with sources, ``__Entity__``) and ``Neo4jVector.from_documents`` (hybrid),
    over chunks whose metadata names their file as ``source`` (module docstring)."""
    graph = Neo4jGraph(url=server.uri, username=server.username, password=server.password or "")
    try:
        graph_documents, chunks, facts = [], [], 0
        for doc in documents:
            for chunk, chunk_facts in doc.chunks:
                source = Document(page_content=chunk.text, metadata={"source": langchain_source(doc)})
                graph_document, found = _graph_document(chunk_facts, source)
                graph_documents.append(graph_document)
                facts += found
                chunks.append(Document(page_content=chunk.text, metadata={"source": langchain_source(doc)}))
        graph.add_graph_documents(graph_documents, include_source=True, baseEntityLabel=True)
        Neo4jVector.from_documents(chunks, _LangchainEmbeddings(embed), search_type=SearchType.HYBRID, graph=graph)
    finally:
        graph.close()
    return Built("langchain", len(documents), len(chunks), facts)


def write_llm_graph_builder(
    server: Neo4jServer,
    driver: Driver,
    documents: Sequence[ReadDocument],
    embed: Embed,
    dimensions: int,
    indexes: Collection[str] | None = None,
) -> Built:
    """LLM Graph Builder's statements in its order (module docstring), entities through LangChain as it does.

    Args:
        indexes: the names of the indexes it made (``None``: all, as with every post-processing step turned on;
            ``("vector", "keyword")``: entity embeddings and communities left off).
    """
    chunks = facts = 0
    graph = Neo4jGraph(url=server.uri, username=server.username, password=server.password or "")
    try:
        for doc in documents:
            name = Path(doc.source.name).name
            driver.execute_query("MERGE (d:Document {fileName: $f}) SET d.status = 'Completed'", f=name)
            texts = [chunk.text for chunk, _ in doc.chunks]
            ids = [hashlib.sha1(t.encode()).hexdigest() for t in texts]
            vectors = embed(texts)
            data = [{"chunkId": ids[i], "text": t, "position": i + 1, "embeddings": vectors[i]}
                    for i, t in enumerate(texts)]  # fmt: skip
            driver.execute_query(LGB_CHUNKS, data=data, fileName=name)
            driver.execute_query(
                "MATCH (d:Document {fileName: $f}) MATCH (c:Chunk {id: $first}) MERGE (d)-[:FIRST_CHUNK]->(c)",
                f=name, first=ids[0],
            )  # fmt: skip
            driver.execute_query(
                "UNWIND range(0, size($ids) - 2) AS i MATCH (a:Chunk {id: $ids[i]}) MATCH (b:Chunk {id: $ids[i + 1]}) "
                "MERGE (a)-[:NEXT_CHUNK]->(b)",
                ids=ids,
            )
            graph_documents, batch = [], []
            for i, (chunk, chunk_facts) in enumerate(doc.chunks):
                graph_document, found = _graph_document(chunk_facts, Document(page_content=chunk.text))
                graph_documents.append(graph_document)
                facts += found
                batch += [{"chunk_id": ids[i], "node_type": ENTITY_TYPE, "node_id": n.id} for n in graph_document.nodes]
            graph.add_graph_documents(graph_documents, baseEntityLabel=True)
            driver.execute_query(LGB_HAS_ENTITY, batch_data=batch)
            chunks += len(texts)
    finally:
        graph.close()
    names = [r["id"] for r in driver.execute_query("MATCH (e:__Entity__) RETURN e.id AS id ORDER BY id").records]
    if indexes is not None and "entity_vector" not in indexes:
        names = []  # entity embeddings are a post-processing step the user left off
    for start in range(0, len(names), 256):
        part = names[start : start + 256]
        driver.execute_query(
            "UNWIND range(0, size($ids) - 1) AS i MATCH (e:__Entity__ {id: $ids[i]}) SET e.embedding = $vectors[i]",
            ids=part, vectors=embed(part),
        )  # fmt: skip
    lgb_post_processing(driver, dimensions, indexes)
    return Built("llm-graph-builder", len(documents), chunks, facts)
