"""The pure stream layer: request translation, the pipeline's promises, framings, wire terms, patterns."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from rdflib.term import BNode, Literal, URIRef

from tgneo.errors import BadRequest
from tgneo.explain.events import AgentMessage, AnswerChunk, ErrorEvent, Event, ExplainEvent, SessionEnd, Source
from tgneo.kinds import SessionKind
from tgneo.patterns import TriplePattern, answer
from tgneo.rdf.terms import Quad, QuotedTriple
from tgneo.stream import gateway, wire
from tgneo.stream.framing import ndjson, sse
from tgneo.stream.options import translate
from tgneo.stream.pipeline import final, messages, prime

A, P, B = URIRef("urn:a"), URIRef("urn:p"), URIRef("urn:b")


def test_trustgraph_fields_become_engine_options_and_ignored_ones_are_dropped() -> None:
    ask = translate("graph-rag", {"query": "q", "collection": "c", "entity-limit": 5, "max-path-length": 1,
                                  "max-reranker-input": 350, "streaming": True, "explainable": True,
                                  "grounding-seeds": [], "user-context": {"x": 1}})  # fmt: skip
    assert (ask.kind, ask.question, ask.collection) == (SessionKind.GRAPH_RAG, "q", "c")
    assert ask.options == {"entity_limit": 5, "max_path_length": 1}
    assert translate("document-rag", {"query": "q", "doc-limit": 3, "fetch-limit": 0}).options == {"doc_limit": 3}
    agent = translate("agent", {"question": "q", "pattern": "", "state": "s", "group": ["g"], "max-iterations": 2})
    assert agent.options == {"max_iterations": 2} and agent.collection == "default"


@pytest.mark.parametrize(
    ("service", "body", "field"),
    [
        ("graph-rag", {"query": "q", "edge-limit": 0}, "edge-limit"),
        ("graph-rag", {"query": "q", "graph": "urn:g"}, "graph"),
        ("graph-rag", {"query": "q", "doc-limit": 3}, "doc-limit"),
        ("agent", {"question": "q", "pattern": 3}, "pattern"),
        ("nonsense", {}, "service"),
    ],
)
def test_a_bad_field_is_named(service: str, body: dict[str, object], field: str) -> None:
    with pytest.raises(BadRequest, match=field):
        translate(service, body)


def _events(*events: Event) -> Iterator[Event]:
    yield from events


def test_the_pipeline_renders_each_event_and_stops_at_the_final_one() -> None:
    explain = ExplainEvent("urn:q", "urn:graph:retrieval", [Quad(A, P, B, "urn:graph:retrieval")], "question")
    end = SessionEnd((Source("urn:doc", "Doc"),), 3, 4, "m", "urn:q")
    out = list(
        messages(_events(explain, AnswerChunk("hi", last=True), end, AnswerChunk("late")), SessionKind.GRAPH_RAG)
    )
    assert [m["message_type"] for m in out] == ["explain", "chunk", "chunk"]
    assert out[-1]["end_of_session"] is True and out[-1]["sources"] == [{"uri": "urn:doc", "title": "Doc"}]


def test_an_engine_that_ends_without_a_final_message_gets_an_error_message() -> None:
    out = list(messages(_events(AnswerChunk("half")), SessionKind.AGENT))
    assert out[-1]["end_of_dialog"] is True and out[-1]["error"]["type"] == "agent-error"


def test_an_engine_that_raises_ends_with_an_error_message_not_silence() -> None:
    def broken() -> Iterator[Event]:
        yield AnswerChunk("a")
        raise RuntimeError("secret internals")

    out = list(messages(broken(), SessionKind.DOC_RAG))
    assert out[-1]["end_of_session"] is True and "RuntimeError" in out[-1]["error"]["message"]
    assert "secret internals" not in json.dumps(out)


def test_closing_the_pipeline_closes_the_engine() -> None:
    closed: list[bool] = []

    def engine() -> Iterator[Event]:
        try:
            yield AnswerChunk("a")
            yield AnswerChunk("b")
        finally:
            closed.append(True)

    stream = messages(prime(engine()), SessionKind.GRAPH_RAG)
    next(stream)
    stream.close()
    assert closed == [True]


def test_prime_raises_what_the_engine_refuses_before_any_message() -> None:
    def refusing() -> Iterator[Event]:
        raise BadRequest("question: must not be empty")
        yield ErrorEvent("unreachable")  # pragma: no cover

    with pytest.raises(BadRequest):
        prime(refusing())


def test_ndjson_and_sse_frame_the_same_messages() -> None:
    msgs = [{"a": 1}, {"b": "é\nx"}]
    assert b"".join(ndjson(msgs)) == '{"a":1}\n{"b":"é\\nx"}\n'.encode()
    assert b"".join(sse(msgs)).decode().split("\n\n")[:2] == ['id: 1\ndata: {"a":1}', 'id: 2\ndata: {"b":"é\\nx"}']


def test_wire_terms_round_trip_through_the_writer() -> None:
    quad = Quad(A, P, QuotedTriple(A, P, Literal("1898", lang="en")), "urn:graph:source")
    assert wire.decode_quad(wire.encode_quad(quad)) == quad
    assert wire.decode_term({"type": "i", "iri": "urn:a"}) == A  # TrustGraph's long keys
    assert wire.decode_term({"t": "b", "d": "x"}) == BNode("x")


@pytest.mark.parametrize(
    ("raw", "where"),
    [({"t": "i", "i": ""}, "o.i"), ({"t": "x"}, "o.t"), ({"t": "t", "tr": {"s": {"t": "l", "v": "x"}}}, "o.tr"),
     ("urn:a", "o"), ({"t": "l", "v": 5}, "o.v")],
)  # fmt: skip
def test_bad_wire_terms_are_refused_with_where_they_are(raw: object, where: str) -> None:
    with pytest.raises(BadRequest, match=where.replace(".", r"\.")):
        wire.decode_term(raw, "o")


def test_a_plain_literal_pattern_matches_any_stored_literal_of_that_text() -> None:
    stored = [Quad(A, P, Literal("x", lang="en")), Quad(A, P, Literal("x", datatype=URIRef("urn:dt"))),
              Quad(A, P, Literal("y"))]  # fmt: skip
    assert answer(TriplePattern(o=Literal("x")), stored) == stored[:2]
    assert answer(TriplePattern(o=Literal("x", lang="en")), stored) == stored[:1]
    quoted = Quad(B, P, QuotedTriple(A, P, Literal("x", lang="en")), "urn:graph:source")
    assert answer(TriplePattern(o=QuotedTriple(A, P, Literal("x")), g="urn:graph:source"), [quoted]) == [quoted]


def test_graph_selection_follows_trustgraph_s_server() -> None:
    quads = [Quad(A, P, B), Quad(A, P, B, "urn:graph:retrieval")]
    assert answer(TriplePattern(s=A), quads) == quads[:1]  # g absent: the default graph
    assert answer(TriplePattern(s=A, g="*"), quads) == quads
    assert answer(TriplePattern(s=A, g="urn:graph:retrieval"), quads) == quads[1:]
    assert answer(TriplePattern(), quads) == quads  # no pattern at all: every graph


def test_answers_come_in_natural_order_and_stop_at_the_limit() -> None:
    edges = [Quad(A, P, URIRef(f"urn:edge:{i}")) for i in (10, 2, 1)]
    assert [str(q.o) for q in answer(TriplePattern(), edges)] == ["urn:edge:1", "urn:edge:2", "urn:edge:10"]
    assert len(answer(TriplePattern(limit=2), edges)) == 2


def test_gateway_frames_stream_triples_in_batches() -> None:
    frames = list(gateway.triple_frames("r", [{"n": i} for i in range(5)], True, 2))
    assert [len(f["response"]["response"]) for f in frames] == [2, 2, 1]
    assert [f["complete"] for f in frames] == [False, False, True]
    assert list(gateway.triple_frames("r", [], True, 2)) == [
        {"id": "r", "response": {"response": []}, "complete": True}
    ]


def test_the_auth_frame_and_envelopes_are_checked() -> None:
    assert gateway.read_auth('{"type": "auth", "token": "t"}') == "t"
    with pytest.raises(gateway.GatewayError, match="first frame"):
        gateway.read_auth('{"id": "req-1"}')
    with pytest.raises(gateway.GatewayError) as bad:
        gateway.read_envelope('{"id": "req-1", "service": "triples", "request": []}')
    assert bad.value.request_id == "req-1"


ONE_OF_EACH = {
    SessionKind.GRAPH_RAG: [
        ExplainEvent("urn:q", "urn:graph:retrieval", [Quad(A, P, QuotedTriple(A, P, Literal("x", lang="en")))], ""),
        AnswerChunk("Marie "),
        AnswerChunk("Curie.", last=True),
        SessionEnd((Source("urn:doc", "Doc"),), 3, 4, "m", "urn:q"),
    ],
    SessionKind.AGENT: [
        AgentMessage("thought", "look it up", "urn:trustgraph:agent:x/i1/thought", last=True),
        AgentMessage("observation", "found it", "", last=False),
        AnswerChunk("Warsaw.", last=True),
        ErrorEvent("Neo4j is unreachable", "agent-error", "urn:trustgraph:agent:x", {"retry": False}),
    ],
}


@pytest.mark.parametrize("kind", list(ONE_OF_EACH), ids=str)
def test_the_wire_codec_reads_back_what_it_writes(kind: SessionKind) -> None:
    """Every event a stream carries survives encode → JSON → decode (the CLI's --url path reads the server so)."""
    for event in ONE_OF_EACH[kind]:
        message = json.loads(json.dumps(wire.encode(event, kind)))
        assert wire.decode(message, kind) == event


def test_the_final_flag_is_the_session_kind_s() -> None:
    for kind in SessionKind:
        end = wire.encode(SessionEnd(), kind)
        assert wire.is_final(end, kind) and end[kind.final_flag] is True
        assert not wire.is_final(wire.encode(AnswerChunk("x"), kind), kind)


def test_a_stream_read_off_the_network_that_stops_early_still_ends_with_an_error_message() -> None:
    """``tgneo ask --url`` reads a server through the same promise: a final message, never silence."""
    cut = [wire.encode(AnswerChunk("half"), SessionKind.GRAPH_RAG)]
    out = list(final(iter(cut), SessionKind.GRAPH_RAG, "the server's graph-rag stream"))
    assert out[:-1] == cut
    assert out[-1]["error"]["message"] == "the server's graph-rag stream ended without a final message"
