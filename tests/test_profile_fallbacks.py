"""Graph profiles over what their tools really leave behind (issue 37, part 3).

* LLM Graph Builder makes its entity vector index, its entity and community full-text indexes and its
  communities only when the user turns post-processing on: a graph with just ``vector`` and ``keyword``
  answers with every engine, with and without tgneo's side index, and a warning names the fallback taken.
* LangChain's documents are named by their ``source`` (never their md5 ``id``): GraphRAG's passages (the source
  ``Document`` nodes) and Document RAG's ``Neo4jVector`` chunks reach the same document, one ``TgDocument`` per
  real document, and every IRI a trace cites names a node that exists.
* What else their tools write (LangGraph checkpoints, chat history, communities) is never explored.

Each graph is written by the real library, or by LLM Graph Builder's own statements, on one private server with
APOC for the whole module.
"""

from __future__ import annotations

import logging
import re
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TypedDict
from urllib.parse import unquote

import pytest
from langchain_core.documents import Document
from langchain_neo4j import Neo4jChatMessageHistory, Neo4jGraph, Neo4jVector
from langchain_neo4j.checkpoint import Neo4jSaver
from langchain_neo4j.graphs.graph_document import GraphDocument, Node, Relationship
from langgraph.graph import END, START, StateGraph
from neo4j import Driver

from tests.clirun import TGNEO
from tests.coexisting import (
    LGB_COMMUNITY_CONSTRAINT,
    LGB_COMMUNITY_LEVELS,
    LGB_COMMUNITY_SUMMARIES,
    driver_for,
    rows,
    wipe,
)
from tests.conftest import Neo4jServer
from tests.foreign_graphs import (
    DIMENSIONS,
    PIP_TOPICS,
    _LangchainEmbeddings,
    read_corpus,
    their_embedding,
    write_langchain,
    write_llm_graph_builder,
)
from tests.private_neo4j import emptied
from tgneo.engines import Request, build_engine
from tgneo.explain.events import ErrorEvent, Event, ExplainEvent, SessionEnd
from tgneo.graph_profiles import BUILTIN, CHAT_HISTORY, LANGGRAPH_CHECKPOINTS, GraphProfile, ProfileError, load_profile
from tgneo.ingest.loader import ReadDocument
from tgneo.ingest.side_index import build_side_index
from tgneo.kinds import SessionKind
from tgneo.llm.offline import OfflineLLM
from tgneo.store import Store, install_schema
from tgneo.store.foreign import clear_checks
from tgneo.store.traces import get_trace

pytestmark = [pytest.mark.filterwarnings("ignore:The default returned 'id' field:DeprecationWarning")]

W = "test-fallbacks"
FILES = ("caching.md", "authentication.md", "vcs-support.md")
QUESTIONS = {
    SessionKind.GRAPH_RAG: ("Which command shows the directory pip uses for its cache?", "caching.md"),
    SessionKind.DOC_RAG: ("How does pip cache wheels it builds from source?", "caching.md"),
    SessionKind.AGENT: ("Which keyring backend does pip use for authentication?", "authentication.md"),
}
KINDS = list(QUESTIONS)
IDS = [k.wire for k in KINDS]
LGB_EXCLUDED = ("User", *CHAT_HISTORY, "__Community__")
LANGCHAIN_EXCLUDED = (*LANGGRAPH_CHECKPOINTS, *CHAT_HISTORY)


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
    """One graph as their tool left it, and tgneo's store on the same server."""

    name: str
    profile: str
    store: Store
    driver: Driver
    server: Neo4jServer


def _lgb_communities(driver: Driver) -> None:
    """LLM Graph Builder's community step: GDS's Leiden writes each entity's ``communities`` (here: by name, two
    levels), then its own statements make the ``__Community__`` nodes and their summaries."""
    driver.execute_query("MATCH (e:__Entity__) SET e.communities = [size(e.id) % 5, size(e.id) % 2]")
    driver.execute_query(LGB_COMMUNITY_CONSTRAINT)
    driver.execute_query(LGB_COMMUNITY_LEVELS)
    summaries = [{"community": f"0-{i}", "summary": f"pip cache community {i}"} for i in range(5)]
    driver.execute_query(LGB_COMMUNITY_SUMMARIES, data=summaries)


class _State(TypedDict):
    question: str


def _chat_and_checkpoints(server: Neo4jServer) -> None:
    """A LangGraph app with langchain-neo4j's ``Neo4jSaver`` (its checkpoint nodes) and a chat kept by its
    ``Neo4jChatMessageHistory`` (``Session``, ``Message``), both about pip's cache."""
    graph = Neo4jGraph(url=server.uri, username=server.username, password=server.password or "")
    try:
        history = Neo4jChatMessageHistory("pip-chat", graph=graph)
        history.add_user_message("Which command shows the directory pip uses for its cache?")
        history.add_ai_message("pip cache dir shows the cache directory.")
    finally:
        graph.close()
    with Neo4jSaver.from_conn_string(server.uri, server.username, server.password or "") as saver:
        saver.setup()
        app = StateGraph(_State)
        app.add_node("answer", lambda state: {"question": state["question"] + " pip cache dir"})
        app.add_edge(START, "answer")
        app.add_edge("answer", END)
        compiled = app.compile(checkpointer=saver)
        compiled.invoke({"question": "pip cache"}, {"configurable": {"thread_id": "pip-cache"}})


def _build(name: str, server: Neo4jServer, driver: Driver, corpus: list[ReadDocument]) -> str:
    if name == "lgb-vector-keyword":
        write_llm_graph_builder(server, driver, corpus, their_embedding, DIMENSIONS, ("vector", "keyword"))
        _lgb_communities(driver)
        _chat_and_checkpoints(server)
        return "llm-graph-builder"
    if name == "lgb-no-index":
        write_llm_graph_builder(server, driver, corpus, their_embedding, DIMENSIONS, ())
        return "llm-graph-builder"
    write_langchain(server, corpus, their_embedding)
    _chat_and_checkpoints(server)
    return "langchain"


@pytest.fixture(scope="module", params=["lgb-vector-keyword", "lgb-no-index", "langchain"])
def their(
    request: pytest.FixtureRequest, server: Neo4jServer, driver: Driver, corpus: list[ReadDocument]
) -> Iterator[Their]:
    wipe(driver)
    clear_checks()
    profile = _build(request.param, server, driver, corpus)
    with Store.from_settings(server.settings()) as store:
        install_schema(store)
        yield Their(request.param, profile, store, driver, server)


def ask(their: Their, kind: SessionKind, question: str, collection: str) -> list[Event]:
    engine = build_engine(kind, their.store, OfflineLLM())
    return list(engine.answer(Request(question, W, collection, graph=BUILTIN[their.profile])))


def ask_with(their: Their, profile: GraphProfile, collection: str) -> list[Event]:
    """GraphRAG's question through a profile file."""
    engine = build_engine(SessionKind.GRAPH_RAG, their.store, OfflineLLM())
    return list(engine.answer(Request(QUESTIONS[SessionKind.GRAPH_RAG][0], W, collection, graph=profile)))


def _end(events: list[Event]) -> SessionEnd:
    errors = [e for e in events if isinstance(e, ErrorEvent)]
    assert not errors, errors[0].message
    (end,) = [e for e in events if isinstance(e, SessionEnd)]
    return end


def _warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "tgneo.graphs" and r.levelno == logging.WARNING]


def _tgneo(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*TGNEO, *args], env=env, capture_output=True, text=True,
                          timeout=300, check=False)  # fmt: skip


_NODE = re.compile(r"urn:(?:neo4j:node|chunk:neo4j):([^:]+):([^:]+):(\S+)")
_ELEMENT = re.compile(r"urn:(?:neo4j|chunk:neo4j):element:(\S+)")


def _node_labels(driver: Driver, iri: str) -> list[list[str]]:
    """The labels of each node of theirs an IRI names (none: it names no node)."""
    if (node := _NODE.fullmatch(iri)) is not None:
        label, key, value = (unquote(part) for part in node.groups())
        found = rows(driver, "MATCH (n) WHERE $label IN labels(n) AND toString(n[$key]) = $value "
                             "RETURN labels(n) AS labels", label=label, key=key, value=value)  # fmt: skip
    elif (element := _ELEMENT.fullmatch(iri)) is not None:
        found = rows(driver, "MATCH (n) WHERE elementId(n) = $id RETURN labels(n) AS labels", id=unquote(element[1]))
    else:
        raise AssertionError(f"{iri} is not an IRI of a node of theirs")
    return [r["labels"] for r in found]


def _their_iris(events: list[Event]) -> set[str]:
    """Every IRI of a node of theirs the explain events name (seeds, explored and selected edges' ends, chunks)."""
    return {
        str(term)
        for e in events if isinstance(e, ExplainEvent)
        for triple in e.triples for term in triple
        if str(term).startswith(("urn:neo4j:node:", "urn:neo4j:element:", "urn:chunk:neo4j:"))
    }  # fmt: skip


# ------------------------------------------------------------------ LLM Graph Builder without post-processing
@pytest.mark.parametrize("their", ["lgb-vector-keyword"], indirect=True)
@pytest.mark.parametrize("kind", KINDS, ids=IDS)
def test_llm_graph_builder_with_only_vector_and_keyword_answers_with_each_engine(
    their: Their, kind: SessionKind
) -> None:
    question, gold = QUESTIONS[kind]
    end = _end(ask(their, kind, question, "test-lgb-plain"))
    assert any(s.title == gold for s in end.sources), end.sources


@pytest.mark.parametrize("their", ["lgb-vector-keyword"], indirect=True)
@pytest.mark.parametrize("kind", KINDS, ids=IDS)
def test_llm_graph_builder_with_only_vector_and_keyword_answers_with_each_engine_after_load_index(
    their: Their, kind: SessionKind
) -> None:
    build_side_index(their.store, OfflineLLM(), BUILTIN[their.profile], W, "test-lgb-side")
    question, gold = QUESTIONS[kind]
    end = _end(ask(their, kind, question, "test-lgb-side"))
    assert any(s.title == gold for s in end.sources), end.sources


@pytest.mark.parametrize("their", ["lgb-vector-keyword"], indirect=True)
def test_a_warning_names_the_full_scan_that_stands_in_for_the_missing_entity_indexes(
    their: Their, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="tgneo.graphs"):
        _end(ask(their, SessionKind.GRAPH_RAG, QUESTIONS[SessionKind.GRAPH_RAG][0], "test-lgb-plain"))
    (warning,) = _warnings(caplog)
    assert "their entities (:__Entity__) are found by a full scan of at most" in warning
    assert "their vector index 'entity_vector' does not exist" in warning
    assert "their full-text index 'entities' does not exist" in warning
    assert "tgneo load index --graph llm-graph-builder" in warning


@pytest.mark.parametrize("their", ["lgb-vector-keyword"], indirect=True)
def test_a_warning_names_their_full_text_index_that_finds_their_chunks(
    their: Their, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="tgneo.graphs"):
        _end(ask(their, SessionKind.DOC_RAG, QUESTIONS[SessionKind.DOC_RAG][0], "test-lgb-plain"))
    (warning,) = _warnings(caplog)
    assert "their chunks (:Chunk) are found by their full-text index 'keyword'" in warning
    assert f"their vector index 'vector' holds {DIMENSIONS}-dimensional vectors" in warning


@pytest.mark.parametrize("their", ["lgb-vector-keyword"], indirect=True)
def test_a_warning_names_the_side_index_standing_in_for_entity_vector(
    their: Their, caplog: pytest.LogCaptureFixture
) -> None:
    build_side_index(their.store, OfflineLLM(), BUILTIN[their.profile], W, "test-lgb-side")
    caplog.clear()  # what building the side index said
    with caplog.at_level(logging.WARNING, logger="tgneo.graphs"):
        _end(ask(their, SessionKind.GRAPH_RAG, QUESTIONS[SessionKind.GRAPH_RAG][0], "test-lgb-side"))
    (warning,) = _warnings(caplog)
    assert "their entities (:__Entity__) are found by tgneo's side index" in warning
    assert "their vector index 'entity_vector' does not exist" in warning


@pytest.mark.parametrize("their", ["lgb-vector-keyword"], indirect=True)
def test_the_trace_records_the_scans_seeds_as_full_text_hits(their: Their) -> None:
    """Where the trace keeps the fallback: its Exploration's retrieval hits, found by words, not by vectors."""
    end = _end(ask(their, SessionKind.GRAPH_RAG, QUESTIONS[SessionKind.GRAPH_RAG][0], "test-lgb-plain"))
    trace = get_trace(their.store, W, "test-lgb-plain", end.trace or "")
    exploration = next(s for s in trace["steps"] if s["type"] == "Exploration")
    hits = exploration["hits"]
    assert hits and all(h["text_rank"] is not None and h["vector_rank"] is None for h in hits), hits


@pytest.mark.parametrize("their", ["lgb-vector-keyword"], indirect=True)
def test_tgneo_ask_prints_the_fallback_warning_on_stderr(their: Their) -> None:
    question = QUESTIONS[SessionKind.GRAPH_RAG][0]
    asked = _tgneo(their.server.env(), "ask", question, "--graph", "llm-graph-builder", "--workspace", W,
                   "--collection", "test-lgb-cli")  # fmt: skip
    assert asked.returncode == 0, asked.stderr
    assert "warning: graph profile 'llm-graph-builder': their entities (:__Entity__) are found by a full scan" in (
        asked.stderr
    )
    assert "pip cache dir" in asked.stdout


@pytest.mark.parametrize("their", ["lgb-vector-keyword"], indirect=True)
def test_communities_and_chat_history_never_appear_in_an_llm_graph_builder_exploration(their: Their) -> None:
    assert rows(their.driver, "MATCH (c:__Community__)<-[:IN_COMMUNITY]-(:__Entity__) RETURN count(c) AS n")[0]["n"]
    build_side_index(their.store, OfflineLLM(), BUILTIN[their.profile], W, "test-lgb-side")
    named: set[str] = set()
    for collection in ("test-lgb-plain", "test-lgb-side"):
        for kind, (question, _) in QUESTIONS.items():
            named |= _their_iris(ask(their, kind, question, collection))
    assert named
    labels = {label for iri in named for found in _node_labels(their.driver, iri) for label in found}
    assert labels and not labels & set(LGB_EXCLUDED), labels


@pytest.mark.parametrize("their", ["lgb-vector-keyword"], indirect=True)
def test_an_index_a_profile_file_names_is_required(their: Their, tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text('extends = "llm-graph-builder"\n[entity]\nfulltext_index = "my_entities"\n', encoding="utf-8")
    with pytest.raises(ProfileError) as refused:
        ask_with(their, load_profile(str(path)), "test-file-required")
    assert "entity.fulltext_index names the fulltext index 'my_entities', which does not exist" in str(refused.value)
    assert "(fulltext indexes there: keyword)" in str(refused.value)


@pytest.mark.parametrize("their", ["lgb-vector-keyword"], indirect=True)
def test_an_index_a_profile_file_lists_as_optional_may_be_missing(their: Their, tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text('extends = "llm-graph-builder"\noptional_indexes = ["entity_vector", "my_entities"]\n'
                    '[entity]\nfulltext_index = "my_entities"\n', encoding="utf-8")  # fmt: skip
    end = _end(ask_with(their, load_profile(str(path)), "test-file-optional"))
    assert any(s.title == QUESTIONS[SessionKind.GRAPH_RAG][1] for s in end.sources), end.sources


@pytest.mark.parametrize("their", ["lgb-vector-keyword"], indirect=True)
def test_the_fallback_warning_names_a_profile_file_by_its_path(
    their: Their, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """``--graph`` takes the file's path, not the name inside it: the remedy must work as printed."""
    path = tmp_path / "mine.toml"
    path.write_text('name = "inner"\nextends = "llm-graph-builder"\n', encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="tgneo.graphs"):
        _end(ask_with(their, load_profile(str(path)), "test-file-hint"))
    (warning,) = _warnings(caplog)
    assert f"tgneo load index --graph {path} --workspace {W} --collection test-file-hint" in warning


@pytest.mark.parametrize("their", ["lgb-no-index"], indirect=True)
def test_load_index_builds_the_side_index_over_a_graph_with_no_vector_index(their: Their) -> None:
    assert not rows(their.driver, "SHOW VECTOR INDEXES YIELD name WHERE NOT name STARTS WITH 'tgneo_' RETURN name")
    built = _tgneo(their.server.env(), "load", "index", "--graph", "llm-graph-builder", "--workspace", W,
                   "--collection", "test-no-vector")  # fmt: skip
    assert built.returncode == 0, built.stderr
    assert "side index over the llm-graph-builder graph" in built.stderr
    assert "warning: graph profile 'llm-graph-builder': their entity.vector_index 'entity_vector' does not exist" in (
        built.stderr
    )
    assert "indexs" not in built.stderr


# ------------------------------------------------------------------ LangChain
@pytest.fixture(scope="module")
def langchain_answers(their: Their) -> dict[SessionKind, list[Event]]:
    """GraphRAG and Document RAG asked into one collection over the LangChain graph, with the side index."""
    collection = "test-langchain"
    build_side_index(their.store, OfflineLLM(), BUILTIN["langchain"], W, collection)
    return {kind: ask(their, kind, QUESTIONS[kind][0], collection) for kind in (SessionKind.GRAPH_RAG,
                                                                                  SessionKind.DOC_RAG)}  # fmt: skip


@pytest.mark.parametrize("their", ["langchain"], indirect=True)
def test_langchain_answers_cite_each_document_by_its_source(
    their: Their, langchain_answers: dict[SessionKind, list[Event]]
) -> None:
    for kind, events in langchain_answers.items():
        titles = {s.title for s in _end(events).sources}
        assert QUESTIONS[kind][1] in titles and titles <= set(FILES), (kind, titles)


@pytest.mark.parametrize("their", ["langchain"], indirect=True)
def test_one_langchain_document_is_one_tgdocument_after_graph_rag_and_document_rag(
    their: Their, langchain_answers: dict[SessionKind, list[Event]]
) -> None:
    cited = {s.uri for events in langchain_answers.values() for s in _end(events).sources}
    documents = rows(their.driver, "MATCH (d:TgDocument {workspace: $w, collection: 'test-langchain'}) "
                                   "RETURN d.uri AS uri", w=W)  # fmt: skip
    prefix = "urn:neo4j:node:Document:source:"
    sources = [unquote(d["uri"].removeprefix(prefix)) for d in documents if d["uri"].startswith(prefix)]
    assert len(sources) == len(documents) and cited <= {d["uri"] for d in documents}, (documents, cited)
    assert len(set(sources)) == len(sources) and set(sources) <= set(FILES), sources


@pytest.mark.parametrize("their", ["langchain"], indirect=True)
def test_every_iri_an_answer_over_langchain_cites_names_a_node_that_exists(
    their: Their, langchain_answers: dict[SessionKind, list[Event]]
) -> None:
    cited: set[str] = set()
    for events in langchain_answers.values():
        end = _end(events)
        cited |= {s.uri for s in end.sources}
        trace = get_trace(their.store, W, "test-langchain", end.trace or "")
        focus = next(s for s in trace["steps"] if s["type"] == "Focus")
        cited |= {c["chunk"]["uri"] for c in focus.get("chunks", [])}
        for edge in focus.get("edges", []):
            for source in edge["statement"]["sources"]:
                cited |= {
                    step["uri"]
                    for step in source["chain"]
                    if step["uri"].startswith(("urn:neo4j:", "urn:chunk:neo4j:"))
                }
    assert any(i.startswith("urn:chunk:neo4j:Chunk:") for i in cited), cited
    assert any(i.startswith("urn:chunk:neo4j:Document:") for i in cited), cited
    missing = [iri for iri in sorted(cited) if not _node_labels(their.driver, iri)]
    assert missing == []


@pytest.mark.parametrize("their", ["langchain"], indirect=True)
def test_a_chunk_whose_source_no_document_holds_names_no_node(their: Their) -> None:
    """A ``Neo4jVector`` chunk added without a graph document: its document is ``urn:tgneo:source:…``."""
    graph = Neo4jGraph(url=their.server.uri, username=their.server.username, password=their.server.password or "")
    try:
        store = Neo4jVector.from_existing_index(_LangchainEmbeddings(their_embedding), index_name="vector",
                                                keyword_index_name="keyword", graph=graph)  # fmt: skip
        text = "The zebrafish mirror keeps offline wheels for the quokka build farm."
        store.add_documents([Document(page_content=text, metadata={"source": "zebrafish-notes.txt"})])
    finally:
        graph.close()
    collection = "test-orphan"
    build_side_index(their.store, OfflineLLM(), BUILTIN["langchain"], W, collection)
    end = _end(ask(their, SessionKind.DOC_RAG, "Which mirror keeps offline wheels for the quokka build farm?",
                   collection))  # fmt: skip
    sources = {s.uri: s.title for s in end.sources}
    assert sources.get("urn:tgneo:source:zebrafish-notes.txt") == "zebrafish-notes.txt", sources
    assert not any(uri.startswith("urn:neo4j:node:Document:") and "zebrafish" in uri for uri in sources)


@pytest.mark.parametrize("their", ["langchain"], indirect=True)
def test_a_langchain_document_without_source_is_titled_by_its_text_never_its_md5(their: Their) -> None:
    """``add_graph_documents(include_source=True)`` gives a source without ``id`` the md5 of its text as ``id``."""
    text = "The quokka maintains the zebrafish mirror.\nIt mirrors wheels for the build farm."
    quokka, mirror = Node(id="quokka", type="Animal"), Node(id="zebrafish mirror", type="Mirror")
    document = GraphDocument(nodes=[quokka, mirror], source=Document(page_content=text),
                             relationships=[Relationship(source=quokka, target=mirror, type="MAINTAINS")])  # fmt: skip
    graph = Neo4jGraph(url=their.server.uri, username=their.server.username, password=their.server.password or "")
    try:
        graph.add_graph_documents([document], include_source=True, baseEntityLabel=True)
    finally:
        graph.close()
    collection = "test-no-source"
    build_side_index(their.store, OfflineLLM(), BUILTIN["langchain"], W, collection)
    end = _end(ask(their, SessionKind.GRAPH_RAG, "Who maintains the zebrafish mirror?", collection))
    titles = {s.title for s in end.sources}
    assert "The quokka maintains the zebrafish mirror." in titles, titles
    assert not any(re.fullmatch(r"[0-9a-f]{32}", t or "") for t in titles), titles


@pytest.mark.parametrize("their", ["langchain"], indirect=True)
def test_checkpoints_and_chat_history_never_appear_in_a_langchain_exploration(
    their: Their, langchain_answers: dict[SessionKind, list[Event]]
) -> None:
    assert rows(their.driver, "MATCH (c:Checkpoint) RETURN count(c) AS n")[0]["n"] > 0
    assert rows(their.driver, "MATCH (m:Message) RETURN count(m) AS n")[0]["n"] > 0
    named = {iri for events in langchain_answers.values() for iri in _their_iris(events)}
    labels = {label for iri in named for found in _node_labels(their.driver, iri) for label in found}
    assert labels and not labels & set(LANGCHAIN_EXCLUDED), labels
    indexed = rows(their.driver, "MATCH (n:TgResource {workspace: $w, collection: 'test-langchain'}) "
                                 "WHERE n.element IS NOT NULL MATCH (t) WHERE elementId(t) = n.element "
                                 "RETURN DISTINCT labels(t) AS labels", w=W)  # fmt: skip
    assert indexed and not {label for r in indexed for label in r["labels"]} & set(LANGCHAIN_EXCLUDED)
