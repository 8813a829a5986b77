"""Sentence-level attribution: which selected evidence supports each sentence of an answer.

Whoever wrote the answer — the offline provider quoting evidence sentences, or a model paraphrasing
them — each of its sentences (:func:`tgneo.nlp.segment.units`) is aligned to the evidence the
question selected: the evidence sentences of the selected edges (GraphRAG), the sentences of the
selected chunks (Document RAG), or everything the agent's sub-traces selected. A pair's score is
``0.6 × lexical + 0.4 × semantic``: the share of the answer sentence's key terms the evidence holds
(:func:`tgneo.nlp.align.support`) and the cosine of their embeddings (the LLM's own embedder, one call
per answer). Evidence scoring at least :data:`SUPPORTED` is cited, best first, at most
:data:`MAX_CITED`; a sentence nothing supports is kept and marked unsupported, never hidden.

The result is recorded (:class:`~tgneo.explain.citations.AnswerSentence` entities attached to the
answer step) and streamed (``citations`` on the final message).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence

from tgneo.explain.citations import AnswerSentence, answer_sentence_uri
from tgneo.explain.events import Citation, Evidence, Source
from tgneo.llm.base import LLM, LLMError
from tgneo.nlp.align import support
from tgneo.nlp.segment import units

__all__ = ["LEXICAL_WEIGHT", "MAX_CITED", "SUPPORTED", "attribute", "cited_sources"]

log = logging.getLogger("tgneo.engines")

SUPPORTED = 0.5
"""The least score at which a piece of evidence supports an answer sentence."""
LEXICAL_WEIGHT = 0.6
"""How much of a pair's score is key-term overlap; the rest is embedding similarity."""
MAX_CITED = 3
CITE_SHARE = 0.85
"""Beside the best-supporting evidence, only evidence scoring at least this share of its score is cited too: with
an embedder that knows meaning, a sentence merely about the same thing scores near :data:`SUPPORTED`, and citing
it beside the sentence the answer quotes would dilute the citation."""
"""The most pieces of evidence cited for one answer sentence."""


def _cosine(a: Sequence[float], b: Sequence[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return dot / norm if norm else 0.0


def attribute(
    answer: str, candidates: Sequence[Evidence], llm: LLM, step: str
) -> tuple[tuple[Citation, ...], list[AnswerSentence]]:
    """The citations of ``answer`` (one per sentence) and the entities recording them under ``step``.

    Args:
        answer: the answer text, as streamed.
        candidates: the evidence the answer may rest on (their ``score`` is ignored).
        llm: whose embedder gives the semantic half of the score; when it fails, the lexical half alone
            decides (the failure is logged: attribution never fails an answer).
        step: the URI of the answer step (Synthesis, Conclusion) the sentences belong to.
    """
    sentences = [u.text for u in units(answer) if u.kind != "heading"]
    if not sentences:
        return (), []
    texts = list(dict.fromkeys(c.text for c in candidates))
    vectors: dict[str, Sequence[float]] = {}
    if texts:
        try:
            embedded = llm.embed([*sentences, *texts]).vectors
            vectors = dict(zip([*sentences, *texts], embedded, strict=True))
        except LLMError as e:
            log.warning("attribution without embeddings (%s); key terms alone decide", e)
    citations: list[Citation] = []
    entities: list[AnswerSentence] = []
    for index, sentence in enumerate(sentences, start=1):
        scored: dict[str, Evidence] = {}
        for candidate in candidates:
            score = LEXICAL_WEIGHT * support(candidate.text, sentence)
            if vectors:
                score += (1 - LEXICAL_WEIGHT) * max(0.0, _cosine(vectors[sentence], vectors[candidate.text]))
            else:
                score /= LEXICAL_WEIGHT
            if score >= SUPPORTED and (candidate.text not in scored or scored[candidate.text].score < score):
                scored[candidate.text] = Evidence(  # one citation per sentence, however many selections brought it
                    candidate.uri, candidate.text, round(min(1.0, score), 4), candidate.chunk, candidate.section,
                    candidate.document, candidate.title,
                )  # fmt: skip
        ranked = sorted(scored.values(), key=lambda e: (-e.score, e.uri, e.text))
        cited = [e for e in ranked if e.score >= CITE_SHARE * ranked[0].score][:MAX_CITED] if ranked else []
        uri = answer_sentence_uri(step, index)
        citations.append(Citation(index, sentence, tuple(cited), uri))
        entities.append(
            AnswerSentence(
                uri=uri,
                answer=step,
                index=index,
                text=sentence,
                evidence=tuple(dict.fromkeys(e.uri for e in cited)),
                support=cited[0].score if cited else None,
            )  # fmt: skip
        )
    return tuple(citations), entities


def cited_sources(citations: Sequence[Citation]) -> tuple[Source, ...]:
    """The documents the cited evidence was read in, each once, in the order the answer cites them.

    These are the documents the answer rests on; an answer that cites nothing falls back, in the
    engines, to the documents of everything it selected.
    """
    found: dict[str, Source] = {}
    for citation in citations:
        for evidence in citation.evidence:
            if evidence.document is not None:
                found.setdefault(evidence.document, Source(evidence.document, evidence.title))
    return tuple(found.values())
