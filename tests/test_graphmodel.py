"""The quads → rows compiler without a database: what becomes native, what stays exact, what is refused."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from rdflib.term import BNode, Literal, URIRef

from tgneo.errors import MappingError
from tgneo.graphmodel.compiler import compile_quads
from tgneo.graphmodel.decompiler import decompile
from tgneo.graphmodel.terms import native_value
from tgneo.mapping import PROP_BY_NAME
from tgneo.native import Namespaces
from tgneo.rdf.terms import Quad, QuotedTriple
from tgneo.vocab import GRAPH_RETRIEVAL, GRAPH_SOURCE, RDF, TG, XSD


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
    assert batch.entities == [{"uri": "urn:f", "graph": GRAPH_RETRIEVAL, "labels": ["TgExplain", "Focus"], "props": {}}]


def test_a_quoted_triple_becomes_one_statement_however_often_it_is_referenced() -> None:
    edge = QuotedTriple(URIRef("urn:s"), URIRef("urn:p"), Literal("o", lang="en"))
    batch = compile_quads([
        Quad(URIRef("urn:e1"), TG.edge, edge, GRAPH_RETRIEVAL),
        Quad(URIRef("urn:e2"), TG.edge, edge, GRAPH_RETRIEVAL),
        Quad(edge.s, edge.p, edge.o, ""),
    ])  # fmt: skip
    assert len(batch.statements) == 1
    assert batch.statements[0]["asserted"] == []  # quoted only: the default graph asserts it natively
    ((key, literal),) = [(r["key"], (r["values"], r["tags"])) for r in batch.literals]
    assert key == Namespaces().property_key("urn:p") and literal == (["o"], ["@en"])
    assert {link["from"] for link in batch.statement_links} == {"urn:e1", "urn:e2"}


def test_a_default_graph_triple_with_an_iri_object_is_a_typed_relationship() -> None:
    batch = compile_quads([Quad(URIRef("http://trustgraph.ai/e/marie-curie"), URIRef("http://trustgraph.ai/e/discovered"),
                                URIRef("http://trustgraph.ai/e/polonium"), "")])  # fmt: skip
    assert [(f["s"], f["type"], f["o"], f["iri"]) for f in batch.facts] == [
        ("http://trustgraph.ai/e/marie-curie", "DISCOVERED", "http://trustgraph.ai/e/polonium",
         "http://trustgraph.ai/e/discovered")
    ]  # fmt: skip
    assert batch.statements == [] and batch.literals == []
    assert batch.prefixes == []  # the default namespace needs no stored prefix


def test_a_literal_that_does_not_fit_the_values_of_its_key_stays_a_reified_edge() -> None:
    s, p = URIRef("urn:x"), URIRef("http://ex.org/v")
    batch = compile_quads([Quad(s, p, Literal("1", datatype=XSD.integer), ""), Quad(s, p, Literal("one"), "")])
    assert batch.literals[0]["values"] == [1]
    assert [(st["props"]["o"], st["asserted"]) for st in batch.statements] == [("one", [""])]


def test_a_triple_in_another_named_graph_is_a_reified_edge_asserted_there() -> None:
    batch = compile_quads([Quad(URIRef("urn:s"), URIRef("urn:p"), URIRef("urn:o"), "urn:g")])
    assert batch.facts == [] and [st["asserted"] for st in batch.statements] == [["urn:g"]]


def test_a_containment_annotation_becomes_a_property_of_its_relationship() -> None:
    fact = QuotedTriple(URIRef("urn:s"), URIRef("urn:p"), URIRef("urn:o"))
    sg = URIRef("urn:sg")
    contains = QuotedTriple(sg, TG.contains, fact)
    batch = compile_quads([
        Quad(sg, TG.contains, fact, GRAPH_SOURCE),
        Quad(contains, TG.sourceText, Literal("S p O."), GRAPH_SOURCE),
        Quad(contains, TG.sourceCharOffset, Literal("4"), GRAPH_SOURCE),
    ])  # fmt: skip
    (link,) = batch.statement_links
    assert link["props"] == {"sourceText": "S p O.", "sourceCharOffset": 4}
    assert len(batch.statements) == 1  # the fact only: the annotations are no statements of their own


def test_blank_nodes_keep_their_kind() -> None:
    batch = compile_quads([Quad(BNode("b1"), URIRef("urn:p"), BNode("b2"), "")])
    assert {(r["uri"], r["kind"]) for r in batch.resources} >= {("_:b1", "bnode"), ("_:b2", "bnode")}


def test_decompile_refuses_an_unknown_profile() -> None:
    with pytest.raises(MappingError, match="profile"):
        decompile([], [], "rdfs")  # type: ignore[arg-type]
