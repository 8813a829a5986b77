"""N-Quads-star and N-Triples-star: tgneo's own line reader.

Line formats are small enough to own outright: a strict reader whose errors name the line and
column (the canonical writer, sorted lines and canonical escapes, is :mod:`tgneo.rdf.writer`'s).
The common line — absolute IRIs without escapes, blank nodes, literals without escapes — is read by
one regular expression (the fast path); every other line, and every error, by the character-level
reader, which builds the same terms.
"""

from __future__ import annotations

import re
from typing import NoReturn

from rdflib.term import BNode, Literal, URIRef

from tgneo.errors import RDFSyntaxError
from tgneo.rdf.formats import Format
from tgneo.rdf.ntriples import (
    BNODE_LABEL,
    ECHAR,
    IRI_BAD,
    IRI_FORBIDDEN,
    LANGTAG,
    SCHEME,
    STRING_CHUNK,
    UCHAR,
)
from tgneo.rdf.terms import DEFAULT_GRAPH, MAX_NESTING, Object, Quad, QuotedTriple, Subject

_FAST_IRI = rf"<({SCHEME.pattern}[^{IRI_BAD}]*)>"
_FAST_NODE = rf"(?:{_FAST_IRI}|({BNODE_LABEL.pattern}))"
FAST_LINE = re.compile(  # the common line, read by one regular expression: see the module docstring
    rf"[ \t]*{_FAST_NODE}[ \t]+{_FAST_IRI}[ \t]+"
    rf'(?:{_FAST_NODE}|"([^"\\\r\n]*)"(?:{LANGTAG.pattern}|\^\^{_FAST_IRI})?)'
    rf"(?:[ \t]+{_FAST_IRI})?[ \t]*\.[ \t]*(?:#.*)?"
)
FAST_GRAPH = FAST_LINE.groups
"""The graph name is the last group."""
_IRI_CACHE_SIZE = 65_536


class LineReader:
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
        fast = FAST_LINE.fullmatch(raw)
        if fast is not None and (self.graphs or fast.group(FAST_GRAPH) is None):
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
        """The quad of a line :data:`FAST_LINE` matched (groups: subject IRI/blank node, predicate,
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
        bad = IRI_FORBIDDEN.search(UCHAR.sub("", raw))
        if bad and bad.group() == "\\":
            self._fail("only \\uXXXX and \\UXXXXXXXX escapes are allowed in an IRI")
        if bad:
            self.pos = start + 1 + bad.start()
            self._fail(f"character U+{ord(bad.group()):04X} is not allowed in an IRI")
        body = UCHAR.sub(self._uchar_match, raw) if "\\" in raw else raw
        # an escape spells a character, it does not make an illegal one legal (RDF 1.1 N-Triples §2.3)
        bad = IRI_FORBIDDEN.search(body) if body is not raw else None
        if bad:
            self.pos = start + 1
            self._fail(f"the escape for U+{ord(bad.group()):04X} spells a character that is not allowed in an IRI")
        if not SCHEME.match(body):
            self._fail(f"relative IRI <{body}>: {self.syntax} needs absolute IRIs")
        self.pos = end + 1
        return URIRef(body)

    def _bnode(self) -> BNode:
        match = BNODE_LABEL.match(self.text, self.pos)
        if not match:
            self._fail("invalid blank node label after '_:'")
        self.pos = match.end()
        return BNode(match.group()[2:])

    def _literal(self) -> Literal:
        text, i, parts = self.text, self.pos + 1, []
        while True:
            chunk = STRING_CHUNK.match(text, i)
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
            if escape in ECHAR:
                parts.append(ECHAR[escape])
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
            tag = LANGTAG.match(text, i)
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


def read_lines(text: str, fmt: Format, base: str | None) -> list[Quad]:
    """N-Quads-star / N-Triples-star: absolute IRIs only, so ``base`` has nothing to do."""
    return LineReader(fmt.name, fmt.named_graphs).read(text)
