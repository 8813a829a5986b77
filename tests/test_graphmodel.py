"""The quads → rows compiler without a database: what becomes native, what stays exact, what is refused."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from rdflib.term import BNode, Literal, URIRef

from tgneo.errors import MappingError
from tgneo.graphmodel import compile_quads, decompile, native_value
from tgneo.mapping import PROP_BY_NAME
from tgneo.rdf.terms import Quad, QuotedTriple
from tgneo.vocab import GRAPH_RETRIEVAL, RDF, TG


@pytest.mark.parametrize(
    ("prop", "lexical", "expected"),
    [
        ("edgeCount", "12", 12),
        ("edgeCount", "007", "007"),  # not canonical: kept as text so export is exact
        ("score", "0.93", 0.93),
        ("score", "1", "1"),  # str(1.0) is "1.0": keep the original text
        ("score", "nan", "nan"),
        ("startedAtTime", "2025-06-01T10:15:30.123456Z", datetime(2025, 6, 1, 10, 15, 30, 123456, tzinfo=UTC)),
        ("startedAtTime", "2025-06-01T10:15:30", "2025-06-01T10:15:30"),  # no time zone: not a point in time
        ("query", "42", "42"),
    ],
)
def test_a_literal_is_native_only_when_it_renders_back_identically(prop: str, lexical: str, expected: object) -> None:
    assert native_value(lexical, PROP_BY_NAME[prop]) == expected


def test_an_empty_iri_is_refused() -> None:
    with pytest.raises(MappingError, match="empty"):
        compile_quads([Quad(URIRef(""), RDF.type, TG.Focus, GRAPH_RETRIEVAL)])


def test_a_literal_subject_is_refused() -> None:
    with pytest.raises(MappingError, match="subject"):
        compile_quads([Quad(Literal("x"), RDF.type, TG.Focus, "")])  # type: ignore[arg-type]


def test_an_entity_gets_labels_from_its_types_and_the_graph_mixin() -> None:
    batch = compile_quads([Quad(URIRef("urn:f"), RDF.type, TG.Focus, GRAPH_RETRIEVAL)])
    assert batch.entities == [{"uri": "urn:f", "graph": GRAPH_RETRIEVAL, "labels": ["Explain", "Focus"], "props": {}}]


def test_a_quoted_triple_becomes_one_statement_however_often_it_is_referenced() -> None:
    edge = QuotedTriple(URIRef("urn:s"), URIRef("urn:p"), Literal("o", lang="en"))
    batch = compile_quads([
        Quad(URIRef("urn:e1"), TG.edge, edge, GRAPH_RETRIEVAL),
        Quad(URIRef("urn:e2"), TG.edge, edge, GRAPH_RETRIEVAL),
        Quad(edge.s, edge.p, edge.o, ""),
    ])  # fmt: skip
    assert len(batch.statements) == 1
    assert batch.statements[0]["asserted"] == [""]
    assert {link["from"] for link in batch.statement_links} == {"urn:e1", "urn:e2"}


def test_blank_nodes_keep_their_kind() -> None:
    batch = compile_quads([Quad(BNode("b1"), URIRef("urn:p"), BNode("b2"), "")])
    assert {(r["uri"], r["kind"]) for r in batch.resources} >= {("_:b1", "bnode"), ("_:b2", "bnode")}


def test_decompile_refuses_an_unknown_profile() -> None:
    with pytest.raises(MappingError, match="profile"):
        decompile([], [], "rdfs")  # type: ignore[arg-type]
