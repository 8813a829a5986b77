"""The offline provider's answers to the retrieval engines' stages: grounding, edge scoring and reasoning, and
synthesis (the agents' router, ReAct policy, planner and decomposer are :mod:`tgneo.llm.offline.agent_policy`).

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
  only when it carries more of what was asked (:func:`_telling`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from tgneo.llm.offline.handlers import handles
from tgneo.llm.offline.hashed import cosine, embed_one
from tgneo.llm.offline.meaning import similarities
from tgneo.nlp.align import rank
from tgneo.nlp.anaphora import named, subjects
from tgneo.nlp.answer_type import asked_noun, clauses, fits, offered, parts, wants
from tgneo.nlp.phrases import identifiers, key_terms, terms
from tgneo.nlp.segment import Unit, reads_as_text
from tgneo.nlp.words import STOPWORDS, content_words, fold, names, stem


def content_stems(text: str) -> set[str]:
    """The stems of ``text``'s content words: what two texts are compared by when order does not matter."""
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
    wanted = content_stems(question)
    return len(wanted & content_stems(text)) / len(wanted) if wanted else 0.0


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
    asked = content_stems(question)
    kind = _kind_asked(question)
    scores = []
    for i, (edge, text, share) in enumerate(zip(inputs["edges"], texts, shares, strict=True)):
        relation = content_stems(str(edge.get("relation") or ""))
        named = len(relation & asked) / len(relation) if relation else 0.0
        if meant is None:
            score = 0.65 * share + 0.25 * max(0.0, cosine(q_vector, embed_one(text))) + 0.1 * named
        else:  # an embedder that knows meaning: as the answers weigh a sentence (_blend)
            score = 0.9 * _blend(share, meant[i]) + 0.1 * named
        if kind is not None and share > 0 and kind in content_stems(text):
            score += 0.9 * TYPE_BONUS  # names the kind of thing asked for, as a sentence does (_scores)
        scores.append({"id": edge["id"], "score": round(score, 4)})
    return json.dumps(scores)


def _best_concept(concepts: Sequence[str], text: str) -> tuple[str, list[str]]:
    """The concept sharing most stems with ``text``, and the shared words."""
    edge_words = {stem(w): w for w in content_words(text)}
    best, shared_best = (concepts[0] if concepts else ""), list[str]()
    for concept in concepts:
        shared = [edge_words[s] for s in content_stems(concept) if s in edge_words]
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


def as_sentence(fact: str) -> str:
    """``fact`` as a sentence of an answer: one line, a capital first letter, a closing full stop — but an
    identifier it opens with keeps its case (``uri_map maps …``, ``tg-show-explain-trace handles …``,
    ``get_labelgraph() now returns …``: ``Uri_map`` would name nothing the documents name)."""
    fact = " ".join(fact.split())
    if not fact:
        return ""
    opens = identifiers(fact)
    if not (opens and opens[0].start == 0):
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


BONUS_TYPES = ("term", "number", "value", "definition")
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
    pairs = zip(scores, candidates, strict=True)
    return [s + TYPE_BONUS if s > 0 and kind in content_stems(c) else s for s, c in pairs]


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
    """A long sentence's clause that answers best (:func:`~tgneo.nlp.answer_type.clauses`), else the sentence.

    Only a clause that reads as prose is quoted alone: the code a sentence introduces (``… one of the following
    methods: # via config file … $ pip config set …``) is the sentence's, and quoted on its own it would neither
    read as text nor be told apart from the sentence quoted before it."""
    parts = [p for p in clauses(sentence) if re.match(r"[\w`\"'“‘(]", p) and reads_as_text(p)]
    if len(parts) < 2:
        return sentence
    scores = _scores(question, parts)
    return max(zip(scores, parts, strict=True), key=lambda pair: pair[0])[1]


def _quoted(
    question: str,
    sentences_: Sequence[str],
    scores: Sequence[float] | None = None,
    before: Mapping[str, str] | None = None,
    listed: Mapping[str, Sequence[str]] | None = None,
) -> list[str]:
    """The sentences worth quoting, best first: each once, at most :data:`MAX_ANSWER_SENTENCES`, and
    only those scoring at least :data:`QUOTE_SHARE` of the best (``sentences_`` come best first already;
    ``scores``, when given, are theirs). A run of table cells (``a | b | | c``) is never quoted: it does not
    read as text (:func:`~tgneo.nlp.segment.reads_as_text`). ``before`` gives a sentence's neighbour before it in
    its paragraph, quoted beside it when it names what the sentence leans on (:func:`with_named_neighbours`);
    ``listed`` the items of the list a sentence ending with a colon introduces, of which the one that holds most of
    the question follows it (:func:`_with_listed`)."""
    if scores is not None:
        pairs = {
            " ".join(s.split()): score
            for s, score in zip(sentences_, scores, strict=True)
            if s.strip() and reads_as_text(s)
        }
        unique, scores = list(pairs), list(pairs.values())
    else:
        unique = list(dict.fromkeys(" ".join(s.split()) for s in sentences_ if s.strip() and reads_as_text(s)))
        scores = _scores(question, unique) if unique else []
    if not unique:
        return []
    best = max(scores)
    if best == 0:
        return []
    ranked = sorted(zip(unique, scores, strict=True), key=lambda pair: -pair[1])  # stable: ties in given order
    pieces = parts(question)
    if len(pieces) > 1:  # a sentence for each part, chosen for that part among all (issue 48)
        return [_part_quote(piece, s) for piece, s in _each_part(pieces, [s for s, _ in ranked], before or {})]
    kept = [s for s, score in ranked if score >= QUOTE_SHARE * best]
    told = _telling(question, kept)[:MAX_ANSWER_SENTENCES]
    told = _with_listed(told, listed or {}, dict(zip(unique, scores, strict=True)))
    return [_focused(question, s) for s in with_named_neighbours(question, told, before or {})]


def _with_listed(told: Sequence[str], listed: Mapping[str, Sequence[str]], score: Mapping[str, float]) -> list[str]:
    """``told`` with, after a sentence that introduces a list (``It is used through URL prefixes:``), the item of
    that list that scores best for the question, when one scores at all (``Mercurial -- `hg+``` for "Which URL
    prefix selects Mercurial?"): such a sentence says what follows, not the answer, and is no answer alone."""
    out: list[str] = []
    for sentence in told:
        out.append(sentence)
        items = [i for i in listed.get(sentence, ()) if score.get(i, 0.0) > 0 and i not in told and i not in out]
        if items:
            out.append(max(items, key=lambda i: score[i]))
    return out


def with_named_neighbours(question: str, told: Sequence[str], before: Mapping[str, str]) -> list[str]:
    """``told`` with, before a sentence that does not name the kind of thing a *which directive / signal / option …*
    or *what default …* question asks for, the sentence before it in its paragraph when that one names it and the
    two are about the same thing (they share a key term): the answering sentence leans on its neighbour for the name.

    Apache's "If the timeout is reached, any remaining children will be sent the TERM signal to force them to
    exit." answers "Which directive bounds how long a graceful stop waits for its children?" only beside the
    sentence before it, which names the directive: "… or the timeout specified by the `GracefulShutdownTimeout`
    has been reached, the parent will also exit." Both are quoted, the neighbour first, as one answer.
    """
    wanted = wants(question)
    if wanted not in ("term", "value") or not before:
        return list(told)
    out: list[str] = []
    for sentence in told:
        neighbour = before.get(sentence)
        if (
            neighbour is not None and neighbour not in told and neighbour not in out
            and fits(wanted, question, sentence) < 1.0
            and offered(wanted, question, neighbour) - offered(wanted, question, sentence)
            and key_terms(neighbour) & (key_terms(sentence) - key_terms(question))
        ):  # fmt: skip
            out.append(neighbour)
        out.append(sentence)
    return out


def _telling(question: str, kept: Sequence[str]) -> list[str]:
    """Of ``kept`` (best first), the first, then each that carries what was asked for and the sentences before it
    do not give: a key term of the question (the asked-for noun), or the kind of answer the question wants
    (:func:`~tgneo.nlp.answer_type.fits`) when none of them offers it, or — for a term or number question — a term
    or number none of them names (:func:`~tgneo.nlp.answer_type.offered`: the sentence naming the asked-for noun is
    not always the answer; SQLite's "Which pragma is an alternative to VACUUM …?" is answered by the second
    sentence naming a pragma, ``secure_delete``, not by the first, ``auto_vacuum``). A sentence holding every key
    term they hold is kept too: as good a candidate as the first, where words alone cannot choose (pip's "Which
    flag opts out of using system certificates?" has the opt-in flag's sentence and the opt-out flag's, alike).
    (A two-part question gets a sentence for each part instead: :func:`_each_part`.)

    "When were the first Nobel Prizes awarded?" is then answered by the sentence that says when, not also by
    the two after it about "the first person to win two Nobel Prizes": they hold no word of the question that
    the first does not.
    """
    asked = key_terms(question)
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


def _each_part(pieces: Sequence[str], candidates: Sequence[str], before: Mapping[str, str]) -> list[tuple[str, str]]:
    """A sentence for each part of a two-part question (:func:`~tgneo.nlp.answer_type.parts`), in the parts' order,
    each with its part: of ``candidates``, the one that scores best for the part alone (:func:`_scores`) among those
    that answer it — hold the part's own key terms and offer what it wants — else the best for it. A part that a
    sentence quoted for an earlier part answers too gets none of its own; a sentence is quoted once, with its named
    neighbour where it leans on one (:func:`with_named_neighbours`).

    Scored for the whole question, the sentence answering one part can fall under :data:`QUOTE_SHARE` of the one
    answering the other, or behind two sentences about the other (issue 48: both parts were named in few answers).
    """
    about = set().union(*(key_terms(n) for n in names(" ".join(pieces))))  # who the parts ask about: not a part's
    own = [key_terms(p) - about - set().union(*(key_terms(o) for o in pieces if o != p)) for p in pieces]

    def answers(sentence: str, i: int) -> bool:
        wanted = wants(pieces[i])
        holds = not own[i] or bool(key_terms(sentence) & own[i])
        return holds and (wanted is None or fits(wanted, pieces[i], sentence) > 0)

    told: list[tuple[str, str]] = []
    for i, piece in enumerate(pieces):
        if any(answers(sentence, i) for _, sentence in told):
            continue
        score = dict(zip(candidates, _scores(piece, candidates), strict=True))
        ranked = [s for s in sorted((s for s in candidates if score[s] > 0), key=lambda s: -score[s])
                  if all(s != quoted for _, quoted in told)]  # fmt: skip
        pick = next((s for s in ranked if answers(s, i)), ranked[0] if ranked else None)
        if pick is not None:
            told += [(piece, s) for s in with_named_neighbours(piece, [pick], before) if s not in {q for _, q in told}]
    return told


def _part_quote(piece: str, sentence: str) -> str:
    """What is quoted of ``sentence`` for the part ``piece``: its best clause (:func:`_focused`), or the whole sentence
    when that clause no longer offers what the part wants (*if an "ON DELETE SET DEFAULT" action is configured, but …*
    is not cut down to its second clause, which names no action)."""
    clause = _focused(piece, sentence)
    wanted = wants(piece)
    if clause != sentence and wanted is not None and fits(wanted, piece, clause) < fits(wanted, piece, sentence):
        return sentence
    return clause


@handles("synthesis")
def synthesis(inputs: Mapping[str, Any]) -> str:
    """The evidence sentences of the selected edges, quoted (the engine orders them best first).

    Edges extracted without evidence are stated as their facts, at most eight, as sentences.
    """
    question = str(inputs["question"])
    quoted = _quoted(question, [str(e) for e in inputs.get("evidence", []) if e])
    if quoted:
        return " ".join(as_sentence(s) for s in quoted)
    facts = [as_sentence(str(f)) for f in inputs.get("facts", []) if str(f).strip()]
    if not facts:
        return "The knowledge graph holds nothing that answers this question."
    return "According to the knowledge graph: " + " ".join(facts[:8])


def _best_sentences(question: str, texts: Sequence[str]) -> list[str]:
    """The sentences of ``texts`` (headings left out) most relevant to the question (:func:`_scores`), best first.

    A sentence that leans on its context (``She died in Passy.``) is scored with the subject it leans on and
    quoted naming it (:mod:`tgneo.nlp.anaphora`): ``She (Marie Curie) died in Passy.``
    """
    leaning: dict[str, str | None] = {}
    previous: dict[str, str] = {}  # a sentence → the one before it in its paragraph
    listed: dict[str, list[str]] = {}  # a sentence ending with a colon → the items of the list after it
    for text in texts:
        last: Unit | None = None
        introducing: str | None = None
        for unit, subject in subjects(text):
            leaning.setdefault(unit.text, subject)  # a sentence said twice: in its first context
            if last is not None and not re.search(r"\n\s*\n", text[last.end : unit.start]):
                previous.setdefault(unit.text, last.text)
            if unit.kind == "item" and introducing is not None:
                listed.setdefault(introducing, []).append(unit.text)
            elif unit.text.endswith(":"):
                introducing = unit.text
            else:
                introducing = None
            last = unit
    found = list(leaning)
    scores = _scores(question, [f"{s} ({leaning[s]})" if leaning[s] else s for s in found])
    before = {named(s, leaning[s]): named(p, leaning.get(p)) for s, p in previous.items()}
    items = {named(s, leaning[s]): [named(i, leaning.get(i)) for i in found_items] for s, found_items in listed.items()}
    found = [named(s, leaning[s]) for s in found]
    ranked = sorted(((score, order, s) for order, (s, score) in enumerate(zip(found, scores, strict=True))
                     if score > 0), key=lambda r: (-r[0], r[1]))  # fmt: skip
    return _quoted(question, [s for _, _, s in ranked], [score for score, _, _ in ranked], before, items)


@handles("docrag-synthesis")
def docrag_synthesis(inputs: Mapping[str, Any]) -> str:
    """The passage sentences that hold most of the question's key terms, quoted as written, best first."""
    passages = [str(p["text"]) for p in inputs.get("passages", [])]
    best = _best_sentences(str(inputs["question"]), passages)
    if not best:
        return "The documents retrieved do not answer this question."
    return " ".join(as_sentence(s) for s in best)
