"""RDF-star in and out: quoted triples in N-Quads, N-Triples, TriG, Turtle and JSON-LD.

TrustGraph's provenance points at knowledge-graph edges with quoted triples
(``<edge-selection> tg:edge << <s> <p> "o" >> <urn:graph:retrieval>``), but rdflib 7 neither parses
``<< … >>`` nor has a term for it. This module fills the gap with three strategies, one per family:

* **N-Quads-star / N-Triples-star** are line formats small enough to own outright: a strict
  line-based reader (errors name line and column) and a canonical writer (sorted lines, canonical
  escapes) so that exports compare as text.
* **Turtle-star / TriG-star** keep rdflib for the hard part (prefixes, ``a``, lists, numbers, long
  strings) behind *placeholders*: every ``<< … >>`` and every ``_:label`` in the text becomes a
  ``<urn:tgneo:TOKEN:…>`` IRI that rdflib can parse, the inner ``s p o`` of each quoted triple is
  parsed with the declarations in force where it was written, and the placeholders are swapped
  back. Writing runs the same trick backwards. ``TOKEN`` is random per call, so no input can forge
  a placeholder, and a final check guarantees none ever reaches a result.
* **JSON-LD-star** writes quoted triples as embedded nodes (``{"@id": {"@id": s, p: o}}``) and reads
  them with the same placeholder idea applied to the JSON tree.

Blank-node labels are kept as written (``_:b1`` parses to ``BNode("b1")``) wherever the syntax has
labels, so a document's labels survive a round trip; they are still document-scoped, and a loader
merging several documents must rename them. Graph names are IRIs (``Quad.g``); a blank-node graph
name is refused rather than silently turned into something that looks like an IRI.
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
import warnings
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, NoReturn

from rdflib import Dataset, Graph
from rdflib.graph import DATASET_DEFAULT_GRAPH_ID
from rdflib.term import BNode, Literal, Node, URIRef

from tgneo import vocab
from tgneo.errors import MappingError, UnsupportedFormat
from tgneo.rdf.formats import Format, get_format
from tgneo.rdf.terms import DEFAULT_GRAPH, MAX_NESTING, Object, Quad, QuotedTriple, Subject

__all__ = ["RDFSyntaxError", "isomorphic", "n3", "parse", "serialize"]


class RDFSyntaxError(MappingError):
    """RDF text that does not parse; the message names the format, the line and the problem (HTTP 400)."""

    def __init__(self, syntax: str, line: int | None, problem: str, column: int | None = None) -> None:
        where = syntax if line is None else f"{syntax} line {line}" + ("" if column is None else f", column {column}")
        super().__init__(f"{where}: {problem}")
        self.syntax = syntax
        self.line = line
        self.column = column
        self.problem = problem


# --------------------------------------------------------------------------------------------------
# Public API


def parse(data: str | bytes, format: str | Format, *, base: str | None = None) -> list[Quad]:
    """Read an RDF(-star) document into quads; the default graph is ``g == ""``.

    Args:
        data: the document, as text or UTF-8 bytes.
        format: a name, alias, media type or extension that ``formats.get_format`` knows.
        base: the IRI that relative IRIs resolve against (Turtle, TriG, JSON-LD). Without it a
            relative IRI is an error rather than a guess (rdflib would resolve it against the
            server's working directory).

    Returns:
        The distinct quads: in document order for N-Quads and N-Triples, in canonical N-Quads order
        for the formats rdflib reads.

    Raises:
        UnsupportedFormat: ``format`` is not in the table.
        RDFSyntaxError: the text does not parse; the message says where and why.
        MappingError: the text parses but cannot be quads (a blank-node graph name, a quoted triple
            as predicate, a relative IRI without a base, a remote JSON-LD context).
    """
    fmt = format if isinstance(format, Format) else get_format(format)
    text = _decode(data, fmt.name)
    return _READERS[fmt.name](text, fmt, base)


def serialize(quads: Iterable[Quad], format: str | Format) -> str:
    """Write quads in ``format``; quoted triples are written in that format's RDF-star syntax.

    N-Quads and N-Triples are canonical (one statement per line, escapes as RDF canonical N-Triples,
    lines sorted by code point), so equal datasets with equal blank-node labels give equal text.

    Raises:
        UnsupportedFormat: ``format`` is not in the table, or it has no named graphs (Turtle,
            N-Triples) and some quads are in one; the message names those graphs.
        MappingError: a quad holds something that is not an RDF term in its position.
    """
    fmt = format if isinstance(format, Format) else get_format(format)
    rows = list(dict.fromkeys(quads))
    for quad in rows:
        _check_quad(quad)
    if not fmt.named_graphs:
        named = sorted({q.g for q in rows if q.g != DEFAULT_GRAPH})
        if named:
            shown = ", ".join(f"<{g}>" for g in named)
            raise UnsupportedFormat(
                f"{fmt.name} has no named graphs, but quads are in {shown}; "
                "use nquads or trig, or select the default graph"
            )
    return _WRITERS[fmt.name](rows, fmt)


def n3(term: Subject | Object) -> str:
    """A term in N-Triples(-star) syntax: ``<iri>``, ``_:label``, ``"lit"@en``, ``<< s p o >>``."""
    if isinstance(term, QuotedTriple):
        return f"<< {n3(term.s)} {n3(term.p)} {n3(term.o)} >>"
    if isinstance(term, URIRef):
        return f"<{_escape_iri(str(term))}>"
    if isinstance(term, BNode):
        if not _BNODE_LABEL.fullmatch(f"_:{term}"):
            raise MappingError(f"blank node {str(term)!r} has no valid N-Triples label")
        return f"_:{term}"
    if isinstance(term, Literal):
        return literal_n3(term)
    raise MappingError(f"{term!r} is not an RDF term")


def literal_n3(term: Literal, iri: Callable[[str], str] | None = None) -> str:
    """A literal in N-Triples/Turtle syntax; ``iri`` spells its datatype (``<…>`` by default, or a prefixed name)."""
    lexical = f'"{_escape_literal(str(term))}"'
    if term.language:
        return f"{lexical}@{term.language}"
    if term.datatype is not None:
        return f"{lexical}^^{iri(str(term.datatype)) if iri else f'<{_escape_iri(str(term.datatype))}>'}"
    return lexical


def isomorphic(a: Iterable[Quad], b: Iterable[Quad]) -> bool:
    """Whether two sets of quads are the same dataset up to blank-node renaming (quoted triples included).

    rdflib's ``compare.isomorphic`` handles neither graphs nor quoted triples, and an export compared
    with its import differs exactly in blank-node labels. This is colour refinement (each blank node
    coloured by the quads it occurs in, until stable) with backtracking over any remaining ties, so
    it is exact, and fast on provenance-shaped data where blank nodes are few and distinguishable.
    """
    left, right = frozenset(a), frozenset(b)
    if len(left) != len(right):
        return False
    left_nodes, right_nodes = _bnodes_in(left), _bnodes_in(right)
    if len(left_nodes) != len(right_nodes):
        return False
    if not left_nodes:
        return left == right
    return _match(left, right, dict.fromkeys(left_nodes, ""), dict.fromkeys(right_nodes, ""))


# --------------------------------------------------------------------------------------------------
# Shared helpers

_PN_CHARS_BASE = (
    "A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u02ff\u0370-\u037d\u037f-\u1fff\u200c-\u200d"
    "\u2070-\u218f\u2c00-\u2fef\u3001-\ud7ff\uf900-\ufdcf\ufdf0-\ufffd\U00010000-\U000effff"
)
_PN_CHARS_U = _PN_CHARS_BASE + "_"
_PN_CHARS = _PN_CHARS_U + "\\-0-9\u00b7\u0300-\u036f\u203f-\u2040"
_BNODE_LABEL = re.compile(f"_:[{_PN_CHARS_U}0-9](?:[{_PN_CHARS}.]*[{_PN_CHARS}])?")
_LANGTAG = re.compile(r"@([a-zA-Z]+(?:-[a-zA-Z0-9]+)*)")
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")
_IRI_BAD = r'\x00-\x20<>"{}|^`\\'
"""Characters an IRI may not hold (RDF 1.1 N-Triples §2.3), as a character-class body."""
_IRI_FORBIDDEN = re.compile(f"[{_IRI_BAD}]")
_LITERAL_SPECIAL = re.compile(r'[\x00-\x1f\x7f"\\]')
_LITERAL_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}
_UCHAR = re.compile(r"\\(?:u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8}))")
_STRING_CHUNK = re.compile(r'[^"\\\r]*')
_ECHAR = {"t": "\t", "b": "\b", "n": "\n", "r": "\r", "f": "\f", '"': '"', "'": "'", "\\": "\\"}

# The common line, read by one regular expression: absolute IRIs without escapes, blank nodes, and
# literals without escapes. It accepts only lines the character-level reader below accepts, and
# builds the same terms; anything else (escapes, quoted triples, errors) goes to that reader.
_FAST_IRI = rf"<({_SCHEME.pattern}[^{_IRI_BAD}]*)>"
_FAST_NODE = rf"(?:{_FAST_IRI}|({_BNODE_LABEL.pattern}))"
_FAST_LINE = re.compile(
    rf"[ \t]*{_FAST_NODE}[ \t]+{_FAST_IRI}[ \t]+"
    rf'(?:{_FAST_NODE}|"([^"\\\r\n]*)"(?:{_LANGTAG.pattern}|\^\^{_FAST_IRI})?)'
    rf"(?:[ \t]+{_FAST_IRI})?[ \t]*\.[ \t]*(?:#.*)?"
)
_FAST_GRAPH = _FAST_LINE.groups
"""The graph name is the last group."""
_IRI_CACHE_SIZE = 65_536

_BINDINGS = (
    ("prov", vocab.PROV),
    ("tg", vocab.TG),
    ("rdf", vocab.RDF),
    ("rdfs", vocab.RDFS),
    ("xsd", vocab.XSD),
    ("dc", vocab.DC),
    ("skos", vocab.SKOS),
    ("schema", vocab.SCHEMA),
)
"""Prefixes tgneo's Turtle and TriG use, so exports read like TrustGraph's vocabulary."""


def check_iri(iri: str) -> None:
    """Refuse an IRI holding a character no IRI may hold (a space, ``<``, ``>``, …), however it got in.

    Readers refuse such characters raw and escaped alike, so writers refuse them too: what tgneo
    writes, it reads back.
    """
    bad = _IRI_FORBIDDEN.search(iri)
    if bad is not None:
        raise MappingError(f"<{iri[:80]}> holds U+{ord(bad.group()):04X}, which no IRI may hold")


def _escape_iri(iri: str) -> str:
    """An IRI with the characters N-Triples forbids inside ``<…>`` written as ``\\uXXXX``."""
    if not _IRI_FORBIDDEN.search(iri):
        return iri
    return _IRI_FORBIDDEN.sub(lambda m: f"\\u{ord(m.group()):04X}", iri)


def _escape_literal(lexical: str) -> str:
    """Canonical N-Triples escaping: ``\\" \\\\ \\n \\r \\t \\b \\f`` by name, other controls as ``\\uXXXX``."""
    if not _LITERAL_SPECIAL.search(lexical):
        return lexical
    return _LITERAL_SPECIAL.sub(
        lambda m: _LITERAL_ESCAPES.get(m.group()) or f"\\u{ord(m.group()):04X}",
        lexical,
    )


def _decode(data: str | bytes, syntax: str) -> str:
    """UTF-8 text without a byte-order mark; undecodable bytes are a syntax error on their line."""
    if isinstance(data, str):
        return data.removeprefix("\ufeff")
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise RDFSyntaxError(syntax, line, f"not UTF-8 ({e.reason} at byte {e.start})") from e


def _check_quad(quad: Quad) -> None:
    """Refuse what no RDF syntax can write: a literal subject, a non-IRI predicate, a non-string graph."""
    if not isinstance(quad.s, URIRef | BNode | QuotedTriple):
        raise MappingError(f"{quad.s!r} cannot be a subject")
    if not isinstance(quad.p, URIRef):
        raise MappingError(f"{quad.p!r} cannot be a predicate")
    if not isinstance(quad.o, URIRef | BNode | Literal | QuotedTriple):
        raise MappingError(f"{quad.o!r} is not an RDF term")
    if not isinstance(quad.g, str):
        raise MappingError(f"graph name {quad.g!r} must be an IRI string ('' for the default graph)")
    for iri in (quad.s, quad.p, quad.o, URIRef(quad.g)):
        if isinstance(iri, URIRef):
            check_iri(iri)
    for term in (quad.s, quad.o):
        if isinstance(term, QuotedTriple):
            _check_quad(Quad(term.s, term.p, term.o))


def _nquads_line(quad: Quad) -> str:
    """One canonical N-Quads(-star) statement, newline included."""
    graph = f" <{_escape_iri(quad.g)}>" if quad.g != DEFAULT_GRAPH else ""
    return f"{n3(quad.s)} {n3(quad.p)} {n3(quad.o)}{graph} .\n"


def _canonical_order(quads: Iterable[Quad]) -> list[Quad]:
    """Quads sorted as their canonical N-Quads lines sort, for deterministic output."""
    return sorted(quads, key=_nquads_line)


@contextmanager
def _rdflib_quietly() -> Iterator[None]:
    """Silence the DeprecationWarnings rdflib 7.6 raises against itself.

    Its own TriG and JSON-LD plugins still call ``ConjunctiveGraph`` and ``Dataset.default_context``,
    which it has deprecated (pytest's ``filterwarnings = error`` would turn them into failures). Only
    warnings attributed to rdflib's own modules are hidden. ``catch_warnings`` swaps process-wide
    state, so under threads the worst case is that rdflib's self-deprecations stay hidden a while longer.
    """
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=DeprecationWarning, module=r"rdflib\.")
        yield


# --------------------------------------------------------------------------------------------------
# N-Quads-star and N-Triples-star: our own line reader and writer


class _LineReader:
    """A strict reader of N-Quads-star / N-Triples-star, one statement per line."""

    def __init__(self, syntax: str, graphs: bool) -> None:
        self.syntax = syntax
        self.graphs = graphs
        self.line_no = 0
        self.text = ""
        self.pos = 0
        self.depth = 0
        self._iris: dict[str, URIRef] = {}

    def read(self, text: str) -> list[Quad]:
        # split on LF only: str.splitlines() would also break at U+2028 etc., which literals may hold
        seen: dict[Quad, None] = {}
        for line_no, raw in enumerate(text.split("\n"), start=1):
            quad = self.line(line_no, raw)
            if quad is not None:
                seen.setdefault(quad)
        return list(seen)

    def line(self, line_no: int, raw: str) -> Quad | None:
        """The statement on one line (without its LF), or ``None`` for a blank or comment line."""
        fast = _FAST_LINE.fullmatch(raw)
        if fast is not None and (self.graphs or fast.group(_FAST_GRAPH) is None):
            return self._fast(fast)
        return self.read_line(line_no, raw)

    def read_line(self, line_no: int, raw: str) -> Quad | None:
        """:meth:`line` by the character-level reader alone: every construct, errors with their column."""
        self.line_no, self.text, self.pos, self.depth = line_no, raw.removesuffix("\r"), 0, 0
        self._space()
        if self._at_end():
            return None
        return self._statement()

    # -- structure

    def _fast(self, m: re.Match[str]) -> Quad:
        """The quad of a line :data:`_FAST_LINE` matched (groups: subject IRI/blank node, predicate,
        object IRI/blank node or literal with its language or datatype, graph)."""
        s_iri, s_bnode, p, o_iri, o_bnode, lexical, lang, datatype, graph = m.groups()
        subject: Subject = self._cached(s_iri) if s_iri is not None else BNode(s_bnode[2:])
        obj: Object
        if o_iri is not None:
            obj = self._cached(o_iri)
        elif o_bnode is not None:
            obj = BNode(o_bnode[2:])
        elif lang is not None:
            obj = Literal(lexical, lang=lang)
        elif datatype is not None:
            obj = Literal(lexical, datatype=self._cached(datatype), normalize=False)
        else:
            obj = Literal(lexical)
        return Quad(subject, self._cached(p), obj, graph if graph is not None else DEFAULT_GRAPH)

    def _cached(self, iri: str) -> URIRef:
        """One URIRef per IRI text while the cache lasts: subjects and predicates repeat on many lines."""
        term = self._iris.get(iri)
        if term is None:
            if len(self._iris) >= _IRI_CACHE_SIZE:  # bounded, so that memory stays flat on any file
                self._iris.clear()
            term = self._iris[iri] = URIRef(iri)
        return term

    def _statement(self) -> Quad:
        s = self._subject()
        p = self._predicate()
        o = self._object()
        self._space()
        graph = DEFAULT_GRAPH
        if self._peek(1) != "." and not self._at_end():
            if not self.graphs:
                self._fail("expected '.' to end the statement (N-Triples has no graph names; use nquads)")
            graph = self._graph()
            self._space()
        if self._peek(1) != ".":
            self._fail(f"expected '.' to end the statement, found {self._found()}")
        self.pos += 1
        self._space()
        if not self._at_end():
            self._fail(f"unexpected {self._found()} after '.'")
        return Quad(s, p, o, graph)

    def _subject(self) -> Subject:
        self._space()
        if self._peek(2) == "<<":
            return self._quoted()
        if self._peek(1) == "<":
            return self._iri()
        if self._peek(2) == "_:":
            return self._bnode()
        if self._peek(1) == '"':
            self._fail("a literal cannot be a subject")
        self._fail(f"expected a subject (<iri>, _:blank or << quoted triple >>), found {self._found()}")

    def _predicate(self) -> URIRef:
        self._space()
        if self._peek(2) == "<<":
            self._fail("a quoted triple cannot be a predicate")
        if self._peek(1) == "<":
            return self._iri()
        self._fail(f"expected a predicate <iri>, found {self._found()}")

    def _object(self) -> Object:
        self._space()
        if self._peek(1) == '"':
            return self._literal()
        if self._peek(2) == "<<":
            return self._quoted()
        if self._peek(1) == "<":
            return self._iri()
        if self._peek(2) == "_:":
            return self._bnode()
        self._fail(f'expected an object (<iri>, _:blank, "literal" or << quoted triple >>), found {self._found()}')

    def _graph(self) -> str:
        if self._peek(2) == "<<":
            self._fail("a quoted triple cannot be a graph name")
        if self._peek(2) == "_:":
            self._fail("blank-node graph names are not supported; tgneo names graphs by IRI")
        if self._peek(1) == "<":
            return str(self._iri())
        self._fail(f"expected a graph name <iri> or '.', found {self._found()}")

    def _quoted(self) -> QuotedTriple:
        column = self.pos + 1
        triple_term = self._peek(3) == "<<("  # RDF 1.2 spelling, read as the same quoted triple
        self.depth += 1
        if self.depth > MAX_NESTING:
            self._fail(f"quoted triples nest deeper than {MAX_NESTING} levels")
        self.pos += 3 if triple_term else 2
        s = self._subject()
        p = self._predicate()
        o = self._object()
        self._space()
        closing = ")>>" if triple_term else ">>"
        if self._peek(len(closing)) != closing:
            self._fail(f"expected '{closing}' to close the << opened at column {column}, found {self._found()}")
        self.pos += len(closing)
        self.depth -= 1
        return QuotedTriple(s, p, o)

    # -- terms

    def _iri(self) -> URIRef:
        start = self.pos
        end = self.text.find(">", start + 1)
        if end < 0:
            self._fail("unterminated IRI: missing '>'")
        raw = self.text[start + 1 : end]
        bad = _IRI_FORBIDDEN.search(_UCHAR.sub("", raw))
        if bad and bad.group() == "\\":
            self._fail("only \\uXXXX and \\UXXXXXXXX escapes are allowed in an IRI")
        if bad:
            self.pos = start + 1 + bad.start()
            self._fail(f"character U+{ord(bad.group()):04X} is not allowed in an IRI")
        body = _UCHAR.sub(self._uchar_match, raw) if "\\" in raw else raw
        # an escape spells a character, it does not make an illegal one legal (RDF 1.1 N-Triples §2.3)
        bad = _IRI_FORBIDDEN.search(body) if body is not raw else None
        if bad:
            self.pos = start + 1
            self._fail(f"the escape for U+{ord(bad.group()):04X} spells a character that is not allowed in an IRI")
        if not _SCHEME.match(body):
            self._fail(f"relative IRI <{body}>: {self.syntax} needs absolute IRIs")
        self.pos = end + 1
        return URIRef(body)

    def _bnode(self) -> BNode:
        match = _BNODE_LABEL.match(self.text, self.pos)
        if not match:
            self._fail("invalid blank node label after '_:'")
        self.pos = match.end()
        return BNode(match.group()[2:])

    def _literal(self) -> Literal:
        text, i, parts = self.text, self.pos + 1, []
        while True:
            chunk = _STRING_CHUNK.match(text, i)
            assert chunk is not None  # the pattern matches the empty string
            parts.append(chunk.group())
            i = chunk.end()
            if i >= len(text):
                self.pos = i
                self._fail("unterminated literal: missing '\"'")
            char = text[i]
            if char == '"':
                i += 1
                break
            if char == "\r":
                self.pos = i
                self._fail("a raw carriage return inside a literal; write \\r")
            escape = text[i + 1 : i + 2]
            if escape in _ECHAR:
                parts.append(_ECHAR[escape])
                i += 2
            elif escape in ("u", "U"):
                width = 4 if escape == "u" else 8
                digits = text[i + 2 : i + 2 + width]
                if not re.fullmatch(f"[0-9A-Fa-f]{{{width}}}", digits):
                    self.pos = i
                    self._fail(f"\\{escape} needs {width} hex digits")
                self.pos = i
                parts.append(self._code_point(digits))
                i += 2 + width
            else:
                self.pos = i
                self._fail(f"invalid escape \\{escape} in a literal")
        lexical = "".join(parts)
        self.pos = i
        if self._peek(1) == "@":
            tag = _LANGTAG.match(text, i)
            if not tag:
                self._fail("invalid language tag")
            self.pos = tag.end()
            return Literal(lexical, lang=tag.group(1))
        if self._peek(2) == "^^":
            self.pos += 2
            if self._peek(1) != "<":
                self._fail(f"expected a datatype <iri> after '^^', found {self._found()}")
            return Literal(lexical, datatype=self._iri(), normalize=False)
        return Literal(lexical)

    # -- lexing

    def _uchar_match(self, match: re.Match[str]) -> str:
        return self._code_point(match.group(1) or match.group(2))

    def _code_point(self, digits: str) -> str:
        value = int(digits, 16)
        if value > 0x10FFFF or 0xD800 <= value <= 0xDFFF:
            self._fail(f"escape for U+{value:04X} is not a Unicode scalar value")
        return chr(value)

    def _space(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos] in " \t":
            self.pos += 1

    def _at_end(self) -> bool:
        return self.pos >= len(self.text) or self.text[self.pos] == "#"

    def _peek(self, n: int) -> str:
        return self.text[self.pos : self.pos + n]

    def _found(self) -> str:
        if self.pos >= len(self.text):
            return "end of line"
        return repr(self.text[self.pos : self.pos + 12])

    def _fail(self, problem: str) -> NoReturn:
        raise RDFSyntaxError(self.syntax, self.line_no, problem, column=self.pos + 1)


def _read_lines(text: str, fmt: Format, base: str | None) -> list[Quad]:
    """N-Quads-star / N-Triples-star: absolute IRIs only, so ``base`` has nothing to do."""
    return _LineReader(fmt.name, fmt.named_graphs).read(text)


def _write_lines(quads: list[Quad], fmt: Format) -> str:
    """Canonical N-Quads-star / N-Triples-star: sorted, distinct lines."""
    return "".join(sorted({_nquads_line(q) for q in quads}))


# --------------------------------------------------------------------------------------------------
# Placeholders: how rdflib carries quoted triples and blank-node labels it would otherwise lose


@dataclass
class _Quoted:
    """One quoted triple lifted out of a document: what it said, and where, for parsing and for messages."""

    source: str
    """The original text, quoted back in error messages."""
    inner: str = ""
    """Its ``s p o`` with any nested quoted triples already replaced by placeholders (Turtle, TriG)."""
    prologue: str = ""
    """The ``@prefix``/``@base`` declarations in force where it opened (Turtle, TriG)."""
    line: int | None = None


@dataclass
class _Placeholders:
    """The placeholder IRIs of one ``parse`` or ``serialize`` call.

    Each call draws a random token, so no document can contain (and so forge) a placeholder, and a
    leftover one is recognisable by ``prefix`` wherever it turns up.
    """

    token: str = field(default_factory=lambda: uuid.uuid4().hex)
    quoted: dict[str, _Quoted] = field(default_factory=dict)
    """Reading: placeholder → the quoted triple it stands for."""
    labels: dict[str, str] = field(default_factory=dict)
    """placeholder → the blank-node label it stands for."""
    replacement: dict[str, str] = field(default_factory=dict)
    """Writing: placeholder → the text that replaces it in rdflib's output."""
    _by_label: dict[str, str] = field(default_factory=dict)
    _count: int = 0

    @property
    def prefix(self) -> str:
        return f"urn:tgneo:{self.token}:"

    @property
    def sentinel_base(self) -> str:
        """A base IRI that means "resolved against nothing", so that relative IRIs can be refused."""
        return f"http://{self.token}.tgneo.invalid/"

    def new(self, kind: str) -> str:
        """A fresh placeholder; zero-padded so that placeholders sort in the order they were made."""
        self._count += 1
        return f"{self.prefix}{kind}{self._count:09d}"

    def lift_quoted(self, quoted: _Quoted) -> str:
        placeholder = self.new("q")
        self.quoted[placeholder] = quoted
        return placeholder

    def lift_label(self, label: str) -> str:
        """The one placeholder for a blank-node label, however often the label occurs."""
        if label not in self._by_label:
            placeholder = self.new("b")
            self.labels[placeholder] = label
            self._by_label[label] = placeholder
        return self._by_label[label]

    def is_placeholder(self, node: Node) -> bool:
        return isinstance(node, URIRef) and str(node).startswith(self.prefix)

    def restore(self, message: str) -> str:
        """Put the original text back where an rdflib message quotes a placeholder."""

        def back(match: re.Match[str]) -> str:
            key = match.group(1)
            if key in self.quoted:
                return _shorten(self.quoted[key].source)
            if key in self.labels:
                return f"_:{self.labels[key]}"
            return self.replacement.get(key, key)

        return re.sub(f"<?({re.escape(self.prefix)}[qb]\\d{{9}})>?", back, message)


def _shorten(text: str, limit: int = 80) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


class _Resolver:
    """Turn rdflib's nodes back into tgneo terms: placeholders become quoted triples and labelled blank nodes."""

    def __init__(self, syntax: str, ph: _Placeholders, inner: dict[str, tuple[Node, Node, Node]]) -> None:
        self.syntax = syntax
        self.ph = ph
        self.inner = inner
        self.done: dict[str, QuotedTriple] = {}

    def quad(self, s: Node, p: Node, o: Node, g: Node | None) -> Quad:
        return Quad(self.subject(s), self.predicate(p), self.object(o), self.graph(g))

    def subject(self, node: Node) -> Subject:
        term = self.object(node)
        if isinstance(term, Literal):
            raise MappingError(f"{self.syntax}: the literal {n3(term)} cannot be a subject")
        return term

    def predicate(self, node: Node) -> URIRef:
        if self.ph.is_placeholder(node):
            what = "a blank node" if str(node) in self.ph.labels else "a quoted triple"
            raise MappingError(f"{self.syntax}: {what} ({self.ph.restore(str(node))}) cannot be a predicate")
        if not isinstance(node, URIRef):
            raise MappingError(f"{self.syntax}: {node!r} cannot be a predicate")
        return self._iri(node)

    def object(self, node: Node) -> Object:
        if isinstance(node, URIRef):
            key = str(node)
            if key in self.ph.labels:
                return BNode(self.ph.labels[key])
            if key in self.inner:
                return self._quoted(key)
            return self._iri(node)
        if isinstance(node, Literal):
            if node.datatype is not None:
                if self.ph.is_placeholder(node.datatype):
                    raise MappingError(f"{self.syntax}: a quoted triple or blank node cannot be a datatype")
                self._iri(node.datatype)
            return node
        if isinstance(node, BNode):
            if _BNODE_LABEL.fullmatch(f"_:{node}"):
                return node
            # JSON-LD allows any label; give it a stable one N-Triples can write
            return BNode("x" + hashlib.sha256(str(node).encode()).hexdigest()[:24])
        raise MappingError(f"{self.syntax}: {node!r} is not an RDF term")

    def graph(self, node: Node | None) -> str:
        if node is None or node == DATASET_DEFAULT_GRAPH_ID:
            return DEFAULT_GRAPH
        if isinstance(node, BNode) or str(node) in self.ph.labels:
            raise MappingError(f"{self.syntax}: blank-node graph names are not supported; tgneo names graphs by IRI")
        if self.ph.is_placeholder(node):
            raise MappingError(f"{self.syntax}: a quoted triple cannot be a graph name")
        return str(self._iri(URIRef(str(node))))

    def _quoted(self, key: str) -> QuotedTriple:
        if key not in self.done:
            s, p, o = self.inner[key]
            self.done[key] = QuotedTriple(self.subject(s), self.predicate(p), self.object(o))
        return self.done[key]

    def _iri(self, node: URIRef) -> URIRef:
        value = str(node)
        if value.startswith(self.ph.sentinel_base):
            relative = value.removeprefix(self.ph.sentinel_base)
            raise MappingError(
                f"{self.syntax}: relative IRI <{relative}> and no base; add @base to the document "
                "or give a base IRI (tgneo import --base IRI)"
            )
        if value.startswith(self.ph.prefix):  # cannot happen for valid input; never let one out
            raise MappingError(f"{self.syntax}: a quoted triple or blank node in an IRI-only position")
        return node


def _rdflib_quads(ds: Dataset) -> Iterator[tuple[Node, Node, Node, Node | None]]:
    """Every (s, p, o, g) of an rdflib Dataset, g being the graph's name."""
    for s, p, o, g in ds.quads((None, None, None, None)):
        yield s, p, o, getattr(g, "identifier", g)


def _parse_rdflib(ds: Dataset, text: str, rdflib_format: str, base: str) -> None:
    """rdflib's parse, keeping every literal's lexical form as written (``"007"``, ``…Z``).

    rdflib normalises typed literals by default (``"2025-06-01T10:15:30Z"^^xsd:dateTime`` becomes
    ``…+00:00``), which would make an import → export round trip inexact. The switch is
    process-wide, so it is turned off only for the parse.
    """
    import rdflib

    saved = rdflib.NORMALIZE_LITERALS
    rdflib.NORMALIZE_LITERALS = False
    try:
        with _rdflib_quietly():
            ds.parse(data=text, format=rdflib_format, publicID=base)
    finally:
        rdflib.NORMALIZE_LITERALS = saved


def _explain(error: Exception) -> tuple[int | None, str]:
    """Line (1-based) and reason from an rdflib or json error, without rdflib's echo of the text."""
    line: int | None = None
    reason = str(error)
    lines = getattr(error, "lines", None)
    why = getattr(error, "_why", None)  # notation3.BadSyntax keeps its reason here
    if isinstance(lines, int) and isinstance(why, str):
        line, reason = lines + 1, why
    if isinstance(error, json.JSONDecodeError):
        line, reason = error.lineno, f"{error.msg} (column {error.colno})"
    return line, reason


# --------------------------------------------------------------------------------------------------
# Turtle-star and TriG-star: placeholders around rdflib

_TOKEN = re.compile(
    r"""
      (?P<nl>\n)
    | (?P<ws>[ \t\r]+)
    | (?P<comment>\#[^\n]*)
    | (?P<open><<\(?)
    | (?P<close>\)?>>)
    | (?P<iri><[^>\n]*>)
    | (?P<string>\"\"\"(?:[^"\\]|\\[\s\S]|"(?!""))*\"\"\"|'''(?:[^'\\]|\\[\s\S]|'(?!''))*'''
                |"(?:[^"\\\n\r]|\\.)*"|'(?:[^'\\\n\r]|\\.)*')
    | (?P<bnode>_:)
    | (?P<annotation>\{\|)
    | (?P<punct>[{}()\[\],;^]|\.(?![0-9]))
    | (?P<word>(?:[^\s<>"'{}()\[\],;\#^\\]|\\.)+)
    | (?P<other>.)
    """,
    re.VERBOSE,
)
_BANNED_INSIDE = "{}(),;."
"""Punctuation that can only mean a malformed quoted triple (it would let one triple become several)."""


@dataclass
class _Frame:
    closing: str
    line: int
    start: int
    parts: list[str] = field(default_factory=list)


def _lift_turtle(text: str, syntax: str, ph: _Placeholders) -> str:
    """Replace every ``<< … >>`` and ``_:label`` with a placeholder IRI, innermost first.

    Line numbers are kept (a lifted quoted triple is followed by the newlines it spanned), so rdflib's
    errors point at the user's lines. Each quoted triple remembers the prefix and base declarations in
    force where it opened, since Turtle lets them change mid-document.
    """
    frames = [_Frame(closing="", line=1, start=0)]
    prologue: list[str] = []
    directive: list[str] | None = None
    pos, line = 0, 1
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        assert m is not None and m.lastgroup is not None  # `other` matches any character
        kind, token, end = m.lastgroup, m.group(), m.end()
        top = frames[-1]
        if kind == "nl":
            line += 1
        elif kind == "comment":
            token = ""
        elif kind == "open":
            frames.append(_Frame(closing=")>>" if token == "<<(" else ">>", line=line, start=pos))
            pos = end
            continue
        elif kind == "close":
            if len(frames) == 1:
                raise RDFSyntaxError(syntax, line, f"'{token}' without a matching '<<'")
            if token != top.closing:
                raise RDFSyntaxError(syntax, line, f"expected '{top.closing}' to close the '<<' of line {top.line}")
            frames.pop()
            source = text[top.start : end]
            placeholder = ph.lift_quoted(_Quoted(source, "".join(top.parts), "".join(prologue), top.line))
            frames[-1].parts.append(f"<{placeholder}>" + "\n" * source.count("\n"))
            pos = end
            continue
        elif kind == "string":
            line += token.count("\n")
        elif kind == "bnode":
            label = _BNODE_LABEL.match(text, pos)
            if not label:
                raise RDFSyntaxError(syntax, line, "invalid blank node label after '_:'")
            token, end = f"<{ph.lift_label(label.group()[2:])}>", label.end()
        elif kind == "annotation":
            raise RDFSyntaxError(syntax, line, "annotation syntax {| … |} is not supported; quote the triple instead")
        elif kind == "punct" and len(frames) > 1 and token in _BANNED_INSIDE:
            raise RDFSyntaxError(syntax, line, f"{token!r} is not allowed inside a quoted triple (one s p o only)")
        elif kind == "word":
            word = token.rstrip(".") or token[:1]  # a statement's final '.' is not part of the name
            token, end = word, pos + len(word)
            if len(frames) == 1 and (word in ("@prefix", "@base") or word.upper() in ("PREFIX", "BASE")):
                directive = [word]
            elif directive is not None:
                directive.append(word)
        elif kind == "iri" and directive is not None:
            directive.append(token)
            prologue.append(" ".join(directive) + (" .\n" if directive[0].startswith("@") else "\n"))
            directive = None
        elif kind == "other" and token in "\"'":
            raise RDFSyntaxError(syntax, line, "unterminated string")
        frames[-1].parts.append(token)
        pos = end
    if len(frames) > 1:
        raise RDFSyntaxError(syntax, frames[-1].line, f"'<<' is never closed (expected '{frames[-1].closing}')")
    return "".join(frames[0].parts)


def _parse_inner(syntax: str, ph: _Placeholders, base: str) -> dict[str, tuple[Node, Node, Node]]:
    """Parse every quoted triple's ``s p o``: one TriG document per prologue, one graph per triple.

    Naming each inner triple's graph after its placeholder keeps them apart in a single rdflib parse
    (thousands of quoted triples cost one parse, not thousands). When that parse fails, each is parsed
    alone to say which quoted triple, on which line, is wrong.
    """
    groups: dict[str, list[str]] = {}
    for placeholder, quoted in ph.quoted.items():
        groups.setdefault(quoted.prologue, []).append(placeholder)
    found: dict[str, list[tuple[Node, Node, Node]]] = {key: [] for key in ph.quoted}
    for prologue, placeholders in groups.items():
        ds = Dataset()
        try:
            _parse_rdflib(ds, prologue + "".join(_inner_block(p, ph) for p in placeholders), "trig", base)
        except Exception as e:  # parse each alone to find and name the culprit
            for placeholder in placeholders:
                _parse_alone(syntax, ph, placeholder, base)
            raise RDFSyntaxError(syntax, None, f"in a quoted triple: {ph.restore(_explain(e)[1])}") from e
        for s, p, o, g in _rdflib_quads(ds):
            key = str(g)
            if key not in found:
                raise RDFSyntaxError(syntax, None, "a quoted triple must hold exactly one s p o")
            found[key].append((s, p, o))
    inner: dict[str, tuple[Node, Node, Node]] = {}
    for placeholder, triples in found.items():
        if len(triples) != 1:
            quoted = ph.quoted[placeholder]
            raise RDFSyntaxError(
                syntax, quoted.line, f"{_shorten(quoted.source)} must hold exactly one s p o, not {len(triples)}"
            )
        inner[placeholder] = triples[0]
    return inner


def _inner_block(placeholder: str, ph: _Placeholders) -> str:
    return f"<{placeholder}> {{ {ph.quoted[placeholder].inner} . }}\n"


def _parse_alone(syntax: str, ph: _Placeholders, placeholder: str, base: str) -> None:
    quoted = ph.quoted[placeholder]
    try:
        _parse_rdflib(Dataset(), quoted.prologue + _inner_block(placeholder, ph), "trig", base)
    except Exception as e:
        _, reason = _explain(e)
        raise RDFSyntaxError(syntax, quoted.line, f"in {_shorten(quoted.source)}: {ph.restore(reason)}") from e


def _read_turtle(text: str, fmt: Format, base: str | None) -> list[Quad]:
    """Turtle-star (default graph only) and TriG-star via rdflib and placeholders."""
    ph = _Placeholders()
    lifted = _lift_turtle(text, fmt.name, ph)
    effective_base = base or ph.sentinel_base
    ds = Dataset()
    try:
        _parse_rdflib(ds, lifted, fmt.rdflib_name, effective_base)
    except Exception as e:
        line, reason = _explain(e)
        raise RDFSyntaxError(fmt.name, line, ph.restore(reason)) from e
    inner = _parse_inner(fmt.name, ph, effective_base) if ph.quoted else {}
    resolver = _Resolver(fmt.name, ph, inner)
    return _canonical_order({resolver.quad(s, p, o, g) for s, p, o, g in _rdflib_quads(ds)})


def _dataset(quads: list[Quad], lift: Callable[[Subject | Object], Node]) -> Dataset:
    """An rdflib Dataset of ``quads`` in canonical order, terms passed through ``lift``, tgneo's prefixes bound."""
    ds = Dataset()
    for prefix, namespace in _BINDINGS:
        ds.bind(prefix, URIRef(str(namespace)), override=True, replace=True)
    graphs: dict[str, Graph] = {DEFAULT_GRAPH: ds.default_graph}
    for quad in _canonical_order(quads):
        if quad.g not in graphs:
            graphs[quad.g] = ds.graph(URIRef(quad.g))
        graphs[quad.g].add((lift(quad.s), quad.p, lift(quad.o)))
    return ds


def _write_turtle(quads: list[Quad], fmt: Format) -> str:
    """Turtle-star and TriG-star: rdflib writes, with placeholders standing in for quoted triples.

    Blank nodes that occur inside a quoted triple get placeholders too, so that rdflib writes them by
    label (``_:b``) rather than nesting them as ``[ … ]``, where the quoted triple could not refer to them.
    """
    ph = _Placeholders()
    shared = {b for q in quads for t in (q.s, q.o) if isinstance(t, QuotedTriple) for b in _bnodes_of(t)}
    labels = {b: ph.lift_label(str(b)) for b in sorted(shared)}
    for bnode, placeholder in labels.items():
        ph.replacement[placeholder] = n3(bnode)
    written: dict[QuotedTriple, str] = {}

    def lift(term: Subject | Object) -> Node:
        if isinstance(term, QuotedTriple):
            if term not in written:
                written[term] = ph.new("q")
                ph.replacement[written[term]] = n3(term)
            return URIRef(written[term])
        if isinstance(term, BNode) and term in labels:
            return URIRef(labels[term])
        return term

    ds = _dataset(quads, lift)
    with _rdflib_quietly():
        target: Graph = ds if fmt.named_graphs else ds.default_graph
        out = target.serialize(format=fmt.rdflib_name)
    out = re.sub(f"<({re.escape(ph.prefix)}[qb]\\d{{9}})>", lambda m: ph.replacement[m.group(1)], out)
    return _no_leak(out, ph)


def _no_leak(out: str, ph: _Placeholders) -> str:
    """The last guard: output never carries a placeholder, whatever rdflib chose to do with one."""
    if ph.token in out:
        raise MappingError("a quoted triple or blank node could not be written in this position")
    return out


def _bnodes_of(triple: QuotedTriple) -> Iterator[BNode]:
    for term in (triple.s, triple.o):
        if isinstance(term, BNode):
            yield term
        elif isinstance(term, QuotedTriple):
            yield from _bnodes_of(term)


# --------------------------------------------------------------------------------------------------
# JSON-LD-star: embedded nodes ({"@id": {"@id": s, p: o}}) around rdflib's json-ld plugin

_JSON = dict[str, Any]


def _jsonld_node(triple: QuotedTriple) -> _JSON:
    """A quoted triple as a JSON-LD-star embedded node: one subject, one property, one value."""
    return {"@id": _jsonld_id(triple.s), str(triple.p): [_jsonld_value(triple.o)]}


def _jsonld_id(term: Subject) -> str | _JSON:
    if isinstance(term, QuotedTriple):
        return _jsonld_node(term)
    return f"_:{term}" if isinstance(term, BNode) else str(term)


def _jsonld_value(term: Object) -> _JSON:
    if isinstance(term, Literal):
        value: _JSON = {"@value": str(term)}
        if term.language:
            value["@language"] = term.language
        elif term.datatype is not None:
            value["@type"] = str(term.datatype)
        return value
    return {"@id": _jsonld_id(term)}


def _write_jsonld(quads: list[Quad], fmt: Format) -> str:
    """JSON-LD-star in expanded form (full IRIs, typed literals), quoted triples as embedded nodes."""
    ph = _Placeholders()
    written: dict[QuotedTriple, str] = {}
    embedded: dict[str, _JSON] = {}

    def lift(term: Subject | Object) -> Node:
        if isinstance(term, QuotedTriple):
            if term not in written:
                written[term] = ph.new("q")
                embedded[written[term]] = _jsonld_node(term)
            return URIRef(written[term])
        return term

    ds = _dataset(quads, lift)
    with _rdflib_quietly():
        tree = json.loads(ds.serialize(format=fmt.rdflib_name))

    def embed(node: Any) -> Any:
        if isinstance(node, list):
            return [embed(item) for item in node]
        if not isinstance(node, dict):
            return node
        out = {k: embedded[v] if k == "@id" and v in embedded else embed(v) for k, v in node.items()}
        types = out.get("@type")
        if isinstance(types, list) and any(t in embedded for t in types):
            # "@type" only takes IRIs, so a quoted class goes back to being an rdf:type property
            plain = [t for t in types if t not in embedded]
            if plain:
                out["@type"] = plain
            else:
                del out["@type"]
            out[str(vocab.RDF.type)] = [{"@id": embedded[t]} for t in types if t in embedded]
        return out

    return _no_leak(json.dumps(embed(tree), indent=2, ensure_ascii=False) + "\n", ph)


def _read_jsonld(text: str, fmt: Format, base: str | None) -> list[Quad]:
    """JSON-LD(-star): embedded nodes are lifted to placeholders, then rdflib reads the rest.

    Each embedded node is read with the ``@context``s of the objects around it, which is JSON-LD's
    scoping except for property- and type-scoped contexts. Remote contexts are refused: fetching a URL
    named by an uploaded document is not something a pure reader (or a server) should do.
    """
    try:
        tree = json.loads(text)
    except json.JSONDecodeError as e:
        line, reason = _explain(e)
        raise RDFSyntaxError(fmt.name, line, reason) from e
    ph = _Placeholders()
    pending: list[tuple[str, _JSON, list[Any]]] = []

    def lift(node: Any, contexts: list[Any]) -> Any:
        if isinstance(node, list):
            return [lift(item, contexts) for item in node]
        if not isinstance(node, dict):
            return node
        if "@context" in node:
            _refuse_remote(node["@context"])
            contexts = [*contexts, node["@context"]]
        id_keys = {"@id"} | _id_aliases(contexts)
        out: _JSON = {}
        for key, value in node.items():
            if key == "@context":
                out[key] = value
            elif key in id_keys and isinstance(value, dict):
                placeholder = ph.lift_quoted(_Quoted(_shorten(json.dumps(value))))
                pending.append((placeholder, lift(value, contexts), contexts))
                out[key] = placeholder
            else:
                out[key] = lift(value, contexts)
        return out

    lifted = lift(tree, [])
    effective_base = base or ph.sentinel_base
    inner: dict[str, tuple[Node, Node, Node]] = {}
    if pending:
        batch = [
            {"@context": ctx, "@id": p, "@graph": [node]} if ctx else {"@id": p, "@graph": [node]}
            for p, node, ctx in pending
        ]
        inner = _inner_jsonld(batch, fmt.name, ph, effective_base)
    ds = Dataset()
    try:
        _parse_rdflib(ds, json.dumps(lifted), fmt.rdflib_name, effective_base)
    except Exception as e:
        line, reason = _explain(e)
        raise RDFSyntaxError(fmt.name, line, ph.restore(reason)) from e
    resolver = _Resolver(fmt.name, ph, inner)
    return _canonical_order({resolver.quad(s, p, o, g) for s, p, o, g in _rdflib_quads(ds)})


def _inner_jsonld(batch: list[_JSON], syntax: str, ph: _Placeholders, base: str) -> dict[str, tuple[Node, Node, Node]]:
    """Read every embedded node as the one triple it must be, each in a graph named by its placeholder."""
    ds = Dataset()
    try:
        _parse_rdflib(ds, json.dumps(batch), "json-ld", base)
    except Exception as e:
        raise RDFSyntaxError(syntax, None, f"in an embedded node: {ph.restore(_explain(e)[1])}") from e
    found: dict[str, list[tuple[Node, Node, Node]]] = {key: [] for key in ph.quoted}
    for s, p, o, g in _rdflib_quads(ds):
        if str(g) not in found:
            raise RDFSyntaxError(syntax, None, "an embedded node must hold exactly one triple")
        found[str(g)].append((s, p, o))
    for key, triples in found.items():
        if len(triples) != 1:
            shown, count = ph.quoted[key].source, len(triples)
            raise RDFSyntaxError(syntax, None, f"embedded node {shown} must hold exactly one triple, not {count}")
    return {key: triples[0] for key, triples in found.items()}


def _contexts_flat(contexts: list[Any]) -> Iterator[Any]:
    for ctx in contexts:
        if isinstance(ctx, list):
            yield from _contexts_flat(ctx)
        else:
            yield ctx


def _id_aliases(contexts: list[Any]) -> set[str]:
    """Terms a context defines as ``@id`` (``"id": "@id"``), which may hold an embedded node too."""
    return {k for ctx in _contexts_flat(contexts) if isinstance(ctx, dict) for k, v in ctx.items() if v == "@id"}


def _refuse_remote(context: Any) -> None:
    """Refuse a context (or ``@import``) given by URL anywhere in ``context``: no network from a parser."""
    if isinstance(context, str):
        raise MappingError(f"json-ld: remote @context {context!r} is not fetched; inline the context")
    if isinstance(context, list):
        for item in context:
            _refuse_remote(item)
    elif isinstance(context, dict):
        for key, value in context.items():
            if key in ("@context", "@import"):
                _refuse_remote(value)
            elif isinstance(value, dict) and "@context" in value:
                _refuse_remote(value["@context"])


# --------------------------------------------------------------------------------------------------
# Isomorphism


def _bnodes_in(quads: Iterable[Quad]) -> set[BNode]:
    found: set[BNode] = set()
    for quad in quads:
        for term in (quad.s, quad.o):
            if isinstance(term, BNode):
                found.add(term)
            elif isinstance(term, QuotedTriple):
                found.update(_bnodes_of(term))
    return found


def _spell(term: Subject | Object, colours: dict[BNode, str], me: BNode | None) -> str:
    if isinstance(term, QuotedTriple):
        return f"<<{_spell(term.s, colours, me)} {n3(term.p)} {_spell(term.o, colours, me)}>>"
    if isinstance(term, BNode):
        return "*" if term == me else f"_:{colours[term]}"
    return n3(term)


def _refine(quads: frozenset[Quad], colours: dict[BNode, str]) -> dict[BNode, str]:
    """One round: a blank node's new colour hashes its old one with every quad it occurs in."""
    seen: dict[BNode, list[str]] = {b: [colour] for b, colour in colours.items()}
    for quad in quads:
        nodes = _bnodes_in((quad,))
        for me in nodes:
            seen[me].append(" ".join((_spell(quad.s, colours, me), n3(quad.p), _spell(quad.o, colours, me), quad.g)))
    return {b: hashlib.sha256("\n".join(sorted(sigs[1:]) + sigs[:1]).encode()).hexdigest() for b, sigs in seen.items()}


def _match(left: frozenset[Quad], right: frozenset[Quad], lc: dict[BNode, str], rc: dict[BNode, str]) -> bool:
    while True:
        new_l, new_r = _refine(left, lc), _refine(right, rc)
        if sorted(new_l.values()) != sorted(new_r.values()):
            return False
        stable = len(set(new_l.values())) == len(set(lc.values())) and len(set(new_r.values())) == len(set(rc.values()))
        lc, rc = new_l, new_r
        if stable:
            break
    if len(set(lc.values())) == len(lc):  # every blank node told apart: rename and compare
        by_colour = {colour: b for b, colour in rc.items()}
        rename = {b: by_colour[colour] for b, colour in lc.items()}
        return {_rename(q, rename) for q in left} == right
    counts: dict[str, int] = {}
    for colour in lc.values():
        counts[colour] = counts.get(colour, 0) + 1
    tied = min((c for c, n in counts.items() if n > 1), key=lambda c: (counts[c], c))
    pick = min((b for b, c in lc.items() if c == tied), key=str)
    for candidate in sorted((b for b, c in rc.items() if c == tied), key=str):
        if _match(left, right, {**lc, pick: tied + "!"}, {**rc, candidate: tied + "!"}):
            return True
    return False


def _rename(quad: Quad, rename: dict[BNode, BNode]) -> Quad:
    def term(t: Any) -> Any:
        if isinstance(t, QuotedTriple):
            return QuotedTriple(term(t.s), t.p, term(t.o))
        return rename.get(t, t) if isinstance(t, BNode) else t

    return Quad(term(quad.s), quad.p, term(quad.o), quad.g)


# --------------------------------------------------------------------------------------------------
# The dispatch tables (rows of formats.FORMATS, by name)

_Reader = Callable[[str, Format, str | None], list[Quad]]
_Writer = Callable[[list[Quad], Format], str]

_READERS: dict[str, _Reader] = {
    "nquads": _read_lines,
    "nt": _read_lines,
    "trig": _read_turtle,
    "turtle": _read_turtle,
    "json-ld": _read_jsonld,
}
_WRITERS: dict[str, _Writer] = {
    "nquads": _write_lines,
    "nt": _write_lines,
    "trig": _write_turtle,
    "turtle": _write_turtle,
    "json-ld": _write_jsonld,
}
