"""The offline answer to ``"extraction"``: facts from prose and technical text by rules, no model.

It answers in the format of ``tgneo/llm/prompts/extraction.txt`` (a JSON array of
``{"s", "p", "o", "literal"}``), plus each fact's ``evidence``: the sentence it was read from, as the
segmenter cut it (:mod:`tgneo.nlp.segment`). The ingest pipeline parses one format whichever provider
answered, and finds the evidence itself for a provider that gives none.

Two kinds of facts, sentence by sentence (every unit but headings: sentences, list items, table
rows, short code blocks):

* **co-occurrence** (what the best model-free GraphRAG indexing does): the terms a sentence names —
  identifiers kept whole (code spans, IRIs, options, environment variables, paths, ``snake_case``,
  ``kebab-case``, ``CamelCase``), names and key noun phrases (:mod:`tgneo.nlp.phrases`) — are related
  pairwise by :data:`CO_OCCURS`, in reading order, at most :data:`MAX_TERMS` terms a sentence; a sentence
  that leans on its context (``She died in Passy.``, ``This option …``: :mod:`tgneo.nlp.anaphora`) relates
  the subject it leans on too, first; one opening with *This*/*These* … also the main terms of the sentence
  before; a list item, the main terms of the sentence ending with a colon that introduces its list (``It is
  used through URL prefixes:`` then ``Mercurial -- `hg+```, whose item alone names one term);
* **relations** from plain encyclopedic prose, clause by clause, where the rules fire (names and
  sentences come from :mod:`tgneo.nlp.items`):

  - **subject**: the name (or names joined by ``and``) opening the clause; ``he``/``she``/``it``/
    ``they`` stand for the previous clause's subject (in a passage that names no one before its ``she``, the
    person its context gives: :func:`tgneo.nlp.anaphora.subjects`); ``Her husband Pierre Curie …`` gives
    ``(Pierre Curie, husband of, <her>)`` and makes Pierre Curie the subject; a clause starting with
    ``and``/``but`` + verb (``… and moved to Paris``) keeps the previous subject;
  - **relation**: the verb phrase after the subject with auxiliaries, adverbs and articles left out,
    keeping its particles: ``was born in`` → ``born in``, ``was discovered by`` → ``discovered by``;
    ``is a``/``was an`` + noun phrase → ``is a``; ``is the capital of`` + name → ``capital of``;
  - **objects**: names, dates (as literals), and bare noun phrases right after the verb
    (``discovered polonium and radium``); each further ``preposition + name/date`` gives the verb with
    that preposition (``born in Warsaw in 1867`` → ``born in`` twice);
  - **asides**: ``X, a Polish physicist,`` → ``(X, is a, Polish physicist)``; ``X, the capital of Y,``
    → ``(X, capital of, Y)``; ``X, who was born in Y,`` → ``(X, born in, Y)``;
  - **names** mentioned again by surname (or first name) alone mean the last full name that ends
    (or starts) with it in the same passage: ``Curie`` after ``Marie Curie`` is Marie Curie.

  A relation is kept only when it reads as one (:func:`_reads_as_fact`): a verb phrase of at most
  :data:`_MAX_RELATION_WORDS` words that is not a bare auxiliary, between a subject the sentence or
  the passage names and an object that is a name, a date or a term of the sentence — so technical
  prose, which the rules were not written for, gives no fragments like ``(Pip, has, number)``.

What it does not do: it never states a negated or hedged clause (``not``, ``never``, ``may``…), it
states no relation of ``the element``/``the couple`` (they only co-occur with what they lean on), and it
reads no meaning: ``became a professor`` and ``was awarded a prize`` are just relations named by their words.
It knows no facts; everything it answers is a restatement of words in the passage.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tgneo.llm.base import LLMError
from tgneo.llm.offline.handlers import handles
from tgneo.nlp.anaphora import subjects
from tgneo.nlp.items import (
    ADVERBS,
    AUXILIARIES,
    CONJUNCTIONS,
    COPULAS,
    DETERMINERS,
    MODALS,
    NEGATIONS,
    OBJECT_PRONOUNS,
    PARTICLES,
    POSSESSIVES,
    PREPOSITIONS,
    RELATIVES,
    SUBJECT_PRONOUNS,
    Item,
    is_person_like,
    items,
    plain,
)
from tgneo.nlp.phrases import Term, terms
from tgneo.nlp.words import fold

__all__ = ["CO_OCCURS", "MAX_TERMS", "extract", "extraction_answer"]

CO_OCCURS = "co-occurs with"
"""The relation between two terms one sentence names (a co-occurrence edge, as model-free GraphRAG has)."""
_ANAPHOR = re.compile(r"^(?:this|these|that|those|such)\b", re.IGNORECASE)
ANAPHOR_TERMS = 2
"""Terms of the sentence before that a sentence opening with a demonstrative (*This…*, *These hashes…*) also
relates. Not one opening with *It* or *They*: that stands for one thing, the subject :mod:`tgneo.nlp.anaphora`
finds (or nothing), and an edge relating another term of the sentence before would be quoted as if *it* were that
term (``It (rows) has the same effect as …`` for ``TRUNCATE``)."""
MAX_TERMS = 8
"""Terms related pairwise per sentence, at the most (identifiers and names first): 28 edges."""
_GENERIC = frozenset(
    """example examples way ways case cases thing things time times amount part parts number lot kind sort type
    types use uses order means result results point fact reason reasons set list note notes instance instances
    situation situations approach step steps detail details information""".split()
)
"""Nouns too general to be an entity on their own."""

_ORDINALS = frozenset("first second third last final earliest latest original".split())
"""Words between ``the`` and a name that leave the name the subject (``The first Nobel Prizes were …``)."""
_MAX_RELATION_WORDS = 5
_MAX_NOUN_WORDS = 3
_IRREGULAR_VERBS = frozenset(
    """won became began born made took gave led wrote taught built found held left met went came grew knew saw
    sent spent stood told brought bought fought thought caught kept lost paid read ran rose said sold struck swore
    threw understood wore taken given written known shown chosen driven fallen forgotten hidden risen seen spoken
    stolen sworn thrown broken proven grown drawn flown worn torn begun done gone""".split()
)
_NOT_VERBS = frozenset("hundred sacred kindred naked wicked red bed seed need speed".split())


@dataclass(frozen=True)
class _Fact:
    s: str
    p: str
    o: str
    literal: bool


@dataclass
class _Context:
    """What the passage has said so far: the last subjects, how often each name was a subject, every name.

    Encyclopedic prose keeps coming back to its topic, so ``he``/``she``/``his``/``her`` mean the most
    *salient* person — the one most often a subject so far, the first mentioned on a tie — rather
    than merely the last one mentioned; ``it``/``its``/``they`` mean the last subject(s). A lone
    surname or first name means the most salient full name of a person that ends or starts with it,
    unless the passage already used it on its own. Only person-like names (see
    :func:`~tgneo.nlp.words.is_person_like`) take part in either.
    """

    subjects: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    alone: set[str] = field(default_factory=set)
    salience: dict[str, int] = field(default_factory=dict)

    def _rank(self, name: str) -> tuple[int, int]:
        first = self.names.index(name) if name in self.names else len(self.names)
        return self.salience.get(name, 0), -first

    def resolve(self, name: str) -> str:
        """The full name ``name`` stands for (itself unless it is a lone surname or first name)."""
        if " " not in name:
            matches = [n for n in self.names if is_person_like(n) and name in (n.split()[-1], n.split()[0])]
            if matches and name not in self.alone:
                return max(matches, key=self._rank)
            self.alone.add(name)
            return name
        if name not in self.names:
            self.names.append(name)
        return name

    def said(self, subjects: list[str], salient: bool = True) -> None:
        """``subjects`` are the subjects of the clause just read (``salient``: the clause is about them)."""
        self.subjects = subjects
        for s in subjects if salient else ():
            self.salience[s] = self.salience.get(s, 0) + 1

    def pronoun(self, word: str) -> list[str]:
        """What a subject or possessive pronoun stands for (empty when nothing was said yet)."""
        if word in ("he", "she", "his", "her"):
            people = [n for n in self.salience if is_person_like(n)]
            return [max(people, key=self._rank)] if people else []
        if word in ("it", "its"):
            return self.subjects[:1]
        return list(self.subjects)


def _verbish(word: str) -> bool:
    """A word that carries a verb phrase on (``named``, ``won``, ``taken``), as opposed to a noun."""
    return word in _IRREGULAR_VERBS or (word.endswith("ed") and len(word) > 3 and word not in _NOT_VERBS)


def _content(item: Item) -> bool:
    """A lower-case word that can be part of a noun phrase."""
    w = item.text
    return item.kind == "word" and not (
        w in DETERMINERS or w in POSSESSIVES or w in PREPOSITIONS or w in AUXILIARIES or w in CONJUNCTIONS
        or w in RELATIVES or w in MODALS or w in NEGATIONS or w in OBJECT_PRONOUNS or w in SUBJECT_PRONOUNS
        or w in ADVERBS or w.isdigit()
    )  # fmt: skip


def _relation(words: list[str]) -> str:
    """A verb phrase as a relation: auxiliaries, adverbs and articles out; ``is`` kept before a lone particle."""
    kept = [w for w in words if w not in AUXILIARIES and w not in ADVERBS and w not in DETERMINERS
            and w not in POSSESSIVES and not w.endswith("ly")]  # fmt: skip
    if kept and all(w in PREPOSITIONS for w in kept) and any(w in COPULAS for w in words):
        kept = ["is", *kept]
    return " ".join(kept)


def _base(relation: str) -> str:
    """The relation without its trailing particles (``born in`` → ``born``)."""
    words = relation.split()
    while len(words) > 1 and words[-1] in PREPOSITIONS:
        words.pop()
    return " ".join(words)


def _noun_phrase(clause: list[Item], i: int, capitals: bool = False) -> tuple[str, int]:
    """The noun phrase starting at ``clause[i]`` (articles skipped) and the index after it."""
    while i < len(clause) and clause[i].kind == "word" and clause[i].text in DETERMINERS:
        i += 1
    words: list[str] = []
    while i < len(clause) and len(words) < _MAX_NOUN_WORDS:
        item = clause[i]
        if _content(item) and not _verbish(item.text):
            words.append(item.text)
        elif capitals and item.kind == "name" and not item.possessive:
            words.append(item.text)
        else:
            break
        i += 1
    return " ".join(words), i


class _Reader:
    """Turns the clauses of one passage into facts, carrying the context from clause to clause."""

    def __init__(self) -> None:
        self.context = _Context()
        self.facts: list[_Fact] = []

    def add(self, s: str, p: str, o: str, literal: bool = False) -> None:
        if not p or len(p.split()) > _MAX_RELATION_WORDS or s == o:
            return
        fact = _Fact(s, p, o, literal)
        if fact not in self.facts:
            self.facts.append(fact)

    def name(self, item: Item) -> str:
        return self.context.resolve(item.text)

    # -- sentences into clauses, asides out --------------------------------------------------------

    def sentence(self, text: str) -> None:
        clause = items(text)
        if not clause:
            return
        clause = self._asides(clause)
        for part in self._clauses(clause):
            self.clause(part)

    def _asides(self, clause: list[Item]) -> list[Item]:
        """Take out ``, a/an/the …,`` and ``, who/which <verb> …,`` after a name; state what they say."""
        out: list[Item] = []
        i = 0
        while i < len(clause):
            item = clause[i]
            if item.kind == "punct" and item.text == "," and out and out[-1].kind == "name" and i + 1 < len(clause):
                end = next((j for j in range(i + 1, len(clause)) if clause[j].text in (",", ";", ".")), len(clause))
                aside = clause[i + 1 : end]
                if self._aside(self.name(out[-1]), aside):
                    i = end + 1 if end < len(clause) and clause[end].text == "," else end
                    continue
            out.append(item)
            i += 1
        return out

    def _aside(self, subject: str, aside: list[Item]) -> bool:
        if not aside or aside[0].kind != "word":
            return False
        head = aside[0].text
        if head in ("a", "an"):
            noun, _ = _noun_phrase(aside, 0, capitals=True)
            if noun:
                self.add(subject, "is a", noun)
            return True
        if head == "the":
            noun, j = _noun_phrase(aside, 0)
            if noun and j + 1 < len(aside) and aside[j].text in PREPOSITIONS and aside[j + 1].kind == "name":
                self.add(subject, f"{noun} {aside[j].text}", self.name(aside[j + 1]))
            return True
        if head in ("who", "which") and len(aside) > 1 and aside[1].kind == "word":
            saved = self.context.subjects
            self.clause([Item("name", subject), *aside[1:]])
            self.context.subjects = saved
            return True
        return head in POSSESSIVES

    def _clauses(self, clause: list[Item]) -> list[list[Item]]:
        """Split at ``;`` and at ``and``/``but`` followed by a verb (a new clause, same subject)."""
        parts: list[list[Item]] = [[]]
        for i, item in enumerate(clause):
            nxt = clause[i + 1] if i + 1 < len(clause) else None
            if item.kind == "punct" and item.text == ";":
                parts.append([])
                continue
            new_clause = (
                item.kind == "word" and item.text in ("and", "but") and nxt is not None and nxt.kind == "word"
                and _verbish(nxt.text) and parts[-1] and any(x.kind == "word" for x in parts[-1][1:])
            )  # fmt: skip
            if new_clause:
                parts.append([item])  # the conjunction tells the clause to keep the subject
                continue
            parts[-1].append(item)
        return [p for p in parts if p]

    # -- one clause --------------------------------------------------------------------------------

    def clause(self, clause: list[Item]) -> None:
        words = {x.text for x in clause if x.kind == "word"}
        if words & (NEGATIONS | MODALS):
            return
        clause = self._leading_phrase(clause)
        subjects, i, salient = self._subjects(clause)
        if not subjects:
            return
        self.context.said(subjects, salient and i < len(clause))
        self._predicate(subjects, clause[i:])

    def _leading_phrase(self, clause: list[Item]) -> list[Item]:
        """``In 1891, she moved …`` → ``she moved … in 1891``; other openers are dropped.

        An opener ends at a comma within its first six items, else (``As a young woman she …``) at
        the first subject pronoun.
        """
        if not clause or clause[0].kind != "word" or clause[0].text not in PREPOSITIONS | ADVERBS:
            return clause
        comma = next((i for i, x in enumerate(clause[:7]) if x.text == ","), None)
        if comma is None:
            pronoun = next((i for i, x in enumerate(clause[:7]) if x.kind == "word" and x.text in SUBJECT_PRONOUNS), 0)
            return clause[pronoun:]
        opener, rest = clause[:comma], clause[comma + 1 :]
        dated = opener[0].text in PREPOSITIONS and len(opener) == 2 and opener[1].kind == "date"
        return [*rest, *opener] if dated else rest

    def _subjects(self, clause: list[Item]) -> tuple[list[str], int, bool]:
        """The subjects opening ``clause``, where the predicate starts, and whether the clause is about them.

        A person introduced through someone else (``Her father X …``) is not what the passage is about,
        so such a clause does not make X more salient.
        """
        i = 0
        first = clause[0] if clause and clause[0].kind == "word" else None
        if first is not None and first.text in ("and", "but"):
            return list(self.context.subjects), 1, True
        if first is not None and first.text in SUBJECT_PRONOUNS:
            return self.context.pronoun(first.text), 1, True
        if first is not None and first.text in POSSESSIVES:
            owners = self.context.pronoun(first.text)
            return (*self._relative_subject(owners[0], clause, 1), False) if owners else ([], 0, False)
        if first is not None and first.text == "the":
            i = 1
            while i < len(clause) - 1 and clause[i].kind == "word" and clause[i].text in _ORDINALS:
                i += 1  # ``The first Nobel Prizes were awarded in 1901``
        if i >= len(clause) or clause[i].kind != "name":
            return [], 0, False
        if clause[i].possessive:
            return (*self._relative_subject(self.name(clause[i]), clause, i + 1), False)
        subjects = [self.name(clause[i])]
        i += 1
        while i + 1 < len(clause) and clause[i].text in ("and", ",") and clause[i + 1].kind == "name":
            subjects.append(self.name(clause[i + 1]))
            i += 2
        if i < len(clause) and clause[i].kind == "date":
            i += 1  # ``The Nobel Prize in Physics 1903 was …``: the year qualifies the subject
        return subjects, i, True

    def _relative_subject(self, owner: str, clause: list[Item], i: int) -> tuple[list[str], int]:
        """``Her husband Pierre Curie …``: state the relation to the owner; the named one is the subject."""
        noun, j = _noun_phrase(clause, i)
        if j < len(clause) and clause[j].text == ",":
            j += 1
        if not noun or j >= len(clause) or clause[j].kind != "name":
            return [], 0
        person = self.name(clause[j])
        self.add(person, f"{noun} of", owner)
        j += 1
        if j < len(clause) and clause[j].text == ",":
            j += 1
        return [person], j

    def _predicate(self, subjects: list[str], rest: list[Item]) -> None:
        verb: list[str] = []
        i = 0
        while i < len(rest) and rest[i].kind == "word":
            w = rest[i].text
            first = not verb
            if w in DETERMINERS or w in POSSESSIVES or w in OBJECT_PRONOUNS - {"it"}:
                break
            if (
                first or w in AUXILIARIES or w in ADVERBS or w in PREPOSITIONS or w in PARTICLES or w.endswith("ly")
                or _verbish(w)
            ):  # fmt: skip
                verb.append(w)
                i += 1
                continue
            break
        if not verb or verb[0] in PREPOSITIONS or not _content(Item("word", verb[0])) and verb[0] not in AUXILIARIES:
            return
        copula = all(w in AUXILIARIES or w in ADVERBS for w in verb) and any(w in COPULAS for w in verb)
        if copula:
            self._copula(subjects, rest, i)
            return
        self._objects(subjects, _relation(verb), rest, i)

    def _copula(self, subjects: list[str], rest: list[Item], i: int) -> None:
        """``is a Polish physicist``, ``is the capital of Poland``."""
        if i >= len(rest):
            return
        head = rest[i].text
        if head in ("a", "an"):
            noun, j = _noun_phrase(rest, i, capitals=True)
            nouns = [noun] if noun else []
            while j + 1 < len(rest) and rest[j].text == "and":
                more, j = _noun_phrase(rest, j + 1, capitals=True)
                if not more:
                    break
                nouns.append(more)
            for k, n in enumerate(nouns[:-1]):
                if " " not in n and n[:1].isupper():  # ``a Polish and French physicist``: Polish physicist
                    nouns[k] = f"{n} {nouns[k + 1].split()[-1]}"
            for s in subjects:
                for n in nouns:
                    self.add(s, "is a", n)
            return
        if head == "the":
            noun, j = _noun_phrase(rest, i)
            if noun and j + 1 < len(rest) and rest[j].text in PREPOSITIONS and rest[j + 1].is_argument:
                self._objects(subjects, f"{noun} {rest[j].text}", rest, j + 1)

    def _objects(self, subjects: list[str], relation: str, rest: list[Item], i: int) -> None:
        """Every object of the predicate: names, dates, and noun phrases right after the verb."""
        current = relation
        base = _base(relation)
        noun_allowed = True  # a bare noun phrase may follow the verb, or ``and`` after one
        last_noun: str | None = None
        while i < len(rest):
            item = rest[i]
            if item.is_argument:
                obj = self.name(item) if item.kind == "name" else item.text
                for s in subjects:
                    self.add(s, current, obj, literal=item.kind == "date")
                noun_allowed = False
                i += 1
                continue
            w = item.text
            nxt = rest[i + 1] if i + 1 < len(rest) else None
            if w == "that" or (w == "to" and nxt is not None and nxt.kind == "word" and _content(nxt)):
                return  # a clause (``found that …``, ``to win …``) this reader does not parse
            if item.kind == "punct" or w == "and":
                if item.kind == "punct" and w != ",":
                    return
                i += 1
                continue
            if w in DETERMINERS:
                i += 1
                continue
            if w in PREPOSITIONS:
                if last_noun is not None and i + 1 < len(rest) and rest[i + 1].kind == "name":
                    for s in subjects:
                        self.add(s, f"{base} {last_noun} {w}", self.name(rest[i + 1]))
                current = f"{base} {w}"
                noun_allowed, last_noun = False, None
                i += 1
                continue
            if w in RELATIVES or w in POSSESSIVES or w in OBJECT_PRONOUNS:
                if w in RELATIVES:
                    return
                noun_allowed = False
                i += 1
                continue
            if noun_allowed and _content(item):
                noun, i = _noun_phrase(rest, i)
                if not noun:
                    return
                for s in subjects:
                    self.add(s, current, noun)
                last_noun = noun
                noun_allowed = i < len(rest) and rest[i].text in ("and", ",")
                continue
            i += 1


def _rank(term: Term) -> int:
    """Identifiers first, then names, then noun phrases of several words, then single words."""
    if term.kind not in ("phrase", "name"):
        return 0
    if term.kind == "name":
        return 1
    return 2 if " " in term.text else 3


def _entity_terms(text: str, mentions: Mapping[str, int]) -> list[Term]:
    """The terms of one sentence worth an entity, at most :data:`MAX_TERMS`.

    A single word found only as a noun phrase must be said at least twice in the passage
    (``mentions``) and not be a generic noun (:data:`_GENERIC`): once-said words (*right*, *amount*)
    would only add noise to the graph.
    """
    found = [
        t for t in terms(text)
        if len(t.text) > 1 and not (t.kind == "phrase" and " " not in t.text
                                    and (t.key in _GENERIC or mentions.get(t.key, 0) < 2))
    ]  # fmt: skip
    kept = sorted(sorted(found, key=_rank)[:MAX_TERMS], key=lambda t: t.start)
    return kept


def _reads_as_fact(fact: _Fact, sentence_terms: set[str], known: set[str]) -> bool:
    """Whether a relation the rules found reads as a fact (see the module docstring)."""
    words = fact.p.split()
    if not words or len(words) > _MAX_RELATION_WORDS or fact.p in AUXILIARIES or all(w in PREPOSITIONS for w in words):
        return False
    subject, obj = fact.s.lower(), fact.o.lower()
    if subject not in sentence_terms and not (subject in known and " " in subject):
        return False
    words_said = {w for term in sentence_terms for w in term.split()}
    return fact.literal or obj in sentence_terms or obj in known or all(w in words_said for w in obj.split())


def extract(text: str) -> list[dict[str, Any]]:
    """The facts the rules find in ``text``, in the extraction prompt's JSON shape, each with its evidence."""
    reader = _Reader()
    out: list[dict[str, Any]] = []
    seen: set[tuple[str, str, str, bool]] = set()

    def add(s: str, p: str, o: str, literal: bool, evidence: str) -> None:
        if (s, p, o, literal) not in seen and s != o:
            seen.add((s, p, o, literal))
            out.append({"s": s, "p": p, "o": o, "literal": literal, "evidence": evidence})

    mentions = Counter(fold(w) for w in re.findall(r"[\w'’-]+", text))
    previous: list[Term] = []
    introduced: list[Term] = []  # the terms of a sentence ending with a colon, for the list items after it
    for unit, subject in subjects(text):
        found = _entity_terms(unit.text, mentions)
        if _ANAPHOR.match(unit.text) and previous:
            # ``This functionality is provided through the truststore package.``: what *this* is, the
            # sentence before named; its main terms join this one's (the evidence stays this sentence)
            known = {t.key for t in found}
            found = [t for t in previous[:ANAPHOR_TERMS] if t.key not in known] + found
        if unit.kind == "item" and introduced:
            # ``It is used through URL prefixes:`` then ``- Mercurial -- `hg+```: an item is one of what the
            # sentence introducing its list names, and relates its terms
            known = {t.key for t in found}
            found = [t for t in introduced[:ANAPHOR_TERMS] if t.key not in known] + found
        if subject is not None and fold(subject) not in {t.key for t in found}:
            found = [Term(subject, "subject", -1), *found][:MAX_TERMS]  # ``She died in Passy.``: Marie Curie's
        if unit.text.endswith(":"):
            introduced = [t for t in found if t.kind != "subject"] if unit.kind != "item" else introduced
        elif unit.kind != "item":
            introduced = []
        previous = found
        if unit.kind in ("sentence", "item"):
            before = len(reader.facts)
            if subject is not None and is_person_like(subject) and not reader.context.salience:
                reader.context.said([reader.context.resolve(subject)])  # ``she`` in a chunk that does not name her
            reader.sentence(plain(unit.text))
            sentence_terms = {t.text.lower() for t in terms(unit.text)} | {n.lower() for n in reader.context.names}
            known = {n.lower() for n in reader.context.names}
            for fact in reader.facts[before:]:
                if _reads_as_fact(fact, sentence_terms, known):
                    add(fact.s, fact.p, fact.o, fact.literal, unit.text)
        for i, first in enumerate(found):
            for second in found[i + 1 :]:
                add(first.text, CO_OCCURS, second.text, False, unit.text)
    return out


@handles("extraction")
def extraction_answer(inputs: Mapping[str, Any]) -> str:
    """The offline provider's answer to ``Task("extraction", {"text": passage})``: a JSON array."""
    text = inputs.get("text")
    if not isinstance(text, str):
        raise LLMError("the extraction stage needs a 'text' input")
    return json.dumps(extract(text), ensure_ascii=False)
