"""tgneo explains answers over the knowledge graph a user already has, written by neo4j-graphrag, LangChain or
LLM Graph Builder (``tests/foreign_graphs.py``), read through a graph profile, without writing on it.

Each profile's graph is written by its tool on a private server with APOC (which both libraries need; tgneo's
reads need none), from three of pip's topic guides; every test of a profile asks through that graph.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import subprocess
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import requests
from neo4j import Driver
from neo4j_graphrag.components.embedder import TextChunkEmbedder
from neo4j_graphrag.components.kg_writer import Neo4jWriter
from neo4j_graphrag.components.lexical_graph import LexicalGraphBuilder
from neo4j_graphrag.components.types import DocumentInfo, LexicalGraphConfig, TextChunk, TextChunks
from neo4j_graphrag.indexes import create_vector_index
from neo4j_graphrag.retrievers import VectorCypherRetriever, VectorRetriever

import tgneo
from tests.clirun import TGNEO
from tests.coexisting import driver_for, rows, wipe
from tests.conftest import Neo4jServer
from tests.foreign_graphs import (
    DIMENSIONS,
    GRAPHRAG_VECTOR,
    PIP_TOPICS,
    Built,
    GraphragEmbedder,
    read_corpus,
    their_embedding,
    write_langchain,
    write_llm_graph_builder,
    write_neo4j_graphrag,
)
from tests.openai_server import OpenAIServer, serve
from tests.private_neo4j import emptied
from tests.serving import running, serve_cmd, tg
from tgneo.engines import Request, build_engine
from tgneo.errors import BadRequest
from tgneo.explain.events import AnswerChunk, ErrorEvent, Event, ExplainEvent, SessionEnd
from tgneo.graph_profiles import BUILTIN, ProfileError, load_profile, node_iri
from tgneo.ingest.loader import ReadDocument
from tgneo.ingest.side_index import build_side_index
from tgneo.kinds import SessionKind
from tgneo.llm.offline import OfflineLLM
from tgneo.llm.offline.embedders import DEFAULT
from tgneo.llm.openai_provider import OpenAILLM
from tgneo.provision.server import free_port
from tgneo.rdf.ontology import graph_of, validate
from tgneo.store import Store, install_schema
from tgneo.store.foreign import clear_checks
from tgneo.store.rdf_export import export_quads
from tgneo.store.retention import Policy, prune
from tgneo.store.traces import get_trace, list_traces

pytestmark = [pytest.mark.filterwarnings("ignore:The default returned 'id' field:DeprecationWarning")]

W, C = "test-profiles", "test-their-graph"
FILES = ("caching.md", "authentication.md", "vcs-support.md")
QUESTIONS = {
    SessionKind.GRAPH_RAG: ("Which command shows the directory pip uses for its cache?", "caching.md"),
    SessionKind.DOC_RAG: ("How does pip cache wheels it builds from source?", "caching.md"),
    SessionKind.AGENT: ("Which keyring backend does pip use for authentication?", "authentication.md"),
}


@pytest.fixture(scope="module")
def corpus() -> list[ReadDocument]:
    return read_corpus([PIP_TOPICS / name for name in FILES])


@pytest.fixture(scope="module")
def server(apoc_neo4j: Neo4jServer) -> Neo4jServer:
    return emptied(apoc_neo4j)


@pytest.fixture(scope="module")
def driver(server: Neo4jServer) -> Iterator[Driver]:
    with driver_for(server) as d:
        yield d


@dataclass(frozen=True)
class Their:
    """One tool's graph, written, and tgneo's store on the same server."""

    name: str
    built: Built
    store: Store
    driver: Driver
    server: Neo4jServer


def _build(name: str, server: Neo4jServer, driver: Driver, corpus: list[ReadDocument]) -> Built:
    if name == "neo4j-graphrag":
        return write_neo4j_graphrag(driver, corpus, their_embedding, DIMENSIONS)
    if name == "langchain":
        return write_langchain(server, corpus, their_embedding)
    return write_llm_graph_builder(server, driver, corpus, their_embedding, DIMENSIONS)


@pytest.fixture(scope="module", params=list(BUILTIN))
def their(
    request: pytest.FixtureRequest, server: Neo4jServer, driver: Driver, corpus: list[ReadDocument]
) -> Iterator[Their]:
    wipe(driver)
    clear_checks()
    built = _build(request.param, server, driver, corpus)
    assert built.chunks > 10 and built.facts > 50, built
    with Store.from_settings(server.settings()) as store:
        install_schema(store)
        yield Their(request.param, built, store, driver, server)


def ask(their: Their, kind: SessionKind, question: str, collection: str = C) -> list[Event]:
    engine = build_engine(kind, their.store, OfflineLLM())
    return list(engine.answer(Request(question, W, collection, graph=BUILTIN[their.name])))


def _end(events: list[Event]) -> SessionEnd:
    errors = [e for e in events if isinstance(e, ErrorEvent)]
    assert not errors, errors[0].message
    (end,) = [e for e in events if isinstance(e, SessionEnd)]
    return end


def their_graph(driver: Driver) -> dict[str, Any]:
    """Every node and relationship that is not tgneo's, with all its labels and properties."""
    nodes = rows(
        driver, "MATCH (n) WHERE NOT n:Tgneo RETURN elementId(n) AS id, labels(n) AS labels, properties(n) AS props "
        "ORDER BY id",
    )  # fmt: skip
    rels = rows(
        driver, "MATCH (a)-[r]->(b) WHERE NOT a:Tgneo OR NOT b:Tgneo RETURN elementId(r) AS id, type(r) AS type, "
        "properties(r) AS props, a:Tgneo AS from_tgneo, b:Tgneo AS to_tgneo ORDER BY id",
    )  # fmt: skip
    return {"nodes": nodes, "relationships": rels}


@pytest.fixture(scope="module")
def indexed(their: Their) -> Their:
    """Their graph with tgneo's side index built (the offline provider cannot ask their 1536-d indexes)."""
    before = their_graph(their.driver)
    report = build_side_index(their.store, OfflineLLM(), BUILTIN[their.name], W, C)
    assert report.entities > 0
    assert their_graph(their.driver) == before
    return their


def _warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "tgneo.graphs" and r.levelno == logging.WARNING]


@pytest.mark.parametrize("their", ["neo4j-graphrag", "langchain"], indirect=True)
def test_a_question_no_index_can_answer_is_answered_by_a_bounded_scan_with_a_warning_naming_the_remedy(
    their: Their, caplog: pytest.LogCaptureFixture
) -> None:
    """Neither neo4j-graphrag nor LangChain makes an index on entities that the offline embedder can ask."""
    question, gold = QUESTIONS[SessionKind.GRAPH_RAG]
    with caplog.at_level(logging.WARNING, logger="tgneo.graphs"):
        end = _end(ask(their, SessionKind.GRAPH_RAG, question, "test-no-side-index"))
    assert any(gold in s.title for s in end.sources), end.sources
    (warning,) = _warnings(caplog)
    assert "\n" not in warning and "are found by a full scan of at most" in warning
    assert f"tgneo load index --graph {their.name}" in warning


@pytest.mark.parametrize("their", ["neo4j-graphrag"], indirect=True)
def test_a_dimension_mismatch_is_named_in_the_fallback_warning_with_both_dimensions(
    their: Their, caplog: pytest.LogCaptureFixture
) -> None:
    """neo4j-graphrag's graph has only a vector index (1536-d) on its chunks."""
    with caplog.at_level(logging.WARNING, logger="tgneo.graphs"):
        _end(ask(their, SessionKind.DOC_RAG, QUESTIONS[SessionKind.DOC_RAG][0], "test-no-side-index"))
    (warning,) = _warnings(caplog)
    assert f"tgneo load index --graph {their.name}" in warning
    assert f"{DIMENSIONS}-dimensional" in warning and f"gives {OfflineLLM().dimensions}" in warning


@pytest.mark.parametrize("their", ["llm-graph-builder"], indirect=True)
def test_llm_graph_builder_answers_through_its_own_full_text_indexes(their: Their) -> None:
    """Only LLM Graph Builder ships full-text indexes on its entities and chunks."""
    question, gold = QUESTIONS[SessionKind.GRAPH_RAG]
    end = _end(ask(their, SessionKind.GRAPH_RAG, question, "test-no-side-index"))
    assert any(gold in s.title for s in end.sources), end.sources


@pytest.mark.parametrize("kind", list(QUESTIONS), ids=[k.wire for k in QUESTIONS])
def test_each_engine_answers_over_their_graph_citing_their_documents(indexed: Their, kind: SessionKind) -> None:
    question, gold = QUESTIONS[kind]
    events = ask(indexed, kind, question)
    end = _end(events)
    answer = "".join(e.text for e in events if isinstance(e, AnswerChunk))
    assert answer.strip()
    titles = [s.title for s in end.sources]
    assert any(gold in t for t in titles), titles
    named = {"neo4j-graphrag": "path", "llm-graph-builder": "fileName", "langchain": "source"}[indexed.name]
    documents = {str(r["name"]) for r in rows(indexed.driver, f"MATCH (d:Document) RETURN d.{named} AS name")}
    assert set(titles) <= documents, (titles, named)


def test_asking_sets_no_label_property_or_relationship_on_their_graph(indexed: Their) -> None:
    before = their_graph(indexed.driver)
    for kind, (question, _) in QUESTIONS.items():
        _end(ask(indexed, kind, question))
    assert their_graph(indexed.driver) == before
    crossing = rows(indexed.driver, "MATCH (a)-[r]-(b) WHERE a:Tgneo AND NOT b:Tgneo RETURN count(r) AS n")
    assert crossing[0]["n"] == 0


def test_a_selected_edge_is_a_reified_node_of_tgneos_naming_their_nodes(indexed: Their) -> None:
    end = _end(ask(indexed, SessionKind.GRAPH_RAG, QUESTIONS[SessionKind.GRAPH_RAG][0]))
    trace = get_trace(indexed.store, W, C, end.trace or "")
    focus = next(s for s in trace["steps"] if s["type"] == "Focus")
    assert focus["edges"]
    for edge in focus["edges"]:
        statement = edge["statement"]
        assert statement["s"].startswith("urn:neo4j:") and statement["p"].startswith("urn:neo4j:type:")
        (source, *_) = statement["sources"]
        chain = [step["uri"] for step in source["chain"]]
        assert chain[1].startswith("urn:chunk:neo4j:") and chain[-1].startswith("urn:neo4j:")
        assert source["evidence"]


def test_their_traces_pass_tgneos_shacl_shapes(indexed: Their) -> None:
    end = _end(ask(indexed, SessionKind.GRAPH_RAG, QUESTIONS[SessionKind.GRAPH_RAG][0]))
    conforms, _, report = validate(graph_of(export_quads(indexed.store, W, C, end.trace, "prov")))
    assert conforms, report


def test_building_the_side_index_again_embeds_only_what_changed(indexed: Their) -> None:
    report = build_side_index(indexed.store, OfflineLLM(), BUILTIN[indexed.name], W, C)
    assert report.entities == 0 and report.chunks == 0 and report.unchanged > 0


def test_the_side_index_puts_no_index_on_their_labels(indexed: Their) -> None:
    ours = rows(indexed.driver, "SHOW INDEXES YIELD name, labelsOrTypes WHERE name STARTS WITH 'tgneo_' RETURN *")
    assert ours and all(label.startswith("Tg") for i in ours for label in i["labelsOrTypes"] or [])


@pytest.mark.parametrize("their", ["neo4j-graphrag"], indirect=True)
def test_neo4j_graphrag_retrievers_return_the_same_records_after_tgneo_answered(indexed: Their) -> None:
    """Its ``VectorRetriever``, and a ``VectorCypherRetriever`` whose query follows any relationship of an entity."""

    embedder = GraphragEmbedder(their_embedding)
    wide = ("MATCH (node)<-[:FROM_CHUNK]-(e)-[r]-(x) "
            "RETURN node.text AS text, collect(DISTINCT type(r)) AS types, count(x) AS n")  # fmt: skip

    def retrieved() -> list[Any]:
        vector = VectorRetriever(indexed.driver, GRAPHRAG_VECTOR, embedder, return_properties=["text"])
        cypher = VectorCypherRetriever(indexed.driver, GRAPHRAG_VECTOR, wide, embedder)
        question = QUESTIONS[SessionKind.DOC_RAG][0]
        return [[(i.content, i.metadata) for i in r.search(query_text=question, top_k=5).items]
                for r in (vector, cypher)]  # fmt: skip

    before = retrieved()
    for kind, (question, _) in QUESTIONS.items():
        _end(ask(indexed, kind, question))
    assert retrieved() == before


def test_a_profile_file_naming_a_label_the_database_lacks_is_one_line(their: Their, tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text('extends = "neo4j-graphrag"\n[entity]\nlabel = "Thing"\n', encoding="utf-8")
    engine = build_engine(SessionKind.GRAPH_RAG, their.store, OfflineLLM())
    with pytest.raises(ProfileError) as refused:
        list(engine.answer(Request("anything?", W, C, graph=load_profile(str(path)))))
    assert "\n" not in str(refused.value)
    assert "entity.label names the label 'Thing', which does not exist in the database" in str(refused.value)
    assert not rows(their.driver, "MATCH (n:Tgneo {workspace: $w}) WHERE n.query = 'anything?' RETURN n", w=W)


def test_an_unknown_profile_is_refused_naming_the_built_in_ones() -> None:
    with pytest.raises(ProfileError, match="neo4j-graphrag, llm-graph-builder, langchain"):
        load_profile("graphrag")


def test_an_explored_event_holds_their_iris(indexed: Their) -> None:
    events = ask(indexed, SessionKind.GRAPH_RAG, QUESTIONS[SessionKind.GRAPH_RAG][0])
    explains = [e for e in events if isinstance(e, ExplainEvent)]
    assert any("urn:neo4j:" in str(t) for e in explains for t in e.triples)


def _tgneo(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*TGNEO, *args], env=env, capture_output=True, text=True,
                          timeout=300, check=False)  # fmt: skip


@pytest.mark.parametrize("their", ["neo4j-graphrag"], indirect=True)
def test_the_cli_builds_the_side_index_and_asks_with_graph(their: Their) -> None:
    env = their.server.env()
    scope = ["--workspace", W, "--collection", "test-cli"]
    built = _tgneo(env, "load", "index", "--graph", "neo4j-graphrag", *scope)
    assert built.returncode == 0, built.stderr
    assert "side index over the neo4j-graphrag graph" in built.stderr
    question, gold = QUESTIONS[SessionKind.GRAPH_RAG]
    asked = _tgneo(env, "ask", question, "-x", "--graph", "neo4j-graphrag", *scope)
    assert asked.returncode == 0, asked.stderr
    assert "pip cache dir" in asked.stdout
    assert gold in asked.stderr and "urn:trustgraph:question:" in asked.stderr
    wrong = _tgneo(env, "ask", question, "--graph", "graphrag", *scope)
    assert wrong.returncode != 0 and "not a built-in profile" in wrong.stderr


@pytest.mark.parametrize("their", ["neo4j-graphrag"], indirect=True)
def test_trustgraphs_cli_answers_and_shows_the_trace_of_a_collection_mapped_to_their_graph(their: Their) -> None:
    collection = "test-tg-cli"
    build_side_index(their.store, OfflineLLM(), BUILTIN["neo4j-graphrag"], "default", collection)
    port = free_port()
    env = {**their.server.env(), "TGNEO_GRAPHS": f"{collection}=neo4j-graphrag"}
    env.pop("TGNEO_TOKENS", None)
    question = QUESTIONS[SessionKind.GRAPH_RAG][0]
    with running(serve_cmd(port, "--workers", "1"), env, port) as base:
        tg_env = {k: v for k, v in env.items() if not k.startswith("TRUSTGRAPH_")} | {"TRUSTGRAPH_URL": base + "/"}
        asked = tg("tg-invoke-graph-rag", "-x", "-C", collection, "-q", question, env=tg_env)
        assert asked.returncode == 0 and "Exception" not in asked.stderr + asked.stdout, asked.stderr
        assert "pip cache dir" in asked.stdout
        uri = re.search(r"urn:trustgraph:question:[0-9a-f-]{36}", asked.stderr)
        assert uri, asked.stderr
        shown = tg("tg-show-explain-trace", "-C", collection, "--show-provenance", uri.group(0), env=tg_env)
        assert shown.returncode == 0, shown.stderr
        assert re.search(r"Source: https://trustgraph.ai/subgraph/\S+ -> urn:chunk:neo4j:\S+ -> urn:neo4j:",
                         shown.stdout), shown.stdout  # fmt: skip
        build_side_index(their.store, OfflineLLM(), BUILTIN["neo4j-graphrag"], "default", "test-http")
        body = {"query": question, "collection": "test-http", "graph-profile": "neo4j-graphrag"}
        streamed = requests.post(f"{base}/api/v1/graph-rag", json=body, timeout=120)
        final = [json.loads(line) for line in streamed.text.splitlines() if line.strip()][-1]
        assert streamed.status_code == 200 and final.get("end_of_session") and "error" not in final, final
        body["graph-profile"] = "nonesuch"
        refused = requests.post(f"{base}/api/v1/graph-rag", json=body, timeout=60)
        assert refused.status_code == 400 and "graph-profile: 'nonesuch'" in refused.json()["error"]["message"]


@pytest.mark.parametrize("their", ["neo4j-graphrag"], indirect=True)
def test_an_embedder_of_their_models_dimensions_asks_their_vector_index_directly(
    their: Their, corpus: list[ReadDocument], tmp_path: Path
) -> None:
    """A lexical graph under labels of the user's choosing (a profile file names them), embedded by their model:
    an OpenAI-compatible server on loopback. tgneo, configured with that model, reads their index; it has no
    side index in that collection."""
    with serve(OpenAIServer(dimensions=64)) as model:
        llm = OpenAILLM(model="test-model", base_url=model.url, api_key=model.api_key, timeout=10.0, retries=0)
        config = LexicalGraphConfig(chunk_node_label="ModelChunk", document_node_label="ModelDocument")
        create_vector_index(their.driver, "model_chunks", label="ModelChunk", embedding_property="embedding",
                            dimensions=64, similarity_fn="cosine")  # fmt: skip
        doc = corpus[0]
        chunks = TextChunks(chunks=[TextChunk(text=c.text, index=i) for i, (c, _) in enumerate(doc.chunks)])
        embedder = GraphragEmbedder(lambda texts: llm.embed(list(texts)).vectors)
        embedded = asyncio.run(TextChunkEmbedder(embedder).run(chunks))
        lexical = asyncio.run(LexicalGraphBuilder(config).run(embedded, DocumentInfo(path="their/caching.md")))
        assert asyncio.run(Neo4jWriter(their.driver).run(lexical.graph, config)).status == "SUCCESS"
        path = tmp_path / "model.toml"
        path.write_text('[chunk]\nlabel = "ModelChunk"\n[document]\nlabel = "ModelDocument"\n', encoding="utf-8")
        profile = load_profile(str(path))
        nearest = doc.chunks[3][0].text
        events = list(build_engine(SessionKind.DOC_RAG, their.store, llm).answer(
            Request(nearest, W, "test-their-index", graph=profile)))  # fmt: skip
        llm.close()
    end = _end(events)
    assert [s.title for s in end.sources] == ["their/caching.md"]
    trace = get_trace(their.store, W, "test-their-index", end.trace or "")
    focus = next(s for s in trace["steps"] if s["type"] == "Focus")
    best = max(focus["chunks"], key=lambda c: c["score"])
    assert best["chunk"]["text"] == nearest
    assert not rows(their.driver, "MATCH (n:TgResource {collection: 'test-their-index'}) WHERE n.element IS NOT NULL "
                                  "AND n.embedding IS NOT NULL RETURN n LIMIT 1")  # fmt: skip


def test_a_chunk_of_theirs_that_changed_marks_the_answers_that_quoted_it_stale(indexed: Their) -> None:
    question = QUESTIONS[SessionKind.DOC_RAG][0]
    end = _end(ask(indexed, SessionKind.DOC_RAG, question))
    trace = get_trace(indexed.store, W, C, end.trace or "")
    focus = next(s for s in trace["steps"] if s["type"] == "Focus")
    quoted = focus["chunks"][0]["chunk"]["text"]
    label = BUILTIN[indexed.name].chunk.label
    edited = rows(indexed.driver, "MATCH (c) WHERE $label IN labels(c) AND c.text = $text "
                                  "SET c.text = c.text + ' (edited by their pipeline)' RETURN count(c) AS n",
                  label=label, text=quoted)  # fmt: skip
    assert edited[0]["n"] >= 1
    report = build_side_index(indexed.store, OfflineLLM(), BUILTIN[indexed.name], W, C)
    assert report.chunks >= 1 and report.stale_traces >= 1
    stale = [t["uri"] for t in list_traces(indexed.store, W, C, stale=True, limit=1000).traces]
    assert end.trace in stale


@pytest.mark.parametrize("their", ["llm-graph-builder"], indirect=True)
def test_the_side_index_follows_their_nodes_when_they_are_deleted_or_recreated(indexed: Their) -> None:
    """LLM Graph Builder's entities are keyed by ``id``: a re-created entity keeps its IRI, not its element id."""
    name = rows(indexed.driver, "MATCH (e:__Entity__)<-[:HAS_ENTITY]-() RETURN e.id AS id ORDER BY id LIMIT 1")[0]["id"]
    iri = node_iri("__Entity__", "id", name)

    def entry() -> list[dict[str, Any]]:
        found = "MATCH (n:TgResource {workspace: $w, collection: $c, uri: $u}) WHERE n.embedding IS NOT NULL "
        return rows(indexed.driver, found + "RETURN n.element AS element", w=W, c=C, u=iri)

    assert len(entry()) == 1
    rows(indexed.driver, "MATCH (e:__Entity__ {id: $id}) DETACH DELETE e", id=name)
    gone = build_side_index(indexed.store, OfflineLLM(), BUILTIN[indexed.name], W, C)
    assert gone.retired >= 1 and entry() == []
    element = rows(indexed.driver, "CREATE (e:__Entity__:Concept {id: $id}) RETURN elementId(e) AS e", id=name)[0]["e"]
    back = build_side_index(indexed.store, OfflineLLM(), BUILTIN[indexed.name], W, C)
    assert back.entities == 1 and entry() == [{"element": element}]


def test_retention_prunes_their_traces_and_leaves_their_graph(indexed: Their) -> None:
    collection = "test-prune"
    build_side_index(indexed.store, OfflineLLM(), BUILTIN[indexed.name], W, collection)
    for kind, (question, _) in QUESTIONS.items():
        _end(ask(indexed, kind, question, collection))
    before = their_graph(indexed.driver)
    report = prune(indexed.store, W, collection, Policy(max_traces=0), who="test")
    assert report.traces == 3
    assert list_traces(indexed.store, W, collection).traces == []
    assert their_graph(indexed.driver) == before


@pytest.mark.parametrize("their", ["neo4j-graphrag"], indirect=True)
def test_a_neo4j_graphrag_retrievers_items_are_recorded_with_their_source_chains(their: Their) -> None:
    """A user's own pipeline (neo4j-graphrag's ``VectorRetriever``, their answer) recorded through ``tgneo.record``:
    retrieved items are their chunks by element id, so the trace cites their documents; an item from elsewhere
    keeps the text the pipeline passed."""
    question = QUESTIONS[SessionKind.DOC_RAG][0]
    retriever = VectorRetriever(their.driver, GRAPHRAG_VECTOR, GraphragEmbedder(their_embedding),
                                return_properties=["text"])  # fmt: skip
    items = retriever.search(query_text=question, top_k=3).items
    retrieved = [tgneo.Retrieved(i.metadata["id"], str(i.content), i.metadata["score"]) for i in items]
    web = tgneo.Retrieved("https://example.org/pip-faq#cache", "pip caches wheels it builds from source.", 0.5,
                          source="pip FAQ")  # fmt: skip
    events: list[ExplainEvent] = []
    with tgneo.record(question, store=their.store, workspace=W, collection="test-recorded", graph="neo4j-graphrag",
                      sink=events.append) as t:  # fmt: skip
        t.grounding(["cache wheels"], model="their-model", in_tokens=40, out_tokens=3)
        t.exploration([*retrieved, web])
        t.focus([retrieved[0], web])
        text = retrieved[0].text.split(".")[0] + ". pip caches wheels it builds from source."
        t.synthesis(text, model="their-model", in_tokens=900, out_tokens=30)
    kinds = ["docrag_question", "grounding", "docrag_exploration", "docrag_focus", "docrag_synthesis"]
    assert [e.kind for e in events] == kinds
    titles = {s.title for s in t.sources}
    assert "pip FAQ" in titles and any(title.endswith(".md") for title in titles), titles
    trace = get_trace(their.store, W, "test-recorded", t.uri)
    focus = next(s for s in trace["steps"] if s["type"] == "Focus")
    chunks = [c["chunk"]["uri"] for c in focus["chunks"]]
    assert chunks[0].startswith("urn:chunk:neo4j:element:") and chunks[1].startswith("urn:chunk:recorded-")
    synthesis = next(s for s in trace["steps"] if s["type"] == "Synthesis")
    assert synthesis["properties"]["llmModel"] == "their-model" and len(synthesis["sentences"]) == 2
    conforms, _, report = validate(graph_of(export_quads(their.store, W, "test-recorded", t.uri, "prov")))
    assert conforms, report


@pytest.mark.parametrize("their", ["neo4j-graphrag"], indirect=True)
def test_a_recorded_step_out_of_order_is_refused_and_the_steps_before_it_stay(their: Their) -> None:
    with pytest.raises(BadRequest, match="record the grounding before the exploration"):
        with tgneo.record("out of order?", store=their.store, workspace=W, collection="test-recorded-2") as t:
            t.exploration([tgneo.Retrieved("x", "some text")])
    trace = get_trace(their.store, W, "test-recorded-2", t.uri)
    assert [s["type"] for s in trace["steps"]] == ["DocRagQuestion"]


@pytest.mark.parametrize("their", ["neo4j-graphrag"], indirect=True)
def test_a_graph_pipelines_edges_are_recorded_with_their_source_chains(their: Their) -> None:
    """Edges a user's own GraphRAG pipeline retrieved: one a relationship of their graph (by element id: its
    ends, type and passages are read there), one from elsewhere with the sentence and document it came from."""
    (rel,) = rows(their.driver, "MATCH (a:__Entity__ {name: 'pip cache dir'})-[r]->(b:__Entity__) "
                                "RETURN elementId(r) AS id ORDER BY id LIMIT 1")  # fmt: skip
    theirs = tgneo.RetrievedEdge(id=rel["id"], score=0.9, reasoning="names the command")
    faq = tgneo.RetrievedEdge("pip", "stores its cache in", "~/.cache/pip", evidence="pip stores its cache in "
                              "~/.cache/pip on Linux.", source="pip FAQ", score=0.7)  # fmt: skip
    question = QUESTIONS[SessionKind.GRAPH_RAG][0]
    with tgneo.record(question, kind="graph-rag", store=their.store, workspace=W, collection="test-recorded-graph",
                      graph="neo4j-graphrag") as t:  # fmt: skip
        t.grounding(["pip cache dir"])
        t.exploration([theirs, faq], entities=["pip cache dir"])
        t.focus([theirs, faq])
        t.synthesis("Run `pip cache dir`. pip stores its cache in ~/.cache/pip on Linux.", model="their-model",
                    in_tokens=300, out_tokens=20)  # fmt: skip
    titles = {s.title for s in t.sources}
    assert "pip FAQ" in titles and any(title.endswith("caching.md") for title in titles), titles
    trace = get_trace(their.store, W, "test-recorded-graph", t.uri)
    focus = next(s for s in trace["steps"] if s["type"] == "Focus")
    statements = [e["statement"] for e in focus["edges"]]
    assert statements[0]["s"].startswith("urn:neo4j:element:") and statements[0]["s_label"] == "pip cache dir"
    assert all(st["sources"] and st["sources"][0]["evidence"] for st in statements), statements
    assert [e["reasoning"] for e in focus["edges"]] == ["names the command", None]
    conforms, _, report = validate(graph_of(export_quads(their.store, W, "test-recorded-graph", t.uri, "prov")))
    assert conforms, report


@pytest.mark.parametrize("their", ["neo4j-graphrag"], indirect=True)
def test_an_agents_tool_calls_are_recorded_as_analyses_observations_and_a_conclusion(their: Their) -> None:
    """A user's own agent (no graph needed): each tool call is an Analysis and an Observation, a failed one typed
    an error, then the Conclusion; the trace reads like tgneo's own agent's and passes the SHACL shapes."""
    with tgneo.record("What is 1934 - 1867?", kind="agent", store=their.store, workspace=W,
                      collection="test-recorded-agent") as t:  # fmt: skip
        t.step("I need a calculator.", "calculator", {"expression": "1934 - "}, "", error="incomplete expression",
               model="their-model", in_tokens=50, out_tokens=12)  # fmt: skip
        t.step("Try again, whole.", "calculator", {"expression": "1934 - 1867"}, "67", model="their-model",
               in_tokens=70, out_tokens=12, tool_ms=3)  # fmt: skip
        t.conclusion("1934 - 1867 is 67.", model="their-model", in_tokens=90, out_tokens=8)
    trace = get_trace(their.store, W, "test-recorded-agent", t.uri)
    types = [s["type"] for s in trace["steps"]]
    assert types[0] == "AgentQuestion" and types.count("Analysis") == 2 and types.count("Conclusion") == 1, types
    observations = [s for s in trace["steps"] if s["type"] == "Observation"]
    assert [o.get("error") for o in observations] == ["incomplete expression", None]
    totals = trace["totals"]
    assert (totals["inToken"], totals["outToken"], totals["models"], totals["errors"]) == (210, 32, ["their-model"], 1)
    conforms, _, report = validate(graph_of(export_quads(their.store, W, "test-recorded-agent", t.uri, "prov")))
    assert conforms, report
    with pytest.raises(BadRequest, match="no grounding"):
        with tgneo.record(
            "grounded?", kind="agent", store=their.store, workspace=W, collection="test-recorded-agent"
        ) as a:
            a.grounding(["x"])


@pytest.mark.parametrize("their", ["neo4j-graphrag"], indirect=True)
def test_sixteen_concurrent_questions_record_each_source_once(indexed: Their) -> None:
    """Concurrent answers quoting the same passages write the same source nodes: each ends whole, each passage and
    document of theirs is recorded once."""
    build_side_index(indexed.store, OfflineLLM(), BUILTIN[indexed.name], W, "test-concurrent")
    kinds = [kind for kind in QUESTIONS for _ in range(6)][:16]
    with ThreadPoolExecutor(max_workers=16) as pool:
        ends = list(pool.map(lambda kind: _end(ask(indexed, kind, QUESTIONS[kind][0], "test-concurrent")), kinds))
    assert all(end.sources for end in ends)
    twice = rows(indexed.driver, "MATCH (n:TgResource {workspace: $w, collection: 'test-concurrent'}) "
                                 "WITH n.uri AS uri, count(*) AS n WHERE n > 1 RETURN uri", w=W)  # fmt: skip
    assert twice == []


OTHER = "tgneo-offline-hash-256" if DEFAULT == "all-minilm-l6-v2-q" else "all-minilm-l6-v2-q"
"""An offline embedder other than the default, of other dimensions (256 against 384): moving to it rebuilds the
database-wide vector indexes."""


@pytest.mark.parametrize("their", ["neo4j-graphrag"], indirect=True)
def test_reembedding_all_collections_moves_a_side_index_to_the_new_model_and_back(indexed: Their) -> None:
    """A side index is embedded again with the profile it was built with, their graph untouched; moving back to the
    default model leaves the module's other tests the graph they expect."""
    from tgneo.ingest.index import reembed_all

    def models() -> list[str]:
        found = rows(indexed.driver, "MATCH (n:TgResource {workspace: $w, collection: $c}) WHERE n.profile IS NOT NULL "
                                     "RETURN DISTINCT n.embeddedWith AS model", w=W, c=C)  # fmt: skip
        return [r["model"] for r in found]

    before = their_graph(indexed.driver)
    default, other = OfflineLLM(), OfflineLLM(embedding_model=OTHER)
    try:
        report = reembed_all(indexed.store, other)
        assert models() == [other.embedding_model] and not report.left
        assert (W, C) in {(w, c) for w, c, n in report.collections if n > 0}
    finally:
        back = reembed_all(indexed.store, default)
    assert models() == [default.embedding_model] and back.dropped > 0
    assert their_graph(indexed.driver) == before


@pytest.mark.parametrize("their", ["neo4j-graphrag"], indirect=True)
def test_reembedding_all_collections_names_a_side_index_whose_profile_file_it_cannot_open(
    indexed: Their, tmp_path: Path
) -> None:
    """A profile file is known by the name inside it, not its path: the side index built with it is left for its
    own ``tgneo load index --graph FILE``, and said so, instead of failing the whole re-embedding."""
    from tgneo.ingest.index import reembed_all

    path = tmp_path / "mine.toml"
    path.write_text('name = "mine"\nextends = "neo4j-graphrag"\n', encoding="utf-8")
    build_side_index(indexed.store, OfflineLLM(), load_profile(str(path)), W, "test-file-profile")
    try:
        report = reembed_all(indexed.store, OfflineLLM(embedding_model=OTHER))
        (left,) = [line for line in report.left if "--collection test-file-profile" in line]
        assert "'mine'" in left
        assert (W, C) in {(w, c) for w, c, n in report.collections if n > 0}
    finally:
        reembed_all(indexed.store, OfflineLLM())
        rows(indexed.driver, "MATCH (n:TgResource {workspace: $w, collection: 'test-file-profile'}) DETACH DELETE n",
             w=W)  # fmt: skip
