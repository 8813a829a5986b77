"""What kind of answer a question wants, whether a sentence offers it, and the clause of a long sentence
that answers (pure, model-free).

A reader looking for "which keyword …" skims for a keyword, for "how many …" for a number, for "what is X"
for the sentence that says what X *is*. The offline answers (:mod:`tgneo.llm.offline.answers`) prefer such a
sentence among those relevant to the question — so that the sentence naming the keyword wins over its
neighbour naming only the table the keyword fills — and quote only the clause of a long sentence that holds
the answer. The citation stays exact: attribution cites the whole sentence the clause was cut from.
"""

from __future__ import annotations

import re
from typing import Literal

from tgneo.nlp.phrases import identifiers
from tgneo.nlp.words import STOPWORDS, fold

__all__ = ["Wanted", "asked_noun", "clauses", "fits", "offered", "parts", "wants"]

Wanted = Literal["term", "number", "definition", "date", "place"]

_TERM_NOUNS = (
    "command|keyword|function|option|pragma|file|table|setting|flag|variable|collation|affinity|statement|clause|"
    "error|method|api|call|mode|extension|suffix|directory|folder|column|type|operator|name|value|parameter|"
    "field|header|environment variable|library|module|package|tool|format|constraint|action|index|interface"
)
_ASKS_TERM = re.compile(rf"^\W*(?:which|what)\s+(?:[\w-]+\s+){{0,3}}?(?P<noun>{_TERM_NOUNS})s?\b", re.IGNORECASE)
_ASKS_NUMBER = re.compile(
    r"\bhow\s+(?:many|much|long|large|big|often)\b|\b(?:maximum|minimum|largest|smallest|default)\s+"
    r"(?:number|size|length|value|count|amount)\b|\bwhat\s+(?:is|are)\s+the\s+(?:maximum|minimum|limit)\b",
    re.IGNORECASE,
)
_ASKS_DEFINITION = re.compile(r"^\W*what\s+(?:is|are)\s+(?:an?\s+|the\s+)?(?P<subject>[^?]+?)\s*\??$", re.IGNORECASE)
_ASKS_DATE = re.compile(r"^\W*when\b|\b(?:what|which)\s+year\b", re.IGNORECASE)
_ASKS_PLACE = re.compile(r"^\W*where\b", re.IGNORECASE)
_DATE = re.compile(
    r"\b(?:1[0-9]{3}|20[0-9]{2})\b|\b(?:january|february|march|april|may|june|july|august|september|october|"
    r"november|december)\s+\d",
    re.IGNORECASE,
)
_PLACE = re.compile(r"\b(?:in|at|near|from|into|under|inside)\s+(?:the\s+|an?\s+)?(?:[\w-]+\s+)?(?=[A-Z`~/$.])")
"""A place: ``in Passy``, ``at the University of Paris``, ``in `~/.cache/pip```: a name or an identifier after
the preposition (``in 1934`` is a date)."""
_PART = re.compile(r",?\s+and\s+(?=(?:when|where|who|what|which|why|how)\b)", re.IGNORECASE)
_NUMBER = re.compile(
    r"\b\d[\d,.]*\b|\b(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|dozen|hundred|"
    r"thousand|million|billion)\b",
    re.IGNORECASE,
)
_KEYWORD = re.compile(r"\b[A-Z][A-Z_]{2,}\b")
"""An all-capitals word: a SQL keyword (``VACUUM``), a constant (``SQLITE_BUSY``)."""
_DEFINES = re.compile(r"\b(?:is|are|means|refers\s+to|is\s+called|are\s+called)\b", re.IGNORECASE)
_CLAUSE_BREAK = re.compile(r"\s*;\s+|:\s+|,\s+(?=(?:and|but|which|while|whereas|so|although|because)\b)|\s+[-—–]\s+")
LONG_SENTENCE_WORDS = 30
"""A sentence longer than this many words is quoted by its best clause, if one answers alone."""
MIN_CLAUSE_WORDS = 5
DEFINITION_REACH = 60
"""At most this many characters from the subject's last word to the ``is``/``are``/``means`` that defines it."""


def wants(question: str) -> Wanted | None:
    """The kind of answer ``question`` asks for, or ``None`` when it says nothing of it."""
    if _ASKS_NUMBER.search(question):
        return "number"
    if _ASKS_TERM.match(question):
        return "term"
    if _ASKS_DEFINITION.match(question):
        return "definition"
    if _ASKS_DATE.search(question):
        return "date"
    if _ASKS_PLACE.match(question):
        return "place"
    return None


_ASKS_NOUN = re.compile(r"^\W*(?:which|what)\s+(?:(?:kind|type|sort)\s+of\s+)?(?P<noun>[a-z][a-z-]+)\b", re.IGNORECASE)


def asked_noun(question: str) -> str | None:
    """The noun a "which/what NOUN …" question asks for (``river`` in "Which river flows through …?"), or ``None``.

    Why: the sentence that answers names the kind of thing asked for ("… the Vistula, the longest *river* of
    Poland"), while its neighbours may hold more of the question's other words ("Marie Curie was born in Warsaw"
    for "… the city where Marie Curie was born"): with meaning in the score, the neighbour won. A verb or a
    function word after the question word (``What is``, ``Which of``) is no noun.
    """
    found = _ASKS_NOUN.match(question)
    if found is None:
        return None
    noun = found.group("noun").lower()
    return None if noun in STOPWORDS or noun in _NOT_NOUNS else noun


_NOT_NOUNS = frozenset("is are was were does do did can could should would will has have had happens".split())


def parts(question: str) -> list[str]:
    """The parts of a question that asks two things (``Where was X born and when did she die?``), else
    ``[question]``: split at ``and`` before a question word."""
    found = [p.strip(" ,?") for p in _PART.split(question)]
    return [p + "?" for p in found if p] if len(found) > 1 else [question]


def _named(text: str) -> set[str]:
    return {fold(t.text) for t in identifiers(text)} | {w.lower() for w in _KEYWORD.findall(text)}


def fits(wanted: Wanted | None, question: str, sentence: str) -> float:
    """How well ``sentence`` offers what ``question`` wants, in ``[0, 1]``.

    A term question (*which keyword …*) is answered fully by a sentence naming a term the question does not,
    right beside the asked-for noun (``the AUTOINCREMENT keyword``, ``PRAGMA foreign_keys``, ``a table named
    "sqlite_sequence"``), and by half by one naming such a term elsewhere: the sentence beside it that names
    only some other term is the neighbour, not the answer. A number question is answered by a number, a
    definition question by a sentence saying what its subject is.
    """
    if wanted == "term":
        new = _named(sentence) - _named(question)
        if not new:
            return 0.0
        asked = _ASKS_TERM.match(question)
        noun = fold(asked.group("noun")) if asked else ""
        text = fold(sentence)
        for term in new:
            t, n = re.escape(term), re.escape(noun)
            if noun and re.search(rf"{t}\W+(?:\w+\W+){{0,2}}?{n}|{n}\W+(?:\w+\W+){{0,2}}?{t}", text):
                return 1.0
        return 0.5
    if wanted == "number":
        return 1.0 if _NUMBER.search(sentence) else 0.0
    if wanted == "date":
        return 1.0 if _DATE.search(sentence) else 0.0
    if wanted == "place":
        return 1.0 if _PLACE.search(sentence) else 0.0
    if wanted == "definition":
        match = _ASKS_DEFINITION.match(question)
        words = fold(match.group("subject")).split() if match else []
        text = fold(sentence)
        at = text.find(words[-1]) if words else -1
        verb = _DEFINES.search(text, at) if at >= 0 else None
        return 1.0 if verb is not None and verb.start() - at <= DEFINITION_REACH else 0.0
    return 0.0


def offered(wanted: Wanted | None, question: str, sentence: str) -> set[str]:
    """The answers of the kind ``wanted`` that ``sentence`` offers: for a term question the terms it names that the
    question does not (when it :func:`fits`), for a number question its numbers; empty for the other kinds."""
    if wanted == "term" and fits(wanted, question, sentence) > 0:
        return _named(sentence) - _named(question)
    if wanted == "number":
        return {fold(n) for n in _NUMBER.findall(sentence)}
    return set()


def clauses(sentence: str) -> list[str]:
    """The clauses of a long sentence (split at semicolons, colons, dashes and ``, and``/``, but``/``, which`` …),
    each at least :data:`MIN_CLAUSE_WORDS` words; ``[sentence]`` for a sentence of at most
    :data:`LONG_SENTENCE_WORDS` words or one that does not split so."""
    if len(sentence.split()) <= LONG_SENTENCE_WORDS:
        return [sentence]
    parts = [p.strip(" ,;:") for p in _CLAUSE_BREAK.split(sentence)]
    kept = [p for p in parts if len(p.split()) >= MIN_CLAUSE_WORDS]
    return kept if len(kept) >= 2 else [sentence]
