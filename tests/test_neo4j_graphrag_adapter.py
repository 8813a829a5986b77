"""``ExplainedGraphRAG``: neo4j-graphrag's ``GraphRAG``, run by the real library, recorded as tgneo traces.

The graph is written by neo4j-graphrag's own components (``tests/foreign_graphs.py``) on a private Neo4j with APOC
and a new store, its 1536-d vector index asked through their ``VectorRetriever`` with an ``Embedder`` computing their
embedding (:func:`~tests.foreign_graphs.their_embedding`); the model is neo4j-graphrag's ``OpenAILLM`` talking to the
OpenAI-compatible server on loopback (``tests/openai_server.py``), whose answers and token counts are computed from
the request it received. The graph fixture's few lines are copied from ``tests/test_graph_profiles.py`` rather than
shared: that module's fixture is parametrised over every profile, this one needs one graph.

Why not the session's shared server (``apoc_neo4j``, emptied): there, after ``tests/test_coexistence.py`` had used
it, ``trace verify`` answered "supported" where a new store gives "unsupported"; what an emptied database still
holds (the names ``db.propertyKeys()`` lists, which the graph profiles' check reads) is the suspect.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import pytest
from neo4j import Driver
from neo4j_graphrag.exceptions import LLMGenerationError
from neo4j_graphrag.generation import GraphRAG
from neo4j_graphrag.generation.types import RagResultModel
from neo4j_graphrag.llm import LLMInterface, LLMInterfaceV2, LLMResponse
from neo4j_graphrag.llm.openai_llm import OpenAILLM
from neo4j_graphrag.retrievers import VectorCypherRetriever, VectorRetriever
from neo4j_graphrag.types import LLMMessage

from tests.coexisting import driver_for, rows
from tests.conftest import Neo4jServer
from tests.foreign_graphs import (
    DIMENSIONS,
    GRAPHRAG_VECTOR,
    PIP_TOPICS,
    GraphragEmbedder,
    read_corpus,
    their_embedding,
    write_neo4j_graphrag,
)
from tests.openai_server import SERVED_SUFFIX, OpenAIServer, Received, answer_to, serve, text_of, token_count
from tests.private_neo4j import private_neo4j, session_instance
from tgneo.adapters.neo4j_graphrag import ExplainedGraphRAG, ExplainedRagResult
from tgneo.explain.events import ExplainEvent
from tgneo.rdf.ontology import graph_of, validate
from tgneo.store import Store, install_schema
from tgneo.store.foreign import clear_checks
from tgneo.store.rdf_export import export_quads
from tgneo.store.traces import get_trace, list_traces

pytestmark = [pytest.mark.filterwarnings("ignore:The default returned 'id' field:DeprecationWarning")]

W = "test-graphrag-adapter"
FILES = ("caching.md", "authentication.md", "vcs-support.md")
QUESTION = "How does pip cache wheels it builds from source?"
MODEL = "gpt-4o-mini"
CHAT = "/v1/chat/completions"
STEPS = ["DocRagQuestion", "Grounding", "Exploration", "Focus", "Synthesis"]
CYPHER_QUERY = (
    "MATCH (node)-[:FROM_DOCUMENT]->(d:Document) "
    "RETURN d.path + ': ' + node.text AS text, {id: elementId(node), score: score} AS metadata"
)
"""A ``VectorCypherRetriever`` query: its items' content is a formatted record, their metadata the element id."""


@dataclass(frozen=True)
class Graph:
    """neo4j-graphrag's graph on a private server, and tgneo's store on the same server."""

    server: Neo4jServer
    driver: Driver
    store: Store


@pytest.fixture(scope="module")
def graph() -> Iterator[Graph]:
    instance = session_instance("graphrag-adapter")
    with private_neo4j(instance, plugins=("apoc",), new_store=True) as server, driver_for(server) as driver:
        clear_checks()
        built = write_neo4j_graphrag(driver, read_corpus([PIP_TOPICS / n for n in FILES]), their_embedding, DIMENSIONS)
        assert built.chunks > 10, built
        with Store.from_settings(server.settings()) as store:
            install_schema(store)
            yield Graph(server, driver, store)


@pytest.fixture
def model() -> Iterator[OpenAIServer]:
    with serve(OpenAIServer()) as server:
        yield server


def openai_llm(server: OpenAIServer) -> OpenAILLM:
    """neo4j-graphrag's own OpenAI LLM, pointed at the loopback server (no retries: a failure is one request)."""
    return OpenAILLM(model_name=MODEL, base_url=server.url, api_key=server.api_key, max_retries=0)


def vector_rag(graph: Graph, llm: Any) -> GraphRAG:
    retriever = VectorRetriever(graph.driver, GRAPHRAG_VECTOR, GraphragEmbedder(their_embedding),
                                return_properties=["text"])  # fmt: skip
    return GraphRAG(retriever, llm)


def cypher_rag(graph: Graph, llm: Any) -> GraphRAG:
    retriever = VectorCypherRetriever(graph.driver, GRAPHRAG_VECTOR, CYPHER_QUERY, GraphragEmbedder(their_embedding))
    return GraphRAG(retriever, llm)


def steps(graph: Graph, collection: str, uri: str) -> dict[str, dict[str, Any]]:
    """The trace's steps by type (one each in a Document RAG trace)."""
    return {s["type"]: s for s in get_trace(graph.store, W, collection, uri)["steps"]}


def expected_usage(request: Received) -> tuple[str, int, int]:
    """The served model and the tokens the loopback server computed for ``request`` (its module docstring)."""
    prompt = "\n".join(text_of(m) for m in request.body["messages"])
    return request.body["model"] + SERVED_SUFFIX, token_count(prompt), token_count(answer_to(prompt))


def test_a_search_records_question_grounding_exploration_focus_and_synthesis_passing_the_shapes(
    graph: Graph, model: OpenAIServer, collection: str
) -> None:
    explained = ExplainedGraphRAG(vector_rag(graph, openai_llm(model)), store=graph.store, workspace=W,
                                  collection=collection)  # fmt: skip
    result = explained.search(QUESTION, retriever_config={"top_k": 3})
    trace = get_trace(graph.store, W, collection, result.trace_uri)
    assert trace["query"] == QUESTION
    assert [s["type"] for s in trace["steps"]] == STEPS
    by_type = {s["type"]: s for s in trace["steps"]}
    assert len(by_type["Focus"]["chunks"]) == 3
    conforms, _, report = validate(graph_of(export_quads(graph.store, W, collection, result.trace_uri, "prov")))
    assert conforms, report


def test_the_synthesis_holds_the_servers_token_counts_and_served_model(
    graph: Graph, model: OpenAIServer, collection: str
) -> None:
    explained = ExplainedGraphRAG(vector_rag(graph, openai_llm(model)), store=graph.store, workspace=W,
                                  collection=collection)  # fmt: skip
    result = explained.search(QUESTION, retriever_config={"top_k": 3})
    (request,) = model.requests_to(CHAT)
    served, in_tokens, out_tokens = expected_usage(request)
    props = steps(graph, collection, result.trace_uri)["Synthesis"]["properties"]
    assert (props["llmModel"], props["inToken"], props["outToken"]) == (served, in_tokens, out_tokens)
    assert served == MODEL + SERVED_SUFFIX and in_tokens > token_count(QUESTION) + 10  # the context counts


@pytest.mark.parametrize("make", [vector_rag, cypher_rag], ids=["VectorRetriever", "VectorCypherRetriever"])
def test_the_traces_sources_are_the_paths_of_the_retrieved_chunks_documents(
    graph: Graph, model: OpenAIServer, collection: str, make: Any
) -> None:
    """Items are placed by their element id, also when their content is a formatted record (Cypher retriever)."""
    explained = ExplainedGraphRAG(make(graph, openai_llm(model)), store=graph.store, workspace=W,
                                  collection=collection)  # fmt: skip
    result = explained.search(QUESTION, retriever_config={"top_k": 4}, return_context=True)
    assert result.retriever_result is not None
    ids = [item.metadata["id"] for item in result.retriever_result.items if item.metadata]
    assert len(ids) == 4
    paths = rows(graph.driver, "MATCH (c:Chunk)-[:FROM_DOCUMENT]->(d:Document) WHERE elementId(c) IN $ids "
                               "RETURN DISTINCT d.path AS path", ids=ids)  # fmt: skip
    assert sorted(result.sources) == sorted(p["path"] for p in paths)
    assert all(source.endswith(".md") for source in result.sources), result.sources
    focus = steps(graph, collection, result.trace_uri)["Focus"]
    assert all(c["chunk"]["uri"].startswith("urn:chunk:neo4j:element:") for c in focus["chunks"]), focus["chunks"]


def test_the_caller_gets_the_answer_and_context_plain_graphrag_gives(
    graph: Graph, model: OpenAIServer, collection: str
) -> None:
    rag = vector_rag(graph, openai_llm(model))
    plain = rag.search(QUESTION, examples="none", retriever_config={"top_k": 3}, return_context=True)
    explained = ExplainedGraphRAG(rag, store=graph.store, workspace=W, collection=collection)
    result = explained.search(QUESTION, examples="none", retriever_config={"top_k": 3}, return_context=True)
    assert isinstance(result, RagResultModel) and isinstance(result, ExplainedRagResult)
    assert result.answer == plain.answer == f"You asked: {QUESTION}"
    assert result.retriever_result == plain.retriever_result
    first, second = model.requests_to(CHAT)
    assert first.body["messages"] == second.body["messages"]


def test_without_return_context_the_caller_gets_no_context_and_the_trace_keeps_it(
    graph: Graph, model: OpenAIServer, collection: str
) -> None:
    explained = ExplainedGraphRAG(vector_rag(graph, openai_llm(model)), store=graph.store, workspace=W,
                                  collection=collection)  # fmt: skip
    result = explained.search(QUESTION, retriever_config={"top_k": 3}, return_context=False)
    assert result.retriever_result is None
    assert len(steps(graph, collection, result.trace_uri)["Focus"]["chunks"]) == 3


def test_a_model_failure_is_reraised_and_leaves_the_steps_before_the_synthesis(
    graph: Graph, model: OpenAIServer, collection: str
) -> None:
    model.always = "500"
    events: list[ExplainEvent] = []
    explained = ExplainedGraphRAG(vector_rag(graph, openai_llm(model)), store=graph.store, workspace=W,
                                  collection=collection, sink=events.append)  # fmt: skip
    with pytest.raises(LLMGenerationError, match="overloaded"):
        explained.search(QUESTION, retriever_config={"top_k": 3})
    assert len(model.requests_to(CHAT)) == 1
    (trace,) = list_traces(graph.store, W, collection).traces
    assert list(steps(graph, collection, trace["uri"])) == STEPS[:-1]
    assert [e.kind for e in events] == ["docrag_question", "grounding", "docrag_exploration", "docrag_focus"]


def test_a_retriever_failure_is_reraised_and_leaves_the_question_and_its_grounding(
    graph: Graph, model: OpenAIServer, collection: str
) -> None:
    explained = ExplainedGraphRAG(vector_rag(graph, openai_llm(model)), store=graph.store, workspace=W,
                                  collection=collection)  # fmt: skip
    with pytest.raises(Exception, match="top_k") as raised:
        explained.search(QUESTION, retriever_config={"top_k": -1})
    with pytest.raises(type(raised.value)):
        vector_rag(graph, openai_llm(model)).search(QUESTION, retriever_config={"top_k": -1}, return_context=False)
    (trace,) = list_traces(graph.store, W, collection).traces
    assert list(steps(graph, collection, trace["uri"])) == ["DocRagQuestion", "Grounding"]
    assert model.requests_to(CHAT) == []


def test_searches_in_threads_at_once_each_record_their_own_usage(
    graph: Graph, model: OpenAIServer, collection: str
) -> None:
    """The model answers slowly, so the searches overlap; each trace holds the tokens of its own request."""
    model.chat_delay = 0.3
    llm = openai_llm(model)
    client = llm.client
    explained = ExplainedGraphRAG(vector_rag(graph, llm), store=graph.store, workspace=W, collection=collection)
    questions = [QUESTION, "Which keyring backend does pip use?", "How do I install from a git repository " * 3]
    with ThreadPoolExecutor(max_workers=len(questions)) as pool:
        results = list(pool.map(lambda q: explained.search(q, retriever_config={"top_k": 2}), questions))
    requests = {r.body["messages"][-1]["content"]: r for r in model.requests_to(CHAT)}
    assert len(requests) == len(questions)
    for question, result in zip(questions, results, strict=True):
        (request,) = [r for prompt, r in requests.items() if f"Question:\n{question}" in prompt]
        props = steps(graph, collection, result.trace_uri)["Synthesis"]["properties"]
        assert (props["llmModel"], props["inToken"], props["outToken"]) == expected_usage(request)
    assert explained.rag.llm is llm and llm.client is client


class CountingLLM(LLMInterfaceV2):
    """A user's own model (neither OpenAI's nor its client): answers how many messages it was given."""

    def invoke(self, input: list[LLMMessage], **kwargs: Any) -> LLMResponse:
        return LLMResponse(content=f"I read {len(input)} messages.")

    async def ainvoke(self, input: list[LLMMessage], **kwargs: Any) -> LLMResponse:
        return self.invoke(input)


def test_another_llms_answer_is_recorded_under_its_model_name_without_tokens(graph: Graph, collection: str) -> None:
    explained = ExplainedGraphRAG(vector_rag(graph, CountingLLM(model_name="their-model")), store=graph.store,
                                  workspace=W, collection=collection)  # fmt: skip
    result = explained.search(QUESTION, retriever_config={"top_k": 2})
    assert result.answer == "I read 2 messages."
    props = steps(graph, collection, result.trace_uri)["Synthesis"]["properties"]
    assert props["llmModel"] == "their-model" and "inToken" not in props and "outToken" not in props


def test_the_manuals_engine_example_answers_from_their_retriever_and_cites_their_chunks(
    graph: Graph, collection: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/python-api.md's "Adding an engine", run as written: a DocRag whose passages come from their
    ``VectorRetriever``, registered by name, asked over their graph; the trace selects their chunks."""
    from tests.test_python_api import manual_example

    for name, value in graph.server.env().items():
        if name.startswith("NEO4J_"):
            monkeypatch.setenv(name, value)
    monkeypatch.setenv("TGNEO_WORKSPACE", W)
    code = manual_example("Adding an engine").replace('"pip-guides"', repr(collection))
    namespace: dict[str, Any] = {"driver": graph.driver, "embedder": GraphragEmbedder(their_embedding)}
    exec(compile(code, "docs/python-api.md (engine example)", "exec"), namespace)
    answer = namespace["answer"]
    assert answer.engine == "my-retriever" and answer.text.strip()
    assert answer.sources and {str(s.title).rpartition("/")[2] for s in answer.sources} <= set(FILES)
    focus = steps(graph, collection, answer.trace_uri)["Focus"]
    chunks = [c["chunk"]["uri"] for c in focus["chunks"]]
    assert chunks and all(uri.startswith("urn:chunk:neo4j:element:") for uri in chunks), chunks
    retrieved = namespace["retriever"].search(query_text=answer_question(graph, collection, answer.trace_uri), top_k=10)
    assert len(chunks) == len(retrieved.items), "every item the retriever returned is a selected chunk"


def answer_question(graph: Graph, collection: str, uri: str) -> str:
    return str(get_trace(graph.store, W, collection, uri)["query"])


class Quoting(LLMInterface):
    """A model that answers with the first line of the context it is handed: an answer that rests on its context."""

    def invoke(self, input: str, message_history: Any = None, system_instruction: Any = None) -> LLMResponse:  # noqa: A002
        context = input.split("Context:", 1)[1].strip().splitlines() if "Context:" in input else []
        first = next((line.strip() for line in context if line.strip()), "I do not know.")
        return LLMResponse(content=first)

    async def ainvoke(self, input: str, message_history: Any = None, system_instruction: Any = None) -> LLMResponse:  # noqa: A002
        return self.invoke(input)


class Stubborn(LLMInterface):
    """A model that gives the first answer it gave, whatever context it is handed later: an answer from memory."""

    def __init__(self, model_name: str = "stubborn") -> None:
        super().__init__(model_name)
        self.first: str | None = None

    def invoke(self, input: str, message_history: Any = None, system_instruction: Any = None) -> LLMResponse:  # noqa: A002
        if self.first is None:
            self.first = Quoting("quoting").invoke(input).content
        return LLMResponse(content=self.first)

    async def ainvoke(self, input: str, message_history: Any = None, system_instruction: Any = None) -> LLMResponse:  # noqa: A002
        return self.invoke(input)


@pytest.mark.parametrize(("llm", "verdict"), [(Quoting("quoting"), "supported"), (Stubborn(), "unsupported")])
def test_verify_re_calls_the_users_own_llm_with_the_evidence_altered(
    graph: Graph, collection: str, llm: LLMInterface, verdict: str
) -> None:
    explained = ExplainedGraphRAG(vector_rag(graph, llm), store=graph.store, workspace=W, collection=collection,
                                  verify=True)  # fmt: skip
    result = explained.search(QUESTION, retriever_config={"top_k": 4})
    assert result.verification is not None, "the result carries the check"
    assert result.verification["verdict"] == verdict, result.verification
    assert set(result.verification) >= {"verdict", "sufficient", "model", "items"}
    assert all(0.0 <= i["necessity"] <= 1.0 for i in result.verification["items"])
    trace = get_trace(graph.store, W, collection, result.trace_uri)
    assert trace["verification"]["verdict"] == verdict
    assert trace["verification"]["model"] == llm.model_name


def test_a_stored_explained_graphrag_trace_is_checked_by_trace_verify(
    graph: Graph, model: OpenAIServer, collection: str
) -> None:
    from tests.clirun import tgneo

    explained = ExplainedGraphRAG(vector_rag(graph, openai_llm(model)), store=graph.store, workspace=W,
                                  collection=collection)  # fmt: skip
    result = explained.search(QUESTION, retriever_config={"top_k": 3})
    # the check re-runs the answer on the configured provider: the same loopback model that answered
    env = {**graph.server.env(), "TGNEO_WORKSPACE": W, "TGNEO_LLM": "openai", "OPENAI_BASE_URL": model.url,
           "OPENAI_API_KEY": model.api_key, "TGNEO_LLM_MODEL": MODEL, "TGNEO_LLM_RETRIES": "0"}  # fmt: skip
    checked = tgneo(None, "trace", "verify", result.trace_uri, "--collection", collection, "--json", env=env)
    found = json.loads(checked.stdout)["verification"]
    assert found["verdict"] == "unsupported", "the loopback model repeats the question whatever the context holds"
    assert get_trace(graph.store, W, collection, result.trace_uri)["verification"]["uri"] == found["uri"]
