"""Which sentences answer a question, and which sentences support an answer's: lexical, model-free (pure).

Both compare :func:`~tgneo.nlp.phrases.key_terms` — identifiers folded whole and content-word stems:

* :func:`rank` scores candidate sentences for a question: the question's key terms each sentence
  holds, each weighted by its rarity among the candidates (``log(1 + n / df)``, so a term every
  candidate shares — the name the passage is about — tells them apart less than the one the question
  asks about), as a share of the question's total weight, with a mild preference for shorter sentences
  and — when the question asks *which*, *what*, *where* or *who* — for a sentence that names an
  identifier the question does not (the kind of thing such a question wants back);
* :func:`support` says how much of an answer sentence a cited sentence holds: the share of the answer
  sentence's key terms found in it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from tgneo.nlp.phrases import identifiers, key_terms
from tgneo.nlp.words import fold

__all__ = ["rank", "support"]

NEW_TERM_BONUS = 0.15
"""Added to a relevant sentence's score when it names an identifier a which/what/where/who question lacks."""
_ASKS_FOR_A_TERM = re.compile(r"^\W*(which|what|where|who|whose)\b", re.IGNORECASE)


def rank(question: str, candidates: Sequence[str], *, extra: Sequence[str] = ()) -> list[float]:
    """A relevance score in ``[0, 1]`` for each candidate sentence (0 when it shares no key term).

    Args:
        question: what is asked.
        candidates: the sentences to score.
        extra: more text that says what is asked about (the concepts a grounding named), weighed as the question.
    """
    wanted = key_terms(" ".join([question, *extra]))
    if not wanted or not candidates:
        return [0.0] * len(candidates)
    held = [key_terms(c) & wanted for c in candidates]
    df: dict[str, int] = {}
    for terms in held:
        for term in terms:
            df[term] = df.get(term, 0) + 1
    weight = {t: math.log(1 + len(candidates) / df.get(t, 1)) for t in wanted}
    total = sum(weight.values()) or 1.0
    asked = {fold(t.text) for t in identifiers(question)} if _ASKS_FOR_A_TERM.match(question) else None
    scores = []
    for candidate, terms in zip(candidates, held, strict=True):
        if not terms:
            scores.append(0.0)
            continue
        share = sum(weight[t] for t in terms) / total / (1 + 0.002 * max(0, len(candidate) - 120))
        if asked is not None and any(fold(t.text) not in asked for t in identifiers(candidate)):
            share += NEW_TERM_BONUS
        scores.append(min(1.0, share))
    return scores


def support(cited: str, answer_sentence: str) -> float:
    """The share of ``answer_sentence``'s key terms that ``cited`` holds (1.0 when it has none to hold)."""
    wanted = key_terms(answer_sentence)
    if not wanted:
        return 1.0
    return len(wanted & key_terms(cited)) / len(wanted)
