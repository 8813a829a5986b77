"""Questions whose answer is computed from facts they do not state: which facts to look up, which number each
lookup's answer gives, and the arithmetic that answers (pure, model-free).

"How old was Marie Curie when she won her first Nobel Prize?" states no number. Answered by a calculator, it is
two lookups (the year she was born, the year of the prize) and a subtraction of what they found. The offline
ReAct policy (:func:`tgneo.llm.offline.agent_policy.react`) asks the lookups of the agent's tools, reads one number
from each answer (:func:`operand`) and hands :func:`expression` to the calculator tool. The shapes recognised:

* an age: *how old was X when/as/after E*, *how old was X in YEAR*, *at what age did/was X E*: X's birth year
  and E's year (or the year the question gives);
* a life or a span: *how long / how many years did X live*, *how many years / how long … between A and B*,
  *how many years / how long after (before) A did B*: the two years;
* a comparison of amounts: *how much / how many more (fewer, less) N did A V than B*: the amount of each.

Spans are the later year minus the earlier, so they need no word order; a comparison is A's amount minus B's.
A span's event that says *first* (*earliest*) is looked up without the ordinal and takes the earliest year
found, *last* (*latest*, *final*) the latest. Anything else (a conceptual "difference between A and B") is not
arithmetic: ``None``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from tgneo.nlp.segment import sentences
from tgneo.nlp.words import content_words, fold, names, stem

__all__ = ["Computation", "computation", "expression", "operand"]

Pick = Literal["first", "last"] | None


@dataclass(frozen=True)
class Computation:
    """What a question asks to compute: the lookups whose answers hold the operands, in order."""

    lookups: tuple[str, ...]
    """One question per operand to find, in the operands' order."""
    given: tuple[int, ...] = ()
    """Years the question states itself (*in 1900*): operands with no lookup."""
    span: bool = True
    """Years, subtracted later minus earlier; else amounts, the first minus the second."""
    picks: tuple[Pick, ...] = ()
    """Per lookup: which of several years its answer names counts (``first``, ``last``, else the first said)."""


_AUX = r"(?:was|were|is|are|did|does|do|had|has|have|will)"
_SUBJECT_PRONOUN = re.compile(r"^(?:she|he|they|it)\b", re.IGNORECASE)
_NOUN_PHRASE = re.compile(r"^(?:the|a|an|her|his|their|its|our|my)\b|^[A-Z][\w-]*(?:\s+[A-Z][\w-]*)*['’]s\b")
_AGE_WHEN = re.compile(rf"^how old {_AUX} (?P<who>.+?) (?:when|as|after|once) (?P<event>.+)$", re.IGNORECASE)
_AGE_IN = re.compile(rf"^how old {_AUX} (?P<who>.+?) (?:in|by) (?:the year )?(?P<year>\d{{3,4}})$", re.IGNORECASE)
_AGE_AT = re.compile(rf"^(?:at|by) what age (?P<aux>{_AUX}) (?P<rest>.+)$", re.IGNORECASE)
_LIFE = re.compile(r"^how (?:long|many years) did (?P<who>.+?) live(?: for)?$", re.IGNORECASE)
_BETWEEN = re.compile(r"^how (?:many years|long|much time)\b(?:.*?\s)?between (?P<a>.+?) and (?P<b>.+)$", re.IGNORECASE)
_AFTER = re.compile(
    rf"^how (?:many years|long|much time) (?:after|before) (?P<a>.+?) (?P<aux>{_AUX}) (?P<b>.+)$",
    re.IGNORECASE,
)
_MORE = re.compile(r"^how (?P<q>much|many) (?:more|fewer|less) (?P<mid>.+?) than (?P<b>.+)$", re.IGNORECASE)
_FIRST = re.compile(r"\b(?:first|earliest)\b", re.IGNORECASE)
_LAST = re.compile(r"\b(?:last|latest|final)\b", re.IGNORECASE)
_ORDINAL = re.compile(f"{_FIRST.pattern}|{_LAST.pattern}", re.IGNORECASE)
_YEAR = re.compile(r"(?<![\w.,])(1[0-9]{3}|20[0-9]{2})(?![\w,]|\.\d)")
_NUMBER = re.compile(r"(?<![\w.])\d+(?:,\d{3})*(?:\.\d+)?(?![\w])")
_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12, "once": 1, "twice": 2,
}  # fmt: skip
_NUMBER_WORD = re.compile(rf"\b(?:{'|'.join(_WORDS)})\b", re.IGNORECASE)


def _pick(event: str) -> Pick:
    return "first" if _FIRST.search(event) else "last" if _LAST.search(event) else None


def _when(event: str, who: str | None = None) -> str:
    """A question for the year of ``event``: a noun phrase (*the discovery of radium*) or a clause (*she won …*),
    its leading pronoun standing for ``who`` when known, without its ordinal (*her first prize*: the lookup finds
    every prize, the pick takes the earliest)."""
    if who is not None:
        event = _SUBJECT_PRONOUN.sub(who, event)
    event = _plain(event)
    return f"When was {event}?" if _NOUN_PHRASE.match(event) else f"What year was it when {event}?"


def _plain(lookup: str) -> str:
    """``lookup`` without its ordinal words (the pick applies them)."""
    return " ".join(_ORDINAL.sub("", lookup).split())


def _born(who: str) -> str:
    return f"When was {who} born?"


def computation(question: str) -> Computation | None:
    """What ``question`` asks to compute from facts it does not state (the module docstring's shapes), or ``None``."""
    q = " ".join(question.split()).strip(" ?.!")
    if match := _AGE_IN.match(q):
        return Computation((_born(match["who"]),), given=(int(match["year"]),))
    if match := _AGE_WHEN.match(q):
        who, event = match["who"], match["event"]
        return Computation((_born(who), _when(event, who)), picks=(None, _pick(event)))
    if (match := _AGE_AT.match(q)) and (who := names(match["rest"])):
        rest = match["rest"]
        return Computation((_born(who[0]), _plain(f"When {match['aux']} {rest}?")), picks=(None, _pick(rest)))
    if match := _LIFE.match(q):
        return Computation((_born(match["who"]), f"When did {match['who']} die?"))
    if match := _BETWEEN.match(q):
        a, b = match["a"], match["b"]
        return Computation((_when(a), _when(b)), picks=(_pick(a), _pick(b)))
    if match := _AFTER.match(q):
        a, b = match["a"], match["b"]
        later = _plain(f"When {match['aux']} {b}?")
        return Computation((_when(a), later), picks=(_pick(a), _pick(b)))
    if match := _MORE.match(q):
        return _comparison(match["q"], match["mid"], match["b"])
    return None


def _comparison(how: str, mid: str, other: str) -> Computation | None:
    """*How many more N did A V than B*: the amount of N for A, and for B (A is the name after the verb)."""
    after_aux = re.search(rf"\b{_AUX}\s+(?P<rest>.+)$", mid, re.IGNORECASE)
    if after_aux is None:
        return None
    rest = after_aux["rest"]
    found = names(rest)
    subject = found[0] if found else rest
    if fold(subject) == fold(other) or subject not in mid:
        return None
    start = after_aux.start("rest") + rest.index(subject)
    theirs = mid[:start] + other + mid[start + len(subject) :]
    return Computation((f"How {how} {mid}?", f"How {how} {theirs}?"), span=False)


def operand(found: Computation, index: int, answer: str) -> tuple[int | float, str] | None:
    """The number lookup ``index`` found in its ``answer`` and the sentence that says it, or ``None``.

    Only the sentences about what the lookup asks count: those naming one of the names it names in full (*Pierre
    Curie died in 1906* does not date Marie Curie's death) and a word it asks beside its subject (*Marie Curie
    married in 1895* does not either), holding most of its content words. Of those, a span's
    lookup reads years: the first one said (the answer quotes its best sentence first), or, as the lookup asks, the
    earliest or the latest of all. A comparison's reads the first amount (a numeral or a number word).
    """
    lookup = found.lookups[index]
    about = [fold(name) for name in names(lookup)]
    said = [s for s in sentences(answer) or [answer] if not about or any(name in fold(s) for name in about)]
    numbers = [(s, _numbers(s, found.span)) for s in said]
    asked = _stems(lookup)
    beyond = asked - _stems(about[0] if about else "")  # what it asks of its subject: born, died, the prize …
    numbered = [(s, values) for s, values in numbers if values and (not beyond or _shared(beyond, s))]
    if not numbered:
        return None
    overlap = [len(_shared(asked, s)) for s, _ in numbered]
    best = [(s, values) for (s, values), n in zip(numbered, overlap, strict=True) if n == max(overlap)]
    pick = found.picks[index] if index < len(found.picks) else None
    if pick is None:
        return best[0][1][0], best[0][0]
    every = [(value, s) for s, values in best for value in values]
    return min(every, key=lambda v: v[0]) if pick == "first" else max(every, key=lambda v: v[0])


def _stems(text: str) -> set[str]:
    return {stem(w) for w in content_words(text)} - {"year", "when", "much", "many"}


def _shared(asked: set[str], sentence: str) -> set[str]:
    """The stems of ``asked`` that ``sentence`` holds, one stem the start of the other (*die*, *died*) counting."""
    have = _stems(sentence)
    return {a for a in asked if any(h.startswith(a) or a.startswith(h) for h in have if min(len(a), len(h)) >= 3)}


def _numbers(sentence: str, years: bool) -> list[int | float]:
    """The years (``years``) or the amounts ``sentence`` names, in order."""
    if years:
        return [int(m.group(1)) for m in _YEAR.finditer(sentence)]
    found = [(m.start(), _value(m.group(0))) for m in _NUMBER.finditer(sentence)]
    found += [(m.start(), _WORDS[m.group(0).lower()]) for m in _NUMBER_WORD.finditer(sentence)]
    return [value for _, value in sorted(found)]


def _value(text: str) -> int | float:
    number = float(text.replace(",", ""))
    return int(number) if number.is_integer() and "." not in text else number


def expression(found: Computation, operands: Sequence[int | float]) -> str:
    """The arithmetic that answers: later year minus earlier for a span, else the first amount minus the second."""
    values = [*operands, *found.given]
    if found.span:
        return f"{max(values)} - {min(values)}"
    return f"{values[0]} - {values[1]}"
