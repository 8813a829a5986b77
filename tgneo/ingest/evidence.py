"""Each extracted fact's evidence: the sentence of its chunk that states it, with its span.

The offline extractor names each fact's sentence; a model asked with the extraction prompt does not.
Either way the sentence is looked up among the chunk's units (:func:`tgneo.nlp.segment.units`): the
unit whose text is the evidence given, else the unit holding most of the fact's words (at least half
of them, and a word of its subject or object) — so that a model's facts get evidence too, and a fact
no sentence supports gets none rather than a wrong one.
"""

from __future__ import annotations

from collections.abc import Sequence

from tgneo.ingest.facts import Fact
from tgneo.nlp.segment import Unit, units
from tgneo.nlp.words import content_words, stem

__all__ = ["locate"]


def _stems(text: str) -> set[str]:
    return {stem(w) for w in content_words(text)}


def locate(text: str, facts: Sequence[Fact]) -> list[tuple[Fact, Unit | None]]:
    """Each fact of the chunk ``text`` with the unit that is its evidence (``None``: no sentence supports it)."""
    found = [u for u in units(text) if u.kind != "heading"]
    by_text = {u.text: u for u in found}
    stems = [_stems(u.text) for u in found]
    out: list[tuple[Fact, Unit | None]] = []
    for fact in facts:
        unit = by_text.get(fact.evidence or "")
        if unit is None:
            unit = _best(fact, found, stems)
        out.append((fact, unit))
    return out


def _best(fact: Fact, found: Sequence[Unit], stems: Sequence[set[str]]) -> Unit | None:
    wanted = _stems(f"{fact.s} {fact.p} {fact.o}")
    ends = _stems(f"{fact.s} {fact.o}")
    if not wanted:
        return None
    best: tuple[float, int] | None = None
    for i, have in enumerate(stems):
        share = len(wanted & have) / len(wanted)
        if share >= 0.5 and ends & have and (best is None or share > best[0]):
            best = (share, i)
    return found[best[1]] if best is not None else None
