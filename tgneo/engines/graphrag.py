"""GraphRAG in TrustGraph's four stages, each recorded before it is announced.

1. **Grounding** — the LLM names the question's concepts (``grounding`` stage).
2. **Exploration** — each concept finds entities through the full-text index on entity names and the
   vector index on their embeddings (one round trip for all concepts), the two lists fused by reciprocal rank
   (:func:`tgneo.store.kg.fuse_seeds`; one ``tgneo:RetrievalHit`` per seed entity records which index found
   it at which rank, :mod:`tgneo.explain.retrieval`), then the neighbourhood of those
   entities is expanded hop by hop (one round trip per hop, ``max_path_length`` hops), within
   ``entity_limit``, ``triple_limit`` (statements per entity) and ``max_subgraph_size`` — knowledge
   graph only: statements asserted in the default graph, never provenance or explain nodes.
3. **Focus** — the LLM scores every explored edge (``edge-scoring``), the best ``edge_score_limit``
   are kept, the best ``edge_limit`` of those get a reason each (``edge-reasoning``). The LLM sees
   labels (``Marie Curie, discovered, Polonium``) under short ids; the selection keeps the stored terms
   (the same ``edge_id`` extraction provenance uses), so every selected edge leads to its chunk, page and
   document.
4. **Synthesis** — the answer streams from the selected edges: their facts and, where extraction
   recorded it, their evidence sentences (the offline provider quotes those); its text goes to the
   librarian (``tg:document``) and the Synthesis step is recorded after the answer, as TrustGraph does.

A question that asks two things (:func:`tgneo.nlp.answer_type.parts`: *What are the defaults of X and Y?*,
*Which … , and which …?*) goes through the first three stages once per part: each part is grounded on its own
(:func:`ground_parts`), finds its own seeds and neighbourhood and has its own edges scored and selected, each
within its :func:`share` of the limits, and the parts' findings are taken in turns (:func:`interleave`), so that
neither part's edges crowd out the other's. Synthesis answers the whole question from them. The trace says which
part each concept, seed entity and selected edge served (:mod:`tgneo.explain.question_parts`).

Parameters and defaults are TrustGraph's (``tg-invoke-graph-rag``): ``entity_limit`` 50,
``triple_limit`` 30, ``max_subgraph_size`` 1000 (the CLI sends 150), ``max_path_length`` 2,
``edge_score_limit`` 30, ``edge_limit`` 25.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from tgneo import uris
from tgneo.engines.attribution import attribute
from tgneo.engines.base import Engine, Outcome, Session
from tgneo.engines.verify import Answering, Item
from tgneo.explain.events import AnswerChunk, Citation, Event, Evidence, Source
from tgneo.explain.graphrag import EdgeSelection, Exploration, Focus, GraphRagQuestion, Grounding, Synthesis
from tgneo.explain.question_parts import PartItems, QuestionPart, part_items, question_part_uri
from tgneo.explain.retrieval import retrieval_hits
from tgneo.kinds import SessionKind
from tgneo.llm.base import Completion, LLMError, Task
from tgneo.llm.parsing import json_objects
from tgneo.nlp.anaphora import in_context
from tgneo.nlp.answer_type import parts
from tgneo.store import kg


class GraphRag(Engine):
    """GraphRAG over the knowledge graph of one workspace and collection."""

    kind = SessionKind.GRAPH_RAG
    reads = "entities"
    defaults = {
        "entity_limit": 50,
        "triple_limit": 30,
        "max_subgraph_size": 1000,
        "max_path_length": 2,
        "edge_score_limit": 30,
        "edge_limit": 25,
    }

    def root_uri(self, session: Session) -> str:
        return uris.question_uri(session.id)

    def run(self, session: Session, options: Mapping[str, int]) -> Generator[Event, None, Outcome]:
        ctx, sid = session.ctx, session.id
        question = GraphRagQuestion(uri=uris.question_uri(sid), query=session.question, parent=session.parent)
        yield session.record(question)

        grounded = ground_parts(session, uris.grounding_uri(sid), question.uri)
        grounding, concepts = grounded.step, grounded.concepts
        yield session.record(grounding, attached=grounded.entities)

        n = len(grounded.parts)
        vectors = dict(zip(concepts, ctx.llm.embed(concepts).vectors, strict=True)) if concepts else {}
        explored: list[tuple[list[kg.Seed], list[kg.Edge]]] = []
        for own in grounded.concepts_of:  # each part its own seeds and neighbourhood, within its share of the limits
            limit = share(options["entity_limit"], n)
            seeds = ctx.graph.seed_entities(
                own, [vectors[c] for c in own] if vectors else None, max(1, limit // max(1, len(own))), limit
            )
            words = sorted({w for c in own for w in re.findall(r"\w{3,}", c.lower())})
            edges = ctx.graph.explore(
                [s.uri for s in seeds],
                options["max_path_length"],
                options["triple_limit"],
                share(options["max_subgraph_size"], n),
                words,
            )
            explored.append((seeds, edges))
        seeds_for = interleave([seeds for seeds, _ in explored], lambda s: s.uri)
        edges_for = interleave([edges for _, edges in explored], lambda e: e.id)
        seeds, edges = [s for s, _ in seeds_for], [e for e, _ in edges_for]
        exploration = Exploration(
            uri=uris.exploration_uri(sid),
            grounding=grounding.uri,
            edge_count=len(edges),
            entities=tuple(s.uri for s in seeds),
        )
        hits = retrieval_hits(exploration.uri, seeds)
        served = {hit.uri: among for hit, (_, among) in zip(hits, seeds_for, strict=True)}
        yield session.record(exploration, attached=[*hits, *grounded.items(served)])

        picked: list[list[tuple[EdgeSelection, kg.Edge]]] = []
        focus_calls: list[Completion] = []
        for piece, own, (_, part_edges) in zip(grounded.parts, grounded.concepts_of, explored, strict=True):
            limits = {**options, **{k: share(options[k], n) for k in ("edge_score_limit", "edge_limit")}}
            chosen, part_calls = focus(session, own, part_edges, limits, piece if n > 1 else None)
            picked.append(chosen)
            focus_calls.extend(part_calls)
        selected = interleave(picked, lambda pair: pair[1].id)[: options["edge_limit"]]
        selections = [pair for pair, _ in selected]
        focus_step = Focus(
            uri=uris.focus_uri(sid),
            exploration=exploration.uri,
            session_id=sid,
            edges=tuple(sel for sel, _ in selections),
            **usage(*focus_calls),
        )
        chosen_for = {uri: among for uri, (_, among) in zip(focus_step.selection_uris, selected, strict=True)}
        yield session.record(focus_step, attached=grounded.items(chosen_for))

        document = uris.graphrag_answer_uri(sid)
        if selections:
            facts = [edge.fact for _, edge in selections]
            said: dict[str, str] = {}  # each sentence once, naming the subject it leans on (``She (Marie Curie) …``)
            for _, edge in selections:
                if edge.evidence and edge.evidence not in said:
                    said[edge.evidence] = in_context(edge.evidence, (edge.s_label, edge.o_label))
            sentences = list(said.values())
            task = Task("synthesis", {"question": session.question, "facts": facts, "evidence": sentences})
            answer_call = yield from session.stream(task)
            text, calls = answer_call.text, [answer_call]
        else:
            text, calls = nothing_found(session, concepts, seeds=len(seeds)), []
            yield AnswerChunk(text, last=True)
        rows = [
            kg.EvidenceRow(uri, statement=edge.id, evidence=edge.evidence)
            for uri, (_, edge) in zip(focus_step.selection_uris, selections, strict=True)
        ]
        found = ctx.graph.answer_sources(rows)
        evidence: tuple[Evidence, ...] = tuple(
            placed(uri, edge.evidence or edge.fact, found.places.get(uri))
            for uri, (_, edge) in zip(focus_step.selection_uris, selections, strict=True)
        )
        synthesis = Synthesis(uri=uris.synthesis_uri(sid), focus=focus_step.uri, document=document, **usage(*calls))
        citations, attached = attribute(text, evidence, ctx.llm, synthesis.uri)
        yield session.record(synthesis, {document: text}, attached=attached)
        sources = tuple(Source(uri, title) for uri, title in found.documents)
        items = tuple(
            Item(uri, {"fact": edge.fact, "evidence": said.get(edge.evidence or "")}, edge.evidence or edge.fact)
            for uri, (_, edge) in zip(focus_step.selection_uris, selections, strict=True)
        ) if selections else ()  # fmt: skip
        answering = Answering(synthesis.uri, text, items, cited(citations), synthesis_task(session.question))
        return Outcome(text, synthesis.uri, sources, evidence, citations, answering)


def synthesis_task(question: str) -> Callable[[Sequence[Item]], Task]:
    """GraphRAG's answering stage on some of its selected edges: their facts, and each evidence sentence once."""

    def task(items: Sequence[Item]) -> Task:
        facts = [str(i.payload["fact"]) for i in items]
        sentences = list(dict.fromkeys(str(i.payload["evidence"]) for i in items if i.payload.get("evidence")))
        return Task("synthesis", {"question": question, "facts": facts, "evidence": sentences})

    return task


def cited(citations: Sequence[Citation]) -> tuple[tuple[str, ...], ...]:
    """For each answer sentence, the selections its citations came through."""
    return tuple(tuple(dict.fromkeys(e.uri for e in c.evidence)) for c in citations)


def placed(uri: str, text: str, place: kg.Place | None) -> Evidence:
    """A piece of evidence a selection ``uri`` brought, with where it was read (when known)."""
    if place is None:
        return Evidence(uri, text, 0.0)
    return Evidence(uri, text, 0.0, place.chunk, place.section, place.document, place.title)


def usage(*calls: Completion) -> dict[str, Any]:
    """The token fields of a step that made ``calls`` (none: no fields, the step called no LLM)."""
    if not calls:
        return {}
    return {
        "in_token": sum(c.in_tokens for c in calls),
        "out_token": sum(c.out_tokens for c in calls),
        "model": calls[-1].model,
    }


def ground(session: Session, uri: str, question: str) -> tuple[Grounding, list[str]]:
    """The Grounding step of ``session`` (``uri``, derived from ``question``) and its concepts.

    The concepts are the lines of the ``grounding`` answer (deduplicated, at most 12). When the answer
    names none (a question of only function words and symbols, or a model that said nothing), the
    question itself is the one concept: exploration then finds what it can, and the trace shows
    exactly what was looked up. Document RAG grounds the same way (TrustGraph has one builder for both).
    """
    call = session.complete(Task("grounding", {"question": session.question}))
    concepts = concepts_of(call.text, session.question)
    return Grounding(uri=uri, question=question, concepts=tuple(concepts), **usage(call)), concepts


@dataclass(frozen=True)
class Grounded:
    """A question grounded part by part (:func:`ground_parts`): the Grounding step, every concept once, the parts
    (the question itself when it asks one thing) with the concepts of each, and the parts as recorded."""

    step: Grounding
    concepts: list[str]
    parts: list[str]
    concepts_of: list[list[str]]
    entities: list[QuestionPart]
    """One per part, attached to the Grounding; none for a question of one part."""

    def items(self, served: Mapping[str, Sequence[int]]) -> list[PartItems]:
        """The links from what a step found or selected (``served``: an item's IRI → the positions of the parts it
        served) to those parts; none for a question of one part."""
        return part_items(served, [e.uri for e in self.entities]) if self.entities else []


def ground_parts(session: Session, uri: str, question: str) -> Grounded:
    """The Grounding step of ``session`` (``uri``, derived from ``question``), part by part.

    A question that asks two things (:func:`tgneo.nlp.answer_type.parts`) is grounded once per part, so that each
    part's concepts are its own and the engine can retrieve and select for each on its own (neither part crowds out
    the other: issue 48); the Grounding holds every concept once, with the calls' tokens summed, and a
    ``tgneo:QuestionPart`` per part says which concepts are whose. Any other question is grounded whole, as
    :func:`ground` does.
    """
    pieces = parts(session.question)
    if len(pieces) == 1:
        step, concepts = ground(session, uri, question)
        return Grounded(step, concepts, [session.question], [concepts], [])
    calls = [session.complete(Task("grounding", {"question": piece})) for piece in pieces]
    own = [concepts_of(call.text, piece) for call, piece in zip(calls, pieces, strict=True)]
    concepts = list(dict.fromkeys(c for cs in own for c in cs))
    step = Grounding(uri=uri, question=question, concepts=tuple(concepts), **usage(*calls))
    entities = [
        QuestionPart(uri=question_part_uri(uri, i), grounding=uri, index=i, text=piece, concepts=tuple(cs))
        for i, (piece, cs) in enumerate(zip(pieces, own, strict=True), start=1)
    ]
    return Grounded(step, concepts, pieces, own, entities)


T = TypeVar("T")


def interleave(lists: Sequence[Sequence[T]], key: Callable[[T], str]) -> list[tuple[T, list[int]]]:
    """The items of ``lists`` (each best first) taken in turns — every list's first, then every list's second … —
    each once (by ``key``), with the positions of all the lists it is in: what the parts of a question found, merged
    so that a cut keeps the best of each part."""
    merged: dict[str, tuple[T, list[int]]] = {}
    for rank in range(max((len(items) for items in lists), default=0)):
        for i, items in enumerate(lists):
            if rank < len(items):
                item = items[rank]
                merged.setdefault(key(item), (item, []))[1].append(i)
    return list(merged.values())


def share(limit: int, among: int) -> int:
    """One part's share of a limit, when ``among`` parts share it (rounded up): a question of two parts explores and
    selects for each within half of what a question of one part does, so that it reads, scores and selects about as
    many entities and edges as a question of one part (its seed and exploration round trips, one set per part)."""
    return max(1, -(-limit // among))


def concepts_of(grounding: str, question: str) -> list[str]:
    """The concepts a ``grounding`` answer names for ``question``: its lines, bullets and quotes stripped,
    deduplicated, at most 12 (the question itself when it names none)."""
    concepts: list[str] = []
    for line in grounding.splitlines():
        concept = line.strip().strip("-*•").strip().strip("\"'").strip()
        if concept and concept.lower() not in (c.lower() for c in concepts) and len(concept) <= 200:
            concepts.append(concept)
    return concepts[:12] or [question.strip()[:200]]


def nothing_found(session: Session, concepts: list[str], seeds: int) -> str:
    """The answer when the knowledge graph has nothing for the question: say so, and what was searched."""
    ctx = session.ctx
    where = f"workspace {ctx.workspace!r}, collection {ctx.collection!r}"
    searched = ", ".join(f"'{c}'" for c in concepts)
    if seeds == 0:
        return f"No knowledge-graph entity in {where} matches what was searched for: {searched}."
    return f"The knowledge-graph entities found in {where} for {searched} have no edges that answer this question."


PER_EVIDENCE = 2
"""Edges of one evidence sentence selected at the most: a sentence naming eight terms is 28 co-occurrence edges,
and letting them all in would crowd out every other sentence. Two keep a sentence's pair of facts, the hop a
question may ask across (*Polonium was named after Poland, the native country of Marie Curie.*): the best
:data:`PAIRED` sentences give their two at once; the others give one each before any gives a second
(:func:`_diverse`). Measured on the quality bench (context recall, paraphrases in brackets): three a sentence,
capped after the ``edge_score_limit`` cut, SQLite 0.71 (0.32); two, capped before it, 0.79 (0.52), pip 0.93;
one, 0.81 (0.56), pip 0.95, but the demo's question lost its second hop (``docs/answer-quality.md``)."""
PAIRED = 3
"""How many of the best sentences keep both facts from the start: as many as the offline answer quotes at most
(:data:`tgneo.llm.offline.answers.MAX_ANSWER_SENTENCES`)."""


def _diverse(ranked: list[str], by_id: Mapping[str, kg.Edge]) -> list[str]:
    """``ranked`` (best first) breadth first: the best :data:`PAIRED` sentences' two best edges and every other
    evidence sentence's best, in score order, then the other sentences' second best (edges without a sentence
    count as firsts)."""
    taken: dict[str, int] = {}
    place: dict[str, int] = {}  # each sentence's place among the sentences, by its best edge
    rounds: list[tuple[int, str]] = []
    for key in ranked:
        evidence = by_id[key].evidence
        turn = 0
        if evidence is not None:
            turn = taken.get(evidence, 0)
            taken[evidence] = turn + 1
            place.setdefault(evidence, len(place))
            if turn >= PER_EVIDENCE:
                continue
            if turn == 1 and place[evidence] < PAIRED:
                turn = 0
        rounds.append((turn, key))
    return [key for _, key in sorted(rounds, key=lambda pair: pair[0])]  # stable: score order within a round


def select(scores: Mapping[str, float], by_id: Mapping[str, kg.Edge], score_limit: int, limit: int) -> list[str]:
    """The edges to reason about, best score first: of the edges that scored above 0, the ``score_limit``
    first of a breadth-first pass over their sentences (:func:`_diverse`), then the ``limit`` best of those.

    A sentence past the best :data:`PAIRED` gives a second edge only when fewer than ``score_limit`` sentences
    scored: else a few sentences that each state many facts fill the cut and leave synthesis a handful of
    sentences.
    """
    positive = [k for k in sorted(scores, key=lambda k: (-scores[k], k)) if scores[k] > 0]
    cut = set(_diverse(positive, by_id)[:score_limit])
    return [k for k in positive if k in cut][:limit]


def _shown(key: str, edge: kg.Edge) -> dict[str, Any]:
    """How the LLM sees an edge: its id, its labels, and the sentence it was extracted from when known."""
    shown: dict[str, Any] = {
        "id": key, "text": edge.text, "subject": edge.s_label, "relation": edge.p_label, "object": edge.o_label,
    }  # fmt: skip
    if edge.evidence:
        shown["evidence"] = edge.evidence
    return shown


def focus(
    session: Session,
    concepts: list[str],
    edges: list[kg.Edge],
    options: Mapping[str, int],
    question: str | None = None,
) -> tuple[list[tuple[EdgeSelection, kg.Edge]], tuple[Completion, ...]]:
    """Score every edge, keep ``edge_score_limit``, reason about the best ``edge_limit``.

    Args:
        question: What the edges are scored and reasoned about for: one part of a two-part question, or
            (``None``) the session's whole question.

    Returns:
        The selections in score order, each with the edge it selects, and the LLM calls made.
    """
    if not edges:
        return [], ()
    asked = session.question if question is None else question
    by_id = {f"e{i + 1}": edge for i, edge in enumerate(edges)}
    scoring = session.complete(
        Task(
            "edge-scoring",
            {
                "question": asked,
                "concepts": concepts,
                "edges": [_shown(key, edge) for key, edge in by_id.items()],
            },
        )
    )
    scores: dict[str, float] = {}
    for item in json_objects(scoring, "edge-scoring"):
        key, score = str(item.get("id")), item.get("score")
        if key in by_id and isinstance(score, int | float) and not isinstance(score, bool):
            scores[key] = float(score)
    if not scores:
        raise LLMError(f"the edge-scoring stage scored none of the {len(edges)} edges (model {scoring.model})")
    chosen = select(scores, by_id, options["edge_score_limit"], options["edge_limit"])
    if not chosen:
        return [], (scoring,)
    reasoning_call = session.complete(
        Task(
            "edge-reasoning",
            {
                "question": asked,
                "concepts": concepts,
                "edges": [{**_shown(k, by_id[k]), "score": scores[k]} for k in chosen],
            },
        )
    )
    reasons = {str(r.get("id")): r for r in json_objects(reasoning_call, "edge-reasoning")}
    selections = []
    for key in chosen:
        reason = reasons.get(key, {})
        concept = reason.get("concept")
        selections.append(
            (
                EdgeSelection(
                    edge=by_id[key].triple,
                    concept=concept if isinstance(concept, str) and concept.strip() else None,
                    score=scores[key],
                    reasoning=str(reason["reasoning"]) if reason.get("reasoning") else None,
                ),
                by_id[key],
            )
        )
    return selections, (scoring, reasoning_call)
