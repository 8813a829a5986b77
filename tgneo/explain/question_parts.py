"""Question parts: a question that asks two things, answered part by part, and what each part was answered from
(tgneo's own).

"Which signal does `-k graceful` send, and which does `-k graceful-stop` send?" is two questions: grounded as one,
its concepts crowd each other out, and retrieval finds what the better-covered part needs (issue 48: the second
page of a two-page question was not retrieved in three cases of four). The engines split such a question
(:func:`tgneo.nlp.answer_type.parts`), ground, retrieve and select for each part on its own, and answer it whole.
TrustGraph's Grounding has a flat list of concepts and no word for parts, so tgneo records them beside it:

* one ``tgneo:QuestionPart`` per part (a ``prov:Entity``), attached to the Grounding (``tgneo:questionPart``), with
  its text (``prov:value``), its position (``tgneo:partIndex``) and the concepts grounded for it (``tg:concept``);
* ``tgneo:forPart`` from each retrieval hit (a chunk Document RAG found, a seed entity GraphRAG found) and each
  edge or chunk selection to the part(s) it was found or selected for, written by a :class:`PartItems` attached to
  the Exploration or the Focus.

Like answer sentences and retrieval hits they are written in their step's transaction but never streamed in its
triples, and only the ``prov`` profile exports them: the ``trustgraph`` profile stays exactly TrustGraph's triples.
A question of one part has none of them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tgneo.explain.entity import Entity, Quads, valid_text
from tgneo.rdf.terms import Quad
from tgneo.vocab import PROV, TG, TGNEO

__all__ = ["PartItems", "QuestionPart", "part_items", "question_part_uri"]


def question_part_uri(grounding: str, index: int) -> str:
    """``{grounding}/part/{index}``: the ``index``-th (1-based) part of the question the Grounding ``grounding``
    grounded."""
    return f"{grounding}/part/{index}"


@dataclass(frozen=True, kw_only=True)
class QuestionPart(Entity):
    """One part of a question and the concepts grounded for it.

    Attributes:
        grounding: The Grounding that grounded it.
        index: Its 1-based position in the question.
        text: The part, as a question of its own.
        concepts: The concepts grounded for it (``tg:concept`` each), in order.
    """

    kind = "question_part"

    grounding: str
    index: int
    text: str
    concepts: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        super().__post_init__()
        self._iri("grounding")
        self._count("index")
        self._set("text", valid_text(self.text, self._what("text")))
        self._texts("concepts")

    def triples(self) -> list[Quad]:
        out = Quads(self.graph)
        out.about(self.grounding).link(TGNEO.questionPart, self.uri)
        me = out.about(self.uri)
        me.a(PROV.Entity, TGNEO.QuestionPart)
        me.text(PROV.value, self.text)
        me.text(TGNEO.partIndex, self.index)
        for concept in self.concepts:
            me.text(TG.concept, concept)
        return out.quads


@dataclass(frozen=True, kw_only=True)
class PartItems(Entity):
    """What one step found or selected for one part: ``item tgneo:forPart part`` for each item.

    Its URI is the part's (:class:`QuestionPart`, recorded with the Grounding before); it adds no node, only the
    links from the step's own retrieval hits or selections, written in the step's transaction.

    Attributes:
        items: The IRIs of the retrieval hits, edge selections or chunk selections found or selected for the part.
    """

    kind = "part_items"

    items: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        super().__post_init__()
        self._iris("items")

    def triples(self) -> list[Quad]:
        out = Quads(self.graph)
        for item in self.items:
            out.about(item).link(TGNEO.forPart, self.uri)
        return out.quads


def part_items(served: Mapping[str, Sequence[int]], parts: Sequence[str]) -> list[PartItems]:
    """One :class:`PartItems` per part of ``parts`` (their IRIs, in order) that ``served`` names: ``served`` maps an
    item's IRI to the 0-based positions of the parts it was found or selected for."""
    by_part: dict[int, list[str]] = {}
    for item, positions in served.items():
        for i in positions:
            by_part.setdefault(i, []).append(item)
    return [PartItems(uri=parts[i], items=tuple(items)) for i, items in sorted(by_part.items())]
