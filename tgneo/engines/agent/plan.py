"""Plan-then-execute: the LLM plans the steps, each runs its tool, a synthesis answers from the results.

Recorded as TrustGraph does: a ``Plan`` (one ``tg:planStep`` per goal) derived from the session, one
``StepResult`` per step (its goal and its text in the librarian) derived from the plan, and an agent
``Synthesis`` derived from every step result. A RAG tool's sub-trace derives from the Plan. A step
whose tool fails keeps its place: its result says what failed, and the synthesis works with the rest.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping
from typing import Any

from tgneo import uris
from tgneo.engines.agent.react import Step, call_tool
from tgneo.engines.agent.synthesis import synthesise
from tgneo.engines.agent.tools import TOOLS
from tgneo.engines.base import Outcome, Session
from tgneo.engines.graphrag import usage
from tgneo.explain.agent import Plan, StepResult
from tgneo.explain.events import AgentMessage, Event
from tgneo.llm.base import LLMError, Task
from tgneo.llm.parsing import json_objects

MAX_STEPS = 8


def plan_steps(session: Session) -> tuple[list[dict[str, Any]], Any]:
    """The plan's steps (goal, tool, arguments), at most :data:`MAX_STEPS`.

    Raises:
        LLMError: the plan is not a JSON array of steps with a goal each.
    """
    tools = [tool.spec() for tool in TOOLS.values()]
    call = session.complete(Task("plan", {"question": session.question, "tools": tools}))
    steps = [s for s in json_objects(call, "plan") if isinstance(s.get("goal"), str) and s["goal"].strip()]
    if not steps:
        raise LLMError(f"the plan stage planned no step (model {call.model})")
    return steps[:MAX_STEPS], call


def plan_then_execute(session: Session, options: Mapping[str, int]) -> Generator[Event, None, Outcome]:
    """Plan, run every step, synthesise (see the module docstring)."""
    sid = session.id
    steps, call = plan_steps(session)
    plan = Plan(
        uri=uris.agent_plan_uri(sid),
        session=uris.agent_session_uri(sid),
        steps=tuple(s["goal"].strip() for s in steps),
        **usage(call),
    )
    yield session.record(plan)
    results: list[tuple[str, str, str]] = []
    for i, spec in enumerate(steps):
        goal = spec["goal"].strip()
        arguments = spec.get("arguments") if isinstance(spec.get("arguments"), Mapping) else {}
        step = Step(goal, str(spec.get("tool") or ""), dict(arguments or {}))
        text, _, _, _ = yield from call_tool(session, plan.uri, step, None)  # a failed step's text says so
        uri = uris.agent_step_result_uri(sid, i)
        yield AgentMessage("observation", text, message_id=uri)
        result = StepResult(uri=uri, plan=plan.uri, goal=goal, document=uri)
        yield session.record(result, {uri: text})
        results.append((result.uri, goal, text))
    return (yield from synthesise(session, results))
