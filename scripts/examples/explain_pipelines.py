#!/usr/bin/env python3
"""Explain the pipelines you already run: neo4j-graphrag's ``GraphRAG``, a LangChain chain, an OpenInference app.

The manual's page "Explain the pipeline you already run" (docs/pipelines.md) is this script's output
(``scripts/docs.py`` runs it without ``OPENAI_BASE_URL``, on a private server with APOC, and writes what it prints
there). It builds what a neo4j-graphrag user has — pip's topic guides split, embedded and written by
neo4j-graphrag's own components (``FixedSizeSplitter``, ``TextChunkEmbedder``, ``LexicalGraphBuilder``,
``Neo4jWriter``) with a vector index — and then answers one question three ways, each recorded by tgneo in the
collection ``pipelines``:

1. neo4j-graphrag's ``GraphRAG`` (``VectorRetriever`` + ``OpenAILLM``) wrapped in ``ExplainedGraphRAG``;
2. a LangChain LCEL chain over the same chunks (``Neo4jVector.from_existing_index`` with a retrieval query that
   returns each chunk's element id and document path) with ``TgneoCallbackHandler``;
3. the same chain instrumented by OpenInference, its spans exported by the OpenTelemetry SDK to ``tgneo serve``'s
   ``POST /v1/traces``.

The model is any OpenAI-compatible server (``OPENAI_BASE_URL``, ``OPENAI_API_KEY``, ``--model``,
``--embedding-model``); without one, the test suite's loopback server stands in (its answers repeat the question,
its vectors are arithmetic on characters, its token counts are word counts). Neo4j is the one ``NEO4J_URI``,
``NEO4J_USERNAME`` and ``NEO4J_PASSWORD`` name (``tgneo db env`` prints them for ``tgneo db start``'s). Their graph
is written as neo4j-graphrag writes it (``Document {path}``, ``Chunk``); ``--clean`` removes those documents, their
chunks and the index afterwards. neo4j-graphrag's ``Neo4jWriter`` needs APOC on that server, as its documentation
says (tgneo itself does not).

    eval "$(tgneo db env)"
    python scripts/examples/explain_pipelines.py --clean
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import requests
from rich.console import Console

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

GUIDES = ROOT / "scripts" / "bench" / "quality" / "pip-24.2-topics"
FILES = ("caching.md", "authentication.md", "vcs-support.md")
QUESTION = "How do I clear all files from pip's wheel and HTTP caches?"
COLLECTION = "pipelines"
INDEX = "pipeline_chunks"
console = Console(stderr=True)


@contextmanager
def model_server() -> Iterator[tuple[str, str]]:
    """The OpenAI-compatible server to use: the configured one, or the loopback stand-in."""
    if os.environ.get("OPENAI_BASE_URL"):
        yield os.environ["OPENAI_BASE_URL"], os.environ.get("OPENAI_API_KEY", "")
        return
    from tests.openai_server import OpenAIServer, serve

    with serve(OpenAIServer(dimensions=64)) as server:
        console.print(f"no OPENAI_BASE_URL: the loopback stand-in model answers at {server.url}")
        yield server.url, server.api_key


@contextmanager
def tgneo_serve(env: dict[str, str]) -> Iterator[str]:
    from tgneo.provision.server import free_port

    port = free_port()
    log = tempfile.TemporaryFile()
    process = subprocess.Popen([sys.executable, "-m", "tgneo.cli", "serve", "--port", str(port), "--workers", "1"],
                               env=env, stdout=subprocess.DEVNULL, stderr=log)  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 180
        while not _up(base):
            if process.poll() is not None or time.monotonic() > deadline:
                log.seek(0)
                raise SystemExit(f"tgneo serve did not start:\n{log.read().decode(errors='replace')}")
            time.sleep(0.2)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=60)


def _up(base: str) -> bool:
    try:
        return requests.get(f"{base}/healthz", timeout=2).status_code == 200
    except requests.ConnectionError:
        return False


def write_their_graph(driver: object, embedder: object, dimensions: int) -> int:
    """pip's guides as neo4j-graphrag's lexical graph, written by its own components."""
    from neo4j_graphrag.components.embedder import TextChunkEmbedder
    from neo4j_graphrag.components.kg_writer import Neo4jWriter
    from neo4j_graphrag.components.lexical_graph import LexicalGraphBuilder
    from neo4j_graphrag.components.text_splitters.fixed_size_splitter import FixedSizeSplitter
    from neo4j_graphrag.components.types import DocumentInfo
    from neo4j_graphrag.indexes import create_vector_index

    create_vector_index(driver, INDEX, label="Chunk", embedding_property="embedding", dimensions=dimensions,
                        similarity_fn="cosine")  # fmt: skip
    chunks = 0
    for name in FILES:
        path = GUIDES / name
        split = asyncio.run(FixedSizeSplitter(chunk_size=1200, chunk_overlap=100).run(path.read_text()))
        embedded = asyncio.run(TextChunkEmbedder(embedder).run(split))
        lexical = asyncio.run(LexicalGraphBuilder().run(embedded, DocumentInfo(path=f"pip-24.2-topics/{name}")))
        asyncio.run(Neo4jWriter(driver).run(lexical.graph))
        chunks += len(split.chunks)
    return chunks


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="gpt-4o-mini", help="the chat model [gpt-4o-mini]")
    parser.add_argument("--embedding-model", default="text-embedding-3-small", help="[text-embedding-3-small]")
    parser.add_argument("--clean", action="store_true", help="remove their graph and the collection afterwards")
    args = parser.parse_args()

    from langchain_core.output_parsers import StrOutputParser
    from langchain_core.prompts import ChatPromptTemplate
    from langchain_core.runnables import RunnablePassthrough
    from langchain_neo4j import Neo4jVector
    from langchain_openai import ChatOpenAI, OpenAIEmbeddings
    from neo4j_graphrag.embeddings import OpenAIEmbeddings as GraphragEmbeddings
    from neo4j_graphrag.generation import GraphRAG
    from neo4j_graphrag.llm import OpenAILLM
    from neo4j_graphrag.retrievers import VectorRetriever
    from openinference.instrumentation.langchain import LangChainInstrumentor
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from pydantic import SecretStr

    from tgneo.adapters.langchain import TgneoCallbackHandler
    from tgneo.adapters.neo4j_graphrag import ExplainedGraphRAG
    from tgneo.store import Store

    with ExitStack() as stack:
        url, key = stack.enter_context(model_server())
        store = stack.enter_context(Store.from_settings())
        driver = store.driver
        embedder = GraphragEmbeddings(model=args.embedding_model, base_url=url, api_key=key)
        dimensions = len(embedder.embed_query("dimensions?"))
        chunks = write_their_graph(driver, embedder, dimensions)
        console.print(f"neo4j-graphrag wrote {len(FILES)} documents, {chunks} chunks, index {INDEX} ({dimensions}-d)")

        console.rule("1. neo4j-graphrag's GraphRAG, wrapped")
        rag = GraphRAG(VectorRetriever(driver, INDEX, embedder), OpenAILLM(args.model, base_url=url, api_key=key))
        result = ExplainedGraphRAG(rag, store=store, collection=COLLECTION).search(
            QUESTION, retriever_config={"top_k": 3}
        )
        print(f"answer:  {result.answer}\ntrace:   {result.trace_uri}\nsources: {', '.join(result.sources)}")

        console.rule("2. a LangChain chain, with TgneoCallbackHandler")
        retrieval = ("MATCH (node)-[:FROM_DOCUMENT]->(d:Document) RETURN node.text AS text, score, "
                     "{source: d.path, element_id: elementId(node), score: score} AS metadata")  # fmt: skip
        vectors = Neo4jVector.from_existing_index(
            OpenAIEmbeddings(model=args.embedding_model, base_url=url, api_key=SecretStr(key),
                             check_embedding_ctx_length=False),
            url=os.environ["NEO4J_URI"], username=os.environ.get("NEO4J_USERNAME", "neo4j"),
            password=os.environ["NEO4J_PASSWORD"], index_name=INDEX, retrieval_query=retrieval,
        )  # fmt: skip
        prompt = ChatPromptTemplate.from_template(
            "Answer from the context.\nContext:\n{context}\nQuestion:\n{question}"
        )
        context = vectors.as_retriever(search_kwargs={"k": 3}) | (
            lambda docs: "\n\n".join(d.page_content for d in docs)
        )
        llm = ChatOpenAI(model=args.model, base_url=url, api_key=SecretStr(key), stream_usage=True)
        chain = {"context": context, "question": RunnablePassthrough()} | prompt | llm | StrOutputParser()
        handler = TgneoCallbackHandler(store=store, collection=COLLECTION, graph="neo4j-graphrag")
        answer = chain.invoke(QUESTION, config={"callbacks": [handler]})
        sources = ", ".join(s.title for s in handler.recordings[-1].sources)
        print(f"answer:  {answer}\ntrace:   {handler.traces[-1]}\nsources: {sources}")

        console.rule("3. the chain instrumented by OpenInference, exported to tgneo serve's /v1/traces")
        base = stack.enter_context(tgneo_serve({**os.environ, "TGNEO_GRAPHS": f"{COLLECTION}=neo4j-graphrag"}))
        provider = TracerProvider()
        exporter = OTLPSpanExporter(endpoint=f"{base}/v1/traces", headers={"X-Tgneo-Collection": COLLECTION})
        provider.add_span_processor(SimpleSpanProcessor(exporter))
        instrumentor = LangChainInstrumentor()
        instrumentor.instrument(tracer_provider=provider)
        try:
            with provider.get_tracer("pipelines").start_as_current_span("ask") as root:
                root.set_attribute("input.value", QUESTION)  # the app's own span: the tree's root and its question
                answer = chain.invoke(QUESTION)
                root.set_attribute("output.value", answer)
            provider.force_flush()
        finally:
            instrumentor.uninstrument()
            provider.shutdown()
        trace = str(uuid.UUID(int=root.get_span_context().trace_id))
        print(f"answer:  {answer}\ntrace:   urn:trustgraph:docrag:{trace}")
        vectors._driver.close()
        if args.clean:
            with driver.session(database=store.database) as session:
                session.run(
                    "MATCH (d:Document) WHERE d.path STARTS WITH 'pip-24.2-topics/' "
                    "OPTIONAL MATCH (c:Chunk)-[:FROM_DOCUMENT]->(d) DETACH DELETE c, d"
                ).consume()
                session.run(f"DROP INDEX {INDEX} IF EXISTS").consume()
                session.run("MATCH (n {workspace: 'default', collection: $c}) DETACH DELETE n", c=COLLECTION).consume()
    return 0


if __name__ == "__main__":
    sys.exit(main())
