"""The answer of a plan or a supervisor: one Synthesis woven from several results, derived from each."""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence

from tgneo import uris
from tgneo.engines.attribution import attribute
from tgneo.engines.base import Outcome, Session
from tgneo.engines.graphrag import cited, usage
from tgneo.engines.verify import Answering, Item
from tgneo.explain.agent import AgentSynthesis
from tgneo.explain.events import Event, Evidence
from tgneo.llm.base import Task


def synthesise(session: Session, results: Sequence[tuple[str, str, str]]) -> Generator[Event, None, Outcome]:
    """Stream the answer from ``(step uri, goal, text)`` results, then record the Synthesis derived from each."""
    items = [{"goal": goal, "text": text} for _, goal, text in results]
    call = yield from session.stream(Task("agent-synthesis", {"question": session.question, "results": items}))
    document = uris.agent_answer_uri(session.id)
    synthesis = AgentSynthesis(
        uri=uris.agent_synthesis_uri(session.id),
        previous=tuple(uri for uri, _, _ in results),
        document=document,
        termination_reason="final-answer",
        **usage(call),
    )
    citations, sentences = attribute(call.text, session.ctx.evidence, session.ctx.llm, synthesis.uri)
    yield session.record(synthesis, {document: call.text}, attached=sentences)
    answering = answering_of(session, synthesis.uri, call.text, results)
    return Outcome(call.text, synthesis.uri, citations=citations, answering=answering)


def answering_of(session: Session, step: str, answer: str, results: Sequence[tuple[str, str, str]]) -> Answering:
    """What a check of an agent's answer re-runs: the agent's synthesis stage over its observations (or step
    results, or findings) ``(uri, goal, text)``, each answer sentence citing the observations that support it.

    Why the synthesis stage for every pattern: a ReAct agent's last turn answers from its whole history, but the
    part of that turn a check can vary is what the tools returned; the stage that answers from tool results alone is
    the one plan-then-execute and the supervisor answer with, so a re-run of a ReAct answer goes through it too.
    """
    items = tuple(Item(uri, {"goal": goal, "text": text}, text) for uri, goal, text in results if text.strip())
    candidates = [Evidence(item.uri, item.text, 0.0) for item in items]
    citations, _ = attribute(answer, candidates, session.ctx.llm, step)
    return Answering(step, answer, items, cited(citations), results_task(session.question))


def results_task(question: str) -> Callable[[Sequence[Item]], Task]:
    """The agent's synthesis stage on some of its results."""

    def task(items: Sequence[Item]) -> Task:
        return Task("agent-synthesis", {"question": question, "results": [dict(i.payload) for i in items]})

    return task
