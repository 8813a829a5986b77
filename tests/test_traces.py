"""Reading traces back: whole traces of every kind, listing, source chains, the audit question, isolation."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from tests import scenarios
from tgneo.errors import BadRequest, TraceNotFound
from tgneo.explain.recorder import Recorder
from tgneo.graphmodel.compiler import compile_quads
from tgneo.rdf.ntriples import edge_id
from tgneo.store import Store
from tgneo.store.traces import dependents, get_trace, list_traces, source_chain
from tgneo.store.write_path import write_batch


def record(store: Store, collection: str, *sessions: list[scenarios.Step], workspace: str = "w") -> None:
    """Record the knowledge graph (its labels) and then every session's steps, in order."""
    recorder = Recorder(store, workspace, collection)
    write_batch(store, workspace, collection, compile_quads(scenarios.corpus().kg))
    for steps in sessions:
        for step, contents in steps:
            recorder.record(step, contents)


def by_type(trace: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for step in trace["steps"]:
        out.setdefault(step["type"], []).append(step)
    return out


def test_a_graphrag_trace_reads_back_whole_and_in_order(store: Store, collection: str) -> None:
    corpus = scenarios.corpus()
    session = scenarios.graphrag()
    record(store, collection, corpus.steps, session)
    trace = get_trace(store, "w", collection, session[0][0].uri)
    assert trace["type"] == "graphrag" and trace["query"] == "What did Marie Curie discover?"
    assert [s["type"] for s in trace["steps"]] == ["GraphRagQuestion", "Grounding", "Exploration", "Focus", "Synthesis"]
    assert trace["startedAtTime"] == scenarios.TS


def test_selected_edges_carry_labels_scores_reasoning_and_source_chains(store: Store, collection: str) -> None:
    corpus = scenarios.corpus()
    session = scenarios.graphrag()
    record(store, collection, corpus.steps, session)
    focus = by_type(get_trace(store, "w", collection, session[0][0].uri))["Focus"][0]
    edge = next(e for e in focus["edges"] if e["score"] == 0.93)
    statement = edge["statement"]
    assert (statement["s_label"], statement["p_label"], statement["o_label"]) == ("Marie Curie", "discovered", "Radium")
    assert edge["reasoning"] == "names a discovery" and edge["concept"] == ["discoveries"]
    chain = [node["uri"] for node in statement["sources"][0]["chain"]]
    assert chain[1:] == [corpus.chunk, corpus.page, scenarios.DOC]
    assert focus["properties"]["inToken"] == 40


def test_exploration_lists_seed_entities_with_labels(store: Store, collection: str) -> None:
    corpus = scenarios.corpus()
    session = scenarios.graphrag()
    record(store, collection, corpus.steps, session)
    exploration = by_type(get_trace(store, "w", collection, session[0][0].uri))["Exploration"][0]
    assert exploration["entities"] == [{"uri": str(scenarios.CURIE), "label": "Marie Curie"}]


def test_the_answer_text_comes_with_the_synthesis(store: Store, collection: str) -> None:
    session = scenarios.graphrag()
    record(store, collection, session)
    synthesis = by_type(get_trace(store, "w", collection, session[0][0].uri))["Synthesis"][0]
    assert synthesis["documents"][0]["text"].startswith("Marie Curie discovered radium.")


def test_totals_sum_tokens_and_name_models(store: Store, collection: str) -> None:
    session = scenarios.graphrag()
    record(store, collection, session)
    totals = get_trace(store, "w", collection, session[0][0].uri)["totals"]
    assert (totals["inToken"], totals["outToken"], totals["models"]) == (152, 22, ["mock-llm"])


def test_a_docrag_trace_shows_the_selected_chunk_and_its_document(store: Store, collection: str) -> None:
    corpus = scenarios.corpus()
    session = scenarios.docrag(corpus.chunk)
    record(store, collection, corpus.steps, session)
    steps = by_type(get_trace(store, "w", collection, session[0][0].uri))
    selection = steps["Focus"][0]["chunks"][0]
    assert selection["score"] == 0.88
    assert selection["chunk"]["uri"] == corpus.chunk and selection["chunk"]["chain"] == [scenarios.DOC]
    assert "radium and polonium" in selection["chunk"]["text"]
    assert steps["Exploration"][0]["selected_chunks"] == [corpus.chunk]
    assert steps["Synthesis"][0]["parents"] == [steps["Exploration"][0]["uri"]]


def test_a_react_trace_shows_tool_calls_thoughts_and_errors(store: Store, collection: str) -> None:
    session = scenarios.react()
    record(store, collection, session)
    trace = get_trace(store, "w", collection, session[0][0].uri)
    steps = by_type(trace)
    assert trace["type"] == "agent"
    first = next(s for s in steps["Analysis"] if s["properties"]["stepNumber"] == 1)
    assert first["properties"]["action"] == "web-search" and first["thoughts"]
    assert first["properties"]["llmDurationMs"] == 420
    errors = [s for s in steps["Observation"] if "error" in s]
    assert [e["error"] for e in errors] == ["web-search timed out after 3000 ms"]
    assert steps["Thought"][0]["documents"][0]["text"].startswith("I should search the web.")
    assert steps["Conclusion"][0]["properties"]["terminationReason"] == "final-answer"
    assert trace["totals"]["errors"] == 1 and trace["totals"]["toolDurationMs"] == 3901


def test_a_supervisor_trace_includes_the_sub_agent_session(store: Store, collection: str) -> None:
    session = scenarios.supervisor()
    record(store, collection, session)
    steps = by_type(get_trace(store, "w", collection, session[0][0].uri))
    assert len(steps["Finding"]) == 2 and len(steps["AgentQuestion"]) == 2
    assert len(steps["Synthesis"][0]["parents"]) == 2


def test_a_plan_trace_shows_the_plan_and_its_step_results(store: Store, collection: str) -> None:
    session = scenarios.plan()
    record(store, collection, session)
    steps = by_type(get_trace(store, "w", collection, session[0][0].uri))
    assert steps["Plan"][0]["properties"]["planStep"] == ["find discoveries", "summarise"]
    assert {s["properties"]["planStep"][0] for s in steps["StepResult"]} == {"find discoveries", "summarise"}


def test_an_unknown_trace_is_not_found(store: Store, collection: str) -> None:
    with pytest.raises(TraceNotFound, match="urn:trustgraph:question:nope"):
        get_trace(store, "w", collection, "urn:trustgraph:question:nope")


def test_another_workspace_cannot_read_a_trace(store: Store, collection: str) -> None:
    session = scenarios.graphrag()
    record(store, collection, session, workspace="alice")
    with pytest.raises(TraceNotFound):
        get_trace(store, "bob", collection, session[0][0].uri)
    assert list_traces(store, "bob", collection).traces == []


def test_list_traces_filters_by_type_and_lists_roots_only(store: Store, collection: str) -> None:
    corpus = scenarios.corpus()
    record(
        store, collection, corpus.steps, scenarios.graphrag(), scenarios.docrag(corpus.chunk), scenarios.supervisor()
    )
    page = list_traces(store, "w", collection)
    assert sorted(t["type"] for t in page.traces) == ["agent", "docrag", "graphrag"]  # the sub-agent is no root
    assert [t["type"] for t in list_traces(store, "w", collection, type="docrag").traces] == ["docrag"]


def test_list_traces_pages_with_a_cursor(store: Store, collection: str) -> None:
    record(store, collection, *(scenarios.graphrag() for _ in range(5)))
    first = list_traces(store, "w", collection, limit=2)
    second = list_traces(store, "w", collection, limit=2, cursor=first.next_cursor)
    third = list_traces(store, "w", collection, limit=2, cursor=second.next_cursor)
    uris = [t["uri"] for p in (first, second, third) for t in p.traces]
    assert len(uris) == 5 and len(set(uris)) == 5
    assert third.next_cursor is None


def test_list_traces_since_excludes_older_questions(store: Store, collection: str) -> None:
    record(store, collection, scenarios.graphrag())
    assert list_traces(store, "w", collection, since=datetime(2030, 1, 1, tzinfo=UTC)).traces == []
    assert len(list_traces(store, "w", collection, since=datetime(2020, 1, 1, tzinfo=UTC)).traces) == 1


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"type": "sql"}, "unknown session kind"),
        ({"limit": 0}, "limit"),
        ({"cursor": "garbage!"}, "cursor"),
        ({"since": datetime(2020, 1, 1)}, "time zone"),
    ],  # fmt: skip
)
def test_list_traces_rejects_bad_filters(store: Store, kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(BadRequest, match=message):
        list_traces(store, "w", "c", **kwargs)


def test_source_chain_walks_statement_to_document(store: Store, collection: str) -> None:
    corpus = scenarios.corpus()
    record(store, collection, corpus.steps)
    chain = source_chain(
        store, "w", collection, edge_id(scenarios.EDGE_POLONIUM.s, scenarios.EDGE_POLONIUM.p, scenarios.EDGE_POLONIUM.o)
    )
    labels = [sorted(n["labels"]) for n in chain["sources"][0]["chain"]]
    assert [next(lbl for lbl in ls if lbl in ("TgSubgraph", "TgChunk", "TgPage", "TgDocument")) for ls in labels] == [
        "TgSubgraph", "TgChunk", "TgPage", "TgDocument"
    ]  # fmt: skip


def test_dependents_answers_which_questions_used_a_document(store: Store, collection: str) -> None:
    corpus = scenarios.corpus()
    graph_session, doc_session, unrelated = scenarios.graphrag(), scenarios.docrag(corpus.chunk), scenarios.react()
    record(store, collection, corpus.steps, graph_session, doc_session, unrelated)
    used = {d["question"]: d for d in dependents(store, "w", collection, scenarios.DOC)}
    assert set(used) == {graph_session[0][0].uri, doc_session[0][0].uri}
    both_edges_came_from_the_document = sorted(graph_session[3][0].selection_uris)  # type: ignore[attr-defined]
    assert sorted(used[graph_session[0][0].uri]["via"]) == both_edges_came_from_the_document
