"""Agents over the sample corpus: the router's decision, ReAct with sub-traces and tool errors,
plan-then-execute and supervisor traces, each checked in what Neo4j holds afterwards."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest

from tgneo.engines import Agent, Request
from tgneo.engines.agent.tools import TOOLS, ToolError
from tgneo.engines.base import Context, Session
from tgneo.explain.events import AgentMessage, AnswerChunk, Event, ExplainEvent, SessionEnd
from tgneo.graphs.own import OwnGraph
from tgneo.ingest.loader import load_documents
from tgneo.ingest.sample import QUESTIONS, sources
from tgneo.kinds import SessionKind
from tgneo.llm.offline import OfflineLLM
from tgneo.llm.openai_provider import OpenAILLM
from tgneo.nlp.segment import sentences
from tgneo.store import Store
from tgneo.store.traces import get_trace
from tgneo.stream import wire

W = "w"
RIVER = QUESTIONS[2].text


@pytest.fixture(scope="module")
def sample(store: Store) -> str:
    collection = f"test-agents-{uuid.uuid4().hex[:8]}"
    assert load_documents(store, OfflineLLM(), W, collection, sources()).loaded == 4
    return collection


def ask(store: Store, question: str, collection: str, llm: Any = None, **options: Any) -> list[Event]:
    return list(Agent(store, llm or OfflineLLM()).answer(Request(question, W, collection, options)))


def trace_of(store: Store, collection: str, events: list[Event]) -> dict[str, Any]:
    end = events[-1]
    root = end.trace if isinstance(end, SessionEnd) else None
    return get_trace(store, W, collection, root or next(e for e in events if isinstance(e, ExplainEvent)).explain_id)


def steps_of(trace: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [s for s in trace["steps"] if s["type"] == kind]


def test_react_records_the_decision_the_iteration_its_sub_trace_and_the_conclusion(store: Store, sample: str) -> None:
    events = ask(store, RIVER, sample)
    trace = trace_of(store, sample, events)
    (decision,) = steps_of(trace, "PatternDecision")
    assert decision["properties"]["pattern"] == "react" and decision["properties"]["taskType"] == "lookup"
    # the knowledge graph first, then the documents, each a sub-trace of its iteration
    # (test_a_tool_error_is_an_error_observation_… shows an iteration after a failed one)
    graph_call, document_call = steps_of(trace, "Analysis")
    assert graph_call["properties"]["action"] == "knowledge-query" and graph_call["parents"] == [trace["uri"]]
    assert graph_call["properties"]["llmModel"] == "tgneo-offline" and graph_call["properties"]["stepNumber"] == 1
    assert set(graph_call["properties"]["toolCandidate"]) == set(TOOLS)
    assert document_call["properties"]["action"] == "document-query"
    assert document_call["parents"] == [graph_call["uri"]] and document_call["properties"]["stepNumber"] == 2
    thoughts = sorted(t["documents"][0]["text"] for t in steps_of(trace, "Thought"))
    assert "I should look this up in the knowledge graph first." in thoughts
    (sub_question,) = steps_of(trace, "GraphRagQuestion")
    assert sub_question["parents"] == [graph_call["uri"]]  # the sub-trace derives from the calling iteration
    (doc_question,) = steps_of(trace, "DocRagQuestion")
    assert doc_question["parents"] == [document_call["uri"]]
    syntheses = [s for s in steps_of(trace, "Synthesis") if s["uri"] != trace["uri"]]  # the sub-traces'
    observations = {o["parents"][0] for o in steps_of(trace, "Observation")}
    assert observations == {s["uri"] for s in syntheses}  # … and each observation from its sub-trace's answer
    (conclusion,) = steps_of(trace, "Conclusion")
    assert conclusion["properties"]["terminationReason"] == "final-answer"
    assert conclusion["parents"] == [document_call["uri"]]
    assert "Vistula" in "".join(e.text for e in events if isinstance(e, AnswerChunk))


def test_the_agent_stream_carries_thoughts_observations_and_ends_the_dialog(store: Store, sample: str) -> None:
    events = ask(store, RIVER, sample)
    kinds = [e.message_type for e in events if isinstance(e, AgentMessage)]
    # the graph, what it found, the documents, what they found, the conclusion
    assert kinds == ["thought", "observation", "thought", "observation", "thought"]
    final = wire.encode(events[-1], SessionKind.AGENT)
    assert final["end_of_dialog"] is True and final["message_type"] == "answer"
    cited = {e["title"] for c in final["citations"] for e in c["evidence"]}
    assert {s["title"] for s in final["sources"]} == cited  # the sources are the documents the answer cites …
    assert "Warsaw" in cited  # … the river's city among them
    (river,) = [c for c in final["citations"] if "Vistula" in c["sentence"]]
    assert river["evidence"][0]["title"] == "Warsaw"


def test_a_tool_error_is_an_error_observation_and_the_agent_tries_again(store: Store, sample: str) -> None:
    events = ask(store, "What is 7 / 0?", sample)
    trace = trace_of(store, sample, events)
    first, second = sorted(steps_of(trace, "Observation"), key=lambda s: s["uri"])[:2]
    assert "Error" in first["labels"] and first["error"] == "calculator: division by zero in '7 / 0'"
    analyses = sorted(steps_of(trace, "Analysis"), key=lambda s: s["properties"]["stepNumber"])
    assert [a["properties"]["action"] for a in analyses][:2] == ["calculator", "knowledge-query"]
    assert analyses[1]["parents"] == [analyses[0]["uri"]]  # iteration 2 derives from iteration 1
    assert steps_of(trace, "Conclusion")[0]["properties"]["terminationReason"] == "final-answer"
    assert trace["totals"]["errors"] >= 1


def test_arithmetic_goes_to_the_calculator(store: Store, sample: str) -> None:
    events = ask(store, "What is 1934 - 1867?", sample)
    assert "".join(e.text for e in events if isinstance(e, AnswerChunk)) == "1934 - 1867 = 67."


def test_an_unparseable_step_is_an_error_observation_and_iterations_run_out(
    store: Store, sample: str, prose_model: OpenAILLM
) -> None:
    events = ask(store, RIVER, sample, llm=prose_model, pattern="react", max_iterations=2)
    trace = trace_of(store, sample, events)
    observations = steps_of(trace, "Observation")
    assert len(observations) == 2 and all("Error" in o["labels"] for o in observations)
    assert all("react stage did not answer a JSON object" in o["error"] for o in observations)
    assert [a["properties"]["action"] for a in steps_of(trace, "Analysis")] == ["invalid-step", "invalid-step"]
    (conclusion,) = steps_of(trace, "Conclusion")
    assert conclusion["properties"]["terminationReason"] == "max-iterations"
    assert not steps_of(trace, "PatternDecision")  # the caller named the pattern: nothing was decided


def test_plan_then_execute_records_the_plan_its_step_results_and_one_synthesis(store: Store, sample: str) -> None:
    events = ask(store, "Summarise the discoveries of Marie Curie", sample)
    trace = trace_of(store, sample, events)
    assert steps_of(trace, "PatternDecision")[0]["properties"]["pattern"] == "plan-then-execute"
    (plan,) = steps_of(trace, "Plan")
    results = steps_of(trace, "StepResult")
    assert len(results) == len(plan["properties"]["planStep"]) >= 2
    assert all(r["parents"] == [plan["uri"]] and r["documents"][0]["text"] for r in results)
    synthesis = next(s for s in steps_of(trace, "Synthesis") if s["uri"].endswith("/synthesis") and "agent" in s["uri"])
    assert sorted(synthesis["parents"]) == sorted(r["uri"] for r in results)


def test_a_supervisor_decomposes_runs_a_sub_agent_per_goal_and_weaves_the_findings(store: Store, sample: str) -> None:
    events = ask(store, "Compare Marie Curie and Pierre Curie", sample)
    trace = trace_of(store, sample, events)
    (decomposition,) = steps_of(trace, "Decomposition")
    goals = decomposition["properties"]["subagentGoal"]
    assert goals == ["What is known about Marie Curie?", "What is known about Pierre Curie?"]
    sub_agents = [q for q in steps_of(trace, "AgentQuestion") if q["depth"] > 0]
    assert sorted(q["properties"]["query"] for q in sub_agents) == sorted(goals)
    assert all(q["parents"] == [decomposition["uri"]] for q in sub_agents)
    findings = steps_of(trace, "Finding")
    assert len(findings) == 2 and all(f["documents"][0]["text"] for f in findings)
    synthesis = next(s for s in steps_of(trace, "Synthesis") if s["uri"].startswith(trace["uri"]))
    assert sorted(synthesis["parents"]) == sorted(f["uri"] for f in findings)


def test_cypher_read_runs_a_named_read_query_in_this_collection_only(store: Store, sample: str) -> None:
    ask(store, "What is 1934 - 1867?", sample)  # something to find
    ctx = Context(store, OfflineLLM(), W, sample, recorder=None, graph=OwnGraph(store, W, sample))
    session = Session(ctx, SessionKind.AGENT, "which traces?")
    runner = TOOLS["cypher-read"].run(session, "urn:test:caller", {"query": "latest_traces", "params": {"limit": 5}})
    try:
        while True:
            next(runner)
    except StopIteration as stop:
        rows = json.loads(stop.value.text)
    assert rows and any(r["query"] == "What is 1934 - 1867?" for r in rows)
    nothing = Context(store, OfflineLLM(), W, "test-nothing-here", None, OwnGraph(store, W, "test-nothing-here"))
    other = TOOLS["cypher-read"].run(Session(nothing, SessionKind.AGENT, "q"), "urn:x", {"query": "latest_traces"})
    with pytest.raises(StopIteration) as empty:
        next(other)
    assert json.loads(empty.value.value.text) == []


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"query": "record_batch"}, "no read query named 'record_batch'"),
        ({"query": "latest_traces", "params": {"collection": "x", "colour": 1}}, "not 'colour'"),
    ],
)
def test_cypher_read_refuses_what_is_not_a_named_read_query(
    store: Store, arguments: dict[str, Any], message: str
) -> None:
    session = Session(Context(store, OfflineLLM(), W, "c", None, OwnGraph(store, W, "c")), SessionKind.AGENT, "q")
    with pytest.raises(ToolError, match=message):
        next(TOOLS["cypher-read"].run(session, "urn:x", arguments))


AGE = "How old was Marie Curie when she won her first Nobel Prize?"


def test_an_age_is_looked_up_fact_by_fact_and_computed_by_the_calculator(store: Store, sample: str) -> None:
    events = ask(store, AGE, sample)
    trace = trace_of(store, sample, events)
    (decision,) = steps_of(trace, "PatternDecision")
    assert decision["properties"]["pattern"] == "react" and decision["properties"]["taskType"] == "calculation"
    analyses = sorted(steps_of(trace, "Analysis"), key=lambda s: s["properties"]["stepNumber"])
    *lookups, calculation = analyses
    asked = [json.loads(a["properties"]["arguments"])["question"] for a in lookups]
    assert "When was Marie Curie born?" in asked and any("Nobel Prize" in q for q in asked)  # the two facts …
    assert {a["properties"]["action"] for a in lookups} <= {"knowledge-query", "document-query"}
    assert calculation["properties"]["action"] == "calculator"  # … then the arithmetic on what they found
    assert json.loads(calculation["properties"]["arguments"]) == {"expression": "1903 - 1867"}
    answer = "".join(e.text for e in events if isinstance(e, AnswerChunk))
    assert answer.endswith("1903 - 1867 = 36.")


def test_a_computed_answer_cites_the_lookups_that_gave_its_numbers(store: Store, sample: str) -> None:
    final = wire.encode(ask(store, AGE, sample)[-1], SessionKind.AGENT)
    *facts, result = final["citations"]
    assert result["sentence"] == "1903 - 1867 = 36."
    assert sorted(year for c in facts for year in ("1867", "1903") if year in c["sentence"]) == ["1867", "1903"]
    assert all(any(year in e["text"] for e in c["evidence"] for year in ("1867", "1903")) for c in facts)
    assert {"Marie Curie"} <= {s["title"] for s in final["sources"]}


@pytest.mark.parametrize(
    "question", ["Summarise the discoveries of Marie Curie", "Compare Marie Curie and Pierre Curie"]
)
def test_an_agent_answer_is_its_findings_never_its_sub_questions(store: Store, sample: str, question: str) -> None:
    events = ask(store, question, sample)
    trace = trace_of(store, sample, events)
    answer = "".join(e.text for e in events if isinstance(e, AnswerChunk))
    goals = [g for s in steps_of(trace, "Plan") for g in s["properties"]["planStep"]]
    goals += [g for s in steps_of(trace, "Decomposition") for g in s["properties"]["subagentGoal"]]
    assert goals and not any(goal.rstrip("?") in answer for goal in goals)
    found = " ".join(
        d["text"] for kind in ("StepResult", "Finding") for s in steps_of(trace, kind) for d in s["documents"]
    )
    said = sentences(answer)
    assert said and all(sentence in found for sentence in said)  # every sentence is one a result said …
    assert len(said) <= 2  # … at most one for each part of the question
    final = wire.encode(events[-1], SessionKind.AGENT)
    assert {c["sentence"] for c in final["citations"] if c["evidence"]} == set(said)  # … and each is cited
