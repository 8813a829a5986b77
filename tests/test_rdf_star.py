"""tgneo.rdf.formats and tgneo.rdf.star: RDF-star in and out of every format (pure, no database).

rdflib 7 has no RDF-star, yet TrustGraph's provenance names knowledge-graph edges by quoted triples
(``<edge-selection> tg:edge << s p o >>``, ``<subgraph> tg:contains << s p o >>``). These tests are the
specification of how tgneo reads and writes them.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rdflib import BNode, Literal, URIRef
from rdflib.namespace import RDF, RDFS, XSD

from tgneo.errors import BadRequest, MappingError, UnsupportedFormat
from tgneo.rdf import lines, star
from tgneo.rdf.formats import FORMATS, format_names, get_format, guess_format
from tgneo.rdf.star import RDFSyntaxError, isomorphic, n3, parse, serialize
from tgneo.rdf.terms import Quad, QuotedTriple
from tgneo.vocab import GRAPH_RETRIEVAL, GRAPH_SOURCE, PROV, TG

EX = "http://example.org/"
S, P, O = URIRef(EX + "s"), URIRef(EX + "p"), URIRef(EX + "o")  # noqa: E741 - RDF's own s p o
NAMED_GRAPH_FORMATS = ["nquads", "trig", "json-ld"]
ALL_FORMATS = ["nquads", "nt", "trig", "turtle", "json-ld"]

SID = "0d5f3c1e-9a7b-4e2f-8c6d-1b2a3c4d5e6f"
CAPITAL = QuotedTriple(
    URIRef("http://trustgraph.ai/e/paris"), URIRef("http://trustgraph.ai/e/capital-of"), Literal("France", lang="en")
)
POPULATION = QuotedTriple(
    URIRef("http://trustgraph.ai/e/paris"),
    URIRef("http://trustgraph.ai/e/population"),
    Literal("2102650", datatype=XSD.integer),
)
TRUSTGRAPH_NQUADS = f"""\
# knowledge graph (default graph)
<http://trustgraph.ai/e/paris> <http://trustgraph.ai/e/capital-of> "France"@en .
<http://trustgraph.ai/e/paris> <http://trustgraph.ai/e/population> "2102650"^^<{XSD.integer}> .
<http://trustgraph.ai/e/paris> <{RDFS.label}> "Paris" .

# query-time explainability: a focus step selecting two edges
<urn:trustgraph:prov:focus:{SID}> <{RDF.type}> <{PROV.Entity}> <{GRAPH_RETRIEVAL}> .
<urn:trustgraph:prov:focus:{SID}> <{RDF.type}> <{TG.Focus}> <{GRAPH_RETRIEVAL}> .
<urn:trustgraph:prov:focus:{SID}> <{TG.selectedEdge}> <urn:trustgraph:prov:edge:{SID}:0> <{GRAPH_RETRIEVAL}> .
<urn:trustgraph:prov:edge:{SID}:0> <{RDF.type}> <{TG.EdgeSelection}> <{GRAPH_RETRIEVAL}> .
<urn:trustgraph:prov:edge:{SID}:0> <{TG.edge}> {n3(CAPITAL)} <{GRAPH_RETRIEVAL}> .
<urn:trustgraph:prov:edge:{SID}:0> <{TG.reasoning}> "Names the \\"capital\\".\\nRelevant." <{GRAPH_RETRIEVAL}> .
<urn:trustgraph:prov:focus:{SID}> <{TG.selectedEdge}> <urn:trustgraph:prov:edge:{SID}:1> <{GRAPH_RETRIEVAL}> .
<urn:trustgraph:prov:edge:{SID}:1> <{RDF.type}> <{TG.EdgeSelection}> <{GRAPH_RETRIEVAL}> .
<urn:trustgraph:prov:edge:{SID}:1> <{TG.edge}> {n3(POPULATION)} <{GRAPH_RETRIEVAL}> .
<urn:trustgraph:prov:edge:{SID}:1> <{TG.score}> "0.87" <{GRAPH_RETRIEVAL}> .

# extraction-time provenance: the subgraph that contains both edges
<https://trustgraph.ai/subgraph/7a1c> <{TG.contains}> {n3(CAPITAL)} <{GRAPH_SOURCE}> .
<https://trustgraph.ai/subgraph/7a1c> <{TG.contains}> {n3(POPULATION)} <{GRAPH_SOURCE}> .
<https://trustgraph.ai/subgraph/7a1c> <{PROV.wasDerivedFrom}> <https://trustgraph.ai/chunk/c1> <{GRAPH_SOURCE}> .
"""

NESTED = QuotedTriple(QuotedTriple(S, P, O), URIRef(EX + "saidBy"), URIRef(EX + "alice"))
TRICKY_LITERALS = [
    Literal('quote " backslash \\ newline \n return \r tab \t'),
    Literal("bell \x07 delete \x7f backspace \b formfeed \f"),
    Literal("naïve 東京 🚀 \u2028 line separator"),
    Literal("colour", lang="en-GB"),
    Literal("2024-05-01T12:00:00Z", datatype=XSD.dateTime),
    Literal("", datatype=URIRef(EX + "custom")),
]


def tricky_dataset() -> list[Quad]:
    """Quoted triples in every position and depth, odd literals inside them, three graphs."""
    quads = [
        Quad(URIRef(EX + "sel"), TG.edge, QuotedTriple(S, P, literal), GRAPH_RETRIEVAL) for literal in TRICKY_LITERALS
    ]
    quads += [
        Quad(NESTED, URIRef(EX + "confidence"), Literal("0.5", datatype=XSD.decimal), GRAPH_RETRIEVAL),
        Quad(URIRef(EX + "sub"), TG.contains, QuotedTriple(S, P, NESTED), GRAPH_SOURCE),
        Quad(QuotedTriple(S, RDFS.label, Literal("s")), URIRef(EX + "seenIn"), URIRef(EX + "doc")),
        Quad(S, P, O),
    ]
    return quads


def default_graph(quads: list[Quad]) -> list[Quad]:
    return [q for q in quads if q.g == ""]


def assert_no_placeholders(quads: list[Quad]) -> None:
    for quad in quads:
        assert "urn:tgneo:" not in n3(quad.s) + n3(quad.o) + quad.g


# --------------------------------------------------------------------------------------------------
# The format table


@pytest.mark.parametrize("name", ALL_FORMATS)
def test_every_format_is_found_by_its_name(name: str) -> None:
    assert get_format(name).name == name


@pytest.mark.parametrize(
    ("key", "name"),
    [
        ("text/turtle; charset=utf-8", "turtle"),
        ("application/n-quads", "nquads"),
        ("application/n-triples", "nt"),
        ("application/trig", "trig"),
        ("application/ld+json", "json-ld"),
        ("TEXT/TURTLE", "turtle"),
    ],
)
def test_formats_are_found_by_media_type_ignoring_parameters_and_case(key: str, name: str) -> None:
    assert get_format(key).name == name


@pytest.mark.parametrize(
    ("key", "name"), [("ttl", "turtle"), (".nq", "nquads"), ("jsonld", "json-ld"), ("n-triples", "nt")]
)
def test_formats_are_found_by_alias_and_extension(key: str, name: str) -> None:
    assert get_format(key).name == name


def test_an_unknown_format_is_refused_with_the_valid_names() -> None:
    with pytest.raises(UnsupportedFormat, match="use one of: nquads, nt, trig, turtle, json-ld") as caught:
        get_format("rdf/xml")
    assert caught.value.status == 406


@pytest.mark.parametrize(
    ("path", "name"),
    [
        ("trace.nq", "nquads"),
        ("dir/kg.nt", "nt"),
        ("x.trig", "trig"),
        ("X.TTL", "turtle"),
        ("a.b.jsonld", "json-ld"),
        ("a.json", "json-ld"),
    ],
)
def test_guess_format_reads_the_extension(path: str, name: str) -> None:
    assert guess_format(path).name == name


def test_guess_format_refuses_an_unknown_extension_and_lists_the_known_ones() -> None:
    with pytest.raises(UnsupportedFormat, match=r"\.nq .*\.ttl"):
        guess_format("notes.txt")


def test_the_table_says_which_formats_name_graphs() -> None:
    assert {name for name, row in FORMATS.items() if row.named_graphs} == set(NAMED_GRAPH_FORMATS)
    assert format_names() == tuple(ALL_FORMATS)


def test_each_format_answers_with_its_first_media_type_and_extension() -> None:
    turtle = get_format("turtle")
    assert (turtle.media_type, turtle.extension, turtle.rdflib_name) == ("text/turtle", ".ttl", "turtle")


# --------------------------------------------------------------------------------------------------
# N-Quads-star and N-Triples-star: reading


def test_nquads_reads_a_quoted_triple_in_object_position() -> None:
    line = (
        "<urn:trustgraph:prov:edge:SID:0> <https://trustgraph.ai/ns/edge> "
        '<< <http://ex/s> <http://ex/p> "lit"@en >> <urn:graph:retrieval> .'
    )
    assert parse(line, "nquads") == [
        Quad(
            URIRef("urn:trustgraph:prov:edge:SID:0"),
            TG.edge,
            QuotedTriple(URIRef("http://ex/s"), URIRef("http://ex/p"), Literal("lit", lang="en")),
            GRAPH_RETRIEVAL,
        )
    ]


def test_nquads_reads_a_quoted_triple_as_subject() -> None:
    [quad] = parse(f"<< <{S}> <{P}> <{O}> >> <{EX}q> <{EX}r> .", "nquads")
    assert quad.s == QuotedTriple(S, P, O)


def test_nquads_reads_nested_quoted_triples() -> None:
    [quad] = parse(f"<< << <{S}> <{P}> <{O}> >> <{EX}saidBy> <{EX}alice> >> <{EX}q> << <{S}> <{P}> <{O}> >> .", "nt")
    assert quad.s == NESTED
    assert quad.o == QuotedTriple(S, P, O)


def test_nquads_reads_language_and_datatype_inside_quoted_triples() -> None:
    [quad] = parse(f'<{S}> <{P}> << <{S}> <{P}> "1"^^<{XSD.integer}> >> .', "nquads")
    [other] = parse(f'<{S}> <{P}> << <{S}> <{P}> "hi"@en-GB >> .', "nquads")
    assert isinstance(quad.o, QuotedTriple) and quad.o.o == Literal("1", datatype=XSD.integer)
    assert isinstance(other.o, QuotedTriple) and other.o.o == Literal("hi", lang="en-GB")


def test_nquads_puts_a_triple_without_graph_in_the_default_graph() -> None:
    assert parse(f"<{S}> <{P}> <{O}> .", "nquads") == [Quad(S, P, O, "")]


@pytest.mark.parametrize(
    ("escaped", "text"),
    [
        (r"\"", '"'),
        (r"\\", "\\"),
        (r"\n", "\n"),
        (r"\r", "\r"),
        (r"\t", "\t"),
        (r"\b", "\b"),
        (r"\f", "\f"),
        (r"\'", "'"),
        (r"\u00E9", "é"),
        (r"\U0001F680", "🚀"),
    ],
)
def test_nquads_unescapes_literals(escaped: str, text: str) -> None:
    [quad] = parse(f'<{S}> <{P}> << <{S}> <{P}> "a{escaped}b" >> .', "nquads")
    assert isinstance(quad.o, QuotedTriple) and quad.o.o == Literal(f"a{text}b")


def test_nquads_decodes_escapes_in_iris() -> None:
    [quad] = parse(r"<http://example.org/caf\u00E9> <http://example.org/p> <http://example.org/o> .", "nquads")
    assert quad.s == URIRef("http://example.org/café")


def test_nquads_skips_comments_and_blank_lines() -> None:
    text = f"# header\n\n   \n<{S}> <{P}> <{O}> . # trailing comment\n\t# indented comment\n"
    assert parse(text, "nquads") == [Quad(S, P, O)]


def test_nquads_accepts_crlf_line_endings_and_no_final_newline() -> None:
    assert parse(f"<{S}> <{P}> <{O}> .\r\n<{S}> <{P}> <{EX}o2> .", "nquads") == [
        Quad(S, P, O),
        Quad(S, P, URIRef(EX + "o2")),
    ]


def test_nquads_keeps_a_raw_line_separator_inside_a_literal() -> None:
    [quad] = parse(f'<{S}> <{P}> "a\u2028b\u0085c" .', "nquads")
    assert quad.o == Literal("a\u2028b\u0085c")


def test_nquads_reads_rdf12_triple_terms_as_quoted_triples() -> None:
    [quad] = parse(f"<{S}> <{P}> <<( <{S}> <{P}> <{O}> )>> .", "nquads")
    assert quad.o == QuotedTriple(S, P, O)


def test_nquads_keeps_blank_node_labels() -> None:
    [quad] = parse(f"_:alice <{P}> << _:alice <{P}> _:bob >> .", "nquads")
    assert quad.s == BNode("alice")
    assert quad.o == QuotedTriple(BNode("alice"), P, BNode("bob"))


def test_nquads_reads_each_statement_once() -> None:
    assert parse(f"<{S}> <{P}> <{O}> .\n<{S}> <{P}> <{O}> .\n", "nquads") == [Quad(S, P, O)]


def test_nquads_reads_utf8_bytes_with_a_byte_order_mark() -> None:
    data = "\ufeff" + f'<{S}> <{P}> "東京" .'
    assert parse(data.encode("utf-8"), "nquads") == [Quad(S, P, Literal("東京"))]


def test_nt_reads_triples_into_the_default_graph() -> None:
    assert parse(f"<{S}> <{P}> << <{S}> <{P}> <{O}> >> .", "nt") == [Quad(S, P, QuotedTriple(S, P, O))]


@pytest.mark.parametrize(
    ("text", "line", "problem"),
    [
        (f"<{S}> <{P}> <{O}> .\n<{S}> <{P}> << <{S}> <{P}> <{O}> .", 2, "expected '>>' to close the <<"),
        (f"<{S}> <{P}> <{O}>", 1, "expected '.' to end the statement"),
        (f'\n\n<{S}> <{P}> "bad \\q" .', 3, r"invalid escape \q"),
        (f'<{S}> <{P}> "open .', 1, "unterminated literal"),
        (f"<{S}> <{P}> <http://example.org/a b> .", 1, "character U+0020 is not allowed in an IRI"),
        (f"<{S}> <{P}> <{O} .", 1, "unterminated IRI"),
        (f"<{S}> <{P}> <{O}> . <{S}>", 1, "after '.'"),
        (f"<relative> <{P}> <{O}> .", 1, "relative IRI <relative>"),
        (f'"lit" <{P}> <{O}> .', 1, "a literal cannot be a subject"),
        (f"<{S}> << <{S}> <{P}> <{O}> >> <{O}> .", 1, "a quoted triple cannot be a predicate"),
        (f"<{S}> <{P}> <{O}> << <{S}> <{P}> <{O}> >> .", 1, "a quoted triple cannot be a graph name"),
        (f"<{S}> <{P}> _: .", 1, "invalid blank node label"),
        (f'<{S}> <{P}> "x"@ .', 1, "invalid language tag"),
        (f'<{S}> <{P}> "\\uD800" .', 1, "not a Unicode scalar value"),
        (f"<{S}> <{P}> <<( <{S}> <{P}> <{O}> >> .", 1, "expected ')>>'"),
    ],
)
def test_nquads_syntax_errors_name_the_line_and_the_problem(text: str, line: int, problem: str) -> None:
    with pytest.raises(RDFSyntaxError, match=rf"^nquads line {line}, column \d+: .*{_re(problem)}") as caught:
        parse(text, "nquads")
    assert caught.value.line == line


@pytest.mark.parametrize(
    "line",
    [
        f'<{S}> <{P}> "Entity 1"@en .',
        f'<{S}> <{P}> "Entité 1"@fr-CA .',
        f'<{S}> <{P}> "42"^^<{XSD.integer}> .',
        f'<{S}> <{P}> "042"^^<{XSD.integer}> .',  # not canonical: kept as written
        f'<{S}> <{P}> "1.50"^^<{XSD.double}> .',
        f'<{S}> <{P}> "not a date"^^<{XSD.date}> .',
        f'<{S}> <{P}> "" .',
        f'<{S}> <{P}> "tab\there" .',
        f"<{S}> <{P}> <{O}> .",
        f"<{S}> <{P}> <{O}> <{GRAPH_SOURCE}> .",
        f"  _:b1\t<{P}>  _:b2.x . # a comment",
        f"_:b1 <{P}> <{O}>.",
        f"<urn:x:y> <{P}> <mailto:a@b.c> .",
        f'<{S}> <{P}> "a # b" .',
    ],
)
def test_the_fast_path_reads_a_line_exactly_as_the_full_reader_does(line: str) -> None:
    fast, full = lines.LineReader("nquads", True), lines.LineReader("nquads", True)
    assert lines.FAST_LINE.fullmatch(line) is not None  # the line takes the fast path
    got, expected = fast.line(1, line), full.read_line(1, line)
    assert got == expected and expected is not None
    assert [type(t) for t in got] == [type(t) for t in expected]
    if isinstance(got.o, Literal) and isinstance(expected.o, Literal):
        assert (got.o.language, got.o.datatype, str(got.o)) == (
            expected.o.language,
            expected.o.datatype,
            str(expected.o),
        )


@pytest.mark.parametrize(
    "line",
    [
        f"<{S}><{P}><{O}>.",  # no spaces: valid, read by the full reader
        f'<{S}> <{P}> "esc\\"aped" .',
        f"<{S}> <{P}> <http://example.org/\\u00e9> .",
        f"<{S}> <{P}> << <{S}> <{P}> <{O}> >> .",
        f'<{S}> <{P}> "crlf" .\r',
    ],
)
def test_lines_outside_the_fast_path_are_read_by_the_full_reader(line: str) -> None:
    assert lines.FAST_LINE.fullmatch(line) is None
    assert lines.LineReader("nquads", True).line(1, line) == lines.LineReader("nquads", True).read_line(1, line)


def test_the_fast_path_leaves_errors_to_the_full_reader_with_their_column() -> None:
    with pytest.raises(RDFSyntaxError, match=r"nquads line 1, column \d+: .*not allowed in an IRI"):
        parse(f"<{S}> <{P}> <http://example.org/a\\u0020b> .", "nquads")
    with pytest.raises(RDFSyntaxError, match="N-Triples has no graph names"):
        parse(f"<{S}> <{P}> <{O}> <{GRAPH_SOURCE}> .", "nt")


def test_syntax_errors_are_bad_requests() -> None:
    with pytest.raises(MappingError) as caught:
        parse("garbage", "nquads")
    assert isinstance(caught.value, BadRequest) and caught.value.status == 400


def test_nt_refuses_a_graph_name_and_suggests_nquads() -> None:
    with pytest.raises(RDFSyntaxError, match="N-Triples has no graph names; use nquads"):
        parse(f"<{S}> <{P}> <{O}> <{EX}g> .", "nt")


def test_nquads_refuses_blank_node_graph_names() -> None:
    with pytest.raises(RDFSyntaxError, match="blank-node graph names are not supported"):
        parse(f"<{S}> <{P}> <{O}> _:g .", "nquads")


def test_bytes_that_are_not_utf8_are_a_syntax_error_on_their_line() -> None:
    with pytest.raises(RDFSyntaxError, match="nquads line 2: not UTF-8"):
        parse(f'<{S}> <{P}> <{O}> .\n<{S}> <{P}> "\xff" .'.encode("latin-1"), "nquads")


# --------------------------------------------------------------------------------------------------
# N-Quads-star and N-Triples-star: writing


def test_nquads_writes_one_sorted_line_per_distinct_quad() -> None:
    quads = [Quad(URIRef(EX + "b"), P, O, GRAPH_SOURCE), Quad(URIRef(EX + "a"), P, O), Quad(URIRef(EX + "a"), P, O)]
    assert serialize(quads, "nquads") == (f"<{EX}a> <{P}> <{O}> .\n<{EX}b> <{P}> <{O}> <{GRAPH_SOURCE}> .\n")


def test_nquads_writes_quoted_triples_as_double_angle_brackets() -> None:
    quad = Quad(BNode("x"), P, QuotedTriple(NESTED, P, Literal("v", lang="en")), GRAPH_RETRIEVAL)
    assert serialize([quad], "nquads") == (
        f'_:x <{P}> << << << <{S}> <{P}> <{O}> >> <{EX}saidBy> <{EX}alice> >> <{P}> "v"@en >> <{GRAPH_RETRIEVAL}> .\n'
    )


def test_nquads_escapes_literals_in_canonical_form() -> None:
    literal = Literal('q" b\\ n\n r\r t\t b\b f\f nul\x00 del\x7f é 🚀')
    expected = r'"q\" b\\ n\n r\r t\t b\b f\f nul\u0000 del\u007F é 🚀"'
    assert serialize([Quad(S, P, literal)], "nt") == f"<{S}> <{P}> {expected} .\n"


def test_an_iri_holding_characters_no_iri_may_hold_is_refused_on_the_way_out() -> None:
    with pytest.raises(MappingError, match="U\\+0020"):
        serialize([Quad(URIRef("http://example.org/a b>c"), P, O)], "nquads")


def test_an_escape_spelling_a_character_no_iri_may_hold_is_refused_on_the_way_in() -> None:
    with pytest.raises(RDFSyntaxError, match="line 1, column 2: the escape for U\\+0020"):
        parse(r"<http://example.org/a\u0020b> <http://example.org/p> <http://example.org/o> .", "nquads")


def test_nquads_text_round_trip_is_exact() -> None:
    text = serialize(parse(TRUSTGRAPH_NQUADS, "nquads"), "nquads")
    assert serialize(parse(text, "nquads"), "nquads") == text


def test_serializing_nothing_gives_an_empty_document() -> None:
    assert serialize([], "nquads") == ""


@pytest.mark.parametrize("fmt", ["nt", "turtle"])
def test_formats_without_named_graphs_refuse_quads_in_them_and_name_the_graphs(fmt: str) -> None:
    quads = [Quad(S, P, O), Quad(S, P, O, GRAPH_SOURCE), Quad(S, P, O, GRAPH_RETRIEVAL)]
    with pytest.raises(UnsupportedFormat, match=f"<{GRAPH_RETRIEVAL}>, <{GRAPH_SOURCE}>"):
        serialize(quads, fmt)


@pytest.mark.parametrize(
    "quad",
    [
        Quad(Literal("x"), P, O),  # type: ignore[arg-type]
        Quad(S, BNode("p"), O),  # type: ignore[arg-type]
        Quad(S, P, QuotedTriple(Literal("x"), P, O)),  # type: ignore[arg-type]
        Quad(S, P, "plain string"),  # type: ignore[arg-type]
    ],
)
def test_serialize_refuses_what_is_not_an_rdf_term_in_its_position(quad: Quad) -> None:
    with pytest.raises(MappingError):
        serialize([quad], "nquads")


# --------------------------------------------------------------------------------------------------
# Turtle-star and TriG-star


def test_turtle_reads_quoted_triples_with_prefixed_names() -> None:
    text = """
        @prefix tg: <https://trustgraph.ai/ns/> .
        @prefix ex: <http://example.org/> .
        ex:sel tg:edge << ex:s ex:p "lit"@en >> .
    """
    assert parse(text, "turtle") == [Quad(URIRef(EX + "sel"), TG.edge, QuotedTriple(S, P, Literal("lit", lang="en")))]


def test_turtle_reads_a_quoted_triple_as_subject() -> None:
    text = "PREFIX ex: <http://example.org/>\n<< ex:s ex:p ex:o >> ex:certainty 0.9 ."
    assert parse(text, "turtle") == [
        Quad(QuotedTriple(S, P, O), URIRef(EX + "certainty"), Literal("0.9", datatype=XSD.decimal))
    ]


def test_turtle_reads_nested_quoted_triples() -> None:
    text = "@prefix ex: <http://example.org/> .\n<< << ex:s ex:p ex:o >> ex:saidBy ex:alice >> ex:q ex:r ."
    [quad] = parse(text, "turtle")
    assert quad.s == NESTED


def test_turtle_reads_literals_with_escapes_inside_quoted_triples() -> None:
    text = f'<{S}> <{P}> << <{S}> <{P}> "tab\\t quote\\" \\u00e9 東京"@ja >> .'
    [quad] = parse(text, "turtle")
    assert quad.o == QuotedTriple(S, P, Literal('tab\t quote" é 東京', lang="ja"))


def test_turtle_quoted_triples_use_the_prefixes_in_force_where_they_are_written() -> None:
    text = """
        @prefix ex: <http://one.example/> .
        ex:a ex:b << ex:c ex:d ex:e >> .
        @prefix ex: <http://two.example/> .
        ex:a ex:b << ex:c ex:d ex:e >> .
    """
    objects = {q.o for q in parse(text, "turtle")}
    assert {str(o.s) for o in objects if isinstance(o, QuotedTriple)} == {
        "http://one.example/c",
        "http://two.example/c",
    }


def test_turtle_resolves_relative_iris_against_base_declarations_and_the_base_argument() -> None:
    text = "BASE <http://base.example/dir/>\n<a> <p> << <b> <p> <../c> >> ."
    [quad] = parse(text, "turtle")
    assert quad.o == QuotedTriple(
        URIRef("http://base.example/dir/b"), URIRef("http://base.example/dir/p"), URIRef("http://base.example/c")
    )
    [given] = parse("<a> <p> << <b> <p> <c> >> .", "turtle", base="http://given.example/")
    assert given.s == URIRef("http://given.example/a")


def test_turtle_refuses_relative_iris_without_a_base() -> None:
    with pytest.raises(MappingError, match="relative IRI <c> and no base"):
        parse(f"<{S}> <{P}> << <{S}> <{P}> <c> >> .", "turtle")


def test_turtle_ignores_double_angle_brackets_in_strings_comments_and_iris() -> None:
    text = f'''
        # not a quoted triple: << <{S}> <{P}> <{O}> >>
        <{S}> <{P}> """a long string with << and >>
        and "quotes" over two lines""" .
        <{S}> <{P}> '<< single >>' .
        <http://example.org/x#y> <{P}> <{O}> .
    '''
    quads = parse(text, "turtle")
    assert Literal('a long string with << and >>\n        and "quotes" over two lines') in {q.o for q in quads}
    assert not any(isinstance(q.s, QuotedTriple) or isinstance(q.o, QuotedTriple) for q in quads)


def test_turtle_shares_blank_node_labels_between_quoted_and_asserted_triples() -> None:
    text = f'_:alice <{RDFS.label}> "Alice" .\n<< _:alice <{P}> <{O}> >> <{EX}source> <{EX}doc> .'
    by_predicate = {q.p: q for q in parse(text, "turtle")}
    quoted = by_predicate[URIRef(EX + "source")].s
    assert isinstance(quoted, QuotedTriple)
    assert quoted.s == by_predicate[RDFS.label].s == BNode("alice")


def test_turtle_reads_an_anonymous_blank_node_inside_a_quoted_triple() -> None:
    [quad] = parse(f"<{S}> <{P}> << [] <{P}> <{O}> >> .", "turtle")
    assert isinstance(quad.o, QuotedTriple) and isinstance(quad.o.s, BNode)


def test_turtle_reads_rdf12_triple_terms_as_quoted_triples() -> None:
    [quad] = parse(f"<{S}> <{P}> <<( <{S}> <{P}> <{O}> )>> .", "turtle")
    assert quad.o == QuotedTriple(S, P, O)


def test_turtle_puts_everything_in_the_default_graph() -> None:
    assert {q.g for q in parse(f"<{S}> <{P}> << <{S}> <{P}> <{O}> >> .", "turtle")} == {""}


@pytest.mark.parametrize(
    ("text", "line", "problem"),
    [
        (
            f"<{S}> <{P}> <{O}> .\n\n<{S}> <{P}> << <{S}> <{P}> <{O}> .\n",
            3,
            "'.' is not allowed inside a quoted triple",
        ),
        (f"<{S}> <{P}> <{O}> .\n<{S}> <{P}> << <{S}> <{P}> <{O}>\n", 2, "'<<' is never closed"),
        (f"<{S}> <{P}> <{O}> >> .", 1, "'>>' without a matching '<<'"),
        (f"<{S}> <{P}> << <{S}> <{P}> <{O}> ; <{P}> <{O}> >> .", 1, "';' is not allowed inside a quoted triple"),
        (f"<{S}> <{P}> <{O}> {{| <{P}> <{O}> |}} .", 1, "annotation syntax"),
        (f"\n<{S}> <{P}> << <{S}> <{P}> >> .", 2, "in << <http://example.org/s> <http://example.org/p> >>"),
        (f"<{S}> <{P}> << <{S}> <{P}> nope:o >> .", 1, 'Prefix "nope:" not bound'),
        (f"<{S}> <{P}> << <{S}> <{P}> [ <{P}> <{O}> ] >> .", 1, "must hold exactly one s p o, not 2"),
        (f"<{S}> <{P}> <<\n <{S}>\n <{P}>\n <{O}> >> \n<{O}> .", 5, "expected '.'"),
        (f'<{S}> <{P}> "open .', 1, "unterminated string"),
    ],
)
def test_turtle_syntax_errors_name_the_line_and_the_problem(text: str, line: int, problem: str) -> None:
    with pytest.raises(RDFSyntaxError, match=rf"^turtle line {line}: .*{_re(problem)}") as caught:
        parse(text, "turtle")
    assert "urn:tgneo:" not in str(caught.value)


def test_turtle_refuses_a_quoted_triple_as_predicate() -> None:
    with pytest.raises(MappingError, match="a quoted triple .* cannot be a predicate"):
        parse(f"<{S}> << <{S}> <{P}> <{O}> >> <{O}> .", "turtle")


def test_turtle_refuses_a_blank_node_as_predicate() -> None:
    with pytest.raises(MappingError, match=r"a blank node \(_:p\) cannot be a predicate"):
        parse(f"<{S}> _:p <{O}> .", "turtle")


def test_trig_reads_named_graphs_and_the_default_graph() -> None:
    text = f"""
        @prefix tg: <https://trustgraph.ai/ns/> .
        <{S}> <{P}> <{O}> .
        <{GRAPH_RETRIEVAL}> {{ <{EX}sel> tg:edge << <{S}> <{P}> <{O}> >> . }}
        GRAPH <{GRAPH_SOURCE}> {{ << <{S}> <{P}> <{O}> >> <{P}> <{O}> }}
    """
    assert set(parse(text, "trig")) == {
        Quad(S, P, O),
        Quad(URIRef(EX + "sel"), TG.edge, QuotedTriple(S, P, O), GRAPH_RETRIEVAL),
        Quad(QuotedTriple(S, P, O), P, O, GRAPH_SOURCE),
    }


def test_trig_refuses_blank_node_graph_names() -> None:
    with pytest.raises(MappingError, match="blank-node graph names are not supported"):
        parse(f"_:g {{ <{S}> <{P}> <{O}> }}", "trig")


def test_trig_refuses_a_quoted_triple_as_graph_name() -> None:
    with pytest.raises(MappingError, match="a quoted triple cannot be a graph name"):
        parse(f"<< <{S}> <{P}> <{O}> >> {{ <{S}> <{P}> <{O}> }}", "trig")


def test_turtle_output_uses_tgneo_prefixes_and_writes_quoted_triples_inline() -> None:
    quads = [
        Quad(URIRef(EX + "sel"), TG.edge, QuotedTriple(S, P, Literal("lit", lang="en"))),
        Quad(URIRef(EX + "sel"), PROV.wasDerivedFrom, URIRef(EX + "focus")),
        Quad(URIRef(EX + "sel"), RDFS.label, Literal("Edge")),
    ]
    text = serialize(quads, "turtle")
    for prefix in ("@prefix tg: <https://trustgraph.ai/ns/>", "@prefix prov:", "@prefix rdfs:"):
        assert prefix in text
    assert f'tg:edge << <{S}> <{P}> "lit"@en >>' in text
    assert "urn:tgneo:triple:" not in text  # inline, not reified


def test_turtle_writes_blank_nodes_inside_quoted_triples_by_label() -> None:
    # rdflib would nest a once-referenced blank node as [ … ]; the quoted triple must still reach it
    alice = BNode("alice")
    quads = [Quad(S, P, alice), Quad(alice, RDFS.label, Literal("Alice")), Quad(QuotedTriple(alice, P, O), P, O)]
    text = serialize(quads, "turtle")
    assert "<< _:alice" in text
    assert isomorphic(parse(text, "turtle"), quads)


def test_trig_writes_the_default_graph_and_each_named_graph() -> None:
    text = serialize([Quad(S, P, O), Quad(S, P, QuotedTriple(S, P, O), GRAPH_SOURCE)], "trig")
    assert f"<{GRAPH_SOURCE}> {{" in text
    assert f"<< <{S}> <{P}> <{O}> >>" in text


# --------------------------------------------------------------------------------------------------
# JSON-LD-star


def test_jsonld_writes_quoted_triples_as_embedded_nodes() -> None:
    tree = json.loads(
        serialize([Quad(URIRef(EX + "sel"), TG.edge, QuotedTriple(S, P, Literal("v", lang="en")))], "json-ld")
    )
    [node] = tree
    assert node[str(TG.edge)] == [{"@id": {"@id": str(S), str(P): [{"@value": "v", "@language": "en"}]}}]


def test_jsonld_reads_embedded_nodes_with_the_document_context() -> None:
    document = {
        "@context": {"ex": EX, "tg": str(TG), "id": "@id", "edge": {"@id": "tg:edge", "@type": "@id"}},
        "@graph": [
            {"id": "ex:sel", "edge": {"id": {"id": "ex:s", "ex:p": {"@id": "ex:o"}}}},
            {"@id": {"@id": "ex:s", "ex:p": {"@id": "ex:o"}}, "ex:certainty": 0.9},
        ],
    }
    assert set(parse(json.dumps(document), "json-ld")) == {
        Quad(URIRef(EX + "sel"), TG.edge, QuotedTriple(S, P, O)),
        Quad(QuotedTriple(S, P, O), URIRef(EX + "certainty"), Literal("0.9", datatype=XSD.double)),
    }


def test_jsonld_reads_named_graphs() -> None:
    document = [{"@id": GRAPH_SOURCE, "@graph": [{"@id": str(S), str(P): [{"@id": str(O)}]}]}]
    assert parse(json.dumps(document), "application/ld+json") == [Quad(S, P, O, GRAPH_SOURCE)]


def test_jsonld_writes_a_quoted_class_as_an_rdf_type_property() -> None:
    quads = [Quad(S, RDF.type, QuotedTriple(S, P, O)), Quad(S, RDF.type, URIRef(EX + "Thing"))]
    text = serialize(quads, "json-ld")
    assert set(parse(text, "json-ld")) == set(quads)


def test_jsonld_refuses_remote_contexts() -> None:
    with pytest.raises(MappingError, match="remote @context 'https://schema.org' is not fetched"):
        parse('{"@context": "https://schema.org", "name": "x"}', "json-ld")


def test_jsonld_embedded_node_must_hold_exactly_one_triple() -> None:
    document = {"@id": str(S), str(P): {"@id": {"@id": str(S), str(P): [{"@id": str(O)}, {"@id": str(S)}]}}}
    with pytest.raises(RDFSyntaxError, match="must hold exactly one triple, not 2"):
        parse(json.dumps(document), "json-ld")


def test_jsonld_syntax_errors_name_the_line() -> None:
    with pytest.raises(RDFSyntaxError, match="json-ld line 2: "):
        parse('{"@id": "http://example.org/s",\n "oops" }', "json-ld")


# --------------------------------------------------------------------------------------------------
# Round trips


@pytest.mark.parametrize("fmt", NAMED_GRAPH_FORMATS)
def test_round_trip_keeps_every_quad_in_formats_with_named_graphs(fmt: str) -> None:
    quads = tricky_dataset()
    back = parse(serialize(quads, fmt), fmt)
    assert_no_placeholders(back)
    assert set(back) == set(quads)


@pytest.mark.parametrize("fmt", ALL_FORMATS)
def test_round_trip_keeps_the_default_graph_in_every_format(fmt: str) -> None:
    quads = default_graph(tricky_dataset()) + [
        Quad(S, URIRef(EX + "q"), QuotedTriple(S, P, literal)) for literal in TRICKY_LITERALS
    ]
    back = parse(serialize(quads, fmt), fmt)
    assert set(back) == set(quads)


@pytest.mark.parametrize("fmt", ALL_FORMATS)
def test_round_trip_keeps_blank_nodes_up_to_renaming(fmt: str) -> None:
    a, b = BNode("a"), BNode("b")
    quads = [
        Quad(a, P, b),
        Quad(b, RDFS.label, Literal("b")),
        Quad(QuotedTriple(a, P, QuotedTriple(b, P, O)), URIRef(EX + "saidBy"), a),
        Quad(S, P, QuotedTriple(b, RDFS.label, Literal("b"))),
    ]
    back = parse(serialize(quads, fmt), fmt)
    assert_no_placeholders(back)
    assert isomorphic(back, quads)


@pytest.mark.parametrize("fmt", ALL_FORMATS)
def test_any_spelling_of_a_format_reads_and_writes(fmt: str) -> None:
    row = get_format(fmt)
    text = serialize([Quad(S, P, QuotedTriple(S, P, O))], row.media_type)
    assert parse(text.encode("utf-8"), row.extension) == [Quad(S, P, QuotedTriple(S, P, O))]


# --------------------------------------------------------------------------------------------------
# A TrustGraph-shaped trace


def test_trustgraph_edge_selections_and_subgraph_read_from_nquads() -> None:
    quads = parse(TRUSTGRAPH_NQUADS, "nquads")
    edges = {q.o for q in quads if q.p == TG.edge}
    contained = {q.o for q in quads if q.p == TG.contains}
    assert edges == contained == {CAPITAL, POPULATION}
    assert {q.g for q in quads if q.p == TG.edge} == {GRAPH_RETRIEVAL}
    assert {q.g for q in quads if q.p == TG.contains} == {GRAPH_SOURCE}
    assert {(q.s, q.p, q.o) for q in quads if q.g == ""} >= {(c.s, c.p, c.o) for c in (CAPITAL, POPULATION)}


def test_trustgraph_trace_goes_nquads_to_trig_to_turtle_of_the_default_graph() -> None:
    quads = parse(TRUSTGRAPH_NQUADS, "nquads")
    trig = serialize(quads, "trig")
    from_trig = parse(trig, "trig")
    assert set(from_trig) == set(quads)
    with pytest.raises(UnsupportedFormat, match=GRAPH_RETRIEVAL):
        serialize(from_trig, "turtle")
    turtle = serialize(default_graph(from_trig), "turtle")
    assert set(parse(turtle, "turtle")) == set(default_graph(quads))


def test_trustgraph_trace_in_trig_reads_like_trustgraph_vocabulary() -> None:
    trig = serialize(parse(TRUSTGRAPH_NQUADS, "nquads"), "trig")
    assert f"<{GRAPH_RETRIEVAL}> {{" in trig
    assert f'tg:edge << <{CAPITAL.s}> <{CAPITAL.p}> "France"@en >>' in trig
    assert "tg:EdgeSelection" in trig and "prov:Entity" in trig


# --------------------------------------------------------------------------------------------------
# Comparing datasets


def test_isomorphic_ignores_blank_node_labels() -> None:
    assert isomorphic(
        [Quad(BNode("x"), P, QuotedTriple(BNode("x"), P, O))], [Quad(BNode("y"), P, QuotedTriple(BNode("y"), P, O))]
    )


def test_isomorphic_sees_that_one_blank_node_is_not_two() -> None:
    assert not isomorphic(
        [Quad(BNode("x"), P, QuotedTriple(BNode("x"), P, O))], [Quad(BNode("x"), P, QuotedTriple(BNode("y"), P, O))]
    )


def test_isomorphic_respects_graph_names() -> None:
    assert not isomorphic([Quad(S, P, O, GRAPH_SOURCE)], [Quad(S, P, O, GRAPH_RETRIEVAL)])


def test_isomorphic_tells_a_six_cycle_from_two_triangles() -> None:
    # colour refinement alone cannot: every node has one edge in and one out; backtracking must decide
    def cycle(names: list[str]) -> list[Quad]:
        return [Quad(BNode(a), P, BNode(b)) for a, b in zip(names, names[1:] + names[:1], strict=True)]

    six = cycle(["a", "b", "c", "d", "e", "f"])
    assert not isomorphic(six, cycle(["a", "b", "c"]) + cycle(["d", "e", "f"]))
    assert isomorphic(six, cycle(["u", "v", "w", "x", "y", "z"]))


# --------------------------------------------------------------------------------------------------
# Terms


def test_n3_spells_terms_in_ntriples_syntax() -> None:
    assert n3(QuotedTriple(BNode("b"), P, Literal("x\n", datatype=XSD.string))) == (
        f'<< _:b <{P}> "x\\n"^^<{XSD.string}> >>'
    )


def test_parse_accepts_a_format_row_as_well_as_a_name() -> None:
    assert star.parse(f"<{S}> <{P}> <{O}> .", get_format("nt")) == [Quad(S, P, O)]


def _re(text: str) -> str:
    """A literal fragment inside a regular expression."""
    import re

    return re.escape(text)


# --------------------------------------------------------------------------------------------------
# The fast path agrees with the full reader on any line (property-based)

_PIECES = [" ", "\t", ".", "#", '"', "\\", "<", ">", "@", "^^", "_:", ":", "-", "a", "Z", "1", "é", "東",
           "\u2028", "http://e.org/", "x", "en", "<<", ">>", "\r", "u0020", "{"]  # fmt: skip


def _outcome(read: Any, line: str) -> tuple[str, Any]:
    try:
        quad = read(1, line)
    except RDFSyntaxError as e:
        return "error", (e.line, e.column)
    if quad is not None and isinstance(quad.o, Literal):
        return "quad", (quad, quad.o.language, quad.o.datatype, str(quad.o))
    return "quad", quad


_VALID_OBJECTS = [f"<{O}>", "_:o", '"lit"', '"lit"@en', '"lit"@en-GB-x1', f'"1"^^<{XSD.integer}>', '"a\tb"',
                  '"é 東"@ja', '"\u2028"', '""', f'"2.5"^^<{XSD.double}>', '"# not a comment"']  # fmt: skip
_OTHER_OBJECTS = [  # escapes and mistakes: the full reader reads or refuses them
    '"a\\"b"',
    '"x"@',
    '"x"^^',
    '"x"^^<rel>',
    "_:o.",
    '"x"@en-',
    "<http://e.org/a b>",
    '"open',
]


@settings(max_examples=1500, deadline=None, derandomize=True, database=None)
@given(
    subject=st.sampled_from(
        [f"<{S}>", f"<{S}>", "_:b1", "_:b.1", "<rel>", "<http://e.org/a b>", "<http://e.org/\\u0041>"]
    ),
    obj=st.one_of(
        st.sampled_from(_VALID_OBJECTS),
        st.sampled_from(_VALID_OBJECTS),
        st.sampled_from(_OTHER_OBJECTS),
        st.lists(st.sampled_from(_PIECES), max_size=8).map("".join),
    ),
    graph=st.sampled_from(["", "", f" <{GRAPH_SOURCE}>", " _:g", " <rel>"]),
    gaps=st.lists(st.sampled_from([" ", " ", "\t", "  ", ""]), min_size=4, max_size=4),
    tail=st.sampled_from([" .", " .", ".", " . # c", " .\r", " . x", ""]),
    nquads=st.booleans(),
)
def test_the_fast_path_and_the_full_reader_agree_on_any_line(
    subject: str, obj: str, graph: str, gaps: list[str], tail: str, nquads: bool
) -> None:
    line = f"{gaps[0]}{subject}{gaps[1]}<{P}>{gaps[2]}{obj}{gaps[3]}{graph}{tail}"
    syntax = "nquads" if nquads else "nt"
    fast, full = lines.LineReader(syntax, nquads), lines.LineReader(syntax, nquads)
    assert _outcome(fast.line, line) == _outcome(full.read_line, line), line
