"""Supervisor: split the question into sub-goals, research each in a sub-agent, weave the findings.

Recorded as TrustGraph does: a ``Decomposition`` (one ``tg:subagentGoal`` per goal) derived from the
session; per goal, a sub-agent session (an agent Question derived from the Decomposition, answered
with ReAct as its own recorded trace) and a ``Finding`` (the goal, the sub-agent's answer in the
librarian) derived from the Decomposition; and an agent ``Synthesis`` derived from every Finding.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping

from tgneo import uris
from tgneo.engines.agent.react import react
from tgneo.engines.agent.synthesis import synthesise
from tgneo.engines.base import Outcome, Session
from tgneo.engines.graphrag import usage
from tgneo.explain.agent import AgentQuestion, Decomposition, Finding
from tgneo.explain.events import AgentMessage, Event, ExplainEvent
from tgneo.kinds import SessionKind
from tgneo.llm.base import LLMError, Task
from tgneo.llm.parsing import json_answer

MAX_GOALS = 5


def supervise(session: Session, options: Mapping[str, int]) -> Generator[Event, None, Outcome]:
    """Decompose, run one ReAct sub-agent per goal, synthesise (see the module docstring)."""
    sid = session.id
    call = session.complete(Task("decompose", {"question": session.question}))
    goals = [g.strip() for g in json_answer(call, "decompose", list) if isinstance(g, str) and g.strip()]
    if not goals:
        raise LLMError(f"the decompose stage named no sub-goal (model {call.model})")
    goals = list(dict.fromkeys(goals))[:MAX_GOALS]
    decomposition = Decomposition(
        uri=uris.agent_decomposition_uri(sid), session=uris.agent_session_uri(sid), goals=tuple(goals), **usage(call)
    )
    yield session.record(decomposition)
    findings: list[tuple[str, str, str]] = []
    for i, goal in enumerate(goals):
        sub = Session(session.ctx, SessionKind.AGENT, goal, parent=decomposition.uri)
        yield sub.record(AgentQuestion(uri=uris.agent_session_uri(sub.id), query=goal, parent=decomposition.uri))
        outcome = yield from _explain_and_messages(react(sub, options["max_iterations"]))
        uri = uris.agent_finding_uri(sid, i)
        yield AgentMessage("observation", outcome.answer, message_id=uri)
        finding = Finding(uri=uri, decomposition=decomposition.uri, goal=goal, document=uri)
        yield session.record(finding, {uri: outcome.answer})
        findings.append((finding.uri, goal, outcome.answer))
    return (yield from synthesise(session, findings))


def _explain_and_messages(runner: Generator[Event, None, Outcome]) -> Generator[Event, None, Outcome]:
    """A sub-agent's explain events and thoughts go to the stream; its answer becomes a Finding instead."""
    try:
        while True:
            event = next(runner)
            if isinstance(event, ExplainEvent | AgentMessage):
                yield event
    except StopIteration as stop:
        outcome: Outcome = stop.value
        return outcome
