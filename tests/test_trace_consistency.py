"""Every trace an engine writes agrees with itself: it passes tgneo's own shapes, and its token totals are
the same wherever they are read.

Each engine (GraphRAG, Document RAG, and the agent routed and in each pattern) is run on the sample in
the situations a user meets — an answer, a question about nothing the collection holds, a model that
fails, an agent that runs out of iterations — and each trace is exported in the ``prov`` profile and
validated with the shipped shapes (what ``tgneo validate`` runs). Then the totals: the answer's
``SessionEnd``, the stream's final message, ``trace show`` and the sum over the stored steps.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from tests.clirun import tgneo
from tests.conftest import Neo4jServer
from tests.openai_server import OFFLINE_DIMENSIONS, OpenAIServer, serve
from tgneo.engines import Request, build_engine
from tgneo.explain.events import ErrorEvent, Event, ExplainEvent, SessionEnd
from tgneo.ingest.loader import load_documents
from tgneo.ingest.sample import QUESTIONS, sources
from tgneo.kinds import SessionKind
from tgneo.llm.base import LLM
from tgneo.llm.offline import OfflineLLM
from tgneo.llm.openai_provider import OpenAILLM
from tgneo.rdf.ontology import graph_of, validate
from tgneo.store import Store
from tgneo.store.rdf_export import export_quads
from tgneo.store.traces import get_trace
from tgneo.stream import wire

W = f"test-ws-consistency-{uuid.uuid4().hex[:8]}"
NOTHING = "Xylophone zebras?"
"""A question about nothing the sample holds: GraphRAG finds no entity, so its Focus selects nothing."""

ENGINES: list[tuple[str, SessionKind, dict[str, Any]]] = [
    ("graph-rag", SessionKind.GRAPH_RAG, {}),
    ("document-rag", SessionKind.DOC_RAG, {}),
    ("agent-routed", SessionKind.AGENT, {}),
    ("agent-react", SessionKind.AGENT, {"pattern": "react"}),
    ("agent-plan", SessionKind.AGENT, {"pattern": "plan-then-execute"}),
    ("agent-supervisor", SessionKind.AGENT, {"pattern": "supervisor"}),
]


@pytest.fixture(scope="module")
def sample(store: Store) -> str:
    collection = f"test-consistency-{uuid.uuid4().hex[:8]}"
    assert load_documents(store, OfflineLLM(), W, collection, sources()).loaded == 4
    return collection


@pytest.fixture(scope="module")
def failing_model() -> Iterator[OpenAILLM]:
    """A real OpenAI-compatible server that answers every request with HTTP 500: a model that is down."""
    with serve(OpenAIServer(dimensions=OFFLINE_DIMENSIONS)) as server:
        server.always = "500"
        llm = OpenAILLM(model="test-model", base_url=server.url, api_key=server.api_key, timeout=10.0, retries=0)
        yield llm
        llm.close()


def ask(store: Store, collection: str, kind: SessionKind, question: str, llm: LLM, **options: Any) -> list[Event]:
    return list(build_engine(kind, store, llm).answer(Request(question, W, collection, options)))


def root_of(events: list[Event]) -> str:
    end = events[-1]
    if isinstance(end, SessionEnd) and end.trace:
        return end.trace
    return next(e for e in events if isinstance(e, ExplainEvent)).explain_id


def assert_valid(store: Store, collection: str, events: list[Event]) -> None:
    quads = export_quads(store, W, collection, root_of(events), "prov")
    conforms, _, report = validate(graph_of(quads))
    assert conforms, report


@pytest.mark.parametrize(("name", "kind", "options"), ENGINES, ids=[e[0] for e in ENGINES])
def test_an_answered_question_s_trace_passes_the_shapes(
    store: Store, sample: str, name: str, kind: SessionKind, options: dict[str, Any]
) -> None:
    events = ask(store, sample, kind, QUESTIONS[2].text, OfflineLLM(), **options)
    assert isinstance(events[-1], SessionEnd), events[-1]
    assert_valid(store, sample, events)


@pytest.mark.parametrize(("name", "kind", "options"), ENGINES, ids=[e[0] for e in ENGINES])
def test_a_question_about_nothing_held_leaves_a_trace_that_passes_the_shapes(
    store: Store, sample: str, name: str, kind: SessionKind, options: dict[str, Any]
) -> None:
    events = ask(store, sample, kind, NOTHING, OfflineLLM(), **options)
    assert isinstance(events[-1], SessionEnd), events[-1]
    assert_valid(store, sample, events)


def test_graphrag_finding_nothing_records_an_empty_focus_after_an_exploration_of_nothing(
    store: Store, sample: str
) -> None:
    events = ask(store, sample, SessionKind.GRAPH_RAG, NOTHING, OfflineLLM())
    trace = get_trace(store, W, sample, root_of(events))
    (exploration,) = [s for s in trace["steps"] if s["type"] == "Exploration"]
    (focus,) = [s for s in trace["steps"] if s["type"] == "Focus"]
    assert int(exploration["properties"]["edgeCount"]) == 0 and not focus.get("edges")


@pytest.mark.parametrize(("name", "kind", "options"), ENGINES, ids=[e[0] for e in ENGINES])
def test_a_failing_model_leaves_a_trace_that_passes_the_shapes(
    store: Store, sample: str, failing_model: OpenAILLM, name: str, kind: SessionKind, options: dict[str, Any]
) -> None:
    events = ask(store, sample, kind, QUESTIONS[0].text, failing_model, **options)
    assert isinstance(events[-1], ErrorEvent) and "500" in events[-1].message
    assert_valid(store, sample, events)


def test_an_agent_out_of_iterations_leaves_a_trace_that_passes_the_shapes(
    store: Store, sample: str, prose_model: OpenAILLM
) -> None:
    events = ask(store, sample, SessionKind.AGENT, QUESTIONS[2].text, prose_model, pattern="react", max_iterations=2)
    trace = get_trace(store, W, sample, root_of(events))
    (conclusion,) = [s for s in trace["steps"] if s["type"] == "Conclusion"]
    assert conclusion["properties"]["terminationReason"] == "max-iterations"
    assert_valid(store, sample, events)


def test_a_tool_error_leaves_a_trace_that_passes_the_shapes(store: Store, sample: str) -> None:
    events = ask(store, sample, SessionKind.AGENT, "What is 7 / 0?", OfflineLLM(), pattern="react")
    trace = get_trace(store, W, sample, root_of(events))
    assert any("Error" in s["labels"] for s in trace["steps"] if s["type"] == "Observation")
    assert_valid(store, sample, events)


TOTALS = re.compile(r"(\d+)→(\d+) tokens")


@pytest.mark.parametrize(("name", "kind", "options"), ENGINES, ids=[e[0] for e in ENGINES])
def test_token_totals_agree_in_the_answer_the_stream_trace_show_and_the_stored_steps(
    neo4j_server: Neo4jServer, store: Store, sample: str, name: str, kind: SessionKind, options: dict[str, Any]
) -> None:
    events = ask(store, sample, kind, QUESTIONS[2].text, OfflineLLM(), **options)
    end = events[-1]
    assert isinstance(end, SessionEnd) and end.in_token and end.out_token
    final = wire.encode(end, kind)
    assert (final["in_token"], final["out_token"]) == (end.in_token, end.out_token)
    trace = get_trace(store, W, sample, root_of(events))
    stored_in = sum(int(s["properties"].get("inToken", 0)) for s in trace["steps"])
    stored_out = sum(int(s["properties"].get("outToken", 0)) for s in trace["steps"])
    assert (stored_in, stored_out) == (end.in_token, end.out_token)
    assert (trace["totals"]["inToken"], trace["totals"]["outToken"]) == (end.in_token, end.out_token)
    shown = tgneo(neo4j_server, "trace", "show", root_of(events), "--workspace", W, "--collection", sample)
    assert TOTALS.search(shown.stdout) is not None, shown.stdout
    first = TOTALS.search(shown.stdout)
    assert first is not None and (int(first.group(1)), int(first.group(2))) == (end.in_token, end.out_token)
