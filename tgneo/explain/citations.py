"""Answer sentences: which selected edges or chunks support each sentence of an answer (tgneo's own).

No anchor — TrustGraph, Langfuse, Phoenix — records why *each sentence* of an answer holds; tgneo does,
as PROV: every sentence of a Synthesis or Conclusion is a ``prov:Entity`` typed
``tgneo:AnswerSentence`` with its text (``prov:value``), its position (``tgneo:sentenceIndex``), how
well its best evidence supports it (``tgneo:support``) and one ``prov:wasDerivedFrom`` per supporting
``EdgeSelection`` or ``ChunkSelection`` (whose own chains lead on to the chunk, page and document); the
answer step points at each with ``tgneo:sentence``. A sentence nothing supports has no derivation: it
is marked by its absence, not hidden.

They are written in the answer step's transaction (:meth:`ExplainEvent.of
<tgneo.explain.events.ExplainEvent.of>` ``attached``) but never streamed in its triples, and only the
``prov`` profile exports them: the ``trustgraph`` profile stays exactly TrustGraph's triples.
"""

from __future__ import annotations

from dataclasses import dataclass

from tgneo.explain.entity import Entity, Quads, valid_score, valid_text
from tgneo.rdf.terms import Quad
from tgneo.vocab import PROV, TGNEO

__all__ = ["AnswerSentence", "answer_sentence_uri"]


def answer_sentence_uri(answer: str, index: int) -> str:
    """``{answer}/sentence/{index}``: the ``index``-th (1-based) sentence of the answer step ``answer``."""
    return f"{answer}/sentence/{index}"


@dataclass(frozen=True, kw_only=True)
class AnswerSentence(Entity):
    """One sentence of an answer and the selections supporting it.

    Attributes:
        answer: The Synthesis (or Conclusion, or agent Synthesis) whose answer it is part of.
        index: Its 1-based position in the answer.
        text: The sentence.
        evidence: The URIs of the EdgeSelections or ChunkSelections supporting it, best first.
        support: How well the best of them supports it (0..1); ``None`` when none does.
    """

    kind = "answer_sentence"
    derives_from = ("evidence",)

    answer: str
    index: int
    text: str
    evidence: tuple[str, ...] = ()
    support: float | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        self._iri("answer")
        self._count("index")
        self._set("text", valid_text(self.text, self._what("text")))
        self._iris("evidence")
        self._set("support", valid_score(self.support, self._what("support")))

    def triples(self) -> list[Quad]:
        out = Quads(self.graph)
        out.about(self.answer).link(TGNEO.sentence, self.uri)
        me = out.about(self.uri)
        me.a(PROV.Entity, TGNEO.AnswerSentence)
        me.text(PROV.value, self.text)
        me.text(TGNEO.sentenceIndex, self.index)
        if self.support is not None:
            me.text(TGNEO.support, self.support)
        self._derived_from(me)
        return out.quads
