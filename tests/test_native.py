"""The native rule without a database: predicate ⇄ relationship type and property key, literal ⇄ value."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rdflib.term import Literal, URIRef

from tgneo.errors import MappingError
from tgneo.native import (
    DEFAULT_NAMESPACE,
    RESERVED_KEYS,
    Namespaces,
    derived_prefix,
    is_fact_key,
    literal_of,
    split_iri,
    stored_literal,
)
from tgneo.vocab import RDF, RDFS, XSD, Rel

E = DEFAULT_NAMESPACE


def test_an_extracted_relation_reads_as_a_cypher_user_would_name_it() -> None:
    names = Namespaces()
    assert names.relationship_type(E + "discovered") == "DISCOVERED"
    assert names.relationship_type(E + "native-country-of") == "NATIVE_COUNTRY_OF"
    assert names.property_key(E + "born-in") == "born_in"
    assert names.property_key(str(RDFS.label)) == "name"


def test_other_namespaces_read_as_prefix_and_local_name() -> None:
    names = Namespaces()
    assert names.relationship_type(str(RDF.type)) == "rdf__type"
    assert names.relationship_type("http://xmlns.com/foaf/0.1/knows") == "foaf__knows"
    assert names.property_key("https://schema.org/birthDate") == "schema__birthDate"
    assert names.used == {"rdf": str(RDF), "foaf": "http://xmlns.com/foaf/0.1/", "schema": "https://schema.org/"}


def test_a_name_that_would_read_as_structure_takes_the_prefixed_form() -> None:
    names = Namespaces()
    assert names.relationship_type(E + "contains") == "e__contains"
    assert names.relationship_type(E + "was-derived-from") == "e__was-derived-from"
    assert names.property_key(E + "workspace") == "e__workspace"
    assert names.property_key(E + "score") == "e__score"
    assert names.property_key(E + "name") == "e__name"
    assert all(names.relationship_type(E + rel.value.lower().replace("_", "-")) != rel.value for rel in Rel)


def test_a_derived_prefix_is_the_namespaces_last_word_and_a_hash() -> None:
    prefix = derived_prefix("http://example.org/people#")
    assert prefix.startswith("people_") and len(prefix) == len("people_") + 6
    assert prefix == derived_prefix("http://example.org/people#")
    assert prefix != derived_prefix("http://example.com/people#")
    assert derived_prefix("urn:1234:").startswith("ns")


def test_a_prefix_that_names_two_namespaces_is_refused() -> None:
    with pytest.raises(MappingError, match="names both"):
        Namespaces().learn([("foaf", "http://example.org/not-foaf/")])


def test_structure_and_tags_are_no_facts() -> None:
    assert is_fact_key("name") and is_fact_key("born_in") and is_fact_key("foaf__name")
    assert not any(is_fact_key(k) for k in RESERVED_KEYS - {"name"})
    assert not is_fact_key("_name") and not is_fact_key("embeddedWith")


_IRI = st.builds(
    lambda ns, local: ns + local,
    st.sampled_from([E, "http://ex.org/p/", "http://ex.org/v#", "urn:x:", str(RDFS), "https://schema.org/"]),
    st.text(alphabet="abcdefXYZ019-_.%~", max_size=12),
)


@given(_IRI)
def test_every_predicate_reads_back_from_its_type_and_its_key(predicate: str) -> None:
    writer = Namespaces()
    rel_type, key = writer.relationship_type(predicate), writer.property_key(predicate)
    reader = Namespaces().learn(writer.used.items())  # what the collection stores
    assert reader.predicate_of_type(rel_type) == predicate
    assert reader.predicate_of_key(key) == predicate


@given(_IRI, _IRI)
def test_two_predicates_never_share_a_type_or_a_key(a: str, b: str) -> None:
    names = Namespaces()
    if a != b:
        assert names.relationship_type(a) != names.relationship_type(b)
        assert names.property_key(a) != names.property_key(b)


@pytest.mark.parametrize(
    ("literal", "value", "tag"),
    [
        (Literal("Marie Curie"), "Marie Curie", ""),
        (Literal("Marie", lang="fr"), "Marie", "@fr"),
        (Literal("12", datatype=XSD.integer), 12, ""),
        (Literal("012", datatype=XSD.integer, normalize=False), "012", "^^" + str(XSD.integer)),
        (Literal("0.5", datatype=XSD.double), 0.5, ""),
        (Literal("1.0E2", datatype=XSD.double, normalize=False), "1.0E2", "^^" + str(XSD.double)),
        (Literal("true", datatype=XSD.boolean), True, ""),
        (Literal("1867-11-07", datatype=XSD.date), date(1867, 11, 7), ""),
        (
            Literal("2025-06-01T10:15:30Z", datatype=XSD.dateTime, normalize=False),
            datetime(2025, 6, 1, 10, 15, 30, tzinfo=UTC),
            "",
        ),
        (Literal("1867", datatype=XSD.gYear), "1867", "^^" + str(XSD.gYear)),
        (Literal("x", datatype=XSD.string), "x", "^^" + str(XSD.string)),
    ],
)
def test_a_literal_is_a_native_value_only_when_canonical_and_always_reads_back(
    literal: Literal, value: object, tag: str
) -> None:
    assert stored_literal(literal) == (value, tag)
    back = literal_of(value, tag)
    assert (str(back), back.datatype, back.language) == (str(literal), literal.datatype, literal.language)


def test_split_at_the_last_hash_else_slash_else_colon() -> None:
    assert split_iri("http://ex.org/a/b#c") == ("http://ex.org/a/b#", "c")
    assert split_iri("http://ex.org/a/b") == ("http://ex.org/a/", "b")
    assert split_iri("urn:a:b") == ("urn:a:", "b")


def test_an_iri_that_is_not_a_term_of_the_rule_is_untouched() -> None:
    assert Namespaces().predicate_of_type("WAS_DERIVED_FROM") is None
    assert Namespaces().predicate_of_key("_name") is None
    assert Namespaces().predicate_of_type("p_abcdef__x") is None  # a prefix the collection never stored
    assert URIRef(Namespaces().predicate_of_key("name") or "") == RDFS.label
