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
from tgneo.nlp.words import STOPWORDS, fold, names

__all__ = ["Wanted", "asked_noun", "clauses", "fits", "offered", "parts", "wants"]

Wanted = Literal["term", "number", "value", "definition", "date", "place"]

_TERM_NOUNS = (
    "command|keyword|function|option|pragma|file|table|setting|flag|variable|collation|affinity|statement|clause|"
    "error|method|api|call|mode|extension|suffix|directory|folder|column|type|operator|name|value|parameter|"
    "field|header|environment variable|library|module|package|tool|format|constraint|action|index|interface|"
    "directive|signal|status code|result code|error code|exit code|code|hook|privilege"
)
"""The kinds of thing a *which/what NOUN* question asks for that manuals name by an identifier (a directive, a
signal, a status code …): it is answered by a sentence naming one the question does not."""
_ASKS_TERM = re.compile(rf"^\W*(?:which|what)\s+(?:[\w-]+\s+){{0,3}}?(?P<noun>{_TERM_NOUNS})s?\b", re.IGNORECASE)
_ASKS_NUMBER = re.compile(
    r"\bhow\s+(?:many|much|long|large|big|often)\b|\b(?:maximum|minimum|largest|smallest|default)\s+"
    r"(?:number|size|length|value|count|amount)\b|\bwhat\s+(?:is|are)\s+the\s+(?:maximum|minimum|limit)\b",
    re.IGNORECASE,
)
_ASKS_VALUE = re.compile(
    r"^\W*(?:what|which)\b[^?]*\b(?:default|defaults|limit|maximum|minimum)\b|\bwhat\s+value\b", re.IGNORECASE
)
"""A question about a default, a limit or a value (``What is the default checkpoint style?``): answered by a
sentence stating one — a reference card's row (``Default: `DeflateBufferSize 8096`.``), ``The default is
PASSIVE.``."""
_STATES_VALUE = re.compile(r"\b(?:defaults?|limits?|maximum|minimum|values?|set\s+to|is\s+set)\b", re.IGNORECASE)
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
_WH = r"(?:when|where|who|whom|whose|what|which|why|how)"
_PREPOSITION = (
    r"(?:in|on|at|as|of|for|from|to|by|with|above|below|under|over|after|before|since|until|into|during|beyond|"
    r"within|about|through|up)"
)
_PART = re.compile(rf",?\s+and\s+(?=(?:{_PREPOSITION}\s+){{0,2}}{_WH}\b)", re.IGNORECASE)
"""Where a question's second part begins: ``and`` (after a comma or not) before a question word, or before one or
two prepositions and a question word (``…, and in which version …``, ``…, and as of which version …``)."""
_ELLIPTIC = re.compile(
    r"^(which|what)\s+(?=(?:does|do|did|is|are|was|were|can|could|will|would|should|has|have|had)\b)", re.IGNORECASE
)
"""A second part that leaves out the noun the first asked for: ``…, and which does `-k graceful-stop` send?``."""
_BOTH_OF = re.compile(
    r"^(?P<head>\W*(?:what|which)\b[^?]*?\b(?:of|for)\s+(?:the\s+)?)(?P<x>`[^`]+`|[^\s`?,]+)\s*,?\s+and\s+"
    r"(?:the\s+)?(?P<y>`[^`]+`|[^\s`?,]+)\s*\?*\s*$",
    re.IGNORECASE,
)
"""A question about the same thing of two named terms: ``What are the default values of DeflateBufferSize and
DeflateInflateRatioLimit?``."""
_PERSON = re.compile(r"\b(?:she|he|his)\b", re.IGNORECASE)
"""The pronouns by which a second part names the person the first part does (``… and when did she die?``)."""
_TOGETHER = re.compile(r"\b(?:between|both|together|difference|differ|compare|versus|vs)\b", re.IGNORECASE)
"""Words that make ``X and Y`` one thing asked about (the difference between them), not two."""
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
    if _ASKS_TERM.match(question):  # "Which directive bounds how long …?": a directive, not a number
        return "term"
    if _ASKS_NUMBER.search(question):
        return "number"
    if _ASKS_VALUE.search(question):
        return "value"
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
    """The parts of a question that asks two things, else ``[question]``.

    * split at ``and`` before a question word, or before a preposition or two and one (``Where was X born and when
      did she die?``, ``Which pragma …, and in which version was …?``); a second part that leaves out the noun the
      first asks for gets it back (``Which signal does `-k graceful` send, and which does `-k graceful-stop` send?`` →
      ``which signal does `-k graceful-stop` send?``) and one that names the first's person by a pronoun names
      them (``… and when did she die?`` → ``when did Marie Curie die?``), so that each part says what it wants;
    * the same thing asked of two named terms, an identifier, a keyword or a one-word name each (``What are the
      default values of DeflateBufferSize and DeflateInflateRatioLimit?``): the question once per term.
      ``between``, ``both``, ``difference`` … make the two one thing asked about, and leave the question whole.

    Every engine answers each part on its own (grounding, retrieval, selection; issue 48), and the offline answers
    quote a sentence for each.
    """
    found = [p.strip(" ,?") for p in _PART.split(question)]
    found = [p for p in found if p]
    if len(found) > 1 and not any(re.search(rf"\b{_WH}$", p, re.IGNORECASE) for p in found[:-1]):  # "how and when"
        noun, who = asked_noun(found[0]), names(found[0])
        said = [_ELLIPTIC.sub(rf"\1 {noun} ", p) if noun and i else p for i, p in enumerate(found)]
        if len(who) == 1:  # "… and when did she die?": the person the first part names
            said = [
                p if not i or names(p) else _PERSON.sub(lambda m: _named_as(m, who[0]), p) for i, p in enumerate(said)
            ]
        return [p + "?" for p in said]
    both = _BOTH_OF.match(question)
    if both is not None and not _TOGETHER.search(question) and all(_term(both.group(g)) for g in ("x", "y")):
        return [f"{both.group('head')}{both.group(g)}?" for g in ("x", "y")]
    return [question]


def _named_as(pronoun: re.Match[str], name: str) -> str:
    return f"{name}'s" if pronoun.group(0).lower() == "his" else name


def _term(text: str) -> bool:
    """Whether ``text`` is one named term: a code span, an identifier, an all-capitals keyword or a one-word name."""
    if text.startswith("`"):
        return True
    found = identifiers(text)
    return (len(found) == 1 and found[0].text == text) or _KEYWORD.fullmatch(text) is not None or names(text) == [text]


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
    if wanted == "value":
        if not offered(wanted, question, sentence):
            return 0.0
        return 1.0 if _STATES_VALUE.search(sentence) else 0.5
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
    question does not (when it :func:`fits`), for a number question its numbers, for a value question the terms
    and numbers it names that the question does not; empty for the other kinds."""
    if wanted == "term" and fits(wanted, question, sentence) > 0:
        return _named(sentence) - _named(question)
    if wanted == "number":
        return {fold(n) for n in _NUMBER.findall(sentence)}
    if wanted == "value":
        return _values(question, sentence)
    return set()


def _values(question: str, sentence: str) -> set[str]:
    """The values ``sentence`` states that ``question`` does not name: its numbers and terms, and of a code span
    that holds a term the question names, what follows it when that is a number or a keyword (``8096`` and ``On`` of
    ```DeflateBufferSize 8096```, ```KeepAlive On```; not ``value`` of ```DeflateBufferSize value```, a
    placeholder)."""
    asked = _named(question)
    found = {fold(n) for n in _NUMBER.findall(sentence)} - {fold(n) for n in _NUMBER.findall(question)}
    for term in _named(sentence) - asked:
        held = [a for a in asked if re.search(rf"(?<!\w){re.escape(a)}(?!\w)", term)]
        if not held:
            found.add(term)
            continue
        rest = term
        for a in held:
            rest = re.sub(rf"(?<!\w){re.escape(a)}(?!\w)", " ", rest)
        originals = re.findall(r"[\w.-]+", sentence)
        for word in rest.split():
            written = next((o for o in originals if fold(o) == word), word)
            if _NUMBER.fullmatch(word) or written[:1].isupper():
                found.add(word)
    return found


def clauses(sentence: str) -> list[str]:
    """The clauses of a long sentence (split at semicolons, colons, dashes and ``, and``/``, but``/``, which`` …),
    each at least :data:`MIN_CLAUSE_WORDS` words; ``[sentence]`` for a sentence of at most
    :data:`LONG_SENTENCE_WORDS` words or one that does not split so."""
    if len(sentence.split()) <= LONG_SENTENCE_WORDS:
        return [sentence]
    code = [span.span() for span in re.finditer(r"`[^`]+`", sentence)]
    cuts = [
        m for m in _CLAUSE_BREAK.finditer(sentence)
        if not any(a < m.start() < b for a, b in code)  # inside a code span
        and not re.search(r"(?:^|\s)`?:\w+$", sentence[: m.start()])  # ``:memory:``'s closing colon
    ]  # fmt: skip
    bounds = [0, *(x for m in cuts for x in m.span()), len(sentence)]
    parts = [_trimmed(sentence[a:b]) for a, b in zip(bounds[::2], bounds[1::2], strict=True)]
    kept = [p for p in parts if len(p.split()) >= MIN_CLAUSE_WORDS]
    return kept if len(kept) >= 2 else [sentence]


def _trimmed(clause: str) -> str:
    """A clause without the spaces and punctuation around it, an identifier's own colons kept (``:memory:``)."""
    clause = clause.strip(" ,;")
    if clause.startswith(":") and not re.match(r":\w", clause):
        clause = clause[1:].lstrip()
    if clause.endswith(":") and not re.search(r"(?:^|\s)`?:\w+:$", clause):
        clause = clause[:-1].rstrip()
    return clause
