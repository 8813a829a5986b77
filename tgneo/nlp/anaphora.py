"""The subject a sentence leaves to its context: ``She died in Passy.``, ``This option …``, ``It is called by …``
(pure, model-free).

A sentence *leans* on its context when it opens (after a short opener such as ``In 1891,``) with a
subject or possessive pronoun (``she``, ``it``, ``their``…), with ``this``/``these``/``that``/``those``/
``such`` and up to two lower-case words (``This option``), or with ``the`` and one or two lower-case words
before its verb (``The default value is …``, ``The city lies …``): :func:`leaning`.

What it leans on (:func:`subjects`), in a text read unit by unit — only ever a noun phrase of the kind the
sentence needs (:func:`subject_like`), and nothing when the text does not say which (a wrong subject quoted in
an answer is worse than none):

* ``he``/``she``/``his``/``her``: the person most often named at the opening of a sentence so far (the first
  named on a tie), as the offline extractor reads such prose — else the section's topic when it is a person;
* in a definition (below), any other: the term it defines (``This option``, ``It``, ``The default value``);
* elsewhere, ``it``/``they``/``its``/``their``: the grammatical subject of the sentence just before, when that
  sentence opens with one (a name, an identifier or a noun phrase followed by its verb: ``TRUNCATE quickly
  removes …``, not ``However, …``, ``Returns …`` or ``Plain VACUUM (without FULL) …``);
* ``this``/``these``/``that``/``those``/``such`` with a noun (``This pragma``): the term of that kind the
  sentence before names — its subject when the subject's head is that noun, or an identifier written beside
  the noun (``… the `analysis_limit` pragma …``, ``PRAGMA analysis_limit``);
* a bare ``This``/``That`` (``This means …``, ``This is because …``) stands for what the sentence before said
  as a whole, which no noun phrase names: nothing. Nor does a pronoun after an opening clause that names
  something itself (``When SQLite compares two strings, it …``), nor a heading (``Introduction``, ``How it
  works``): a section's title is seldom what its sentences lean on.

Measured on insertions judged by hand over the chunks of the quality bench's three corpora
(``tests/data/anaphora-judged.json``): of 100 drawn at random from those the earlier rules made (any lean took the
sentence before's first words, else the heading), 14 were right — Document RAG's 10 of 60, GraphRAG's quoted edges
4 of 40; of all 37 these rules make, 36 are (0.97). ``tests/test_subject_context.py`` holds them to 0.95.

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

from tgneo.nlp.items import OPENERS
from tgneo.nlp.phrases import VERBS, identifiers, key_terms, terms
from tgneo.nlp.segment import Unit, units
from tgneo.nlp.words import STOPWORDS, fold, is_person_like, names, stem

__all__ = [
    "Lean", "definition_term", "heading_topic", "in_context", "leaning", "named", "opening", "subject_like", "subjects",
    "with_subjects",
]  # fmt: skip

_PERSONAL = frozenset("he she his her him".split())
_PRONOUNS = frozenset("he she it they we you i him her them us me".split())
_OPENER = (
    r"(?P<opener>(?:in|on|at|by|after|before|during|as|later|then|since|from|until|when|there)\b[^,.;:]{0,40},\s*)?"
)
_PRONOUN = re.compile(rf"^\W*{_OPENER}(?P<lean>he|she|it|they|his|her|its|their)\b", re.IGNORECASE)
_DEMONSTRATIVE = re.compile(
    rf"^\W*{_OPENER}(?P<lean>this|these|that|those|such)\b(?P<words>(?:\s+[a-z][a-z'’-]*){{0,3}})", re.IGNORECASE
)
_EXPLETIVE = re.compile(
    r"^\W*it(?:[’']s|\s+(?:is|was|isn[’']t|wasn[’']t|(?:may|might|can|could|will|would|should)\s+be))\b"
    r"(?:[^.;:]{0,30}?\b(?:possible|impossible|necessary|recommended|important|advisable|common|useful|easy|hard|"
    r"difficult|worth|best|better|likely|unlikely|required|needed|expected|known|true|clear|safe|unsafe|preferable|"
    r"essential|idea|reasonable|convenient|guaranteed|an\s+error|up\s+to|helpful|wise|sufficient|enough)\b"
    r"|\s+(?:also\s+|not\s+)?(?:this|these|that|those)\b)",
    re.IGNORECASE,
)
"""``It is possible to …``, ``It is up to the designer …``, ``It is this method that …``: an ``it`` that stands
for nothing before it."""
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
        if word not in _PERSONAL and _names_something(match.group("opener")):
            return None  # ``When SQLite compares two strings, it …``: the opening clause says what *it* is
        return Lean(match.group("lean"), match.end("lean"), word in _PERSONAL)
    match = _DEMONSTRATIVE.match(sentence)
    if match and _names_something(match.group("opener")):
        return None
    if match:  # ``This option is``: the nouns before the verb lean with it
        return _with_nouns(sentence, match, range(3)) or Lean(match.group("lean"), match.end("lean"), False)
    match = _THE.match(sentence)
    if match:  # ``The default value is``: one or two nouns, then the verb
        return _with_nouns(sentence, match, (1, 2))
    return None


def _names_something(opener: str | None) -> bool:
    """Whether an opening clause (``When SQLite compares two strings,``) names a thing a pronoun after it may
    stand for (``In 1891,`` names none)."""
    return bool(opener) and any(t.kind != "phrase" or _nounish_phrase(t.text) for t in terms(opener or ""))


def _nounish_phrase(phrase: str) -> bool:
    return not all(w.lower() in STOPWORDS or w.lower() in OPENERS for w in phrase.split())


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
    term = re.sub(r"\s*\([^()]*\)$", "", match.group("term").strip(" *_"))  # ``work_mem (integer)``: its type
    term = term[1:-1] if re.fullmatch(r"`[^`]+`", term) else term.replace("`", "")
    words = term.split()
    if not words or len(words) > MAX_TERM_WORDS or fold(words[0]) in _ADMONITIONS or "; " in sentence[: match.end()]:
        return None
    if re.search(r";\s+[^;:]{1,40}:\s", sentence):  # ``Header: cell; Header: cell``: a table row, not a definition
        return None
    return term


_DASH_TERM = re.compile(r"^`(?P<term>[^`\n]{1,60})`\s+[-—–]\s+\S")
"""A list item that defines the identifier it opens with: ``* `find_matches` - given a set of constraints, …``."""
_ITEM_START = re.compile(r"(?:^|\n)[ \t]*(?:[-*+•]|\d{1,3}[.)])[ \t]+$")
_LINE_START = re.compile(r"(?:^|\n)[ \t]*$")


def _term_of(text: str, unit: Unit, paragraph: bool, current: str | None) -> tuple[str | None, bool]:
    r"""The definition term in force at ``unit`` and whether ``unit`` opens that definition: a paragraph's (or a
    list item's) first sentence opening with ``term: …`` (or ``\`term\` - …``), or a line within a paragraph
    that does (the HTML reader begins each paragraph of a ``<dd>`` with its term); else the term before."""
    before = text[: unit.start]
    item = unit.kind == "item" and _ITEM_START.search(before) is not None
    if paragraph or item or _LINE_START.search(before):
        term = definition_term(unit.text)
        if term is None and item:
            dash = _DASH_TERM.match(unit.text)
            term = dash.group("term") if dash else None
        if term is not None or paragraph or item:
            return term, term is not None
    return current, False


def opening(sentence: str) -> str | None:
    """The term ``sentence`` opens with, its grammatical subject as far as words tell: a name (``Marie Curie``,
    ``The Vistula``), an identifier, or a noun phrase, starting within its first two words. Lenient: what counts
    the people a text names (``Marie Curie and Pierre Curie discovered …``); :func:`subject_of` is strict."""
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


_CONNECTIVES = frozenset(
    """however hence furthermore otherwise instead beyond except likewise therefore moreover meanwhile nevertheless
    nonetheless thus indeed also still yet whenever wherever whether unless until unlike despite besides since though
    although because while whereas once consider note see similar certain partial plain bulk older newer other
    another each every some many most several few all both either neither""".split()
)
"""Capitalised words that open a sentence without naming its subject (``However``, ``Plain VACUUM …``)."""
_ADVERBS = frozenset("also only then now still always never often usually simply first just already thus".split())
_AUXILIARY = frozenset(
    "is are was were be been has have had do does did can could may might must shall should will would".split()
)
_POINTERS = frozenset("following previous preceding above below next last latter former".split())
_PREFIXES = frozenset("re pre un de co over under mis out".split())
_MARKS = re.compile(r"[¶§†‡#]")
"""Permalink and anchor marks a heading carries (Sphinx's ``¶``, DocBook's ``#``): never part of a subject."""
_NUMBERING = re.compile(r"^\s*(?:[A-Z]\.)?\d+(?:\.\d+)*\.?\s+")


def heading_topic(heading: str) -> str:
    """A heading as the topic of its section: without its permalink marks and numbering (``2.3. Shared-Memory
    Files ¶`` → ``Shared-Memory Files``)."""
    return _NUMBERING.sub("", _MARKS.sub("", heading)).strip(" #*`_:")


def _verb_form(word: str) -> bool:
    """A verb by its form: a common verb, its third person (``re-reads``, ``tries``), a past or -ing form."""
    lower = word.lower().strip("`")
    if lower in VERBS or lower.endswith(("ed", "ing")):
        return True
    for base in (lower[:-1], lower[:-2], lower[:-3] + "y") if lower.endswith("s") else ():
        if base in VERBS:
            return True
    return False


def subject_like(candidate: str) -> bool:
    """Whether ``candidate`` may stand as the subject a sentence leans on: an identifier, a name or a noun phrase —
    never a permalink mark (``The Prerequisites ¶``), a verb (``re-reads``, ``Returns``), a number, or a word that
    opens a sentence without naming anything (``However``, ``Finally``)."""
    text = candidate.strip()
    if not text or _MARKS.search(text) or not re.search(r"[^\W\d_]", text) or len(text) > 80:
        return False
    found = identifiers(text)
    if len(found) == 1 and (text in (found[0].text, f"`{found[0].text}`")):
        if found[0].kind != "kebab" or text.startswith("`"):
            return True
        parts = text.lower().split("-")  # ``re-reads``: a verb written with a hyphen, not a term
        return not (parts[0] in _PREFIXES or _verb_form(parts[-1]) and not parts[-1].endswith("ing"))
    words = re.findall(r"[\w'’-]+", text)
    if not words or len(words) > 6:
        return False
    lowered = [w.lower() for w in words]
    first, last = lowered[0], lowered[-1]
    plain = not words[0].isupper() and "-" not in first  # ``WITHOUT ROWID``, ``Hash-checking mode``: terms
    if first in _POINTERS:
        return False  # ``following table``: where it is on the page, not what it is
    if plain and (first in _CONNECTIVES or first in OPENERS or first in STOPWORDS or first.endswith("ly")):
        return False
    if plain and _verb_form(first) and (words[0][:1].isupper() or not first.endswith(("ing", "ed"))):
        return False  # ``Accessing STRICT tables``, ``Reducing …``, ``Call …``: a clause, not a noun phrase
    inflected = last not in VERBS and last.endswith(("s", "ed")) and _verb_form(last)  # ``process``: a noun too
    if last in STOPWORDS or (inflected and not words[-1][:1].isupper() and "-" not in last):
        return False  # ``pip attempts``, ``commands cannot``: a clause, not a noun phrase
    return not any(w in _AUXILIARY or w in _ADVERBS for w in lowered)


def subject_of(sentence: str) -> str | None:
    """The grammatical subject ``sentence`` opens with — a name, an identifier or a noun phrase (:func:`subject_like`)
    right at its start (after ``The``), up to its verb (``TRUNCATE quickly removes …``, ``WAL mode permits …``,
    ``B-tree indexes can …``) — or ``None`` when it opens otherwise (``However, …``, ``The use of binding …``)."""
    label = re.match(r"^\W*(\w+):\s+", sentence)
    if label and fold(label.group(1)) in _ADMONITIONS:
        sentence = sentence[label.end() :]  # ``Note: …``
    head = re.match(r"^[\s(\[\"'“]*(?:(?:the|a|an)\s+)?", sentence, re.IGNORECASE)
    tokens = _TOKEN.findall(sentence[head.end() if head else 0 :])
    phrase: list[str] = []
    for i, token in enumerate(tokens[: MAX_SUBJECT_WORDS + 3]):
        ahead = tokens[i + 1].lower() if i + 1 < len(tokens) else ""
        if phrase and _verb_at(token, ahead, tokens[i + 1 :]):
            text = " ".join(phrase)
            bare = text[1:-1] if re.fullmatch(r"`[^`]+`", text) else text.replace("`", "")
            return bare if subject_like(text) else None
        if token.startswith("`") or (token[:1].isalnum() and token.lower() not in STOPWORDS):
            phrase.append(token)
            if len(phrase) > MAX_SUBJECT_WORDS:
                return None
            continue
        if token.startswith("(") and phrase:  # an aside: ``Plain `VACUUM` (without `FULL`) simply …``
            continue
        return None
    return None


MAX_SUBJECT_WORDS = 4
"""The longest subject :func:`subject_of` reads (``The WITHOUT ROWID syntax``)."""
_TOKEN = re.compile(r"`[^`]+`|\([^()]*\)|[\w'’./:-]+(?:\(\))?|[^\w\s]")


def _verb_at(token: str, ahead: str, rest: Sequence[str]) -> bool:
    """Whether ``token`` (after a subject) is the sentence's verb, or an adverb before it (``quickly removes``)."""
    lower = token.lower()
    if not lower[:1].isalpha():
        return False
    if lower in _AUXILIARY or lower in ("cannot", "can't", "won't", "doesn't", "don't", "isn't", "aren't"):
        return True
    if lower in _ADVERBS or lower.endswith("ly"):
        nxt = [t.lower() for t in rest[:2]]
        return bool(nxt) and (_verb_at(rest[0], nxt[1] if len(nxt) > 1 else "", rest[1:]))
    if ahead in _AUXILIARY or not ahead[:1].isalpha() and ahead[:1] not in ("`", "("):
        return False  # ``B-tree indexes can``: a plural noun before the verb; ``pip cache dir,``
    if lower.endswith("s") and not lower.endswith(("ss", "us", "is")) and not token[:1].isupper():
        return True  # ``removes``, ``permits``: a verb's third person before its object
    return lower.endswith("ed") or lower in VERBS and lower not in _BASE_NOUNS


_BASE_NOUNS = frozenset("use set install build name work run list view order change support need".split())
"""Verbs that are as often nouns after a noun (``wheel install``, ``build backend``)."""


_IDENTIFIER_KINDS = frozenset(
    """option flag setting parameter variable directive command function method pragma keyword statement clause
    file module package header signal field column property attribute macro mode table index operator""".split()
)
"""Nouns whose things are written as identifiers: ``This option`` may stand for ``--python``."""


def _plural(subject: str) -> bool | None:
    """Whether a subject is plural by its last word (``B-tree indexes``), ``None`` when its form does not tell
    (an identifier, a keyword)."""
    if identifiers(subject) or subject.split()[-1].isupper():
        return None
    last = subject.split()[-1].lower()
    return " and " in subject or (last.endswith("s") and not last.endswith(("ss", "us", "is")))


class _Reading:
    """What the text has said so far: its topic, the current definition's term, the sentence before and its subject,
    who was named."""

    def __init__(self) -> None:
        self.topic: str | None = None
        self.term: str | None = None
        self.last: str | None = None
        self.before: str | None = None
        self.people: dict[str, int] = {}
        self.order: list[str] = []

    def heading(self, text: str) -> None:
        self.topic, self.term, self.last, self.before = heading_topic(text), None, None, None

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
        if self.term is not None:
            return self.term  # a definition's sentences are about its term
        words = lean.words.split()
        kind = words[0].lower()
        if kind == "the":  # ``The default value``: a definition's; elsewhere a noun phrase of its own
            return None
        if kind in ("this", "these", "that", "those", "such"):
            return self.of_kind(words[-1]) if len(words) > 1 else None  # bare ``This``: what was said, no noun
        if self.last is None or _plural(self.last) is (kind not in ("they", "their")):
            return None  # ``They`` for ``subtransaction``: not what it stands for
        return self.last  # ``it``, ``they``, ``its``, ``their``: the subject of the sentence before

    def of_kind(self, noun: str) -> str | None:
        """The term of the sentence before that a ``This NOUN`` stands for: its subject when its head is that noun,
        else an identifier written beside the noun (``the `--python` option``, ``PRAGMA analysis_limit``)."""
        wanted = stem(noun.lower())
        if self.last is not None and stem(self.last.split()[-1].lower()) == wanted:
            return self.last
        if self.before is None or wanted not in {stem(k) for k in _IDENTIFIER_KINDS}:
            return None
        plain = self.before.replace("`", "")
        beside = []
        for term in identifiers(self.before):
            t = re.escape(term.text)
            near = rf"{t}\W{{1,3}}(?:[\w-]+\s+)?{re.escape(noun.lower())}\w*|\b{re.escape(noun.lower())}\w*\s+{t}"
            if subject_like(term.text) and re.search(near, plain, re.IGNORECASE):
                beside.append(term.text)
        return beside[0] if len(set(beside)) == 1 else None  # two options beside it: which one is not said


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
        paragraph = bool(re.search(r"\n\s*\n", text[previous_end : unit.start])) or not out
        reading.term, opens = _term_of(text, unit, paragraph, reading.term)
        own = reading.term if opens else None
        previous_end = unit.end
        lean = leaning(unit.text) if own is None else None
        subject = reading.leaned(lean) if lean is not None else None
        if subject is not None and (fold(subject) in fold(unit.text) or not subject_like(subject)):
            subject = None  # the sentence names it after all (``This is why pip …``)
        if lean is None:
            person = own or opening(unit.text)
            if person is not None:
                reading.named(person)
            reading.last = own or subject_of(unit.text)
        else:
            if subject is not None and lean.personal:
                reading.named(subject)
            reading.last = subject
        reading.before = unit.text
        out.append((unit, subject))
    return out


def named(sentence: str, subject: str | None) -> str:
    """``sentence`` with the ``subject`` it leans on in parentheses after the words that lean on it (``She (Marie
    Curie) died …``); as it is when it does not lean, names the subject already, the subject is no noun phrase
    (:func:`subject_like`), or the parentheses would hold more key terms than the sentence (an answer quoting it
    would no longer be supported by it)."""
    if not subject or not subject_like(subject):
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
    """``sentence`` named (:func:`named`) by the first of ``ends`` it does not name itself — the ends of a fact read
    in it, the one it leans on (``She died in Passy.`` for (Marie Curie, died in, Passy)) — when that end is of the
    kind its lean needs: a person for ``she``; for ``This pragma`` or ``The default value`` a term whose head is
    that noun (or, after ``The``, a definition's identifier); never for a bare ``This`` (what the sentence before
    said). An edge of a sentence opening with ``This`` may relate the terms of the sentence before (the offline
    extractor's co-occurrences), which are not what *this* is."""
    folded = fold(sentence)
    hidden = next((end for end in ends if end and fold(end) not in folded), None)
    lean = leaning(sentence)
    if hidden is None or lean is None or not subject_like(hidden):
        return sentence
    words = lean.words.split()
    kind = words[0].lower()
    if lean.personal:
        fits = is_person_like(hidden)
    elif kind in ("this", "these", "that", "those", "such", "the"):
        head = stem(re.split(r"[\s`]+", hidden.strip("` "))[-1].lower())
        fits = len(words) > 1 and (head == stem(words[-1].lower()) or (kind == "the" and bool(identifiers(hidden))))
    else:
        fits = True
    return named(sentence, hidden) if fits else sentence
