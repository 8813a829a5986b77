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

from tgneo.nlp.terms import identifiers
from tgneo.nlp.words import fold

__all__ = ["Wanted", "clauses", "fits", "wants"]

Wanted = Literal["term", "number", "definition"]

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
    return None


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
    if wanted == "definition":
        match = _ASKS_DEFINITION.match(question)
        words = fold(match.group("subject")).split() if match else []
        text = fold(sentence)
        at = text.find(words[-1]) if words else -1
        verb = _DEFINES.search(text, at) if at >= 0 else None
        return 1.0 if verb is not None and verb.start() - at <= DEFINITION_REACH else 0.0
    return 0.0


def clauses(sentence: str) -> list[str]:
    """The clauses of a long sentence (split at semicolons, colons, dashes and ``, and``/``, but``/``, which`` …),
    each at least :data:`MIN_CLAUSE_WORDS` words; ``[sentence]`` for a sentence of at most
    :data:`LONG_SENTENCE_WORDS` words or one that does not split so."""
    if len(sentence.split()) <= LONG_SENTENCE_WORDS:
        return [sentence]
    parts = [p.strip(" ,;:") for p in _CLAUSE_BREAK.split(sentence)]
    kept = [p for p in parts if len(p.split()) >= MIN_CLAUSE_WORDS]
    return kept if len(kept) >= 2 else [sentence]
