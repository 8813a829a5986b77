"""neomodel navigation of recorded traces (tgneo.ogm), against the real Neo4j.

Each test records, with the real Recorder, a small GraphRAG trace and its extraction provenance in its
own collection, then walks it as objects: Question → … → Focus → EdgeSelection → TgStatement ←
TgSubgraph → TgChunk → TgPage → TgDocument, and Synthesis → TgContent.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime

import pytest
from neomodel import RelationshipFrom, RelationshipTo, db
from neomodel.properties import ArrayProperty, StringProperty
from rdflib.term import Literal, URIRef

from tgneo import ogm as models
from tgneo import uris
from tgneo.explain import entities as e
from tgneo.explain.recorder import Recorder
from tgneo.graphmodel.compiler import compile_quads
from tgneo.mapping import CLASSES, PROPERTIES, RELATIONSHIPS
from tgneo.ogm import (
    NODE_CLASSES,
    EdgeSelection,
    Exploration,
    Focus,
    GraphRagQuestion,
    Grounding,
    Question,
    Synthesis,
    TgContent,
    TgDocument,
    TgResource,
    TgStatement,
    TgSubgraph,
    attribute_name,
    class_for_labels,
    connect,
    disconnect,
    reading,
)
from tgneo.rdf.ntriples import edge_id
from tgneo.rdf.terms import Quad, QuotedTriple
from tgneo.store import Store
from tgneo.store.write_path import write_batch
from tgneo.vocab import GRAPH_RETRIEVAL, RDF, RDFS, TG, Label

WORKSPACE = "default"
ALICE = URIRef("http://trustgraph.ai/e/alice")
BOB = URIRef("http://trustgraph.ai/e/bob")
KNOWS = URIRef("http://trustgraph.ai/e/knows")
KNOWS_EDGE = QuotedTriple(ALICE, KNOWS, BOB)
BOB_LABEL_EDGE = QuotedTriple(BOB, RDFS.label, Literal("Bob"))
ANSWER_TEXT = "Alice knows Bob."
ASKED_AT = "2025-06-01T10:15:30.123456Z"


NOT_RESOURCES = (Label.BASE, Label.STATEMENT, Label.IMPORT, Label.IMPORT_UNDO, Label.RETENTION_POLICY, Label.PREFIX,
                 Label.STORE, Label.SPAN_TREE)  # fmt: skip
"""The classes of nodes that are no IRI: they carry neither the mapped properties nor the mapped relationships."""


@dataclass(frozen=True)
class Trace:
    """The URIs of one recorded trace and its provenance."""

    collection: str
    document: str
    page: str
    chunk: str
    subgraph: str
    question: str
    grounding: str
    exploration: str
    focus: str
    synthesis: str
    answer_document: str


@pytest.fixture
def trace(store: Store, collection: str) -> Trace:
    """A GraphRAG trace whose first selected edge was extracted from a chunk of a page of a document."""
    rec = Recorder(store, WORKSPACE, collection)
    sid = uris.new_session_id()
    t = Trace(
        collection=collection,
        document="https://example.org/docs/alice-and-bob",
        page=uris.page_uri(),
        chunk=uris.chunk_uri(),
        subgraph=uris.subgraph_uri(),
        question=uris.question_uri(sid),
        grounding=uris.grounding_uri(sid),
        exploration=uris.exploration_uri(sid),
        focus=uris.focus_uri(sid),
        synthesis=uris.synthesis_uri(sid),
        answer_document=f"urn:trustgraph:doc:{sid}",
    )
    rec.record(e.Document(uri=t.document, title="Alice and Bob", page_count=1, mime_type="application/pdf"))
    rec.record(
        e.DerivedEntity(
            uri=t.page,
            parent=t.document,
            activity=e.Activity(component_name="pdf-decoder", component_version="1"),
            page_number=1,
        )
    )
    rec.record(
        e.DerivedEntity(
            uri=t.chunk,
            parent=t.page,
            activity=e.Activity(component_name="chunker", component_version="1"),
            chunk_index=0,
            char_offset=0,
            char_length=16,
        )
    )
    rec.record(
        e.Subgraph(
            uri=t.subgraph,
            chunk=t.chunk,
            activity=e.Activity(component_name="kg-extract", component_version="1"),
            statements=(KNOWS_EDGE,),
            llm_model="offline",
        )
    )
    rec.record(e.GraphRagQuestion(uri=t.question, query="Who does Alice know?", timestamp=ASKED_AT))
    rec.record(e.Grounding(uri=t.grounding, question=t.question, concepts=("alice", "knows"), in_token=12))
    rec.record(e.Exploration(uri=t.exploration, grounding=t.grounding, edge_count=2, entities=(str(ALICE),)))
    rec.record(
        e.Focus(
            uri=t.focus,
            exploration=t.exploration,
            session_id=sid,
            edges=(
                e.EdgeSelection(KNOWS_EDGE, concept="alice", score=0.9, reasoning="names who Alice knows"),
                e.EdgeSelection(BOB_LABEL_EDGE, concept="knows", score=0.25, reasoning="names Bob"),
            ),
        )
    )
    rec.record(
        e.Synthesis(uri=t.synthesis, focus=t.focus, document=t.answer_document),
        contents={t.answer_document: ANSWER_TEXT},
    )
    return t


@pytest.fixture
def connected(store: Store) -> Iterator[Store]:
    connect(store)
    yield store


def _only(nodes: list[models.TgNode]) -> models.TgNode:
    assert len(nodes) == 1, nodes
    return nodes[0]


# ------------------------------------------------------------------------------------------ derivation
def test_every_label_has_a_class_of_its_own_name_and_only_its_label() -> None:
    for label in Label:
        cls = getattr(models, label.value)
        assert cls is NODE_CLASSES[label]
        assert cls.__label__ == label.value
        assert cls.inherited_labels() == [label.value]


def test_every_mapping_class_row_has_a_class() -> None:
    assert {row.label for row in CLASSES} <= set(NODE_CLASSES)


def test_every_mapped_property_is_typed_on_every_resource_class() -> None:
    expected = {
        "string": StringProperty,
        "integer": models.LenientIntegerProperty,
        "float": models.LenientFloatProperty,
        "datetime": models.LenientDateTimeProperty,
    }
    for label, cls in NODE_CLASSES.items():
        if label in NOT_RESOURCES:
            continue
        defined = cls.defined_properties(aliases=False, rels=False)
        for row in PROPERTIES:
            prop = defined[attribute_name(row.prop)]
            assert prop.get_db_property_name(attribute_name(row.prop)) == row.prop
            if row.multi:
                assert isinstance(prop, ArrayProperty) and isinstance(prop.base_property, expected[row.datatype])
            else:
                assert isinstance(prop, expected[row.datatype]), (label, row.prop)


def test_every_mapped_relationship_is_an_outgoing_attribute_to_its_target() -> None:
    for label, cls in NODE_CLASSES.items():
        if label in NOT_RESOURCES:
            continue
        for row in RELATIONSHIPS:
            rel = getattr(cls, attribute_name(row.attr))
            assert isinstance(rel, RelationshipTo), (label, row.attr)
            assert rel.definition["relation_type"] == row.rel.value
            rel.lookup_node_class()
            assert rel.definition["node_class"] is (TgStatement if row.target == "statement" else TgResource)


def test_reverse_navigations_come_from_the_named_labels() -> None:
    for name, rel_type, on, source in models.REVERSE:
        rel = getattr(NODE_CLASSES[on], name)
        assert isinstance(rel, RelationshipFrom)
        rel.lookup_node_class()
        assert (rel.definition["relation_type"], rel.definition["node_class"]) == (rel_type.value, NODE_CLASSES[source])


def test_a_name_neomodel_reserves_gets_a_trailing_underscore() -> None:
    assert attribute_name("source") == "source_"  # NodeSet.source would be shadowed by a traversal
    assert attribute_name("labels") == "labels_"  # StructuredNode.labels()
    assert attribute_name("selected_edges") == "selected_edges"


def test_a_node_with_several_labels_gets_a_class_deriving_from_each() -> None:
    cls = class_for_labels(["Tgneo", "TgResource", "TgExplain", "ProvEntity", "Synthesis", "Answer", "NotTgneo"])
    assert cls is not None
    assert all(issubclass(cls, NODE_CLASSES[label]) for label in cls.tg_labels)
    assert cls.tg_labels == {
        Label.BASE,
        Label.RESOURCE,
        Label.EXPLAIN,
        Label.PROV_ENTITY,
        Label.SYNTHESIS,
        Label.ANSWER,
    }
    assert class_for_labels(["TgExplain", "Synthesis", "Answer", "ProvEntity", "TgResource", "Tgneo"]) is cls


# ------------------------------------------------------------------------------------------ navigation
def test_question_is_found_by_collection_with_its_query_and_time(connected: Store, trace: Trace) -> None:
    q = Question.nodes.filter(collection=trace.collection).first()
    assert q.uri == trace.question
    assert q.query == "Who does Alice know?"
    assert isinstance(q.startedAtTime, datetime)
    assert q.startedAtTime == datetime.fromisoformat(ASKED_AT.replace("Z", "+00:00"))


def test_a_stored_node_is_an_instance_of_every_class_it_is_labelled_with(connected: Store, trace: Trace) -> None:
    q = Question.within(WORKSPACE, trace.collection).first()
    assert isinstance(q, GraphRagQuestion) and isinstance(q, Question) and isinstance(q, TgResource)
    assert not isinstance(q, Focus)


def test_within_sees_only_its_own_collection(connected: Store, trace: Trace) -> None:
    assert Question.within(WORKSPACE, trace.collection + "-other").all() == []
    assert Question.within("another-workspace", trace.collection).all() == []


def test_grounding_concepts_are_a_list_and_tokens_an_integer(connected: Store, trace: Trace) -> None:
    g = Grounding.within(WORKSPACE, trace.collection).first()
    assert g.concept == ["alice", "knows"]
    assert g.inToken == 12


def test_focus_selected_edges_are_edge_selections_with_scores(connected: Store, trace: Trace) -> None:
    focus = Focus.within(WORKSPACE, trace.collection).first()
    selections = focus.selected_edges.all()
    assert all(isinstance(s, EdgeSelection) for s in selections)
    assert sorted(s.score for s in selections) == [0.25, 0.9]


def test_selection_edge_is_the_statement_with_subject_predicate_object(connected: Store, trace: Trace) -> None:
    selection = Focus.within(WORKSPACE, trace.collection).first().selected_edges.filter(score=0.9).first()
    statement = selection.edge.single()
    assert isinstance(statement, TgStatement)
    assert (statement.s, statement.p, statement.o, statement.o_kind) == (str(ALICE), str(KNOWS), str(BOB), "iri")
    assert statement.statement_id == edge_id(ALICE, KNOWS, BOB)


def test_statement_navigates_to_its_resources(connected: Store, trace: Trace) -> None:
    statement = TgStatement.within(WORKSPACE, trace.collection).filter(statement_id=edge_id(ALICE, KNOWS, BOB))
    st = statement.first()
    assert (st.subject.single().uri, st.p, st.object.single().uri) == (str(ALICE), str(KNOWS), str(BOB))


def test_literal_object_stays_on_the_statement(connected: Store, trace: Trace) -> None:
    selection = Focus.within(WORKSPACE, trace.collection).first().selected_edges.filter(score=0.25).first()
    statement = selection.edge.single()
    assert (statement.o, statement.o_kind, statement.o_lang) == ("Bob", "literal", None)
    assert statement.object.single() is None


def test_statement_selected_by_gives_the_edge_selections(connected: Store, trace: Trace) -> None:
    st = TgStatement.within(WORKSPACE, trace.collection).filter(statement_id=edge_id(ALICE, KNOWS, BOB)).first()
    assert [s.reasoning for s in st.selected_by.all()] == ["names who Alice knows"]


def test_statement_subgraphs_are_the_subgraphs_containing_it(connected: Store, trace: Trace) -> None:
    st = TgStatement.within(WORKSPACE, trace.collection).filter(statement_id=edge_id(ALICE, KNOWS, BOB)).first()
    subgraph = _only(st.subgraphs.all())
    assert isinstance(subgraph, TgSubgraph)
    assert subgraph.uri == trace.subgraph


def test_subgraph_derives_from_chunk_page_document(connected: Store, trace: Trace) -> None:
    subgraph = TgSubgraph.within(WORKSPACE, trace.collection).first()
    chunk = subgraph.derived_from.single()
    page = chunk.derived_from.single()
    document = page.derived_from.single()
    assert (chunk.uri, chunk.chunkIndex, chunk.charLength) == (trace.chunk, 0, 16)
    assert (page.uri, page.pageNumber) == (trace.page, 1)
    assert isinstance(document, TgDocument)
    assert (document.uri, document.title, document.pageCount) == (trace.document, "Alice and Bob", 1)


def test_from_an_answer_the_source_chain_reaches_the_document(connected: Store, trace: Trace) -> None:
    synthesis = Synthesis.within(WORKSPACE, trace.collection).first()
    focus = synthesis.derived_from.single()
    statements = [s.edge.single() for s in focus.selected_edges.all()]
    documents = {
        sg.derived_from.single().derived_from.single().derived_from.single().uri
        for st in statements
        for sg in st.subgraphs.all()
    }
    assert documents == {trace.document}


def test_synthesis_documents_give_the_answer_text(connected: Store, trace: Trace) -> None:
    synthesis = Synthesis.within(WORKSPACE, trace.collection).first()
    content = synthesis.documents.single()
    assert isinstance(content, TgContent)
    assert (content.uri, content.text, content.contentType) == (trace.answer_document, ANSWER_TEXT, "text/plain")


def test_derived_by_walks_from_the_question_down_the_trace(connected: Store, trace: Trace) -> None:
    q = Question.within(WORKSPACE, trace.collection).first()
    grounding = q.derived_by.single()
    exploration = grounding.derived_by.single()
    assert isinstance(grounding, Grounding) and isinstance(exploration, Exploration)
    assert exploration.entities.single().uri == str(ALICE)


def test_activity_generated_lists_what_it_produced(connected: Store, trace: Trace) -> None:
    subgraph = TgSubgraph.within(WORKSPACE, trace.collection).first()
    activity = subgraph.generated_by.single()
    assert activity.componentVersion == "1"
    assert [n.uri for n in activity.generated.all()] == [trace.subgraph]


def test_a_non_canonical_literal_reads_back_as_its_text(store: Store, connected: Store, collection: str) -> None:
    uri = URIRef("urn:trustgraph:prov:exploration:odd")
    quads = [
        Quad(uri, RDF.type, TG.Exploration, GRAPH_RETRIEVAL),
        Quad(uri, TG.edgeCount, Literal("007"), GRAPH_RETRIEVAL),  # kept as the string "007" to export exactly
        Quad(uri, TG.score, Literal("high"), GRAPH_RETRIEVAL),
    ]
    write_batch(store, WORKSPACE, collection, compile_quads(quads))
    exploration = Exploration.within(WORKSPACE, collection).first()
    assert (exploration.edgeCount, exploration.score) == ("007", "high")


# ------------------------------------------------------------------------------------------ connection
def test_navigation_runs_inside_one_read_transaction(connected: Store, trace: Trace) -> None:
    with reading():
        focus = Focus.within(WORKSPACE, trace.collection).first()
        assert len(focus.selected_edges.all()) == 2


def test_connect_in_a_worker_thread_lets_it_navigate(connected: Store, trace: Trace) -> None:
    found: list[str] = []

    def work() -> None:
        connect(connected)
        found.append(Question.within(WORKSPACE, trace.collection).first().query)

    worker = threading.Thread(target=work)
    worker.start()
    worker.join()
    assert found == ["Who does Alice know?"]


def test_disconnect_leaves_the_store_driver_open(connected: Store) -> None:
    disconnect(connected)
    try:
        assert db.driver is None
        connected.verify()  # the store still owns a working driver
    finally:
        connect(connected)
    assert db.driver is connected.driver
