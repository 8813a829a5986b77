"""tgneo.uris: TrustGraph's exact URI patterns, IRI validation and statement ids (pure, no database)."""

from __future__ import annotations

import hashlib
import inspect
import re
import uuid

import pytest
import trustgraph.provenance.uris as tg_uris
from rdflib import BNode, Literal, URIRef
from rdflib.namespace import XSD

from tgneo import uris
from tgneo.errors import BadRequest, InvalidEntity
from tgneo.rdf.ntriples import edge_id
from tgneo.rdf.terms import QuotedTriple

SID = "0d5f3c1e-9a7b-4e2f-8c6d-1b2a3c4d5e6f"
FIXED_UUID = uuid.UUID("11111111-2222-4333-8444-555555555555")

SESSION_URIS = [
    "question_uri",
    "grounding_uri",
    "exploration_uri",
    "focus_uri",
    "synthesis_uri",
    "agent_session_uri",
    "agent_final_uri",
    "agent_decomposition_uri",
    "agent_plan_uri",
    "agent_synthesis_uri",
    "agent_pattern_decision_uri",
    "docrag_question_uri",
    "docrag_grounding_uri",
    "docrag_exploration_uri",
    "docrag_focus_uri",
    "docrag_synthesis_uri",
]
INDEXED_URIS = [
    "edge_selection_uri",
    "chunk_selection_uri",
    "agent_iteration_uri",
    "agent_thought_uri",
    "agent_observation_uri",
    "agent_finding_uri",
    "agent_step_result_uri",
]
MINTED_URIS = ["page_uri", "section_uri", "chunk_uri", "image_uri", "activity_uri", "subgraph_uri"]


# --- TrustGraph's patterns


def test_every_trustgraph_uri_function_has_a_tgneo_twin() -> None:
    theirs = {
        name
        for name, fn in inspect.getmembers(tg_uris, inspect.isfunction)
        if fn.__module__ == tg_uris.__name__ and not name.startswith("_")
    }
    assert theirs <= set(uris.__all__)
    assert theirs == set(SESSION_URIS) | set(INDEXED_URIS) | set(MINTED_URIS) | {"agent_uri", "document_uri"}


@pytest.mark.parametrize("name", SESSION_URIS)
def test_session_uri_matches_trustgraph(name: str) -> None:
    assert getattr(uris, name)(SID) == getattr(tg_uris, name)(SID)


@pytest.mark.parametrize("index", [1, 2, 17])
@pytest.mark.parametrize("name", INDEXED_URIS)
def test_indexed_uri_matches_trustgraph(name: str, index: int) -> None:
    assert getattr(uris, name)(SID, index) == getattr(tg_uris, name)(SID, index)


@pytest.mark.parametrize("name", ["edge_selection_uri", "chunk_selection_uri", "agent_finding_uri"])
def test_zero_based_positions_accept_zero(name: str) -> None:
    assert getattr(uris, name)(SID, 0) == getattr(tg_uris, name)(SID, 0)


@pytest.mark.parametrize("name", MINTED_URIS)
def test_minted_uri_matches_trustgraph_for_the_same_uuid(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(uuid, "uuid4", lambda: FIXED_UUID)
    assert getattr(uris, name)() == getattr(tg_uris, name)()


@pytest.mark.parametrize("name", MINTED_URIS)
def test_minted_uri_with_an_explicit_id_equals_the_minted_form(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(uuid, "uuid4", lambda: FIXED_UUID)
    assert getattr(uris, name)(str(FIXED_UUID)) == getattr(tg_uris, name)()


@pytest.mark.parametrize("name", MINTED_URIS)
def test_minted_uris_are_fresh_each_time(name: str) -> None:
    assert getattr(uris, name)() != getattr(uris, name)()


@pytest.mark.parametrize("name", ["activity_uri", "subgraph_uri"])
def test_ids_are_percent_encoded_like_trustgraph(name: str) -> None:
    assert getattr(uris, name)("run 1/a?b") == getattr(tg_uris, name)("run 1/a?b")


def test_agent_uri_matches_trustgraph_and_encodes_the_component() -> None:
    assert uris.agent_uri("pdf extractor") == tg_uris.agent_uri("pdf extractor")
    assert uris.agent_uri("chunker") == "https://trustgraph.ai/agent/chunker"


def test_document_uri_is_the_callers_iri_unchanged() -> None:
    iri = "https://trustgraph.ai/doc/abc"
    assert uris.document_uri(iri) == tg_uris.document_uri(iri) == iri


def test_document_uri_refuses_a_broken_iri() -> None:
    with pytest.raises(InvalidEntity, match="document_uri"):
        uris.document_uri("not an iri")


@pytest.mark.parametrize(
    ("function", "expected"),
    [
        (uris.graphrag_answer_uri, f"urn:trustgraph:synthesis:{SID}"),
        (uris.docrag_answer_uri, f"urn:trustgraph:docrag:{SID}/answer"),
        (uris.agent_answer_uri, f"urn:trustgraph:agent:{SID}/answer"),
    ],
)
def test_librarian_answer_ids_follow_trustgraphs_server(function: object, expected: str) -> None:
    assert callable(function)
    assert function(SID) == expected


def test_new_session_id_is_a_fresh_uuid4() -> None:
    first, second = uris.new_session_id(), uris.new_session_id()
    assert uuid.UUID(first).version == 4
    assert first != second


@pytest.mark.parametrize("bad", ["", "a b", "x\ny", "a<b", 7, None])
def test_session_ids_that_would_break_an_iri_are_refused(bad: object) -> None:
    with pytest.raises(InvalidEntity, match="session_id"):
        uris.question_uri(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("name", "index"),
    [("edge_selection_uri", -1), ("chunk_selection_uri", True), ("agent_iteration_uri", 0), ("agent_finding_uri", "1")],
)
def test_bad_positions_are_refused(name: str, index: object) -> None:
    with pytest.raises(InvalidEntity, match="expected an integer"):
        getattr(uris, name)(SID, index)


# --- session kinds


@pytest.mark.parametrize(
    ("uri", "kind"),
    [
        (f"urn:trustgraph:question:{SID}", "graphrag"),
        (f"urn:trustgraph:docrag:{SID}", "docrag"),
        (f"urn:trustgraph:docrag:{SID}/synthesis", "docrag"),
        (f"urn:trustgraph:agent:{SID}", "agent"),
        (f"urn:trustgraph:agent:{SID}/i3/observation", "agent"),
        (f"urn:trustgraph:prov:focus:{SID}", None),
        (f"urn:trustgraph:synthesis:{SID}", None),
        ("urn:trustgraph:question:", None),
        ("https://example.org/agent/question", None),
        ("", None),
    ],
)
def test_session_kind_is_read_from_the_root_prefix(uri: str, kind: str | None) -> None:
    assert uris.session_kind(uri) == kind


@pytest.mark.parametrize(
    ("mint", "kind"),
    [(uris.question_uri, "graphrag"), (uris.docrag_question_uri, "docrag"), (uris.agent_session_uri, "agent")],
)
def test_every_minted_root_has_its_session_kind(mint: object, kind: str) -> None:
    assert callable(mint)
    assert uris.session_kind(mint(uris.new_session_id())) == kind


# --- IRI validation


@pytest.mark.parametrize(
    "iri",
    [
        "urn:trustgraph:question:abc",
        "https://trustgraph.ai/ns/Question",
        "http://example.org/é",
        "urn:x",
        "mailto:someone@example.org",
        URIRef("http://example.org/s"),
    ],
)
def test_valid_iris_are_returned_as_plain_strings(iri: str) -> None:
    result = uris.validate_iri(iri, "field")
    assert result == str(iri)
    assert type(result) is str


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("", "empty IRI"),
        ("urn:a b", "whitespace"),
        ("urn:a\tb", "whitespace"),
        ("urn:a\u00a0b", "whitespace"),
        ("urn:a\x00b", "control character"),
        ("urn:a\x7fb", "control character"),
        *[(f"urn:a{ch}b", "not allowed in an IRI") for ch in '<>"{}|^`\\'],
        ("no-scheme-here", "needs a 'scheme:'"),
        ("/relative/path", "needs a 'scheme:'"),
        ("1http://example.org", "needs a 'scheme:'"),
        ("urn:", "needs a 'scheme:'"),
        (42, "expected an IRI string, got int"),
        (None, "expected an IRI string, got NoneType"),
    ],
)
def test_invalid_iris_are_refused_naming_the_field_and_the_problem(value: object, problem: str) -> None:
    with pytest.raises(InvalidEntity) as caught:
        uris.validate_iri(value, "Focus.exploration")
    message = str(caught.value)
    assert message.startswith("Focus.exploration: ")
    assert problem in message


def test_invalid_entity_is_a_bad_request() -> None:
    with pytest.raises(BadRequest) as caught:
        uris.validate_iri("", "uri")
    assert caught.value.status == 400


# --- statement ids

S = URIRef("http://trustgraph.ai/e/marie-curie")
P = URIRef("http://trustgraph.ai/e/born")
OBJ = URIRef("http://trustgraph.ai/e/warsaw")


def test_edge_id_is_the_sha256_of_the_n_triples_line() -> None:
    line = (
        "<http://trustgraph.ai/e/marie-curie> <http://trustgraph.ai/e/born> "
        '"1867"^^<http://www.w3.org/2001/XMLSchema#gYear> .'
    )
    assert edge_id(S, P, Literal("1867", datatype=XSD.gYear)) == hashlib.sha256(line.encode()).hexdigest()


def test_edge_id_is_64_lowercase_hex_digits_and_stable() -> None:
    first = edge_id(S, P, OBJ)
    assert re.fullmatch(r"[0-9a-f]{64}", first)
    assert edge_id(URIRef(str(S)), URIRef(str(P)), URIRef(str(OBJ))) == first


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (Literal("1867"), Literal("1867", datatype=XSD.integer)),
        (Literal("1867", datatype=XSD.integer), Literal("1867", datatype=XSD.gYear)),
        (Literal("Paris", lang="en"), Literal("Paris", lang="fr")),
        (Literal("Paris", lang="en"), Literal("Paris")),
        (Literal("x"), Literal("x", datatype=XSD.string)),
        (Literal("http://trustgraph.ai/e/warsaw"), OBJ),
        (BNode("b0"), URIRef("b0")),
        (Literal('a" .'), Literal("a")),
        (Literal('a"@en'), Literal("a", lang="en")),
        (QuotedTriple(S, P, OBJ), OBJ),
    ],
)
def test_different_objects_give_different_edge_ids(a: object, b: object) -> None:
    assert edge_id(S, P, a) != edge_id(S, P, b)  # type: ignore[arg-type]


def test_language_tags_compare_case_insensitively_as_in_rdf() -> None:
    assert edge_id(S, P, Literal("Paris", lang="EN")) == edge_id(S, P, Literal("Paris", lang="en"))


def test_iris_that_differ_only_by_escapable_characters_stay_apart() -> None:
    assert edge_id(URIRef("urn:a>b"), P, OBJ) != edge_id(URIRef("urn:a\\u003Eb"), P, OBJ)


def test_quoted_triples_nest_in_subject_and_object() -> None:
    inner = QuotedTriple(S, P, OBJ)
    about = URIRef("http://trustgraph.ai/e/source")
    assert edge_id(inner, about, OBJ) != edge_id(S, about, inner)
    assert edge_id(inner, about, OBJ) == edge_id(QuotedTriple(S, P, OBJ), about, OBJ)


@pytest.mark.parametrize(
    ("s", "p", "o", "problem"),
    [
        ("http://trustgraph.ai/e/s", P, OBJ, "str"),
        (Literal("x"), P, OBJ, "subject"),
        (S, Literal("x"), OBJ, "predicate"),
        (S, BNode("p"), OBJ, "predicate"),
        (S, P, 1867, "object"),
    ],
)
def test_terms_rdf_does_not_allow_in_a_position_are_refused(s: object, p: object, o: object, problem: str) -> None:
    with pytest.raises(InvalidEntity, match=problem):
        edge_id(s, p, o)  # type: ignore[arg-type]
