"""Agents: a router picks a pattern — ReAct, plan-then-execute or supervisor — and the pattern runs.

The session is an agent Question (``urn:trustgraph:agent:{sid}``). When the request names no pattern,
the router asks the LLM (``router`` stage) and records a ``PatternDecision`` with the task type it
recognised; when the request names one, nothing was decided and nothing is recorded. The patterns
live in ``react.py``, ``plan.py`` and ``supervisor.py``; the tools in ``tools.py``.

Options: ``max_iterations`` (ReAct, per session and per sub-agent; 8 by default) and ``pattern``
(``react``, ``plan-then-execute`` or ``supervisor``).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping
from typing import Any

from tgneo import uris
from tgneo.engines.agent.plan import plan_then_execute
from tgneo.engines.agent.react import react
from tgneo.engines.agent.supervisor import supervise
from tgneo.engines.base import Engine, Outcome, Request, Session
from tgneo.engines.graphrag import usage
from tgneo.errors import BadRequest
from tgneo.explain.agent import AgentQuestion, PatternDecision
from tgneo.explain.events import Event
from tgneo.kinds import AgentPattern, SessionKind
from tgneo.llm.base import Completion, Task
from tgneo.llm.parsing import json_answer

Pattern = Callable[[Session, Mapping[str, int]], Generator[Event, None, Outcome]]
PATTERNS: dict[AgentPattern, Pattern] = {
    AgentPattern.REACT: lambda s, o: react(s, o["max_iterations"]),
    AgentPattern.PLAN_THEN_EXECUTE: plan_then_execute,
    AgentPattern.SUPERVISOR: supervise,
}
"""How each pattern (:class:`~tgneo.kinds.AgentPattern`: names and purposes) runs."""


class Agent(Engine):
    """An agent over the knowledge graph and documents of one workspace and collection."""

    kind = SessionKind.AGENT
    defaults = {"max_iterations": 8}

    def options(self, request: Request) -> dict[str, Any]:
        """The ReAct limits, plus the ``pattern`` the caller may name (checked against :data:`PATTERNS`)."""
        pattern = request.options.get("pattern")
        if pattern is not None and pattern not in PATTERNS:
            raise BadRequest(f"agent: unknown pattern {pattern!r}; use one of {', '.join(PATTERNS)}")
        rest = {k: v for k, v in request.options.items() if k != "pattern"}
        merged: dict[str, Any] = super().options(Request(request.question, request.workspace, request.collection, rest))
        merged["pattern"] = pattern
        return merged

    def root_uri(self, session: Session) -> str:
        return uris.agent_session_uri(session.id)

    def run(self, session: Session, options: Mapping[str, Any]) -> Generator[Event, None, Outcome]:
        root = AgentQuestion(uri=uris.agent_session_uri(session.id), query=session.question, parent=session.parent)
        yield session.record(root)
        pattern = options.get("pattern")
        if pattern is None:
            pattern, task_type, call = self.route(session)
            decision = PatternDecision(
                uri=uris.agent_pattern_decision_uri(session.id), session=root.uri, pattern=pattern,
                task_type=task_type, **usage(call),
            )  # fmt: skip
            yield session.record(decision)
        return (yield from PATTERNS[AgentPattern(pattern)](session, options))

    def route(self, session: Session) -> tuple[str, str | None, Completion]:
        """The pattern the LLM chose (``react`` when it named none of ours), the task type it saw, and the call."""
        patterns = [{"name": p.value, "description": p.purpose} for p in AgentPattern]
        call = session.complete(Task("router", {"question": session.question, "patterns": patterns}))
        decision = json_answer(call, "router", dict)
        pattern = decision.get("pattern") if decision.get("pattern") in PATTERNS else "react"
        task_type = decision.get("task_type")
        return str(pattern), str(task_type) if isinstance(task_type, str) and task_type.strip() else None, call
