"""The LangChain callback handler (``tgneo.adapters.langchain``) records the chains and agents users already run.

Everything here is the real thing: LangChain's LCEL chain over langchain-neo4j's ``Neo4jVector`` (in the session's
Neo4j, beside tgneo's schema) and langchain-classic's tool-calling ``AgentExecutor``, both on langchain-openai's
``ChatOpenAI`` talking to the loopback OpenAI-compatible server (``tests/openai_server.py``), whose token counts
and served model name the traces must hold. The documents are pip's own topic guides.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_classic.agents import AgentExecutor, create_tool_calling_agent
from langchain_core.output_parsers import StrOutputParser
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import RunnablePassthrough
from langchain_core.tools import tool
from langchain_neo4j import Neo4jVector
from langchain_openai import ChatOpenAI, OpenAIEmbeddings
from pydantic import SecretStr

from tests.conftest import Neo4jServer
from tests.foreign_graphs import PIP_TOPICS
from tests.openai_server import SERVED_SUFFIX, OpenAIServer, serve, token_count
from tgneo.adapters.langchain import TgneoCallbackHandler
from tgneo.rdf.ontology import graph_of
from tgneo.rdf.ontology import validate as run_shapes
from tgneo.store import Store
from tgneo.store.librarian import get_text
from tgneo.store.rdf_export import stream_quads
from tgneo.store.traces import get_trace

# langchain-neo4j 0.11's search builds its query with neo4j-graphrag's, which warns about its own future
pytestmark = pytest.mark.filterwarnings("ignore:The default returned 'id' field:DeprecationWarning")

W = "test-langchain"
FILES = ("caching.md", "authentication.md", "vcs-support.md")
QUESTION = "How do I clear all files from pip's wheel and HTTP caches?"


def paragraphs(path: Path) -> Iterator[str]:
    """The guide's paragraphs (the chunks a user's splitter would make of it, roughly)."""
    for block in re.split(r"\n\s*\n", path.read_text(encoding="utf-8")):
        if len(block.split()) >= 8:
            yield block.strip()


@pytest.fixture(scope="module")
def model() -> Iterator[OpenAIServer]:
    with serve() as server:
        yield server


@pytest.fixture(scope="module")
def vectors(neo4j_server: Neo4jServer, store: Store, model: OpenAIServer) -> Iterator[Neo4jVector]:
    """Pip's guides in langchain-neo4j's ``Neo4jVector`` (its own label and index, removed afterwards)."""
    texts, sources = [], []
    for name in FILES:
        for text in paragraphs(PIP_TOPICS / name):
            texts.append(text)
            sources.append({"source": name})
    embeddings = OpenAIEmbeddings(
        model="text-embedding-3-small", base_url=model.url, api_key=SecretStr(model.api_key),
        check_embedding_ctx_length=False,
    )  # fmt: skip
    label, index = f"LcDoc{uuid.uuid4().hex[:8]}", f"lc_docs_{uuid.uuid4().hex[:8]}"
    db = Neo4jVector.from_texts(texts, embeddings, metadatas=sources, url=neo4j_server.uri,
                                username=neo4j_server.username, password=neo4j_server.password or "",
                                node_label=label, index_name=index)  # fmt: skip
    yield db
    db.query(f"MATCH (n:`{label}`) DETACH DELETE n")
    db.query(f"DROP INDEX `{index}` IF EXISTS")
    db._driver.close()


def chat(model: OpenAIServer) -> ChatOpenAI:
    return ChatOpenAI(model="gpt-4o-mini", base_url=model.url, api_key=SecretStr(model.api_key), stream_usage=True)


def rag_chain(vectors: Neo4jVector, llm: ChatOpenAI) -> Any:
    """The usual LCEL chain: retrieve, fill the prompt with the documents, ask the model, read its text."""
    prompt = ChatPromptTemplate.from_template("Answer from the context.\nContext:\n{context}\nQuestion:\n{question}")
    context = vectors.as_retriever(search_kwargs={"k": 3}) | (lambda docs: "\n\n".join(d.page_content for d in docs))
    return {"context": context, "question": RunnablePassthrough()} | prompt | llm | StrOutputParser()


@tool
def search_pip_docs(query: str) -> str:
    """Search pip's documentation for a command."""
    return next(t for t in paragraphs(PIP_TOPICS / "caching.md") if "pip cache purge" in t)


@tool
def broken_lookup(query: str) -> str:
    """Look something up in a service that is down."""
    raise ConnectionError("the documentation service is down")


def agent(model: OpenAIServer, tools: list[Any]) -> AgentExecutor:
    prompt = ChatPromptTemplate.from_messages(
        [("system", "You answer questions about pip."), ("human", "{input}"), ("placeholder", "{agent_scratchpad}")]
    )
    return AgentExecutor(agent=create_tool_calling_agent(chat(model), tools, prompt), tools=tools)


def steps_of(trace: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [s for s in trace["steps"] if s["type"] == kind]


def chat_requests(model: OpenAIServer, since: int) -> list[Any]:
    return model.requests_to("/v1/chat/completions")[since:]


def test_a_chain_over_neo4jvector_is_recorded_as_a_document_rag_trace(
    store: Store, vectors: Neo4jVector, model: OpenAIServer
) -> None:
    handler = TgneoCallbackHandler(store=store, workspace=W, collection="chain", raise_error=True)
    answer = rag_chain(vectors, chat(model)).invoke(QUESTION, config={"callbacks": [handler]})
    trace = get_trace(store, W, "chain", handler.traces[0])
    assert trace["type"] == "docrag" and trace["query"] == QUESTION
    assert [s["type"] for s in trace["steps"] if s["type"] in ("Grounding", "Exploration", "Focus", "Synthesis")] == [
        "Grounding", "Exploration", "Focus", "Synthesis"
    ]  # fmt: skip
    assert steps_of(trace, "Grounding")[0]["properties"]["concept"] == [QUESTION]
    assert answer == f"You asked: {QUESTION}"


def test_the_synthesis_holds_the_models_own_tokens_and_served_model(
    store: Store, vectors: Neo4jVector, model: OpenAIServer
) -> None:
    handler = TgneoCallbackHandler(store=store, workspace=W, collection="tokens", raise_error=True)
    seen = len(model.requests_to("/v1/chat/completions"))
    answer = rag_chain(vectors, chat(model)).invoke(QUESTION, config={"callbacks": [handler]})
    (request,) = chat_requests(model, seen)
    prompt = "\n".join(m["content"] for m in request.body["messages"])
    synthesis = steps_of(get_trace(store, W, "tokens", handler.traces[0]), "Synthesis")[0]["properties"]
    assert synthesis["inToken"] == token_count(prompt)
    assert synthesis["outToken"] == token_count(answer)
    assert synthesis["llmModel"] == "gpt-4o-mini" + SERVED_SUFFIX


def test_the_retrieved_chunks_lead_to_their_source_documents(
    store: Store, vectors: Neo4jVector, model: OpenAIServer
) -> None:
    handler = TgneoCallbackHandler(store=store, workspace=W, collection="sources", raise_error=True)
    retrieved = vectors.as_retriever(search_kwargs={"k": 3}).invoke(QUESTION)
    rag_chain(vectors, chat(model)).invoke(QUESTION, config={"callbacks": [handler]})
    titles = sorted({s.title for s in handler.recordings[0].sources})
    assert titles == sorted({d.metadata["source"] for d in retrieved})
    chains = [c["chunk"]["chain"] for s in get_trace(store, W, "sources", handler.traces[0])["steps"]
              for c in s.get("chunks", [])]  # fmt: skip
    assert sorted({chain[-1] for chain in chains}) == sorted(s.uri for s in handler.recordings[0].sources)


def test_a_chains_trace_conforms_to_the_shapes(store: Store, vectors: Neo4jVector, model: OpenAIServer) -> None:
    handler = TgneoCallbackHandler(store=store, workspace=W, collection="shapes", raise_error=True)
    rag_chain(vectors, chat(model)).invoke(QUESTION, config={"callbacks": [handler]})
    conforms, _, report = run_shapes(graph_of(stream_quads(store, W, "shapes", [handler.traces[0]], "prov")))
    assert conforms, report


def test_a_tool_calling_agent_is_recorded_step_by_step(store: Store, model: OpenAIServer) -> None:
    handler = TgneoCallbackHandler(store=store, workspace=W, collection="agent", raise_error=True)
    seen = len(model.requests_to("/v1/chat/completions"))
    result = agent(model, [search_pip_docs]).invoke({"input": QUESTION}, config={"callbacks": [handler]})
    first, last = chat_requests(model, seen)
    trace = get_trace(store, W, "agent", handler.traces[0])
    (analysis,) = steps_of(trace, "Analysis")
    (observation,) = steps_of(trace, "Observation")
    (conclusion,) = steps_of(trace, "Conclusion")
    assert analysis["properties"]["action"] == "search_pip_docs"
    assert '"query": "' + QUESTION in analysis["properties"]["arguments"]
    asked = "\n".join(m["content"] or "" for m in first.body["messages"])
    assert analysis["properties"]["inToken"] == token_count(asked)
    assert "pip cache purge" in get_text(store, W, observation["uri"], "agent").text
    assert conclusion["properties"]["outToken"] == token_count(result["output"])
    assert conclusion["properties"]["llmModel"] == "gpt-4o-mini" + SERVED_SUFFIX
    assert last.body["messages"][-1]["role"] == "tool"


def test_a_failing_tool_is_an_observation_typed_error(store: Store, model: OpenAIServer) -> None:
    handler = TgneoCallbackHandler(store=store, workspace=W, collection="agent-error", raise_error=True)
    with pytest.raises(ConnectionError):
        agent(model, [broken_lookup]).invoke({"input": QUESTION}, config={"callbacks": [handler]})
    trace = get_trace(store, W, "agent-error", handler.traces[0])
    (observation,) = steps_of(trace, "Observation")
    assert "the documentation service is down" in str(observation.get("error"))


def test_a_chain_that_fails_keeps_the_steps_it_got_through(
    store: Store, vectors: Neo4jVector, model: OpenAIServer
) -> None:
    handler = TgneoCallbackHandler(store=store, workspace=W, collection="failed", raise_error=True)
    refused = ChatOpenAI(model="gpt-4o-mini", base_url=model.url, api_key=SecretStr("sk-revoked"), max_retries=0)
    chain = rag_chain(vectors, refused)
    with pytest.raises(Exception, match="Incorrect API key"):
        chain.invoke(QUESTION, config={"callbacks": [handler]})
    trace = get_trace(store, W, "failed", handler.traces[0])
    kinds = {s["type"] for s in trace["steps"]}
    assert {"Grounding", "Exploration", "Focus"} <= kinds and "Synthesis" not in kinds


def test_two_runs_through_one_handler_are_two_traces(store: Store, vectors: Neo4jVector, model: OpenAIServer) -> None:
    handler = TgneoCallbackHandler(store=store, workspace=W, collection="two", raise_error=True)
    chain = rag_chain(vectors, chat(model))
    chain.batch([QUESTION, "How does pip authenticate to a private index?"], config={"callbacks": [handler]})
    assert len(set(handler.traces)) == 2
    queries = {get_trace(store, W, "two", uri)["query"] for uri in handler.traces}
    assert queries == {QUESTION, "How does pip authenticate to a private index?"}


def test_a_chains_trace_is_checked_after_the_fact_with_tgneo_trace_verify(
    neo4j_server: Neo4jServer, store: Store, vectors: Neo4jVector, model: OpenAIServer
) -> None:
    """The chain's model repeats the question whatever its context holds; checked after the fact on the offline
    provider from the chunks the trace holds, the answer is found not to rest on them."""
    from tests.clirun import tgneo

    handler = TgneoCallbackHandler(store=store, workspace=W, collection="verified", raise_error=True)
    rag_chain(vectors, chat(model)).invoke(QUESTION, config={"callbacks": [handler]})
    uri = handler.traces[0]
    env = {**neo4j_server.env(), "TGNEO_WORKSPACE": W}
    checked = tgneo(None, "trace", "verify", uri, "--collection", "verified", "--json", env=env)
    found = json.loads(checked.stdout)["verification"]
    assert found["verdict"] == "unsupported" and found["model"] == "tgneo-offline"
    trace = get_trace(store, W, "verified", uri)
    assert trace["verification"]["verdict"] == "unsupported"
    (verification,) = steps_of(trace, "Verification")
    assert verification["parents"] == [steps_of(trace, "Synthesis")[0]["uri"]]
