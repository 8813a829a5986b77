"""Checking a stored answer after the fact: ``tgneo trace verify URI``, ``POST /api/v1/traces/{uri}/verify``,
``tg.verify(uri)``.

Any trace tgneo holds can be checked, whoever answered it — tgneo's engines, the LangChain handler,
``ExplainedGraphRAG``, ``tgneo.record``, OpenTelemetry spans: what the check needs is in the trace. The answer is
the last Synthesis or Conclusion's text; the items the answering stage was given are what the trace selected
(GraphRAG: each EdgeSelection's fact and the sentence it was read from; Document RAG: each ChunkSelection's chunk;
an agent: each Observation, StepResult or Finding); which items each answer sentence cites is the trace's answer
sentences (an agent's: its sentences aligned to its observations). The answering stage is run again on the
configured provider (``TGNEO_LLM``): the task of the trace's kind (``synthesis``, ``docrag-synthesis``,
``agent-synthesis``), and the Verification records which model judged. The check is recorded like any step (one
transaction: the Verification, its Counterfactuals and their answers), derived from the answer it checks.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from tgneo.engines.agent.synthesis import results_task
from tgneo.engines.attribution import attribute
from tgneo.engines.docrag import passages_task
from tgneo.engines.graphrag import cited, synthesis_task
from tgneo.engines.verify import Answering, Budget, Check, Item, check, recorded, summary, task_answerer
from tgneo.errors import BadRequest
from tgneo.explain.events import Citation, Evidence, ExplainEvent, VerificationSummary
from tgneo.explain.recorder import Recorder
from tgneo.llm.base import LLM
from tgneo.nlp.anaphora import in_context
from tgneo.store.driver import Store
from tgneo.store.traces import get_trace

__all__ = ["answering_of_trace", "verify_trace"]

_ANSWERS = ("Synthesis", "Conclusion")
_RESULTS = ("Observation", "StepResult", "Finding")


def verify_trace(
    store: Store, llm: LLM, workspace: str, collection: str, uri: str, budget: Budget
) -> tuple[Check, VerificationSummary, ExplainEvent]:
    """Check the answer of the trace ``uri`` (its root) and record the check; what it found, and its event.

    Raises:
        TraceNotFound: no such trace in ``workspace``/``collection``.
        BadRequest: the trace holds no answer to check (it failed before answering).
        LLMError: the provider failed while re-running the answering stage (nothing is recorded).
    """
    trace = get_trace(store, workspace, collection, uri, max_steps=2**31 - 1)
    answering = answering_of_trace(trace, llm)
    checked = check(answering.answer, answering.items, answering.cites, task_answerer(llm, answering.task), llm,
                    budget)  # fmt: skip
    verification, counterfactuals, contents = recorded(checked, answering.step)
    event = ExplainEvent.of(verification, counterfactuals)
    Recorder(store, workspace, collection).write(event, verification.parents, contents)
    return checked, summary(checked, verification.uri), event


def answering_of_trace(trace: Mapping[str, Any], llm: LLM) -> Answering:
    """What a check re-runs, read from a stored trace (:func:`tgneo.store.traces.get_trace`): see the module docstring.

    Raises:
        BadRequest: the trace holds no answer step with its text.
    """
    steps: Sequence[Mapping[str, Any]] = trace["steps"]
    root_session = _session(str(trace["uri"]))
    answers = [s for s in steps if s["type"] in _ANSWERS and s.get("documents") and _session(s["uri"]) == root_session]
    if not answers:
        raise BadRequest(f"trace {trace['uri']!r} holds no answer to check (no Synthesis or Conclusion with its text)")
    step = answers[-1]
    answer = str(step["documents"][0].get("text") or "")
    question = str(trace.get("query") or "")
    kind = trace.get("type")
    if kind == "agent":
        return _agent(trace, step, answer, question, llm)
    items: list[Item] = []
    if kind == "graphrag":
        for focus in (s for s in steps if s["type"] == "Focus" and _session(s["uri"]) == root_session):
            for edge in focus.get("edges", ()):
                items.append(_edge_item(edge))
        task = synthesis_task(question)
    else:
        for focus in (s for s in steps if s["type"] == "Focus" and _session(s["uri"]) == root_session):
            for chunk in focus.get("chunks", ()):
                text = str((chunk.get("chunk") or {}).get("text") or "")
                if text:
                    items.append(Item(str(chunk["selection"]), {"id": chunk["chunk"]["uri"], "text": text}, text))
        task = passages_task(question)
    cites = tuple(tuple(str(e["selection"]) for e in s.get("evidence", ())) for s in step.get("sentences", ()))
    return Answering(step["uri"], answer, tuple(items), cites, task)


def _edge_item(edge: Mapping[str, Any]) -> Item:
    st = edge.get("statement") or {}
    s, p, o = (str(st.get(f"{k}_label") or st.get(k) or "") for k in ("s", "p", "o"))
    fact = f"{s} {p} {o}".strip()
    sources = st.get("sources") or []
    evidence = next((str(x["evidence"]) for x in sources if x.get("evidence")), None)
    said = in_context(evidence, (s, o)) if evidence else None
    return Item(str(edge["selection"]), {"fact": fact, "evidence": said}, evidence or fact)


def _agent(trace: Mapping[str, Any], step: Mapping[str, Any], answer: str, question: str, llm: LLM) -> Answering:
    root_session = _session(str(trace["uri"]))
    items = tuple(
        Item(str(s["uri"]), {"goal": s["type"], "text": text}, text)
        for s in trace["steps"]
        if s["type"] in _RESULTS and _session(s["uri"]) == root_session and not s.get("error")
        and (text := str((s.get("documents") or [{}])[0].get("text") or "")).strip()
    )  # fmt: skip
    candidates = [Evidence(item.uri, item.text, 0.0) for item in items]
    citations: tuple[Citation, ...] = attribute(answer, candidates, llm, str(step["uri"]))[0]
    return Answering(str(step["uri"]), answer, items, cited(citations), results_task(question))


def _session(uri: str) -> str:
    """The session a step belongs to (its UUID), so a sub-trace's answer is not taken for the trace's own."""
    found = re.search(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", uri)
    return found.group(0) if found else uri
