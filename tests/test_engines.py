"""GraphRAG and Document RAG over the sample corpus, against the real Neo4j, with the offline provider.

Each test reads a real stream of events and what Neo4j holds afterwards: the order TrustGraph's
clients expect, write-before-emit, answers built only from what was selected, every selected edge
leading back to a source document, citations, a clean error (and no half-written step) when the
model answers garbage, and a stream that stops when its reader goes away.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Generator, Mapping
from typing import Any

import pytest
from rdflib.term import URIRef

from tests.ingesting import hold_a_fact
from tgneo import uris
from tgneo.engines import ENGINES, DocRag, Engine, GraphRag, Outcome, Request, Session
from tgneo.errors import BadRequest, EmptyCollection
from tgneo.explain.events import AnswerChunk, ErrorEvent, Event, ExplainEvent, SessionEnd
from tgneo.explain.graphrag import Exploration, GraphRagQuestion, Grounding
from tgneo.ingest.loader import load_documents
from tgneo.ingest.readers import decode
from tgneo.ingest.sample import QUESTIONS, sources
from tgneo.kinds import SessionKind
from tgneo.llm.offline import OfflineLLM
from tgneo.llm.openai_provider import OpenAILLM
from tgneo.nlp.segment import sentences
from tgneo.store import Store
from tgneo.store.traces import get_trace, list_traces
from tgneo.stream import wire
from tgneo.vocab import GRAPH_RETRIEVAL, PROV, TG

W = "w"
POLONIUM = QUESTIONS[0].text  # Which element discovered by Marie Curie was named after her native country?
RIVER = QUESTIONS[2].text  # Which river flows through the city where Marie Curie was born?


@pytest.fixture(scope="module")
def sample(store: Store) -> str:
    collection = f"test-engines-{uuid.uuid4().hex[:8]}"
    report = load_documents(store, OfflineLLM(), W, collection, sources())
    assert report.loaded == 4
    return collection


def run(engine: Engine, question: str, collection: str, **options: Any) -> list[Event]:
    return list(engine.answer(Request(question, W, collection, options)))


def explained(events: list[Event]) -> list[str]:
    return [e.kind for e in events if isinstance(e, ExplainEvent)]


def answer_of(events: list[Event]) -> str:
    return "".join(e.text for e in events if isinstance(e, AnswerChunk))


# ------------------------------------------------------------------------------------------ GraphRAG
def test_graphrag_streams_four_steps_then_the_answer_then_the_synthesis(store: Store, sample: str) -> None:
    events = run(GraphRag(store, OfflineLLM()), POLONIUM, sample)
    order = ["explain" if isinstance(e, ExplainEvent) else type(e).__name__ for e in events]
    first_chunk = order.index("AnswerChunk")
    assert explained(events) == ["question", "grounding", "exploration", "focus", "synthesis"]
    assert order[:first_chunk] == ["explain"] * 4  # TrustGraph's frame sequence (reference §2.6)
    assert order[-2:] == ["explain", "SessionEnd"] and set(order[first_chunk:-2]) == {"AnswerChunk"}
    chunks = [e for e in events if isinstance(e, AnswerChunk)]
    assert [c.last for c in chunks] == [False] * (len(chunks) - 1) + [True]


def test_every_explain_event_is_already_in_neo4j(store: Store, sample: str) -> None:
    events = run(GraphRag(store, OfflineLLM()), POLONIUM, sample)
    trace = get_trace(store, W, sample, next(e for e in events if isinstance(e, ExplainEvent)).explain_id)
    stored = {s["uri"] for s in trace["steps"]}
    assert {e.explain_id for e in events if isinstance(e, ExplainEvent)} <= stored


def test_the_answer_quotes_the_evidence_sentences_of_the_selected_edges(store: Store, sample: str) -> None:
    events = run(GraphRag(store, OfflineLLM()), POLONIUM, sample)
    answer = answer_of(events)
    assert answer.startswith("Polonium was named after Poland, the native country of Marie Curie.")  # the answer first
    said = " ".join(" ".join(p.text.split()) for src in sources() for p in decode(src.name, src.read()).parts)
    assert all(s in said for s in sentences(answer))  # each sentence quoted from the documents, not written
    trace = get_trace(store, W, sample, events[0].explain_id)  # type: ignore[attr-defined]
    synthesis = next(s for s in trace["steps"] if s["type"] == "Synthesis")
    assert synthesis["documents"][0]["text"] == answer  # the librarian holds exactly what was streamed


def test_every_selected_edge_traces_to_a_source_document(store: Store, sample: str) -> None:
    for question in QUESTIONS:
        events = run(GraphRag(store, OfflineLLM()), question.text, sample)
        trace = get_trace(store, W, sample, events[0].explain_id)  # type: ignore[attr-defined]
        edges = next(s for s in trace["steps"] if s["type"] == "Focus")["edges"]
        assert edges, question.text
        for edge in edges:
            chains = [source["chain"] for source in edge["statement"]["sources"]]
            assert any("TgDocument" in chain[-1]["labels"] for chain in chains), edge["statement"]
            assert edge["reasoning"] and isinstance(edge["score"], float)


def test_the_session_ends_with_the_cited_documents_and_token_totals(store: Store, sample: str) -> None:
    events = run(GraphRag(store, OfflineLLM()), POLONIUM, sample)
    end = events[-1]
    assert isinstance(end, SessionEnd)
    assert {s.title for s in end.sources} == {"Polonium and radium"}  # the document the answer's evidence is in
    cited = {e.document for c in end.citations for e in c.evidence}
    assert end.citations and cited == {s.uri for s in end.sources}
    trace = get_trace(store, W, sample, end.trace or "")
    assert (end.in_token, end.out_token) == (trace["totals"]["inToken"], trace["totals"]["outToken"])
    assert end.model == "tgneo-offline" and trace["totals"]["models"] == ["tgneo-offline"]


def test_the_options_bound_what_is_explored_and_selected(store: Store, sample: str) -> None:
    events = run(GraphRag(store, OfflineLLM()), POLONIUM, sample, edge_limit=3, max_path_length=1)
    trace = get_trace(store, W, sample, events[0].explain_id)  # type: ignore[attr-defined]
    focus = next(s for s in trace["steps"] if s["type"] == "Focus")
    assert len(focus["edges"]) == 3


def test_a_question_about_nothing_held_gets_a_clear_answer_and_a_complete_trace(store: Store, sample: str) -> None:
    events = run(GraphRag(store, OfflineLLM()), "Xylophone zebras?", sample)
    assert explained(events) == ["question", "grounding", "exploration", "focus", "synthesis"]
    answer = answer_of(events)
    assert f"collection {sample!r}" in answer and "'xylophone zebras'" in answer  # says where, and what was searched
    assert isinstance(events[-1], SessionEnd) and events[-1].sources == ()


@pytest.mark.parametrize("engine", [GraphRag, DocRag])
def test_a_collection_holding_nothing_is_refused_before_anything_is_recorded(
    store: Store, collection: str, engine: type[GraphRag] | type[DocRag]
) -> None:
    with pytest.raises(EmptyCollection, match=f"collection {collection!r} holds no documents and no knowledge graph"):
        run(engine(store, OfflineLLM()), POLONIUM, collection)
    assert not list_traces(store, W, collection).traces


def test_recording_off_streams_the_same_steps_and_writes_nothing(store: Store, sample: str) -> None:
    events = run(GraphRag(store, OfflineLLM(), record=False), POLONIUM, sample)
    assert explained(events) == ["question", "grounding", "exploration", "focus", "synthesis"]
    with pytest.raises(Exception, match="no trace"):
        get_trace(store, W, sample, events[0].explain_id)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("question", "options", "message"),
    [
        ("  ", {}, "question: must not be empty"),
        ("x" * 4001, {}, "at most 4000"),
        (POLONIUM, {"edge_limit": 0}, "'edge_limit' must be a positive integer"),
        (POLONIUM, {"colour": 1}, "unknown option 'colour'"),
    ],
)
def test_bad_requests_are_refused_before_anything_is_recorded(
    store: Store, collection: str, question: str, options: dict[str, Any], message: str
) -> None:
    with pytest.raises(BadRequest, match=message):
        run(GraphRag(store, OfflineLLM()), question, collection, **options)
    assert get_trace_count(store, collection) == 0


def test_every_session_kind_has_one_engine_found_by_any_of_its_names() -> None:
    with pytest.raises(BadRequest, match="unknown .* 'sql'.*graph-rag"):
        SessionKind.parse("sql")
    assert ENGINES[SessionKind.parse("graphrag")] is GraphRag and ENGINES[SessionKind.parse("document-rag")] is DocRag
    assert set(ENGINES) == set(SessionKind) and all(cls.kind is kind for kind, cls in ENGINES.items())


def get_trace_count(store: Store, collection: str) -> int:
    with store.driver.session(database=store.database) as session:
        record = session.run("MATCH (n:TgExplain {collection: $c}) RETURN count(n) AS n", c=collection).single()
    assert record is not None
    return int(record["n"])


def test_a_model_answering_garbage_ends_the_stream_with_an_error_and_no_half_step(
    store: Store, sample: str, prose_model: OpenAILLM
) -> None:
    events = run(GraphRag(store, prose_model), POLONIUM, sample)
    error = events[-1]
    assert isinstance(error, ErrorEvent) and error.type == "llm-error"
    assert "edge-scoring stage did not answer a JSON array" in error.message
    assert explained(events) == ["question", "grounding", "exploration"]
    trace = get_trace(store, W, sample, error.trace or "")
    assert [s["type"] for s in trace["steps"]] == ["GraphRagQuestion", "Grounding", "Exploration"]
    assert wire.encode(error, GraphRag.kind)["end_of_session"] is True


def test_closing_the_stream_stops_the_engine_within_one_step(store: Store, sample: str) -> None:
    """The engine runs at most one step past what the reader took (it overlaps that step's commit), so
    a reader gone after the Grounding leaves the Question, the Grounding and at most the Exploration —
    each whole — and nothing more is written after ``close()`` returns."""
    stream = GraphRag(store, OfflineLLM()).answer(Request(POLONIUM, W, sample))
    question = next(stream)
    assert isinstance(question, ExplainEvent)
    next(stream)  # the grounding
    stream.close()  # the reader went away
    steps = [s["type"] for s in get_trace(store, W, sample, question.explain_id)["steps"]]
    assert steps in (["GraphRagQuestion", "Grounding"], ["GraphRagQuestion", "Grounding", "Exploration"]), steps
    time.sleep(1)
    assert [s["type"] for s in get_trace(store, W, sample, question.explain_id)["steps"]] == steps


# ------------------------------------------------------------------------------------------ Document RAG
def test_document_rag_selects_chunks_and_derives_its_synthesis_from_the_exploration(store: Store, sample: str) -> None:
    events = run(DocRag(store, OfflineLLM()), RIVER, sample)
    assert explained(events) == ["docrag_question", "grounding", "docrag_exploration", "docrag_focus",
                                 "docrag_synthesis"]  # fmt: skip
    assert "The city lies on the Vistula, the longest river of Poland." in answer_of(events)
    trace = get_trace(store, W, sample, events[0].explain_id)  # type: ignore[attr-defined]
    steps = {s["type"]: s for s in trace["steps"]}
    assert steps["Synthesis"]["parents"] == [steps["Exploration"]["uri"]]  # as TrustGraph's client looks for it
    chunks = steps["Focus"]["chunks"]
    assert chunks and all(c["chunk"]["chain"] for c in chunks)  # every chunk leads to its document


def test_document_rag_cites_the_documents_of_its_chunks(store: Store, sample: str) -> None:
    end = run(DocRag(store, OfflineLLM()), RIVER, sample)[-1]
    assert isinstance(end, SessionEnd) and "Warsaw" in {s.title for s in end.sources}


# ------------------------------------------------------------------------------------------ TrustGraph parity
def _values(event: ExplainEvent, predicate: URIRef, subject: str | None = None) -> list[Any]:
    about = URIRef(subject or event.explain_id)
    return [q.o for q in event.triples if q.s == about and q.p == predicate]


def _tokens(event: ExplainEvent) -> dict[str, Any]:
    found = {key: _values(event, TG[name]) for key, name in
             (("in_token", "inToken"), ("out_token", "outToken"), ("model", "llmModel"))}  # fmt: skip
    return {k: (str(v[0]) if k == "model" else int(v[0])) for k, v in found.items() if v}


def test_what_graphrag_emits_is_exactly_what_trustgraphs_builders_emit(store: Store, sample: str) -> None:
    """Every step, built by TrustGraph 2.11.1's own builders from the same values, gives the same quads in order."""
    import trustgraph.provenance as tgp

    from tests.test_entities import tg_quads, to_tg

    steps = {e.kind: e for e in run(GraphRag(store, OfflineLLM()), POLONIUM, sample) if isinstance(e, ExplainEvent)}
    q, g, x, f, s = (steps[k] for k in ("question", "grounding", "exploration", "focus", "synthesis"))
    sid = q.explain_id.rsplit(":", 1)[-1]
    selected = []
    for selection in _values(f, TG.selectedEdge):
        edge = _values(f, TG.edge, str(selection))[0]
        item: dict[str, Any] = {"edge": (to_tg(edge.s), to_tg(edge.p), to_tg(edge.o))}
        for key, predicate in (("concept", TG.concept), ("reasoning", TG.reasoning)):
            item[key] = str(_values(f, predicate, str(selection))[0])
        item["score"] = float(_values(f, TG.score, str(selection))[0])
        selected.append(item)
    expected = {
        "question": tgp.question_triples(q.explain_id, str(_values(q, TG.query)[0]),
                                         timestamp=str(_values(q, PROV.startedAtTime)[0])),
        "grounding": tgp.grounding_triples(g.explain_id, q.explain_id, [str(c) for c in _values(g, TG.concept)],
                                           **_tokens(g)),
        "exploration": tgp.exploration_triples(x.explain_id, g.explain_id, int(_values(x, TG.edgeCount)[0]),
                                               entities=[str(e) for e in _values(x, TG.entity)]),
        "focus": tgp.focus_triples(f.explain_id, x.explain_id, selected, sid, **_tokens(f)),
        "synthesis": tgp.synthesis_triples(s.explain_id, f.explain_id, document_id=str(_values(s, TG.document)[0]),
                                           **_tokens(s)),
    }  # fmt: skip
    assert len(selected) >= 10  # many edges: one a sentence first, at most two
    for kind, triples in expected.items():
        assert list(steps[kind].triples) == tg_quads(triples, GRAPH_RETRIEVAL), kind


# ------------------------------------------------------------------------------------------ write-ahead
class _Scripted(Engine):
    """An engine whose second step names a parent that was never recorded: its write must fail."""

    kind = GraphRag.kind
    name = "scripted"

    def root_uri(self, session: Session) -> str:
        return uris.question_uri(session.id)

    def run(self, session: Session, options: Mapping[str, int]) -> Generator[Event, None, Outcome]:
        question = GraphRagQuestion(uri=uris.question_uri(session.id), query=session.question)
        yield session.record(question)
        orphan = Grounding(uri=uris.grounding_uri(session.id), question=question.uri + "-never-recorded")
        yield session.record(orphan)
        later = Exploration(uri=uris.exploration_uri(session.id), grounding=question.uri, edge_count=0)
        yield session.record(later)  # queued behind the failing write: must never reach Neo4j
        return Outcome("unreachable", later.uri)


def test_a_failed_write_releases_the_steps_before_it_ends_the_stream_and_writes_nothing_after(
    store: Store, collection: str
) -> None:
    hold_a_fact(store, W, collection)  # a collection holding nothing is refused before any write
    events = list(_Scripted(store, OfflineLLM()).answer(Request("Who?", W, collection)))
    assert [type(e).__name__ for e in events] == ["ExplainEvent", "ErrorEvent"]
    error = events[-1]
    assert isinstance(error, ErrorEvent) and "-never-recorded" in error.message
    trace = get_trace(store, W, collection, error.trace or "")
    assert [s["type"] for s in trace["steps"]] == ["GraphRagQuestion"]  # not the orphan, not what came after
