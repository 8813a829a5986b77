"""The offline provider's answers to the engines' stages: grounding, edge scoring and reasoning,
synthesis, and the agents' router, ReAct policy, planner and decomposer.

Each handler is registered with :func:`tgneo.llm.offline.handlers.handles` and returns text in the format its
stage's prompt asks of a real model (so the engines parse one format). The rules only restate their
inputs — nothing here knows any fact:

* grounding: the identifiers, names and noun phrases the question mentions, then its other content words;
* edge scoring: the question's key terms each edge's evidence sentence (else its labels) holds,
  weighted by rarity (:func:`tgneo.nlp.align.rank`), plus embedding similarity;
* edge reasoning: names the concept and the shared words the edge matched, and quotes its evidence;
* synthesis: the evidence sentences of the best edges, quoted, best first, each once — or, for edges
  extracted without evidence, their facts as sentences; Document RAG: the passages' sentences that
  hold most of the question's key terms, quoted; a sentence that leans on its context is scored with the
  subject it leans on and quoted naming it (``She (Marie Curie) died in Passy in 1934.``); a further sentence
  only when it carries more of what was asked (:func:`_telling`);
* router: arithmetic (written out, or asked of facts: "how old was X when …") → ReAct; comparisons of
  several names → supervisor, ordered multi-part requests → plan-then-execute, anything else → ReAct;
* ReAct: arithmetic → calculator; a question computed from facts it does not state
  (:mod:`tgneo.nlp.arithmetic`) → one lookup per fact (the knowledge graph, else the documents), then the
  calculator on the numbers found, answered with the sentences that gave them and the result; otherwise
  the knowledge graph first, then the documents; then answer with the observation that holds most of the
  question; after a failed tool, another tool;
* agent synthesis: only findings, never the goals that found them — per part of the question (each name
  a comparison names, each side of a two-part question, else the whole question), the most relevant
  sentence the results hold, each once.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from tgneo.llm.offline.handlers import handles
from tgneo.llm.offline.hashed import cosine, embed_one
from tgneo.llm.offline.meaning import similarities
from tgneo.nlp import arithmetic
from tgneo.nlp.align import rank
from tgneo.nlp.anaphora import named, with_subjects
from tgneo.nlp.answer_type import asked_noun, clauses, fits, offered, parts, wants
from tgneo.nlp.phrases import key_terms, terms
from tgneo.nlp.segment import sentences
from tgneo.nlp.words import STOPWORDS, content_words, fold, names, stem

_ARITHMETIC = re.compile(r"\d[\d.\s]*(?:[-+*/^%x×÷]\s*\(?\s*[\d.]+\s*\)?\s*)+")
_COMPARES = re.compile(r"\b(compare|comparison|versus|vs|differ\w*|both|contrast)\b")
"""A question that compares what it names (folded): a part per name."""
_NOTHING = (
    "no knowledge-graph entity in ", "the knowledge-graph entities found in ", "the knowledge graph holds nothing",
    "no document chunk in ", "the documents retrieved do not answer", "the research steps found nothing",
    "i found nothing", "i could not find",
)  # fmt: skip
"""How the engines' answers that found nothing begin (:func:`tgneo.engines.graphrag.nothing_found`, the synthesis
stages here, Document RAG's empty search), folded. Matched at the start of an observation only: a quoted
sentence of a document says "nothing" or "could not" often ("hash-checking is an all-or-nothing proposition")."""


def _stems(text: str) -> set[str]:
    return {stem(w) for w in content_words(text)}


def _concepts(question: str) -> list[str]:
    """Identifiers and names first (as written), then noun phrases, then the other content words."""
    mentioned = terms(question)
    found = [t.text if t.kind not in ("phrase", "name") else fold(t.text) for t in mentioned if t.kind != "phrase"]
    found += [fold(t.text) for t in mentioned if t.kind == "phrase" and fold(t.text) not in STOPWORDS]
    covered = {w for c in found for w in fold(c).replace("-", " ").replace("_", " ").split()}
    for word in (re.sub(r"['’]s$", "", w) for w in content_words(question)):
        if word not in covered and len(word) > 2:
            found.append(word)
    return list(dict.fromkeys(found))


@handles("grounding")
def grounding(inputs: Mapping[str, Any]) -> str:
    """One concept per line: the question's names first, then its content words."""
    return "\n".join(_concepts(str(inputs["question"])))


def _overlap(question: str, text: str) -> float:
    wanted = _stems(question)
    return len(wanted & _stems(text)) / len(wanted) if wanted else 0.0


def _said(edge: Mapping[str, Any]) -> str:
    """What an edge says: its evidence sentence — with the names of its ends the sentence does not spell out
    (an anaphor's: *This functionality …*) — else its labels."""
    evidence = edge.get("evidence")
    if not (isinstance(evidence, str) and evidence.strip()):
        return str(edge["text"])
    folded = fold(evidence)
    hidden = [str(edge[end]) for end in ("subject", "object") if edge.get(end) and fold(str(edge[end])) not in folded]
    return f"{evidence} ({', '.join(hidden)})" if hidden else evidence


@handles("edge-scoring")
def edge_scoring(inputs: Mapping[str, Any]) -> str:
    """A score per edge: 0.65 × the weighted share of the question's key terms it says + 0.25 × cosine +
    0.1 × the share of its relation's words the question uses.

    What an edge says is its evidence sentence (else its labels); a term's weight is its rarity among
    the edges scored (:func:`tgneo.nlp.align.rank`): a word every edge shares (the name the whole
    neighbourhood is about) tells the edges apart less than a rare one (what the question asks about).
    Of the edges one sentence gave, the one whose relation the question names (*named after* for
    "… named after …?") comes first.
    """
    question = str(inputs["question"])
    concepts = [str(c) for c in inputs.get("concepts", [])]
    texts = [_said(edge) for edge in inputs["edges"]]
    shares = rank(question, texts, extra=concepts)
    meant = similarities(question, texts)
    q_vector = embed_one(" ".join([question, *concepts])) if meant is None else []
    asked = _stems(question)
    kind = _kind_asked(question)
    scores = []
    for i, (edge, text, share) in enumerate(zip(inputs["edges"], texts, shares, strict=True)):
        relation = _stems(str(edge.get("relation") or ""))
        named = len(relation & asked) / len(relation) if relation else 0.0
        if meant is None:
            score = 0.65 * share + 0.25 * max(0.0, cosine(q_vector, embed_one(text))) + 0.1 * named
        else:  # an embedder that knows meaning: as the answers weigh a sentence (_blend)
            score = 0.9 * _blend(share, meant[i]) + 0.1 * named
        if kind is not None and share > 0 and kind in _stems(text):
            score += 0.9 * TYPE_BONUS  # names the kind of thing asked for, as a sentence does (_scores)
        scores.append({"id": edge["id"], "score": round(score, 4)})
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
        text = str(edge.get("evidence") or "").strip() or str(edge["text"])
        concept, shared = _best_concept(concepts, _said(edge))
        if shared:
            why = f"Matches the concept '{concept}' (shared words: {', '.join(sorted(set(shared)))})"
        else:
            why = (
                f"No word of any concept appears in it; it scored {float(edge.get('score', 0)):.2f} for the "
                f"question as a whole (nearest concept: '{concept}')"
            )
        says = f"its evidence: “{text}”" if text != str(edge["text"]) else f"it states: {text}."
        out.append({"id": edge["id"], "concept": concept, "reasoning": f"{why}; {says}"})
    return json.dumps(out)


def _sentence(fact: str) -> str:
    fact = " ".join(fact.split())
    if not fact:
        return ""
    fact = fact[0].upper() + fact[1:]
    return fact if fact.endswith((".", "!", "?")) else fact + "."


MAX_ANSWER_SENTENCES = 3
"""The most sentences an offline answer quotes: an answer, not a list of everything retrieved."""
QUOTE_SHARE = 0.7
"""A sentence is quoted beside the best one only when it scores at least this share of the best's score."""


SEMANTIC_WEIGHT = 0.6
"""With an embedder that knows meaning (:mod:`tgneo.llm.offline.meaning`), the share of a sentence's score that
is its similarity to the question; the rest is the question's key terms it holds (:func:`~tgneo.nlp.align.rank`).
A sentence that answers in other words than the question's then still scores. Measured on the quality bench's two
sets with all-MiniLM-L6-v2 (Document RAG): 0.8 gave pip 0.74 / SQLite 0.68, 0.6 gave 0.81 / 0.66, taking the
larger of the two scores (0.9 × meaning) 0.79 / 0.68; 0.6 keeps the lexical set's hits."""
SEMANTIC_FLOOR = 0.2
"""Cosine similarity at or below which a sentence is taken to be unrelated to the question (scores 0)."""


def _blend(words: float, cos: float) -> float:
    """A sentence's relevance from its lexical score and its cosine similarity to the question."""
    meaning = max(0.0, (cos - SEMANTIC_FLOOR) / (1.0 - SEMANTIC_FLOOR))
    return (1.0 - SEMANTIC_WEIGHT) * words + SEMANTIC_WEIGHT * meaning


TYPE_BONUS = 0.2
"""Added to a relevant sentence's score, times how well it offers the kind of answer the question wants (a term, a
number, a definition: :mod:`tgneo.nlp.answer_type`). Measured with the hashed embedder, against none: SQLite's
Document RAG 0.515 → 0.574, pip's 0.81 → 0.833, pip's GraphRAG 0.81 → 0.786 (one question). Dropping the
neighbours that offer less than the best sentence was tried too and left out: it cost pip's GraphRAG three hits and
its source recall (0.976 → 0.881), since the sentence naming the asked-for noun is not always the answer."""


BONUS_TYPES = ("term", "number", "definition")
"""The kinds of answer :data:`TYPE_BONUS` raises. A date (*when*) and a place (*where*) only decide which sentence
answers which part of a two-part question, and whether a further sentence offers what the quoted ones do not
(:func:`_telling`): as a bonus, *where* cost pip's "Where is pip's cache stored by default on Linux?" its answer
(``~/.cache/pip`` stands in a code block after no preposition; a sentence about ``origin.json`` "stored in" a cache
entry won)."""


def _scores(question: str, candidates: Sequence[str]) -> list[float]:
    """Each candidate's relevance to the question: lexical, blended with meaning when known, and raised for a
    relevant sentence that offers the kind of answer the question wants."""
    scores = rank(question, candidates)
    meant = similarities(question, candidates)
    if meant is not None:
        scores = [_blend(words, cos) for words, cos in zip(scores, meant, strict=True)]
    wanted = wants(question)
    if wanted in BONUS_TYPES:
        pairs = zip(scores, candidates, strict=True)
        return [s + TYPE_BONUS * fits(wanted, question, c) if s > 0 else s for s, c in pairs]
    kind = _kind_asked(question)
    if kind is None:
        return scores
    return [s + TYPE_BONUS if s > 0 and kind in _stems(c) else s for s, c in zip(scores, candidates, strict=True)]


def _kind_asked(question: str) -> str | None:
    """The stem of the noun a "which NOUN …" question asks for, when it wants no kind of answer
    :func:`~tgneo.nlp.answer_type.wants` knows: "Which river …?" is answered by a sentence naming a river."""
    noun = asked_noun(question) if wants(question) is None else None
    return None if noun is None else stem(noun)


def sentence_scores(question: str, candidates: Sequence[str]) -> list[float]:
    """Each candidate sentence's relevance to the question as the answers rank them (the embedder lent with
    :func:`~tgneo.llm.offline.meaning.using` adds meaning when it knows it); ``scripts/bench/sentences.py``
    measures how far this ranking alone can go."""
    return _scores(question, candidates)


def _focused(question: str, sentence: str) -> str:
    """A long sentence's clause that answers best (:func:`~tgneo.nlp.answer_type.clauses`), else the sentence."""
    parts = clauses(sentence)
    if len(parts) == 1:
        return sentence
    scores = _scores(question, parts)
    return max(zip(scores, parts, strict=True), key=lambda pair: pair[0])[1]


def _quoted(question: str, sentences_: Sequence[str], scores: Sequence[float] | None = None) -> list[str]:
    """The sentences worth quoting, best first: each once, at most :data:`MAX_ANSWER_SENTENCES`, and
    only those scoring at least :data:`QUOTE_SHARE` of the best (``sentences_`` come best first already;
    ``scores``, when given, are theirs)."""
    if scores is not None:
        pairs = {" ".join(s.split()): score for s, score in zip(sentences_, scores, strict=True) if s.strip()}
        unique, scores = list(pairs), list(pairs.values())
    else:
        unique = list(dict.fromkeys(" ".join(s.split()) for s in sentences_ if s.strip()))
        scores = _scores(question, unique) if unique else []
    if not unique:
        return []
    best = max(scores)
    if best == 0:
        return []
    ranked = sorted(zip(unique, scores, strict=True), key=lambda pair: -pair[1])  # stable: ties in given order
    kept = [s for s, score in ranked if score >= QUOTE_SHARE * best]
    return [_focused(question, s) for s in _telling(question, kept)[:MAX_ANSWER_SENTENCES]]


def _telling(question: str, kept: Sequence[str]) -> list[str]:
    """Of ``kept`` (best first), the first, then each that carries what was asked for and the sentences before it
    do not give: a key term of the question (the asked-for noun), or the kind of answer the question wants
    (:func:`~tgneo.nlp.answer_type.fits`) when none of them offers it, or — for a term or number question — a term
    or number none of them names (:func:`~tgneo.nlp.answer_type.offered`: the sentence naming the asked-for noun is
    not always the answer; SQLite's "Which pragma is an alternative to VACUUM …?" is answered by the second
    sentence naming a pragma, ``secure_delete``, not by the first, ``auto_vacuum``). A sentence holding every key
    term they hold is kept too: as good a candidate as the first, where words alone cannot choose (pip's "Which
    flag opts out of using system certificates?" has the opt-in flag's sentence and the opt-out flag's, alike).
    A two-part question (:func:`~tgneo.nlp.answer_type.parts`) gets a sentence for each part instead: one holding
    the part's own key terms and offering what it wants.

    "When were the first Nobel Prizes awarded?" is then answered by the sentence that says when, not also by
    the two after it about "the first person to win two Nobel Prizes": they hold no word of the question that
    the first does not.
    """
    asked = key_terms(question)
    pieces = parts(question)
    if len(pieces) > 1:
        return _each_part(pieces, kept)
    wanted = wants(question)
    told: list[str] = []
    covered: set[str] = set()
    given: set[str] = set()
    fitting = False
    said: list[set[str]] = []
    for sentence in kept:
        own = key_terms(sentence)
        if own in said:  # the same statement again, from another page ("She (Marie Curie) was born in Warsaw …")
            continue
        holds = own & asked
        fit = wanted is not None and fits(wanted, question, sentence) > 0
        answers = offered(wanted, question, sentence)
        if not told or not holds < covered or (fit and not fitting) or answers - given:
            said.append(own)
            told.append(sentence)
            covered |= holds
            fitting = fitting or fit
            given |= answers
    return told


def _each_part(pieces: Sequence[str], kept: Sequence[str]) -> list[str]:
    """The first of ``kept``, then for each part of the question it does not answer, the first that answers it."""
    about = set().union(*(key_terms(n) for n in names(" ".join(pieces))))  # who the parts ask about: not a part's
    own = [key_terms(p) - about - set().union(*(key_terms(o) for o in pieces if o != p)) for p in pieces]

    def answers(sentence: str, i: int) -> bool:
        wanted = wants(pieces[i])
        holds = not own[i] or bool(key_terms(sentence) & own[i])
        return holds and (wanted is None or fits(wanted, pieces[i], sentence) > 0)

    told: list[str] = []
    answered: set[int] = set()
    for sentence in kept:
        met = {i for i in range(len(pieces)) if answers(sentence, i)}
        if not told or met - answered:
            told.append(sentence)
            answered |= met
    return told


@handles("synthesis")
def synthesis(inputs: Mapping[str, Any]) -> str:
    """The evidence sentences of the selected edges, quoted (the engine orders them best first).

    Edges extracted without evidence are stated as their facts, at most eight, as sentences.
    """
    question = str(inputs["question"])
    quoted = _quoted(question, [str(e) for e in inputs.get("evidence", []) if e])
    if quoted:
        return " ".join(_sentence(s) for s in quoted)
    facts = [_sentence(str(f)) for f in inputs.get("facts", []) if str(f).strip()]
    if not facts:
        return "The knowledge graph holds nothing that answers this question."
    return "According to the knowledge graph: " + " ".join(facts[:8])


def _best_sentences(question: str, texts: Sequence[str]) -> list[str]:
    """The sentences of ``texts`` (headings left out) most relevant to the question (:func:`_scores`), best first.

    A sentence that leans on its context (``She died in Passy.``) is scored with the subject it leans on and
    quoted naming it (:mod:`tgneo.nlp.anaphora`): ``She (Marie Curie) died in Passy.``
    """
    leaning: dict[str, str | None] = {}
    for sentence, subject in with_subjects(texts):
        leaning.setdefault(sentence, subject)  # a sentence said twice: in its first context
    found = list(leaning)
    scores = _scores(question, [f"{s} ({leaning[s]})" if leaning[s] else s for s in found])
    found = [named(s, leaning[s]) for s in found]
    ranked = sorted(((score, order, s) for order, (s, score) in enumerate(zip(found, scores, strict=True))
                     if score > 0), key=lambda r: (-r[0], r[1]))  # fmt: skip
    return _quoted(question, [s for _, _, s in ranked], [score for score, _, _ in ranked])


@handles("docrag-synthesis")
def docrag_synthesis(inputs: Mapping[str, Any]) -> str:
    """The passage sentences that hold most of the question's key terms, quoted as written, best first."""
    passages = [str(p["text"]) for p in inputs.get("passages", [])]
    best = _best_sentences(str(inputs["question"]), passages)
    if not best:
        return "The documents retrieved do not answer this question."
    return " ".join(_sentence(s) for s in best)


@handles("router")
def router(inputs: Mapping[str, Any]) -> str:
    """Several names compared → supervisor; an ordered multi-part request → plan; else ReAct."""
    question = str(inputs["question"])
    folded = fold(question)
    if _expression(question) or arithmetic.computation(question):
        return json.dumps({"pattern": "react", "task_type": "calculation"})
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
        return json.dumps({"thought": "Every tool I tried failed.",
                           "final_answer": f"I could not find an answer: {last['error']}"})  # fmt: skip
    if last.get("action") == "calculator" and not _says_nothing(observation):
        return json.dumps({"thought": "The calculator observation answers the question.",
                           "final_answer": f"{_expression(question)} = {observation}."})  # fmt: skip
    found = {str(h.get("action")): str(h.get("observation") or "") for h in history if not h.get("error")}
    found = {tool: text for tool, text in found.items() if not _says_nothing(text)}
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
    said = " ".join(_sentence(s) for s in dict.fromkeys(sentence for _, sentence in found))
    return json.dumps({"thought": "The calculator computed the answer from what the lookups found.",
                       "final_answer": f"{said} {expression} = {result}."})  # fmt: skip


def _asked(step: Mapping[str, Any], argument: str = "question") -> str:
    arguments = step.get("arguments")
    return str(arguments.get(argument) or "") if isinstance(arguments, Mapping) else ""


def _observed(step: Mapping[str, Any]) -> str:
    return str(step.get("observation") or "")


def _relevance(question: str, text: str) -> float:
    """How much of the question an observation holds (its best sentence's weighted share of the key terms)."""
    pieces = sentences(text) or [text]
    return max(_scores(question, pieces))


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
    result did not say.
    """
    question = str(inputs["question"])
    said = [
        " ".join(s.split())
        for result in inputs.get("results", [])
        if not _says_nothing(text := str(result.get("text", "")))
        for s in sentences(text)
        if not _says_nothing(s)
    ]
    candidates = list(dict.fromkeys(said))
    chosen: list[str] = []
    for part, among in _parts(question, candidates):
        scores = _scores(part, among)
        ranked = sorted(zip(scores, range(len(among)), among, strict=True), key=lambda r: (-r[0], r[1]))
        best = next((s for score, _, s in ranked if score > 0 and s not in chosen), None)
        if best is not None:
            chosen.append(best)
    if not chosen:
        return "The research steps found nothing that answers this question."
    return " ".join(_sentence(s) for s in chosen)


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
    if len(sides) == 2 and all(_stems(side) for side in sides):
        return [(side, candidates) for side in sides]
    return [(question, candidates)]
