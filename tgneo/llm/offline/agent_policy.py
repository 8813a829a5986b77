"""The offline provider's agent policy: the router, the ReAct policy, the planner, the decomposer and the agent's
synthesis. Like :mod:`tgneo.llm.offline.answers` (whose sentence scoring it shares), each handler only restates its
inputs:

* router: arithmetic (written out, or asked of facts: "how old was X when …") → ReAct; a question that asks two
  things (:func:`~tgneo.nlp.answer_type.parts`) → ReAct; comparisons of several names → supervisor, ordered
  multi-part requests → plan-then-execute, anything else → ReAct;
* ReAct: arithmetic → calculator; a question computed from facts it does not state
  (:mod:`tgneo.nlp.arithmetic`) → one lookup per fact (the knowledge graph, else the documents), then the
  calculator on the numbers found, answered with the sentences that gave them and the result; a question that
  asks two things → a lookup per part (the knowledge graph, then the documents, for each), answered with the
  sentence that answers each part best; otherwise the knowledge graph first, then the documents; then answer
  with the observation that holds most of the question; after a failed tool, another tool, and when none is
  left, the best of what the others found (the failure is its own Observation's error, never the answer);
* agent synthesis: only findings, never the goals that found them — per part of the question (each name
  a comparison names, each side of a two-part question, else the whole question), the most relevant
  sentence the results hold, each once.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from tgneo.llm.offline.answers import as_sentence, content_stems, sentence_scores, with_named_neighbours
from tgneo.llm.offline.handlers import handles
from tgneo.nlp import arithmetic
from tgneo.nlp.answer_type import parts
from tgneo.nlp.segment import sentences
from tgneo.nlp.words import fold, names

_ARITHMETIC = re.compile(r"\d[\d.\s]*(?:[-+*/^%x×÷]\s*\(?\s*[\d.]+\s*\)?\s*)+")
_COMPARES = re.compile(r"\b(compare|comparison|versus|vs|differ\w*|both|contrast)\b")
"""A question that compares what it names (folded): a part per name."""
_NOTHING = (
    "no knowledge-graph entity in ", "the knowledge-graph entities found in ", "the knowledge graph holds nothing",
    "no document chunk in ", "the documents retrieved do not answer", "the research steps found nothing",
    "i found nothing", "i could not find", "error: ",
)  # fmt: skip
"""How the engines' answers that found nothing begin (:func:`tgneo.engines.graphrag.nothing_found`, the synthesis
stages here, Document RAG's empty search), and a failed tool's result (``Error: …``,
:func:`tgneo.engines.agent.react.call_tool`: a plan step's, which the synthesis must not quote as a finding),
folded. Matched at the start of an observation only: a quoted sentence of a document says "nothing" or "could
not" often ("hash-checking is an all-or-nothing proposition")."""


@handles("router")
def router(inputs: Mapping[str, Any]) -> str:
    """Several names compared → supervisor; an ordered multi-part request → plan; else ReAct."""
    question = str(inputs["question"])
    folded = fold(question)
    if _expression(question) or arithmetic.computation(question):
        return json.dumps({"pattern": "react", "task_type": "calculation"})
    if _sides(question) is not None:
        return json.dumps({"pattern": "react", "task_type": "two-part lookup"})
    if len(names(question)) >= 2 and _COMPARES.search(folded):
        return json.dumps({"pattern": "supervisor", "task_type": "comparison"})
    if re.search(r"\b(then|after that|steps?|first|summari[sz]e|timeline|overview)\b", folded):
        return json.dumps({"pattern": "plan-then-execute", "task_type": "multi-step research"})
    return json.dumps({"pattern": "react", "task_type": "lookup"})


def _expression(question: str) -> str | None:
    match = _ARITHMETIC.search(question)
    if not match:
        return None
    return match.group(0).strip().replace("×", "*").replace("x", "*").replace("÷", "/").replace("^", "**")


def _tool_names(inputs: Mapping[str, Any]) -> list[str]:
    return [str(t["name"]) for t in inputs.get("tools", [])]


def _says_nothing(observation: str) -> bool:
    folded = fold(observation).strip()
    return not folded or folded.startswith(_NOTHING)


@handles("react")
def react(inputs: Mapping[str, Any]) -> str:
    """The next ReAct step (see the module docstring for the policy)."""
    question = str(inputs["question"])
    tools = _tool_names(inputs)
    history: list[Mapping[str, Any]] = list(inputs.get("history", []))
    tried = {str(h.get("action")) for h in history}
    lookups = [t for t in ("knowledge-query", "document-query") if t in tools]
    if not history:
        expression = _expression(question)
        if expression and "calculator" in tools:
            return _step(f"The question asks for arithmetic: {expression}.", "calculator", {"expression": expression})
    computed = arithmetic.computation(question) if "calculator" in tools and lookups else None
    if computed is not None and (step := _computing(computed, history, lookups)) is not None:
        return step
    sides = _sides(question) if computed is None and lookups else None
    if sides is not None:
        return _each_side(question, sides, history, lookups)
    if not history:
        if lookups:
            return _step("I should look this up in the knowledge graph first.", lookups[0], {"question": question})
        return json.dumps({"thought": "I have no tool to look this up.", "final_answer": "I cannot answer that."})
    last = history[-1]
    observation = str(last.get("observation") or "")
    if last.get("error"):
        remaining = [t for t in lookups if t not in tried]
        if remaining:
            thought = f"{last.get('action')} failed ({last['error']}); I will try {remaining[0]} instead."
            return _step(thought, remaining[0], {"question": question})
        found = _found(history)
        if not found:
            return json.dumps({"thought": "Every tool I tried failed or found nothing.",
                               "final_answer": f"I could not find an answer: {last['error']}"})  # fmt: skip
        # a failed tool never costs the answer another tool found: its error stays its own Observation's
        best = max(found, key=lambda tool: _relevance(question, found[tool]))
        return json.dumps({"thought": f"{last.get('action')} failed ({last['error']}); the {best} observation "
                                      "answers the question.", "final_answer": found[best]})  # fmt: skip
    if last.get("action") == "calculator" and not _says_nothing(observation):
        return json.dumps({"thought": "The calculator observation answers the question.",
                           "final_answer": f"{_expression(question)} = {observation}."})  # fmt: skip
    found = _found(history)
    if last.get("action") == "knowledge-query" and "document-query" in tools and "document-query" not in tried:
        if "knowledge-query" not in found:
            thought = "The knowledge graph had nothing; the documents may."
            return _step(thought, "document-query", {"question": question})
        # always, not only when the graph found little: its answer can hold the question's words and not what was
        # asked (3 of pip's 42 questions, which the documents' answer named); the better observation answers
        thought = "The knowledge graph found something; the documents may say it better, so I will ask them too."
        return _step(thought, "document-query", {"question": question})
    if not found:
        return json.dumps({"thought": "No tool found anything: neither the knowledge graph nor the documents.",
                           "final_answer": "I found nothing that answers this question."})  # fmt: skip
    relevance = {tool: _relevance(question, text) for tool, text in found.items()}  # scored only to answer
    best = max(found, key=lambda tool: (relevance[tool], tool == last.get("action")))
    return json.dumps({"thought": f"The {best} observation answers the question best.",
                       "final_answer": found[best]})  # fmt: skip


def _found(history: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """What each tool that did not fail observed, by tool (its last call), where it found something."""
    found = {str(h.get("action")): str(h.get("observation") or "") for h in history if not h.get("error")}
    return {tool: text for tool, text in found.items() if not _says_nothing(text)}


def _computing(
    computed: arithmetic.Computation, history: Sequence[Mapping[str, Any]], lookups: Sequence[str]
) -> str | None:
    """The next step of a question computed from facts: the next lookup (the knowledge graph, then the documents,
    until its answer names a number), the calculator on the numbers found, then the answer. ``None`` when a fact
    was not found by any tool, or the calculator failed: the general policy answers with what was found."""
    found: list[tuple[int | float, str]] = []
    for i, lookup in enumerate(computed.lookups):
        asked = [h for h in history if h.get("action") in lookups and _asked(h) == lookup]
        got = next(
            (g for h in asked if not h.get("error") and (g := arithmetic.operand(computed, i, _observed(h)))), None
        )
        if got is None:
            untried = [tool for tool in lookups if tool not in {h.get("action") for h in asked}]
            if not untried:
                return None
            thought = f"To compute the answer I need to know: {lookup}" if not asked else (
                f"{asked[-1].get('action')} named no number for that; {untried[0]} may."
            )  # fmt: skip
            return _step(thought, untried[0], {"question": lookup})
        found.append(got)
    expression = arithmetic.expression(computed, [value for value, _ in found])
    calls = [h for h in history if h.get("action") == "calculator" and _asked(h, "expression") == expression]
    if not calls:
        numbers = ", ".join(str(value) for value, _ in found)
        return _step(f"I found {numbers}; the calculator gives the answer.", "calculator", {"expression": expression})
    result = _observed(calls[-1])
    if calls[-1].get("error") or _says_nothing(result):
        return None
    said = " ".join(as_sentence(s) for s in dict.fromkeys(sentence for _, sentence in found))
    return json.dumps({"thought": "The calculator computed the answer from what the lookups found.",
                       "final_answer": f"{said} {expression} = {result}."})  # fmt: skip


def _sides(question: str) -> list[str] | None:
    """The two parts of a question that asks two things, each saying something of its own; else ``None``."""
    sides = parts(question)
    return sides if len(sides) == 2 and all(content_stems(side) for side in sides) else None


def _each_side(question: str, sides: list[str], history: Sequence[Mapping[str, Any]], lookups: Sequence[str]) -> str:
    """The next step of a two-part question: each part looked up on its own, in the knowledge graph and then in the
    documents (a part is not crowded out of one lookup by the other), then the answer: for each part the sentence
    of the findings that answers it best, as the agents' synthesis chooses it (:func:`agent_synthesis`)."""
    for n, side in enumerate(sides, start=1):
        for tool in lookups:
            if not any(h.get("action") == tool and _asked(h) == side for h in history):
                where = _WHERE[tool]  # an English thought, not a query: joined, not formatted
                thought = " ".join(("The question asks two things; I look up part", str(n), "in", where + ":", side))
                return _step(thought, tool, {"question": side})
    found = [{"text": _observed(h)} for h in history if not h.get("error") and not _says_nothing(_observed(h))]
    answer = agent_synthesis({"question": question, "results": found})
    if _says_nothing(answer):
        return json.dumps({"thought": "No lookup of either part found anything.",
                           "final_answer": "I found nothing that answers this question."})  # fmt: skip
    return json.dumps({"thought": "I answer each part with what its lookups found.", "final_answer": answer})


_WHERE = {"knowledge-query": "the knowledge graph", "document-query": "the documents"}


def _asked(step: Mapping[str, Any], argument: str = "question") -> str:
    arguments = step.get("arguments")
    return str(arguments.get(argument) or "") if isinstance(arguments, Mapping) else ""


def _observed(step: Mapping[str, Any]) -> str:
    return str(step.get("observation") or "")


def _relevance(question: str, text: str) -> float:
    """How much of the question an observation holds (its best sentence's weighted share of the key terms)."""
    pieces = sentences(text) or [text]
    return max(sentence_scores(question, pieces))


def _step(thought: str, action: str, arguments: Mapping[str, Any]) -> str:
    return json.dumps({"thought": thought, "action": action, "arguments": dict(arguments)})


@handles("plan")
def plan(inputs: Mapping[str, Any]) -> str:
    """One knowledge-graph lookup per name the question mentions (at most three), then the documents."""
    question = str(inputs["question"])
    tools = _tool_names(inputs)
    steps = []
    if "knowledge-query" in tools:
        for name in names(question)[:3] or [question]:
            goal = f"What does the knowledge graph say about {name}?" if name != question else question
            steps.append({"goal": goal, "tool": "knowledge-query", "arguments": {"question": goal}})
    if "document-query" in tools:
        steps.append({"goal": question, "tool": "document-query", "arguments": {"question": question}})
    return json.dumps(steps)


@handles("decompose")
def decompose(inputs: Mapping[str, Any]) -> str:
    """One sub-question per name the question mentions (two to four), else the question itself."""
    question = str(inputs["question"])
    found = names(question)
    if len(found) >= 2:
        return json.dumps([f"What is known about {name}?" for name in found[:4]])
    parts = [p.strip(" ?.") for p in re.split(r"\band\b|;", question) if p.strip(" ?.")]
    return json.dumps([p + "?" for p in parts] if len(parts) >= 2 else [question])


@handles("agent-synthesis")
def agent_synthesis(inputs: Mapping[str, Any]) -> str:
    """The findings, never the goals: per part of the question, the most relevant sentence the results hold.

    A comparison of names has a part per name (the sentences naming it, those naming it alone first), a
    two-part question one per side, any other question one. Each part takes the sentence that holds most of
    it (:func:`_scores`), each sentence once, so the answer stops when every part is answered. Nothing that a
    result did not say. A sentence that leans on the one before it in its result for the name a *which directive
    …* question asks for is quoted with it (:func:`~tgneo.llm.offline.answers.with_named_neighbours`).
    """
    question = str(inputs["question"])
    said: list[str] = []
    before: dict[str, str] = {}
    for result in inputs.get("results", []):
        if _says_nothing(text := str(result.get("text", ""))):
            continue
        found = [" ".join(s.split()) for s in sentences(text) if not _says_nothing(s)]
        said += found
        for first, second in zip(found, found[1:], strict=False):
            before.setdefault(second, first)
    candidates = list(dict.fromkeys(said))
    chosen: list[str] = []
    for part, among in _parts(question, candidates):
        scores = sentence_scores(part, among)
        ranked = sorted(zip(scores, range(len(among)), among, strict=True), key=lambda r: (-r[0], r[1]))
        best = next((s for score, _, s in ranked if score > 0 and s not in chosen), None)
        if best is not None:
            chosen.append(best)
    if not chosen:
        return "The research steps found nothing that answers this question."
    return " ".join(as_sentence(s) for s in with_named_neighbours(question, chosen, before))


def _parts(question: str, candidates: list[str]) -> list[tuple[str, list[str]]]:
    """The parts of ``question`` an answer needs a sentence for, each with the candidates that may answer it."""
    compared = names(question)
    if len(compared) >= 2 and _COMPARES.search(fold(question)):
        per_name = []
        for name in compared[:4]:
            naming = [c for c in candidates if fold(name) in fold(c)]
            others = [fold(n) for n in compared if n != name]
            alone = [c for c in naming if not any(other in fold(c) for other in others)]  # about it, not both
            per_name.append((question, alone or naming))
        return per_name
    sides = parts(question)  # a question that asks two things (answer_type.parts), else [question]
    if len(sides) == 2 and all(content_stems(side) for side in sides):
        return [(side, candidates) for side in sides]
    return [(question, candidates)]
