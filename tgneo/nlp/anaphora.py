"""The subject a sentence leaves to its context: ``She died in Passy.``, ``This option …``, ``It is called by …``
(pure, model-free).

A sentence *leans* on its context when it opens (after a short opener such as ``In 1891,``) with a
subject or possessive pronoun (``she``, ``it``, ``their``…), with ``this``/``these``/``that``/``those``/
``such`` and up to two lower-case words (``This option``), or with ``the`` and one or two lower-case words
before its verb (``The default value is …``, ``The city lies …``): :func:`leaning`.

What it leans on (:func:`subjects`), in a text read unit by unit:

* ``he``/``she``/``his``/``her``: the person most often named at the opening of a sentence so far (the first
  named on a tie), as the offline extractor reads such prose — else the section's topic when it is a person;
* any other: the subject of the sentence before it in the same section (what it opened with, or what it
  leaned on itself), else the term of the definition it belongs to, else — for a bare ``It``/``This``/``They``,
  not for ``These original hashes``, which the heading seldom names — the section's topic (its heading).

``The X`` leans only on a definition's term: elsewhere in technical prose it is mostly a noun phrase of its own
(SQLite's "The last transaction started will be the first transaction committed", read as leaning on the
sentence before, lost its answer to "How do you finalise a nested … sub-transaction …?").

A definition is a paragraph that opens with ``term: …`` (how the readers render a ``<dt>``/``<dd>`` pair):
its term is the subject of its first sentence and the topic of the rest. A sentence that names its
subject itself leans on nothing (``None``).

The subject joins a sentence's terms where it is read (the offline extractor's co-occurrences, the
answers' scoring), and an answer quoting the sentence names it in parentheses after the words that lean
on it (:func:`named`): ``She (Marie Curie) died in Passy in 1934.`` The quote stays verbatim around it,
and the cited sentence still holds at least half of the answer sentence's key terms — the parentheses are
left out where they would add more key terms than the sentence has (:data:`~tgneo.nlp.align.support`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from tgneo.nlp.phrases import VERBS, identifiers, key_terms, terms
from tgneo.nlp.segment import Unit, units
from tgneo.nlp.words import fold, is_person_like, names, stem

__all__ = ["Lean", "definition_term", "leaning", "named", "opening", "in_context", "subjects", "with_subjects"]

_PERSONAL = frozenset("he she his her him".split())
_PRONOUNS = frozenset("he she it they we you i him her them us me".split())
_OPENER = r"(?:(?:in|on|at|by|after|before|during|as|later|then|since|from|until|when|there)\b[^,.;:]{0,40},\s*)?"
_PRONOUN = re.compile(rf"^\W*{_OPENER}(?P<lean>he|she|it|they|his|her|its|their)\b", re.IGNORECASE)
_DEMONSTRATIVE = re.compile(
    rf"^\W*{_OPENER}(?P<lean>this|these|that|those|such)\b(?P<words>(?:\s+[a-z][a-z'’-]*){{0,3}})", re.IGNORECASE
)
_EXPLETIVE = re.compile(
    r"^\W*it\s+(?:is|was|isn[’']t|wasn[’']t|(?:may|might|can|could|will|would|should)\s+be)\b[^.;:]{0,30}?\b"
    r"(?:possible|impossible|necessary|recommended|important|advisable|common|useful|easy|hard|difficult|worth|best|"
    r"better|likely|unlikely|required|needed|expected|known|true|clear|safe|unsafe|preferable|essential|idea)\b",
    re.IGNORECASE,
)
"""``It is possible to …``, ``It is recommended that …``: an ``it`` that stands for nothing before it."""
_THE = re.compile(r"^\W*(?P<lean>[Tt]he)(?P<words>(?:\s+[a-z][a-z'’-]*){2,3})\b")
_ADMONITIONS = frozenset(
    "note notes warning warnings tip tips important caution danger hint attention example examples see also todo "
    "deprecated changed".split()
)
"""The words of ``Note:``-like labels: a paragraph opening with one is no definition."""
_TERM = re.compile(r"^(?P<term>[^:\n]{1,60}?):\s+\S")
MAX_TERM_WORDS = 6
"""A definition's term has at most this many words (longer, ``…: …`` is a sentence with a colon)."""


@dataclass(frozen=True)
class Lean:
    """The words by which a sentence leans on its context (``She``, ``This option``), where they end, and
    whether they mean a person."""

    words: str
    end: int
    personal: bool


def _verbish(word: str) -> bool:
    lower = word.lower()
    return lower in VERBS or stem(lower) in VERBS or lower.removesuffix("s") in VERBS or lower.endswith("ed")


def leaning(sentence: str) -> Lean | None:
    """How ``sentence`` leans on its context (see the module docstring), or ``None`` when it does not."""
    if _EXPLETIVE.match(sentence):
        return None
    match = _PRONOUN.match(sentence)
    if match:
        word = match.group("lean").lower()
        return Lean(match.group("lean"), match.end("lean"), word in _PERSONAL)
    match = _DEMONSTRATIVE.match(sentence)
    if match:  # ``This option is``: the nouns before the verb lean with it
        return _with_nouns(sentence, match, range(3)) or Lean(match.group("lean"), match.end("lean"), False)
    match = _THE.match(sentence)
    if match:  # ``The default value is``: one or two nouns, then the verb
        return _with_nouns(sentence, match, (1, 2))
    return None


def _with_nouns(sentence: str, match: re.Match[str], counts: Sequence[int]) -> Lean | None:
    """The lean of ``match`` with the ``n`` (of ``counts``) words after it that come before a verb."""
    words = match.group("words").split()
    for n in counts:
        if n < len(words) and _verbish(words[n]) and not any(_verbish(w) or w in _PRONOUNS for w in words[:n]):
            end = match.end("lean") + (len(" ".join(words[:n])) + 1 if n else 0)
            return Lean(sentence[match.start("lean") : end], end, False)
    return None


def definition_term(sentence: str) -> str | None:
    """The term a definition's first sentence opens with (``--no-deps: Don't install …``), or ``None``."""
    match = _TERM.match(sentence)
    if not match:
        return None
    term = match.group("term").strip(" *`_")
    words = term.split()
    if not words or len(words) > MAX_TERM_WORDS or fold(words[0]) in _ADMONITIONS or "; " in sentence[: match.end()]:
        return None
    if re.search(r";\s+[^;:]{1,40}:\s", sentence):  # ``Header: cell; Header: cell``: a table row, not a definition
        return None
    return term


def opening(sentence: str) -> str | None:
    """The term ``sentence`` opens with, its grammatical subject as far as words tell: a name (``Marie Curie``,
    ``The Vistula``), an identifier, or a noun phrase, starting within its first two words."""
    label = re.match(r"^\W*(\w+):\s+", sentence)
    if label and fold(label.group(1)) in _ADMONITIONS:
        sentence = sentence[label.end() :]  # ``Note: …``
    head = re.match(r"^\W*(?:the\s+)?", sentence, re.IGNORECASE)
    at = head.end() if head else 0
    found = names(sentence)
    if found and sentence.startswith(found[0], at):
        return found[0]
    near = len(" ".join(sentence[at:].split()[:2])) + at
    for term in identifiers(sentence)[:1] + terms(sentence)[:1]:
        if term.start <= near:
            return term.text
    return None


class _Reading:
    """What the text has said so far: its topic, the current definition's term, the last subject, who was named."""

    def __init__(self) -> None:
        self.topic: str | None = None
        self.term: str | None = None
        self.last: str | None = None
        self.people: dict[str, int] = {}
        self.order: list[str] = []

    def heading(self, text: str) -> None:
        self.topic, self.term, self.last = text.strip(" #*`_:"), None, None

    def named(self, subject: str) -> None:
        if is_person_like(subject):
            self.people[subject] = self.people.get(subject, 0) + 1
            if subject not in self.order:
                self.order.append(subject)

    def person(self) -> str | None:
        if self.people:
            return max(self.people, key=lambda p: (self.people[p], -self.order.index(p)))
        for candidate in (self.last, self.topic):
            if candidate is not None and is_person_like(candidate):
                return candidate
        return None

    def leaned(self, lean: Lean) -> str | None:
        if lean.personal:
            return self.person()
        if lean.words[:3].lower() == "the":  # ``The default value``: a definition's; elsewhere a noun phrase of its own
            return self.term
        if " " in lean.words.strip():  # ``These original hashes``: what they are is said before, not in the heading
            return self.last or self.term
        return self.last or self.term or self.topic


def subjects(text: str) -> list[tuple[Unit, str | None]]:
    """Each unit of ``text`` but its headings, with the subject it leans on (``None``: it names its own, or its
    context gives none); see the module docstring."""
    reading = _Reading()
    out: list[tuple[Unit, str | None]] = []
    previous_end = 0
    for unit in units(text):
        if unit.kind == "heading":
            reading.heading(unit.text)
            previous_end = unit.end
            continue
        if re.search(r"\n\s*\n", text[previous_end : unit.start]) or not out:  # a paragraph begins
            reading.term = definition_term(unit.text)
            if reading.term is not None:
                reading.last = None
            own = reading.term
        else:
            own = None
        previous_end = unit.end
        lean = leaning(unit.text) if own is None else None
        subject = reading.leaned(lean) if lean is not None else None
        if subject is not None and fold(subject) in fold(unit.text):
            subject = None  # the sentence names it after all (``This is why pip …``)
        if lean is None:
            own = own or opening(unit.text)
            if own is not None:
                reading.named(own)
                reading.last = own
        elif subject is not None:
            if lean.personal:
                reading.named(subject)
            reading.last = subject
        out.append((unit, subject))
    return out


def named(sentence: str, subject: str | None) -> str:
    """``sentence`` with the ``subject`` it leans on in parentheses after the words that lean on it (``She (Marie
    Curie) died …``); as it is when it does not lean, names the subject already, or the parentheses would hold
    more key terms than the sentence (an answer quoting it would no longer be supported by it)."""
    if not subject:
        return sentence
    lean = leaning(sentence)
    if lean is None or fold(subject) in fold(sentence):
        return sentence
    own = key_terms(sentence)
    if len(key_terms(subject) - own) > len(own):
        return sentence
    return f"{sentence[: lean.end]} ({subject}){sentence[lean.end :]}"


def with_subjects(texts: Sequence[str]) -> list[tuple[str, str | None]]:
    """The sentences of each of ``texts`` (headings left out), each with the subject it leans on."""
    return [(unit.text, subject) for text in texts for unit, subject in subjects(text)]


def in_context(sentence: str, ends: Sequence[str]) -> str:
    """``sentence`` named (:func:`named`) by the first of ``ends`` it does not name itself: the ends of a fact
    read in it, the one it leans on (``She died in Passy.`` for (Marie Curie, died in, Passy))."""
    folded = fold(sentence)
    hidden = next((end for end in ends if end and fold(end) not in folded), None)
    return named(sentence, hidden)
