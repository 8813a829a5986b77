"""Words of English prose, model-free: folding, light stems, content words and capitalised names (pure).

Shared by everything that compares text without a model: the offline provider's answers and
embeddings, the term extractor (:mod:`tgneo.nlp.phrases`), alignment of answer sentences to evidence.
"""

from __future__ import annotations

import re
import unicodedata

_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?", re.UNICODE)

STOPWORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before being below
    between both but by can could did do does doing down during each few for from further had has have
    having he her here hers herself him himself his how i if in into is it its itself just me more most
    my myself no nor not now of off on once only or other our ours ourselves out over own same she should
    so some such than that the their theirs them themselves then there these they this those through to
    too under until up very was we were what when where which while who whom why will with would you your
    yours yourself yourselves also did tell show give find list name known many much one ever compare
    compared summarise summarize describe explain contrast please""".split()
)
"""Words that carry no concept: function words and the verbs questions are phrased with."""


def fold(text: str) -> str:
    """Lower case without accents: ``"Skłodowska"`` → ``"skłodowska"``, ``"Pierre Curie"`` → ``"pierre curie"``."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def words(text: str) -> list[str]:
    """The words of ``text`` folded (``fold``), possessives kept whole (``curie's``)."""
    return [fold(w) for w in _WORD.findall(text)]


_SHORT_IE = re.compile(r"^([a-z])(?:ie[sd]|ying)$")
"""``died``, ``dies``, ``dying`` (and ``lie``, ``tie``): one letter before ``ie``, whose stem keeps the ``ie``
(as Snowball's English stemmer does), so that "Where did she die?" meets "She died in Passy"."""


def stem(word: str) -> str:
    """A light English stem so that ``discovered``/``discovery``/``discoveries`` meet (``discover``), and
    ``die``/``died``/``dying`` (``die``)."""
    w = fold(word)
    short = _SHORT_IE.match(w)
    if short:
        return short.group(1) + "ie"
    for suffix, keep in (("'s", ""), ("’s", ""), ("ies", "y"), ("ied", "y"), ("ing", ""), ("ed", ""), ("es", ""),
                         ("s", ""), ("y", "")):  # fmt: skip
        if w.endswith(suffix) and len(w) - len(suffix) >= 4:
            return w[: len(w) - len(suffix)] + keep
    return w


def content_words(text: str) -> list[str]:
    """The words of ``text`` that are not stopwords, in order."""
    return [w for w in words(text) if w not in STOPWORDS and not w.isdigit() or (w.isdigit() and len(w) == 4)]


_NAME_WORD = re.compile(r"[A-ZÀ-ÖØ-Þ][\w’'\-]*")
_CONNECTORS = frozenset({"of", "de", "von", "van", "der", "la", "le", "du", "and"})


def names(text: str) -> list[str]:
    """Runs of capitalised words (``Marie Curie``, ``University of Paris``): the names a text mentions.

    A capitalised stopword (``What``, ``The``) starts no name; lower-case connectors (``of``, ``von``)
    may join two capitalised words, ``and`` only when more capitals follow directly (so ``Pierre and
    Marie Curie`` stays one name only if written that way). Possessives are dropped (``Curie's`` →
    ``Curie``).
    """
    found: list[str] = []
    current: list[str] = []
    pending: list[str] = []
    for raw in re.findall(r"[\w’'\-]+|[^\w\s]", text):
        word = re.sub(r"['’]s$", "", raw)
        if _NAME_WORD.fullmatch(word) and (current or fold(word) not in STOPWORDS):
            current += pending + [word]
            pending = []
        elif current and raw in _CONNECTORS and raw != "and":
            pending.append(raw)
        else:
            if current:
                found.append(" ".join(current))
            current, pending = [], []
        if raw != word and current:  # a possessive ends the name
            found.append(" ".join(current))
            current, pending = [], []
    if current:
        found.append(" ".join(current))
    return list(dict.fromkeys(found))


NAME_PARTICLES = frozenset("of de du des la le von van der den da di del".split())
INSTITUTION_HEADS = frozenset(
    """prize award medal institute society academy school college museum centre center foundation council
    committee laboratory department faculty university conservatory church cathedral company""".split()
)
"""Head words of the names of institutions and prizes (``Nobel Prize``, ``Radium Institute``)."""


def is_person_like(name: str) -> bool:
    """Whether a name may be a person's: two to four capitalised words, none the head of an institution.

    The extractor lets ``he``/``she`` and a lone surname stand only for such names, so that
    ``she`` never means ``Nobel Prize in Physics`` and ``Warsaw`` never means ``University of Warsaw``.
    """
    words = name.split()
    return 2 <= len(words) <= 4 and all(
        w[:1].isupper() and w.lower().removesuffix("s") not in INSTITUTION_HEADS and w.lower() not in NAME_PARTICLES
        for w in words
    )
