"""The offline provider's answers to the engines' stages: grounding, edge scoring and reasoning,
synthesis, and the agents' router, ReAct policy, planner and decomposer.

Each handler is registered with :func:`tgneo.llm.offline.handles` and returns text in the format its
stage's prompt asks of a real model (so the engines parse one format). The rules only restate their
inputs — nothing here knows any fact:

* grounding: the names the question mentions, then its other content words;
* edge scoring: shared word stems between question and edge, plus hashed-embedding similarity;
* edge reasoning: names the concept and the shared words the edge matched;
* synthesis: the selected facts as sentences; Document RAG: the passages' sentences that share most
  words with the question, quoted;
* router: comparisons of several names → supervisor, ordered multi-part requests → plan-then-execute,
  anything else → ReAct;
* ReAct: arithmetic → calculator; otherwise the knowledge graph, then the documents, then answer with
  what the observations said; after a failed tool, another tool.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from tgneo.llm.offline import handles
from tgneo.llm.offline.embed import cosine, embed_one
from tgneo.llm.offline.text import content_words, fold, names, sentences, stem

_ARITHMETIC = re.compile(r"\d[\d.\s]*(?:[-+*/^%x×÷]\s*\(?\s*[\d.]+\s*\)?\s*)+")
_NOTHING = ("no knowledge-graph edges", "nothing", "do not answer", "could not", "no passages", "no documents")


def _stems(text: str) -> set[str]:
    return {stem(w) for w in content_words(text)}


def _concepts(question: str) -> list[str]:
    found = [fold(n) for n in names(question)]
    named = {w for n in found for w in n.split()}
    for word in content_words(question):
        if word not in named and len(word) > 2:
            found.append(word)
    return list(dict.fromkeys(found))


@handles("grounding")
def grounding(inputs: Mapping[str, Any]) -> str:
    """One concept per line: the question's names first, then its content words."""
    return "\n".join(_concepts(str(inputs["question"])))


def _overlap(question: str, text: str) -> float:
    wanted = _stems(question)
    return len(wanted & _stems(text)) / len(wanted) if wanted else 0.0


@handles("edge-scoring")
def edge_scoring(inputs: Mapping[str, Any]) -> str:
    """A score per edge: 0.7 × the weighted share of the question's stems it holds + 0.3 × cosine.

    A stem's weight is its inverse frequency among the edges scored (``log(1 + n / df)``): a word every
    edge shares (the name the whole neighbourhood is about) tells the edges apart less than a rare one
    (the relation the question asks about).
    """
    question = " ".join([str(inputs["question"]), *map(str, inputs.get("concepts", []))])
    wanted = _stems(question)
    edges = [(edge["id"], str(edge["text"]), _stems(str(edge["text"]))) for edge in inputs["edges"]]
    df: dict[str, int] = {}
    for _, _, stems in edges:
        for s in stems & wanted:
            df[s] = df.get(s, 0) + 1
    weight = {s: math.log(1 + len(edges) / df.get(s, 1)) for s in wanted}
    total = sum(weight.values()) or 1.0
    q_vector = embed_one(question)
    scores = []
    for key, text, stems in edges:
        share = sum(weight[s] for s in stems & wanted) / total
        score = 0.7 * share + 0.3 * max(0.0, cosine(q_vector, embed_one(text)))
        scores.append({"id": key, "score": round(score, 4)})
    return json.dumps(scores)


def _best_concept(concepts: Sequence[str], text: str) -> tuple[str, list[str]]:
    """The concept sharing most stems with ``text``, and the shared words."""
    edge_words = {stem(w): w for w in content_words(text)}
    best, shared_best = (concepts[0] if concepts else ""), list[str]()
    for concept in concepts:
        shared = [edge_words[s] for s in _stems(concept) if s in edge_words]
        if len(shared) > len(shared_best):
            best, shared_best = concept, shared
    return best, shared_best


@handles("edge-reasoning")
def edge_reasoning(inputs: Mapping[str, Any]) -> str:
    """Why each edge was kept: the concept it matched, the words they share, what it states."""
    concepts = [str(c) for c in inputs.get("concepts", [])] or _concepts(str(inputs["question"]))
    out = []
    for edge in inputs["edges"]:
        text = str(edge["text"])
        concept, shared = _best_concept(concepts, text)
        if shared:
            why = f"Matches the concept '{concept}' (shared words: {', '.join(sorted(set(shared)))})"
        else:
            why = f"Scored {float(edge.get('score', 0)):.2f} for the question as a whole, no concept named directly"
        out.append({"id": edge["id"], "concept": concept, "reasoning": f"{why}; it states: {text}."})
    return json.dumps(out)


def _sentence(fact: str) -> str:
    fact = " ".join(fact.split())
    if not fact:
        return ""
    fact = fact[0].upper() + fact[1:]
    return fact if fact.endswith((".", "!", "?")) else fact + "."


@handles("synthesis")
def synthesis(inputs: Mapping[str, Any]) -> str:
    """The selected facts as sentences, most relevant first (the engine orders them), at most eight."""
    facts = [_sentence(str(f)) for f in inputs.get("facts", []) if str(f).strip()]
    if not facts:
        return "The knowledge graph holds nothing that answers this question."
    return "According to the knowledge graph: " + " ".join(facts[:8])


def _best_sentences(question: str, texts: Sequence[str], keep: int) -> list[str]:
    """The sentences of ``texts`` that share most of the question's words, in their original order.

    Words are weighted by their inverse frequency among the sentences (as in edge scoring), so a
    sentence naming what the question asks about (*river*) beats one repeating who it is about.
    """
    wanted = _stems(question)
    found = [s for text in texts for s in sentences(text)]
    stems = [_stems(s) & wanted for s in found]
    df: dict[str, int] = {}
    for shared in stems:
        for w in shared:
            df[w] = df.get(w, 0) + 1
    ranked: list[tuple[float, int, str]] = []
    for order, (sentence, shared) in enumerate(zip(found, stems, strict=True)):
        if shared:
            weight = sum(math.log(1 + len(found) / df[w]) for w in shared)
            ranked.append((weight / (1 + 0.01 * len(sentence)), order, sentence))
    chosen = sorted(sorted(ranked, key=lambda r: (-r[0], r[1]))[:keep], key=lambda r: r[1])
    return list(dict.fromkeys(s for _, _, s in chosen))


@handles("docrag-synthesis")
def docrag_synthesis(inputs: Mapping[str, Any]) -> str:
    """The three passage sentences that share most words with the question, quoted as written."""
    passages = [str(p["text"]) for p in inputs.get("passages", [])]
    best = _best_sentences(str(inputs["question"]), passages, 3)
    if not best:
        return "The documents retrieved do not answer this question."
    return "According to the documents: " + " ".join(best)


@handles("router")
def router(inputs: Mapping[str, Any]) -> str:
    """Several names compared → supervisor; an ordered multi-part request → plan; else ReAct."""
    question = str(inputs["question"])
    folded = fold(question)
    if len(names(question)) >= 2 and re.search(r"\b(compare|comparison|versus|vs|differ\w*|both|contrast)\b", folded):
        return json.dumps({"pattern": "supervisor", "task_type": "comparison"})
    if re.search(r"\b(then|after that|steps?|first|summari[sz]e|timeline|overview)\b", folded):
        return json.dumps({"pattern": "plan-then-execute", "task_type": "multi-step research"})
    task = "calculation" if _ARITHMETIC.search(question) else "lookup"
    return json.dumps({"pattern": "react", "task_type": task})


def _expression(question: str) -> str | None:
    match = _ARITHMETIC.search(question)
    if not match:
        return None
    return match.group(0).strip().replace("×", "*").replace("x", "*").replace("÷", "/").replace("^", "**")


def _tool_names(inputs: Mapping[str, Any]) -> list[str]:
    return [str(t["name"]) for t in inputs.get("tools", [])]


def _says_nothing(observation: str) -> bool:
    folded = fold(observation)
    return not folded.strip() or any(marker in folded for marker in _NOTHING)


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
        return json.dumps({"thought": "Every tool I tried failed.",
                           "final_answer": f"I could not find an answer: {last['error']}"})  # fmt: skip
    if last.get("action") == "knowledge-query" and _says_nothing(observation) and "document-query" in tools:
        return _step("The knowledge graph had nothing; the documents may.", "document-query", {"question": question})
    if _says_nothing(observation):
        return json.dumps({"thought": "No tool found anything.",
                           "final_answer": "I found nothing that answers this question."})  # fmt: skip
    answer = observation if last.get("action") != "calculator" else f"{_expression(question)} = {observation}."
    return json.dumps({"thought": f"The {last.get('action')} observation answers the question.",
                       "final_answer": answer})  # fmt: skip


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
    """Each result's first two sentences under its goal; nothing that a result did not say."""
    parts = []
    for result in inputs.get("results", []):
        text = " ".join(sentences(str(result.get("text", "")))[:2])
        if text and not _says_nothing(text):
            parts.append(f"{str(result.get('goal', '')).rstrip('?')}: {text}")
    if not parts:
        return "The research steps found nothing that answers this question."
    return " ".join(parts)
