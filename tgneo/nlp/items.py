"""Plain prose as the offline extractor's relation rules read it: a sentence's items (names, dates, words).

Why a module of its own: the rules that find names in a sentence are general English conventions
(capital letters, dates) that know nothing about any corpus; the extractor
(:mod:`tgneo.llm.offline.extraction`) builds facts on top of them. Sentences themselves come from the
one segmenter, :mod:`tgneo.nlp.segment`.

A *name* is a run of capitalised words, joined across the particles of names (``of``, ``de``,
``von``, ``van``…; and ``in``/``for``/``on`` after the heads of institution and prize names such as
``Prize``, ``Institute``, ``Society``), so ``Nobel Prize in Physics`` and ``University of Paris`` are
one name each. The first word of a sentence counts as a name only when it is not a function word
(``The``, ``She``, ``In``, ``However``…). A *date* is a year (1000–2099), optionally preceded by a
month and a day.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tgneo.nlp.words import INSTITUTION_HEADS, NAME_PARTICLES, is_person_like

__all__ = ["Item", "is_person_like", "items", "plain"]

DETERMINERS = frozenset("the a an this that these those".split())
POSSESSIVES = frozenset("his her its their our my your".split())
SUBJECT_PRONOUNS = frozenset("he she it they".split())
OBJECT_PRONOUNS = frozenset("him her them it us me".split())
PREPOSITIONS = frozenset(
    """in at on to from with by for of after before during since until into onto near under over between among
    about as through within without across against toward towards upon via per""".split()
)
AUXILIARIES = frozenset("is was are were be been being has had have having do does did".split())
COPULAS = frozenset("is was are were".split())
MODALS = frozenset("may might could would should can will shall must".split())
NEGATIONS = frozenset("not never no neither nor cannot".split())
CONJUNCTIONS = frozenset("and or but".split())
RELATIVES = frozenset("who which that whose whom where when".split())
ADVERBS = frozenset(
    """also later first then subsequently jointly together still already eventually finally soon again only both
    once often widely largely mainly primarily originally initially formerly now today there here however
    thus therefore""".split()
)
OPENERS = (
    DETERMINERS | POSSESSIVES | SUBJECT_PRONOUNS | PREPOSITIONS | CONJUNCTIONS | RELATIVES | ADVERBS | NEGATIONS
    | frozenset("although though because while whereas if when after before since unlike despite as i".split())
)  # fmt: skip
"""Words that open a sentence without being a name, however they are capitalised."""
MONTHS = frozenset("january february march april may june july august september october november december".split())
_FIELD_HEADS = frozenset("prize award medal degree chair professorship".split())
"""Heads after which ``in`` names a field (``Nobel Prize in Physics``) rather than a place."""
PARTICLES = frozenset("up out down off away back".split())
"""Adverb particles of phrasal verbs (``grew up``), kept in the relation."""

_TOKEN = re.compile(r"[^\W\d_]+(?:[-'’][^\W\d_]+)*|\d+(?:[.,]\d+)*|[^\w\s]")


@dataclass(frozen=True)
class Item:
    """A unit of a sentence: a ``name``, a ``date``, a ``word`` (lower-cased) or a ``punct`` mark.

    ``possessive`` marks a name written with ``'s`` (``Curie's``).
    """

    kind: str
    text: str
    possessive: bool = False

    @property
    def is_argument(self) -> bool:
        return self.kind in ("name", "date")


def _year(token: str) -> bool:
    return token.isdigit() and len(token) == 4 and 1000 <= int(token) <= 2099


def _capitalised(token: str) -> bool:
    return token[:1].isupper()


def _strip_parentheses(sentence: str) -> str:
    """Asides in parentheses (life dates, translations) say nothing the extractor can use."""
    return re.sub(r"\s*\([^()]*\)", "", sentence)


def _dates(tokens: list[str], i: int) -> tuple[str, int] | None:
    """A date starting at ``tokens[i]``: ``1898``, ``June 1903``, ``4 July 1934``; with its length."""
    j = i
    if tokens[j].isdigit() and len(tokens[j]) <= 2 and j + 1 < len(tokens) and tokens[j + 1].lower() in MONTHS:
        j += 1
    if tokens[j].lower() in MONTHS and _capitalised(tokens[j]) and j + 1 < len(tokens):
        j += 1
    if _year(tokens[j]):
        return " ".join(tokens[i : j + 1]), j + 1 - i
    return None


def _name(tokens: list[str], i: int, sentence_start: bool) -> int:
    """How many tokens the name starting at ``tokens[i]`` spans (0 when none starts there)."""
    first = tokens[i]
    if not first[:1].isalpha() or not _capitalised(first) or first.lower() in MONTHS:
        return 0
    if sentence_start and first.lower() in OPENERS:
        return 0
    if first.endswith(("'s", "’s")):
        return 1
    j = i + 1
    while j < len(tokens):
        token = tokens[j]
        if token[:1].isalpha() and _capitalised(token) and token.lower() not in MONTHS:
            j += 1
            if token.endswith(("'s", "’s")):
                break
            continue
        head = tokens[j - 1].lower()
        joins = (
            token in NAME_PARTICLES
            or (token in ("for", "on") and head in INSTITUTION_HEADS)
            or (token == "in" and head in _FIELD_HEADS)
        )
        if joins:
            k = j + 1
            while k < len(tokens) and tokens[k] in NAME_PARTICLES | {"the"}:
                k += 1
            if k < len(tokens) and _capitalised(tokens[k]) and tokens[k][:1].isalpha():
                j = k
                continue
        break
    return j - i


def plain(sentence: str) -> str:
    """A sentence without the marks of code spans and emphasis (``*``, ``_``, backticks at word edges)."""
    return re.sub(r"[*_`]{1,3}(?=\w)|(?<=\w)[*_`]{1,3}", "", sentence)


def items(sentence: str) -> list[Item]:
    """The items of one sentence, in order (see the module docstring)."""
    tokens = _TOKEN.findall(_strip_parentheses(plain(sentence)))
    out: list[Item] = []
    i = 0
    while i < len(tokens):
        date = _dates(tokens, i)
        if date is not None:
            out.append(Item("date", date[0]))
            i += date[1]
            continue
        span = _name(tokens, i, sentence_start=not out)
        if span:
            words = tokens[i : i + span]
            possessive = words[-1].endswith(("'s", "’s"))
            if possessive:
                words[-1] = words[-1][:-2]
            out.append(Item("name", " ".join(words), possessive))
            i += span
            continue
        token = tokens[i]
        if token[:1].isalnum():
            out.append(Item("word", token.lower()))
        elif token not in "\"“”‘’'":
            out.append(Item("punct", token))
        i += 1
    return out
