"""The event catalogue renders TrustGraph's response messages for each session kind (reference §2.6, §7)."""

from __future__ import annotations

import pytest

from tests import scenarios
from tgneo.errors import MappingError
from tgneo.explain.events import EVENTS, AgentMessage, AnswerChunk, ErrorEvent, ExplainEvent, SessionEnd, Source
from tgneo.kinds import SessionKind
from tgneo.stream.wire import encode

RAG = (SessionKind.GRAPH_RAG, SessionKind.DOC_RAG)


def explain_event() -> ExplainEvent:
    question = scenarios.graphrag()[0][0]
    return ExplainEvent(question.uri, question.graph, question.triples(), question.kind)


@pytest.mark.parametrize("session", RAG)
def test_a_rag_explain_message_is_trustgraphs_frame(session: SessionKind) -> None:
    event = explain_event()
    message = encode(event, session)
    assert {k: v for k, v in message.items() if k != "explain_triples"} == {
        "message_type": "explain", "response": "", "end_of_stream": False, "end_of_session": False,
        "explain_id": event.explain_id, "explain_graph": "urn:graph:retrieval",
    }  # fmt: skip
    assert message["explain_triples"][2]["o"] == {"t": "i", "i": "https://trustgraph.ai/ns/GraphRagQuestion"}
    assert all(t["g"] == "urn:graph:retrieval" for t in message["explain_triples"])


def test_an_agent_explain_message_carries_the_dialog_flags() -> None:
    message = encode(explain_event(), SessionKind.AGENT)
    assert (message["message_type"], message["end_of_message"], message["end_of_dialog"]) == ("explain", False, False)
    assert "response" not in message and "end_of_session" not in message


def test_answer_chunks_are_chunk_frames_for_rag_and_answer_frames_for_agents() -> None:
    assert encode(AnswerChunk("Marie Curie ", last=False), SessionKind.GRAPH_RAG) == {
        "message_type": "chunk", "response": "Marie Curie ", "end_of_stream": False, "end_of_session": False,
    }  # fmt: skip
    assert encode(AnswerChunk("Warsaw.", last=True), SessionKind.AGENT) == {
        "message_type": "answer", "content": "Warsaw.", "end_of_message": True, "end_of_dialog": False,
    }  # fmt: skip


def test_the_session_end_carries_sources_and_token_totals() -> None:
    end = SessionEnd((Source("https://ex.org/doc", "Curie"), Source("urn:doc:x")), 112, 13, "tgneo-offline", "urn:q")
    assert encode(end, SessionKind.GRAPH_RAG) == {
        "message_type": "chunk", "response": "", "end_of_stream": False, "end_of_session": True,
        "sources": [{"uri": "https://ex.org/doc", "title": "Curie"}, {"uri": "urn:doc:x", "title": "urn:doc:x"}],
        "in_token": 112, "out_token": 13, "model": "tgneo-offline", "trace": "urn:q",
    }  # fmt: skip
    agent = encode(end, SessionKind.AGENT)
    assert (agent["message_type"], agent["end_of_message"], agent["end_of_dialog"]) == ("answer", True, True)


@pytest.mark.parametrize("session", list(SessionKind))
def test_an_error_ends_the_stream_with_the_services_error_type(session: SessionKind) -> None:
    message = encode(ErrorEvent("Neo4j is unreachable"), session)
    assert message["error"] == {"type": f"{session.wire}-error", "message": "Neo4j is unreachable"}
    assert message[session.final_flag] is True


def test_thoughts_and_observations_belong_to_agent_streams_only() -> None:
    thought = AgentMessage("thought", "I should look it up", message_id="urn:trustgraph:agent:x/i1")
    assert encode(thought, SessionKind.AGENT)["message_id"] == "urn:trustgraph:agent:x/i1"
    with pytest.raises(MappingError, match="agent stream"):
        encode(thought, SessionKind.GRAPH_RAG)


def test_the_catalogue_names_every_event_once() -> None:
    names = [cls.name for cls in EVENTS]
    assert len(names) == len(set(names)) and {"explain", "answer", "end", "error"} <= set(names)


def test_an_agent_iteration_carries_only_its_own_triples_on_the_wire() -> None:
    """TrustGraph's client would read an iteration that carries its Thought's types as a Reflection."""
    iteration = next(step for step, _ in scenarios.react() if step.kind == "analysis" and step.thought)
    event = ExplainEvent(iteration.uri, iteration.graph, iteration.triples(), iteration.kind)
    subjects = {t["s"]["i"] for t in encode(event, SessionKind.AGENT)["explain_triples"]}
    assert subjects == {iteration.uri}
    assert len(encode(event, SessionKind.AGENT)["explain_triples"]) < len(event.triples)  # the Thought's were dropped
