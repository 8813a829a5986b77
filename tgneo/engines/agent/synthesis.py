"""The answer of a plan or a supervisor: one Synthesis woven from several results, derived from each."""

from __future__ import annotations

from collections.abc import Generator, Sequence

from tgneo import uris
from tgneo.engines.attribution import attribute
from tgneo.engines.base import Outcome, Session
from tgneo.engines.graphrag import usage
from tgneo.explain.agent import AgentSynthesis
from tgneo.explain.events import Event
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
    return Outcome(call.text, synthesis.uri, citations=citations)
