"""The terms a sentence names: identifiers kept whole, names, and key noun phrases (pure, model-free).

Technical text names things in ways English rules cut apart: ``urn:graph:retrieval`` (a colon is not
the end of a clause), ``PIP_CONFIG_FILE``, ``--no-cache-dir``, ``get_preference``, ``hash-checking``,
``ResolutionImpossible``, ``origin.json``, ``~/.cache/pip``, and whatever a writer put in a code span
(```pip cache dir```). :func:`identifiers` finds each of these whole, first the code spans, then
IRIs, options, environment variables and constants, paths, dotted names, ``snake_case``,
``CamelCase`` and ``kebab-case``; nothing inside one found earlier is found again.

:func:`noun_phrases` finds key noun phrases the way model-free GraphRAG indexing does without a
tagger: runs of up to three content words (no function word, no adverb, no verb of
:data:`VERBS` unless a noun comes before it: *editable install*, *wheel cache*), a participle only
before a noun (*cached wheel*). :func:`terms` puts the three kinds together in reading order, and
:func:`key_terms` gives what two sentences are compared by: identifiers (folded) and content-word stems.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tgneo.nlp.words import STOPWORDS, content_words, fold, names, stem

__all__ = ["VERBS", "Term", "identifiers", "key_terms", "noun_phrases", "terms"]

MAX_IDENTIFIER_CHARS = 80
MAX_PHRASE_WORDS = 3

_CODE_SPAN = re.compile(r"`+([^`]+?)`+")
_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("iri", re.compile(r"\b(?:https?|ftp|file)://[^\s`<>()\"'\]]+[^\s`<>()\"'\].,;:]")),
    ("iri", re.compile(r"\burn:[a-z0-9][\w.-]*(?::[\w.%/-]+)+", re.IGNORECASE)),
    ("option", re.compile(r"(?<![\w-])--[a-zA-Z][\w-]*(?:=[^\s`,;)]+)?")),
    ("constant", re.compile(r"(?<![\w$])\$?[A-Z][A-Z0-9]*(?:_[A-Z0-9<>]+)+(?!\w)")),
    ("path", re.compile(r"(?<![\w/])(?:~|\$[A-Za-z_]\w*|%\w+%)?(?:/[\w.@%+-]+){2,}/?")),
    ("path", re.compile(r"(?<![\w/])(?:~|\$[A-Za-z_]\w*|%\w+%)(?:/[\w.@%+-]+)+/?")),
    ("dotted", re.compile(r"(?<![\w.-])[A-Za-z_][\w+-]*(?:\.[\w+-]+)*\.[A-Za-z_][\w-]*(?![\w.]*\w)")),
    ("snake", re.compile(r"(?<![\w-])_*[a-z][a-z0-9]*(?:_[a-z0-9]+)+_*(?![\w-])")),
    ("camel", re.compile(r"(?<![\w-])(?:[A-Z][a-z0-9]+){2,}[A-Za-z0-9]*(?![\w-])|(?<![\w-])[a-z]+[A-Z]\w*(?![\w-])")),
    ("alphanumeric", re.compile(r"(?<![\w-])[A-Za-z]+[0-9][A-Za-z0-9]*(?![\w-])")),
    ("kebab", re.compile(r"(?<![\w-])[A-Za-z][a-z0-9]*(?:-[a-z0-9]+)+(?![\w-])")),
)
_WORD = re.compile(r"[A-Za-z][\w'’]*(?:-[A-Za-z0-9]+)*")

VERBS = frozenset(
    """accept access activate add allow apply ask assume attempt avoid build call cause change check choose clone
    combine come compare compile complete configure consider contain continue convert copy create decrease define
    delete depend describe determine disable discard discover download enable encounter encode ensure enter exist
    expect explain fail fetch find fix follow force generate get give go guess handle happen help hide ignore
    implement include increase indicate inspect install interrupt invoke keep know lead leave let list load look
    make manage match mean merge minimize need note obtain occur offer open operate override pass perform pick
    pin place prefer present prevent print proceed process protect provide publish put query reach read receive
    recommend reduce refer refresh release rely remove repeat replace request require resolve respect return reuse
    run satisfy say see select send set show skip slip specify start stop store support suppose take tell tend
    think try turn understand update upgrade use verify view wait want wish work write lie flow live belong
    remain consist seem appear marry die teach study discover name award win found
    be is are was were been being has have had do does did can could may might must shall should will would
    become began begun brought built came chose chosen did done drew drawn fell found gave given got gone grew
    held kept knew known led left lost made meant met paid put ran read said sat saw seen sent set shown sold
    spent spoke stood taken told took understood went won wrote written""".split()
)
"""Common English verbs (base and irregular forms): they end a noun phrase, and start none."""
_AUXILIARIES = frozenset(
    "be is are was were been being has have had do does did can could may might must shall should will would".split()
)
_FUNCTION_WORDS = frozenset(
    """via per like across within without upon onto toward towards among along around behind beyond despite
    except inside outside since unlike versus whether whilst though although unless until instead because
    however therefore thus also even just still yet already always never often usually sometimes rather
    quite almost perhaps maybe eg ie etc vs first second third last next later earlier soon""".split()
)
_ADJECTIVES = frozenset(
    """valid invalid certain possible impossible different specific local new old main whole same other such
    several various additional current available necessary important common general simple standard similar
    previous following particular actual exact original relevant optional whole entire full empty single
    multiple separate own true false good bad best better large small long short high low editable available
    possible configurable""".split()
)
"""Adjectives common in technical prose, which are no noun phrase on their own."""
_ADJECTIVE_ENDINGS = ("ous", "ful", "less", "ive")
_DETERMINERS = frozenset("the a an this that these those each every any some no all both either neither".split())
_POSSESSORS = frozenset("the a an its their his her your our my this that".split())
"""Words after which an ``-ing`` word is a noun (a gerund: ``the caching``, ``its caching``)."""
_NOUN_FOLLOWERS = _AUXILIARIES | frozenset(
    """about at by for from in into of on over through with as and or nor but to than then via per like across
    within without under after before during since until""".split()
)
"""Words after which a word ending in ``-s`` whose stem is a verb is a plural noun (``installs for the same
package``, ``downloads and builds``); before anything else it is that verb (``pip provides an …``,
``disables pip's caching``)."""


@dataclass(frozen=True)
class Term:
    """A term a sentence names: its text as written, its kind, and where it starts in the sentence."""

    text: str
    kind: str
    start: int

    @property
    def key(self) -> str:
        """What makes two mentions the same term: the text folded, white space collapsed."""
        return " ".join(fold(self.text).split())


def identifiers(text: str) -> list[Term]:
    """The identifiers of ``text``, whole, in reading order (see the module docstring)."""
    found: list[Term] = []
    taken: list[tuple[int, int]] = []

    def free(start: int, end: int) -> bool:
        return all(end <= a or start >= b for a, b in taken)

    for match in _CODE_SPAN.finditer(text):
        body = match.group(1).strip()
        if body and len(body) <= MAX_IDENTIFIER_CHARS:
            found.append(Term(body, "code", match.start()))
        taken.append((match.start(), match.end()))
    for kind, pattern in _PATTERNS:
        for match in pattern.finditer(text):
            value = match.group(0).rstrip(".,;:")
            if not value or len(value) > MAX_IDENTIFIER_CHARS or not free(match.start(), match.start() + len(value)):
                continue
            if kind == "dotted" and (value.replace(".", "").isdigit() or value.lower() in ("e.g", "i.e")):
                continue
            if kind == "kebab" and not _kebab_term(value):
                continue
            found.append(Term(value, kind, match.start()))
            taken.append((match.start(), match.start() + len(value)))
    return sorted(found, key=lambda t: t.start)


def _kebab_term(value: str) -> bool:
    """A hyphenated word worth keeping whole: not a hyphenated phrase of function words (``all-or-nothing``)."""
    parts = value.lower().split("-")
    inner = parts[1:-1]
    return any(p not in STOPWORDS and len(p) > 1 for p in parts) and not (
        inner and all(p in STOPWORDS and len(p) <= 3 for p in inner)
    )


def _masked(text: str, spans: list[Term]) -> str:
    """``text`` with the identifiers blanked out (same length), so noun phrases never cut into one."""
    chars = list(text)
    for term in spans:
        end = term.start + len(term.text)
        if term.kind == "code":
            end = text.find("`", term.start + 1 + len(term.text)) + 1 or end
        for i in range(term.start, min(end, len(chars))):
            chars[i] = "|"
    return "".join(chars)


def _bare(word: str) -> str:
    """A word lower-cased without a contraction's tail (``that's`` → ``that``)."""
    return re.sub(r"['’](?:s|re|ve|ll|d|t|m)$", "", word.lower())


def _nounish(word: str) -> bool:
    lower = _bare(word)
    return not (
        lower in STOPWORDS or lower in _DETERMINERS or lower in _FUNCTION_WORDS or lower.endswith("ly")
        or lower in VERBS or len(lower) < 3 or lower.endswith(("ed", "ing", "n't", "n’t"))
        or lower.replace("-", "").isdigit()
    )  # fmt: skip


def _verb_form(word: str, following: str | None, previous: str = "") -> bool:
    """A third-person verb (``provides``, ``Warsaw lies on``) rather than a plural noun (``installs for``).

    A verb stem after a name, or before anything but a preposition or conjunction, is that verb.
    """
    lower = word.lower()
    if not lower.endswith("s") or following is None:
        return False
    if previous[:1].isupper() and _bare(previous) not in _POSSESSORS:
        stems = (lower[:-1], lower[:-2], lower[:-3] + "y") if lower.endswith("es") else (lower[:-1],)
        if any(s in VERBS for s in stems):
            return True
    stems = (lower[:-1], lower[:-2], lower[:-3] + "y") if lower.endswith("es") else (lower[:-1],)
    return any(s in VERBS for s in stems) and _bare(following) not in _NOUN_FOLLOWERS


def noun_phrases(text: str) -> list[Term]:
    """Key noun phrases of ``text`` (identifiers masked), in reading order (see the module docstring)."""
    masked = _masked(text, identifiers(text))
    found: list[Term] = []
    run: list[re.Match[str]] = []

    gerunds: set[int] = set()  # starts of ``-ing`` words read as nouns (``pip's caching``, ``the caching``)

    def noun(match: re.Match[str]) -> bool:
        return _nounish(match.group(0)) or match.start() in gerunds

    def close() -> None:
        words = list(run)
        while words and (not noun(words[-1]) and (len(words) == 1 or _bare(words[-1].group(0)) not in VERBS)):
            words.pop()  # a phrase ends on a noun (or a verb used as one after a noun: *editable install*)
        words = words[-MAX_PHRASE_WORDS:]
        while words and (words[0].group(0).lower() in VERBS or words[0].group(0).lower() in _DETERMINERS):
            words.pop(0)
        single = len(words) == 1 and words[0].group(0).lower() in _ADJECTIVES
        if words and not single and (len(words) > 1 or noun(words[0])):
            last = words[-1].group(0).lower()
            if not last.endswith(_ADJECTIVE_ENDINGS):
                phrase = text[words[0].start() : words[-1].end()]
                found.append(Term(re.sub(r"['’]s$", "", phrase), "phrase", words[0].start()))
        run.clear()

    previous_end = 0
    matches = list(_WORD.finditer(masked))
    for n, match in enumerate(matches):
        gap = masked[previous_end : match.start()]
        word = match.group(0)
        lower = word.lower()
        following = matches[n + 1].group(0) if n + 1 < len(matches) else None
        breaks = bool(run) and (gap.strip() != "" or run[-1].group(0).endswith(("'s", "’s")))
        if breaks:
            close()
        before = matches[n - 1].group(0) if n else ""
        participle = (
            lower.endswith(("ed", "ing")) and lower not in VERBS and following is not None
            and following[:1].islower() and _nounish(following)
            and (not before or _bare(before) in _POSSESSORS or before.endswith(("'s", "’s")) or before.islower())
            and not (before[:1].isupper() and n > 0)
        )  # fmt: skip
        joins_as_noun = bool(run) and lower in VERBS and lower not in _AUXILIARIES and not lower.endswith("s")
        if (
            lower.endswith("ing")
            and (before.endswith(("'s", "’s")) or _bare(before) in _POSSESSORS)
            and (following is None or _bare(following) in _NOUN_FOLLOWERS)
        ):
            gerunds.add(match.start())
        if (noun(match) and not _verb_form(word, following, before)) or joins_as_noun or participle:
            run.append(match)
        else:
            close()
        previous_end = match.end()
    close()
    return found


def terms(text: str) -> list[Term]:
    """Identifiers, names and noun phrases of ``text``, each once, in reading order.

    A name is a run of capitalised words (``Marie Curie``) that is not merely the capitalised first
    word of the sentence; a noun phrase inside a name or an identifier is not repeated.
    """
    found = identifiers(text)
    masked = _masked(text, found)
    first_word = re.match(r"\W*(\w+)", masked)
    for name in names(masked):
        position = masked.find(name)
        label = masked[position + len(name) : position + len(name) + 1] == ":"  # ``Linux: ~/.cache/pip``
        if position < 0 or (
            len(name.split()) == 1 and first_word is not None and first_word.start(1) == position and not label
        ):
            continue
        found.append(Term(name, "name", position))
    for phrase in noun_phrases(text):
        inside = [
            t for t in found
            if t.start <= phrase.start < t.start + len(t.text) or f" {phrase.key} " in f" {t.key} "
        ]  # fmt: skip
        if not inside:
            found.append(phrase)
        elif all(t.kind == "name" and " " not in t.text and len(phrase.text) > len(t.text) for t in inside):
            found = [t for t in found if t not in inside] + [phrase]  # *HTTP request* over *HTTP*
    seen: set[str] = set()
    out: list[Term] = []
    for term in sorted(found, key=lambda t: t.start):
        if term.key not in seen:
            seen.add(term.key)
            out.append(term)
    return out


def key_terms(text: str) -> set[str]:
    """What a sentence is compared by: its identifiers (folded), and the stems of the content words outside them.

    An identifier counts once: ``hash-checking`` is one term, not also *hash* and *checking*.
    """
    found = identifiers(text)
    rest = _masked(text, found)
    ids = {fold(t.text) for t in found}
    ids |= {i.split("=", 1)[0] for i in ids if "=" in i.strip("=")}  # ``--timeout=60`` is also ``--timeout``
    return ids | {stem(w) for w in content_words(rest) if len(w) > 2}
