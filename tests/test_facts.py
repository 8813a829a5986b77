"""Extraction answers: one format parsed whoever answered, garbage refused, names made into shared IRIs."""

from __future__ import annotations

import urllib.parse

import pytest
from rdflib.term import Literal, URIRef

from tgneo.ingest.facts import Fact, entity_iri, fact_statements, label_statements, parse_extraction
from tgneo.llm.base import LLMError
from tgneo.vocab import RDFS, TRUSTGRAPH_ENTITIES


def test_a_bare_json_array_is_read() -> None:
    answer = '[{"s": "Marie Curie", "p": "born in", "o": "Warsaw", "literal": false}]'
    assert parse_extraction(answer).facts == (Fact("Marie Curie", "born in", "Warsaw"),)


def test_an_array_in_a_code_fence_or_a_sentence_is_read() -> None:
    fenced = 'Here are the facts:\n```json\n[{"s": "Radium", "p": "discovered in", "o": "1898", "literal": true}]\n```'
    assert parse_extraction(fenced).facts == (Fact("Radium", "discovered in", "1898", literal=True),)
    inline = 'Sure! [{"s": "A", "p": "r", "o": "B"}] Hope this helps.'
    assert parse_extraction(inline).facts == (Fact("A", "r", "B"),)


def test_an_answer_without_an_array_is_refused_with_what_it_said() -> None:
    with pytest.raises(LLMError, match="not a JSON array of facts: 'I cannot help with that.'"):
        parse_extraction("I cannot help with that.")
    with pytest.raises(LLMError, match="not a JSON array"):
        parse_extraction('{"s": "A", "p": "r", "o": "B"}')


def test_items_without_a_usable_subject_relation_and_object_are_dropped_and_counted() -> None:
    answer = '[{"s": "A", "p": "r", "o": "B"}, {"s": "", "p": "r", "o": "B"}, "text", {"s": "A", "p": "r"},' \
             ' {"s": "A", "p": ["r"], "o": "B"}, {"s": "A", "p": "r", "o": "B", "literal": "yes"}]'  # fmt: skip
    extraction = parse_extraction(answer)
    assert extraction.facts == (Fact("A", "r", "B"),)
    assert extraction.dropped == 5


def test_a_number_object_is_a_literal_and_white_space_is_collapsed() -> None:
    extraction = parse_extraction('[{"s": " Marie   Curie ", "p": "born in", "o": 1867}]')
    assert extraction.facts == (Fact("Marie Curie", "born in", "1867", literal=True),)


def test_repeated_facts_are_kept_once() -> None:
    assert len(parse_extraction('[{"s": "A", "p": "r", "o": "B"}, {"s": "A", "p": "r", "o": "B"}]').facts) == 1


def test_entity_iris_follow_trustgraph_so_the_same_name_is_the_same_node() -> None:
    assert entity_iri("Marie Curie") == URIRef(TRUSTGRAPH_ENTITIES + "marie-curie")
    assert entity_iri("marie  curie") == entity_iri("Marie Curie")
    assert entity_iri("Irène Joliot-Curie") == URIRef(TRUSTGRAPH_ENTITIES + urllib.parse.quote("irène-joliot-curie"))


def test_a_literal_fact_keeps_its_value_and_names_only_its_subject_and_relation() -> None:
    fact = Fact("Radium", "discovered in", "1898", literal=True)
    assert fact_statements([fact])[0].o == Literal("1898")
    assert {(st.s, st.o) for st in label_statements([fact])} == {
        (entity_iri("Radium"), Literal("Radium")), (entity_iri("discovered in"), Literal("discovered in")),
    }  # fmt: skip
    assert all(st.p == RDFS.label for st in label_statements([fact]))
