"""Document RAG as TrustGraph records it: grounding, chunk retrieval, chunk selection, synthesis.

1. **Grounding** — the concepts of the question (the same stage as GraphRAG's).
2. **Exploration** — hybrid retrieval in one round trip: each concept's embedding and the question's find
   their nearest chunks through the chunk vector index, and the question's words find chunks through the
   chunk full-text index; the two lists (vectors ranked by similarity to the whole question, words by
   Lucene's score) are fused by reciprocal rank (:func:`tgneo.store.kg.fuse`): ``tg:chunkCount`` and one
   ``tg:selectedChunk`` per chunk, and, tgneo's own, one ``tgneo:RetrievalHit`` per chunk saying which
   list found it at which rank (:mod:`tgneo.explain.retrieval`).
3. **Focus** — the best ``doc_limit`` by fused rank become ChunkSelections, each scored by its similarity
   to the whole question (a side branch of the Exploration).
4. **Synthesis** — the answer streams from the selected chunks' texts; it derives from the
   **Exploration**, not the Focus, because that is where TrustGraph's trace reader looks for it.

A question that asks two things (:func:`tgneo.nlp.answer_type.parts`) is grounded and retrieved once per part
(:func:`tgneo.engines.graphrag.ground_parts`, :meth:`DocRag.retrieve` with the part), and the parts' chunks are
taken in turns (:func:`tgneo.engines.graphrag.interleave`), so that the Focus keeps the best chunks of each part:
for a question whose parts two pages answer, both pages reach the answer. The trace says which part each concept,
retrieved chunk and selected chunk served (:mod:`tgneo.explain.question_parts`).

``doc_limit`` defaults to 10, what ``tg-invoke-document-rag`` sends.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping, Sequence
from copy import copy
from dataclasses import replace

from tgneo import uris
from tgneo.engines.attribution import attribute
from tgneo.engines.base import Engine, Outcome, Session
from tgneo.engines.graphrag import cited, ground_parts, interleave, placed, usage
from tgneo.engines.verify import Answering, Item
from tgneo.errors import NotFound
from tgneo.explain.docrag import ChunkSelection, DocRagExploration, DocRagFocus, DocRagQuestion, DocRagSynthesis
from tgneo.explain.events import AnswerChunk, Event, Source
from tgneo.explain.retrieval import retrieval_hits
from tgneo.kinds import SessionKind
from tgneo.llm.base import Task
from tgneo.nlp.segment import units
from tgneo.store import kg


class DocRag(Engine):
    """Document RAG over the chunks of one workspace and collection."""

    kind = SessionKind.DOC_RAG
    reads = "chunks"
    defaults = {"doc_limit": 10}

    def root_uri(self, session: Session) -> str:
        return uris.docrag_question_uri(session.id)

    def run(self, session: Session, options: Mapping[str, int]) -> Generator[Event, None, Outcome]:
        ctx, sid = session.ctx, session.id
        question = DocRagQuestion(uri=uris.docrag_question_uri(sid), query=session.question, parent=session.parent)
        yield session.record(question)

        grounded = ground_parts(session, uris.docrag_grounding_uri(sid), question.uri)
        grounding = grounded.step
        yield session.record(grounding, attached=grounded.entities)

        retrieved = [
            _ranked(self.retrieve(_asking(session, piece, len(grounded.parts)), own, options["doc_limit"]))
            for piece, own in zip(grounded.parts, grounded.concepts_of, strict=True)
        ]
        hits_for = interleave(retrieved, lambda h: h.uri)  # each part's best in turn: both parts' pages reach the Focus
        hits = [h for h, _ in hits_for]
        exploration = DocRagExploration(
            uri=uris.docrag_exploration_uri(sid),
            grounding=grounding.uri,
            chunk_count=len(hits),
            chunk_ids=tuple(h.uri for h in hits),
        )
        why = retrieval_hits(exploration.uri, hits)
        served = {hit.uri: among for hit, (_, among) in zip(why, hits_for, strict=True)}
        yield session.record(exploration, attached=[*why, *grounded.items(served)])

        kept = hits[: options["doc_limit"]]  # ranked by reciprocal rank fusion (kg.fuse), the parts' in turn
        focus = DocRagFocus(
            uri=uris.docrag_focus_uri(sid),
            exploration=exploration.uri,
            session_id=sid,
            chunks=tuple(ChunkSelection(chunk_id=h.uri, score=round(h.rerank, 4)) for h in kept),
        )
        chosen_for = {uri: among for uri, (_, among) in zip(focus.selection_uris, hits_for, strict=False)}
        yield session.record(focus, attached=grounded.items(chosen_for))

        document = uris.docrag_answer_uri(sid)
        if kept:
            passages = [{"id": h.uri, "text": h.text} for h in kept]
            call = yield from session.stream(
                Task("docrag-synthesis", {"question": session.question, "passages": passages})
            )
            text, calls = call.text, [call]
        else:
            where = f"workspace {ctx.workspace!r}, collection {ctx.collection!r}"
            text, calls = (
                (
                    f"No document chunk in {where} matches this question (it may hold a knowledge graph "
                    "but no documents: load some with `tgneo load documents PATH`)."
                ),
                [],
            )
            yield AnswerChunk(text, last=True)
        rows = [kg.EvidenceRow(uri, chunk=h.uri) for uri, h in zip(focus.selection_uris, kept, strict=True)]
        found = ctx.graph.answer_sources(rows)
        evidence = tuple(
            placed(uri, unit.text, found.places.get(uri))
            for uri, h in zip(focus.selection_uris, kept, strict=True)
            for unit in units(h.text)
            if unit.kind != "heading"
        )
        synthesis = DocRagSynthesis(
            uri=uris.docrag_synthesis_uri(sid), exploration=exploration.uri, document=document, **usage(*calls)
        )
        citations, sentences = attribute(text, evidence, ctx.llm, synthesis.uri)
        yield session.record(synthesis, {document: text}, attached=sentences)
        sources = tuple(Source(uri, title) for uri, title in found.documents)
        items = tuple(
            Item(uri, {"id": h.uri, "text": h.text}, h.text)
            for uri, h in zip(focus.selection_uris, kept, strict=True)
        )  # fmt: skip
        answering = Answering(synthesis.uri, text, items, cited(citations), passages_task(session.question))
        return Outcome(text, synthesis.uri, sources, evidence, citations, answering)

    def retrieve(self, session: Session, concepts: Sequence[str], limit: int) -> list[kg.ChunkHit]:
        """The chunks the answer may draw on, best first (the Focus keeps the first ``limit``).

        Override it to retrieve another way (a neo4j-graphrag retriever, a reranker) and keep everything else —
        the trace, the citations, the sources — as Document RAG records them; :meth:`passage` turns what your
        retriever returned into hits. The default is hybrid: each concept's embedding and the whole question's
        find their nearest chunks, the question's words find chunks by full text, fused by reciprocal rank.
        For a question that asks two things it is called once per part, with a session whose ``question`` is
        that part and the part's own concepts; the parts' hits are then taken in turns.
        """
        embedded = session.ctx.llm.embed([*concepts, session.question]).vectors
        # the whole question searches beside its concepts: a sentence-embedding model matches its meaning
        return session.ctx.graph.search_chunks(concepts, embedded, session.question, embedded[-1], limit)

    def passage(self, session: Session, ident: str, text: str, score: float = 0.0) -> kg.ChunkHit:
        """A retrieved passage as a hit :meth:`retrieve` returns: ``ident`` is a chunk of the graph the question
        reads — a tgneo chunk URI, or, over a graph profile, the element id of their chunk (what a neo4j-graphrag
        retriever puts in ``item.metadata["id"]``) — and ``score`` its retriever's score.

        Raises:
            NotFound: no chunk of that graph has this id (the trace could not say where the passage was read).
        """
        iri = session.ctx.graph.chunk(ident)
        if iri is None:
            raise NotFound(f"{self.kind.wire}: no chunk {ident!r} in the graph this question reads")
        return kg.ChunkHit(iri, text, score, score)


def _asking(session: Session, piece: str, parts: int) -> Session:
    """``session`` as :meth:`DocRag.retrieve` sees it for one part of the question: the same session (its context,
    its id), asking that part. A question of one part is the session itself."""
    if parts == 1:
        return session
    asking = copy(session)
    asking.question = piece
    return asking


def _ranked(hits: Sequence[kg.ChunkHit]) -> list[kg.ChunkHit]:
    """``hits`` as retrieved; a list no fusion ranked (an overriding :meth:`DocRag.retrieve`'s) is one ranked list,
    its order the retriever's, recorded as the vector list's ranks (its retrieval hits say so)."""
    if all(h.vector_rank is not None or h.text_rank is not None for h in hits):
        return list(hits)
    return [replace(h, vector_rank=i, text_rank=None, fused=kg.rrf(i)) for i, h in enumerate(hits, start=1)]


def passages_task(question: str) -> Callable[[Sequence[Item]], Task]:
    """Document RAG's answering stage on some of its selected chunks."""

    def task(items: Sequence[Item]) -> Task:
        return Task("docrag-synthesis", {"question": question, "passages": [dict(i.payload) for i in items]})

    return task
