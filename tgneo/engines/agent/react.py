"""ReAct: think, call a tool, observe — recorded iteration by iteration until a final answer.

Each iteration is an ``Analysis``+``ToolUse`` (action, arguments, the tools it could choose from, its
step number, the LLM's duration and tokens) with a ``Thought`` whose text is in the librarian,
followed by the tool's ``Observation`` (its duration, its text in the librarian). A tool that fails,
or an LLM answer that is not a valid step, is still an iteration: its Observation is typed
``tg:Error`` with ``tg:toolError``, and the agent gets another iteration. The loop ends with a
``Conclusion`` naming why: ``final-answer``, or ``max-iterations`` when ``max_iterations`` ran out.

Links follow TrustGraph (reference §1.10): iteration 1 derives from the session (never via the
PatternDecision), iteration n+1 from iteration n, an Observation from its iteration (or from the
sub-trace Synthesis of a RAG tool), the Conclusion from the last iteration.
"""

from __future__ import annotations

import time
from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tgneo import uris
from tgneo.engines.agent.synthesis import answering_of
from tgneo.engines.agent.tools import TOOLS, ToolError
from tgneo.engines.attribution import attribute
from tgneo.engines.base import Outcome, Session
from tgneo.engines.graphrag import usage
from tgneo.errors import BadRequest
from tgneo.explain.agent import Analysis, Conclusion, Observation, Thought
from tgneo.explain.events import AgentMessage, AnswerChunk, Event
from tgneo.llm.base import Completion, LLMError, Task
from tgneo.llm.parsing import json_answer

INVALID_STEP = "invalid-step"
"""The action recorded for an iteration whose LLM answer was not a valid step."""


@dataclass(frozen=True)
class Step:
    """What the LLM decided: a tool call, or the final answer."""

    thought: str
    action: str | None = None
    arguments: Mapping[str, Any] | None = None
    final_answer: str | None = None


def parse_step(call: Completion) -> Step:
    """The step in a ``react`` answer.

    Raises:
        LLMError: not a JSON object with a thought and either an action or a final answer.
    """
    data = json_answer(call, "react", dict)
    thought = str(data.get("thought") or "").strip()
    if isinstance(data.get("final_answer"), str) and data["final_answer"].strip():
        return Step(thought or "I can answer now.", final_answer=data["final_answer"].strip())
    action, arguments = data.get("action"), data.get("arguments", {})
    if not isinstance(action, str) or not action.strip():
        raise LLMError(f"the react stage gave neither an action nor a final answer (model {call.model})")
    if not isinstance(arguments, Mapping):
        raise LLMError(f"the react stage gave arguments that are not an object (model {call.model})")
    return Step(thought or f"I will use {action}.", action.strip(), dict(arguments))


def react(session: Session, max_iterations: int) -> Generator[Event, None, Outcome]:
    """Run the ReAct loop in ``session`` (an agent session whose Question is already recorded)."""
    sid, root = session.id, uris.agent_session_uri(session.id)
    tools = [tool.spec() for tool in TOOLS.values()]
    history: list[dict[str, Any]] = []
    observed: list[tuple[str, str, str]] = []  # what the tools returned: (observation uri, the call, its text)
    previous: str | None = None
    for n in range(1, max_iterations + 1):
        call = session.complete(Task("react", {"question": session.question, "tools": tools, "history": history}))
        problem: str | None = None
        try:
            step = parse_step(call)
        except LLMError as e:
            step, problem = Step("The model's answer was not a valid step.", INVALID_STEP, {}), str(e)
        if step.final_answer is not None:
            return (yield from conclude(session, previous, step, call, "final-answer", observed))

        uri, thought_uri = uris.agent_iteration_uri(sid, n), uris.agent_thought_uri(sid, n)
        yield AgentMessage("thought", step.thought, message_id=uri)
        analysis = Analysis(
            uri=uri,
            question=root if previous is None else None,
            previous=previous,
            action=step.action or "",
            arguments=dict(step.arguments or {}),
            thought=Thought(uri=thought_uri, document=thought_uri),
            tool_candidates=tuple(TOOLS),
            step_number=n,
            llm_duration_ms=call.duration_ms,
            **usage(call),
        )
        yield session.record(analysis, {thought_uri: step.thought})

        text, derived_from, error, ms = yield from call_tool(session, uri, step, problem)
        observation_uri = uris.agent_observation_uri(sid, n)
        yield AgentMessage("observation", text, message_id=observation_uri)
        observation = Observation(
            uri=observation_uri,
            parent=derived_from or uri,
            document=observation_uri,
            tool_duration_ms=ms,
            tool_error=error,
        )
        yield session.record(observation, {observation_uri: text})
        if error is None:
            observed.append((observation_uri, f"{step.action} {dict(step.arguments or {})}", text))
        history.append(
            {
                "thought": step.thought,
                "action": step.action,
                "arguments": step.arguments,
                "observation": text,
                "error": error,
            }
        )
        previous = uri
    last = history[-1]["observation"] if history else ""
    give_up = Step(
        f"I stopped after {max_iterations} iterations without a final answer.",
        final_answer=f"I could not finish within {max_iterations} steps. The last thing I found: {last}",
    )
    return (yield from conclude(session, previous, give_up, None, "max-iterations", observed))


def call_tool(
    session: Session, caller: str, step: Step, problem: str | None
) -> Generator[Event, None, tuple[str, str | None, str | None, int]]:
    """Run the step's tool; return its text, the step its Observation derives from, the error, the ms."""
    started = time.perf_counter()
    if problem is not None:
        return f"Error: {problem}", None, problem, 0
    tool = TOOLS.get(step.action or "")
    try:
        if tool is None:
            raise ToolError(f"there is no tool named {step.action!r}; tools: {', '.join(TOOLS)}")
        result = yield from tool.run(session, caller, step.arguments or {})
    except (ToolError, BadRequest, LLMError) as e:
        message = str(e)
        return f"Error: {message}", None, message, int((time.perf_counter() - started) * 1000)
    return result.text, result.derived_from, None, int((time.perf_counter() - started) * 1000)


def conclude(
    session: Session,
    previous: str | None,
    step: Step,
    call: Completion | None,
    reason: str,
    observed: Sequence[tuple[str, str, str]] = (),
) -> Generator[Event, None, Outcome]:
    """Stream the final answer, then record the Conclusion with its text in the librarian."""
    sid, root = session.id, uris.agent_session_uri(session.id)
    yield AgentMessage("thought", step.thought, message_id=uris.agent_final_uri(sid))
    answer = step.final_answer or ""
    yield AnswerChunk(answer, last=True)
    document = uris.agent_answer_uri(sid)
    conclusion = Conclusion(
        uri=uris.agent_final_uri(sid),
        question=root if previous is None else None,
        previous=previous,
        document=document,
        termination_reason=reason,
        **(usage(call) if call is not None else {}),
    )
    citations, sentences = attribute(answer, session.ctx.evidence, session.ctx.llm, conclusion.uri)
    yield session.record(conclusion, {document: answer}, attached=sentences)
    answering = answering_of(session, conclusion.uri, answer, observed) if answer.strip() else None
    return Outcome(answer, conclusion.uri, citations=citations, answering=answering)
