"""Streaming RDF readers: a file becomes an iterator of quads, in constant memory where the syntax allows.

``tgneo import`` reads a file twice (once to check everything, once to write), so nothing here holds
a document in memory when the format streams:

* **N-Quads-star / N-Triples-star**: tgneo's own strict line reader (:class:`~tgneo.rdf.lines.LineReader`), one line at
  a time. pyoxigraph reads RDF 1.2 N-Quads only and refuses TrustGraph's ``<< s p o >>``.
* **Turtle-star / TriG-star**: pyoxigraph's Rust parser, streamed, behind
  :class:`~tgneo.rdf.star_rewrite.StarToTripleTerms`, a one-pass rewriter that turns RDF-star's quoted triples
  ``<< s p o >>`` into the RDF 1.2 triple terms ``<<( s p o )>>`` pyoxigraph reads (in RDF 1.2, ``<< … >>``
  means a *reifier*, a different thing). Errors keep the user's line and column: the rewriter remembers where
  it inserted characters.
  RDF 1.2 allows triple terms only as objects, so a document with a quoted triple as *subject* is read
  by the in-memory reader of ``star.py`` instead (rdflib behind placeholders), which allows both.
* **JSON-LD**: pyoxigraph, after a check that names the line and column of a malformed ``@id`` or
  ``@type``; JSON-LD-star (embedded ``{"@id": {…}}`` nodes) goes to ``star.py``'s reader. A JSON-LD
  document is one JSON value, so it is held in memory either way.

Blank nodes are scoped to their file (:func:`scoped_bnode`): the label ``b1`` of a file whose SHA-256
starts ``9f2c…`` becomes the blank node ``g9f2c…_b1`` (``g9f2c…_ub1`` where pyoxigraph parses, which
also invents labels), so two files' ``_:b1`` stay two nodes, and the same file imported twice gives
the same nodes again.
Anonymous nodes (``[]``) are numbered in the order the parser meets them (``g9f2c…_a1``, ``…_a2``),
which is deterministic for a given file.
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyoxigraph as ox
from rdflib.term import BNode, Literal, URIRef

from tgneo.errors import MappingError, RDFSyntaxError
from tgneo.rdf import star
from tgneo.rdf.formats import Format
from tgneo.rdf.jsonld import refuse_remote
from tgneo.rdf.lines import FAST_GRAPH, FAST_LINE, LineReader
from tgneo.rdf.star_rewrite import StarToTripleTerms
from tgneo.rdf.terms import DEFAULT_GRAPH, MAX_NESTING, Object, PlainTriple, Quad, QuotedTriple, Subject
from tgneo.vocab import XSD

__all__ = ["file_digest", "locate", "read_plain", "read_quads", "scoped_bnode", "scoped_label"]

_XSD_STRING = str(XSD.string)
_OX_FORMATS = {"turtle": ox.RdfFormat.TURTLE, "trig": ox.RdfFormat.TRIG, "json-ld": ox.RdfFormat.JSON_LD}
_GENERATED = re.compile(r"[0-9a-f]{16,32}")
"""How pyoxigraph labels a blank node it made up (``[]``): a random 128-bit number in hex, without
leading zeros (so usually, not always, 32 digits)."""


def file_digest(path: str | os.PathLike[str]) -> str:
    """SHA-256 (hex) of a file's bytes, read in 1 MiB pieces."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for piece in iter(lambda: handle.read(1 << 20), b""):
            digest.update(piece)
    return digest.hexdigest()


def scoped_label(scope: str, label: str) -> str:
    """The label ``_:label`` of the file with ``scope`` (its digest) is stored under."""
    return f"g{scope[:20]}_{label}"


def scoped_bnode(scope: str, label: str) -> BNode:
    """The blank node that ``_:label`` of the file with ``scope`` (its digest) is stored as."""
    return BNode(scoped_label(scope, label))


def read_quads(
    path: str | os.PathLike[str], fmt: Format, *, base: str | None = None, scope: str | None = None
) -> Iterator[Quad]:
    """Stream the quads of a file.

    Args:
        path: the file (``tgneo import -`` spools stdin to a temporary file first).
        fmt: its format row.
        base: the IRI relative IRIs resolve against; without it a relative IRI is an error.
        scope: the file's digest; blank nodes are renamed into it (:func:`scoped_bnode`). ``None``
            keeps labels as written.

    Raises:
        RDFSyntaxError: the text does not parse (format, line, column and problem).
        MappingError: it parses but cannot be quads (a blank-node graph name, a relative IRI
            without a base, quoted triples nested deeper than ``MAX_NESTING``).
    """
    if fmt.name in ("nquads", "nt"):
        return _read_lines(path, fmt, scope)
    if fmt.name == "json-ld":
        return _read_jsonld(path, fmt, base, scope)
    return _read_turtle(path, fmt, base, scope)


def read_plain(
    path: str | os.PathLike[str], fmt: Format, *, base: str | None = None, scope: str | None = None
) -> Iterator[PlainTriple | Quad]:
    """:func:`read_quads`, except that in the line formats a default-graph line the fast path reads (absolute
    IRIs, blank nodes, literals without escapes: nearly every line of a knowledge graph) comes as a
    :class:`PlainTriple`, text without rdflib terms, for the import's native writer. Same errors."""
    if fmt.name in ("nquads", "nt"):
        return _read_lines(path, fmt, scope, plain=True)
    return read_quads(path, fmt, base=base, scope=scope)


def locate(path: str | os.PathLike[str], needle: str) -> tuple[int, int] | None:
    """Line and column (1-based) of the first occurrence of ``needle`` in a file, for error messages."""
    if not needle:
        return None
    with open(path, "rb") as handle:
        for line_no, raw in enumerate(handle, start=1):
            col = raw.decode("utf-8", "replace").find(needle)
            if col >= 0:
                return line_no, col + 1
    return None


# --------------------------------------------------------------------------------------------------
# N-Quads-star / N-Triples-star


def _read_lines(path: str | os.PathLike[str], fmt: Format, scope: str | None, plain: bool = False) -> Iterator[Any]:
    reader = LineReader(fmt.name, fmt.named_graphs)
    rename = _Renamer(scope)
    scoped = scoped_label(scope, "") if scope is not None else ""
    with open(path, "rb") as handle:
        for line_no, raw in enumerate(handle, start=1):  # binary lines split on LF only
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as e:
                raise RDFSyntaxError(fmt.name, line_no, f"not UTF-8 ({e.reason})", column=e.start + 1) from e
            if line_no == 1:
                text = text.removeprefix("\ufeff")
            text = text.removesuffix("\n")
            if plain:
                fast = FAST_LINE.fullmatch(text)
                if fast is not None and fast.group(FAST_GRAPH) is None:
                    s_iri, s_bnode, p, o_iri, o_bnode, lexical, lang, datatype, _ = fast.groups()
                    if o_iri is not None:
                        o, kind = o_iri, "iri"
                    elif o_bnode is not None:
                        o, kind = scoped + o_bnode[2:], "bnode"
                    else:
                        o, kind = lexical, "literal"
                    subject = s_iri if s_iri is not None else scoped + s_bnode[2:]
                    yield PlainTriple(subject, s_iri is None, p, o, kind, lang, datatype)
                    continue
            quad = reader.line(line_no, text)
            if quad is not None:
                yield rename.quad(quad) if scope is not None else quad


class _Renamer:
    """Blank nodes into their file's scope; labels the parser made up get numbers in order of appearance."""

    def __init__(self, scope: str | None, generated: re.Pattern[str] | None = None) -> None:
        self.scope = scope
        self.generated = generated
        self.numbers: dict[str, int] = {}

    def label(self, label: str) -> str:
        """``u`` + the user's label, or ``a`` + a number for a label the parser made up.

        pyoxigraph labels ``[]`` with up to 32 random hex digits. A user's label of that shape is numbered
        too (consistently, so it is still one node); the ``u`` keeps user labels and numbers apart.
        """
        if self.generated is None:
            return label
        if self.generated.fullmatch(label):
            return f"a{self.numbers.setdefault(label, len(self.numbers) + 1)}"
        return f"u{label}"

    def bnode(self, label: str) -> BNode:
        label = self.label(label)
        return scoped_bnode(self.scope, label) if self.scope is not None else BNode(label)

    def term(self, term: Any) -> Any:
        if isinstance(term, BNode):
            return self.bnode(str(term))
        if isinstance(term, QuotedTriple):
            return QuotedTriple(self.term(term.s), term.p, self.term(term.o))
        return term

    def quad(self, quad: Quad) -> Quad:
        return Quad(self.term(quad.s), quad.p, self.term(quad.o), quad.g)


# --------------------------------------------------------------------------------------------------
# Turtle-star / TriG-star through pyoxigraph


_OX_POSITION = re.compile(r"^Parser error (?:at|between) line \d+.*?: ", re.S)


def _syntax_error(e: SyntaxError, syntax: str, rewriter: StarToTripleTerms | None) -> RDFSyntaxError:
    """pyoxigraph's ``SyntaxError`` as tgneo's, at the user's line and column."""
    message = _OX_POSITION.sub("", str(e.msg)).strip()
    message = re.sub(r" \(line \d+\)$", "", message)
    if "No scheme found" in message:  # what pyoxigraph says of a relative IRI when there is no base
        message = "relative IRI and no base; add @base to the document or give a base IRI (tgneo import --base IRI)"
    line, column = e.lineno, e.offset
    if rewriter is not None and line is not None and column is not None:
        column = rewriter.original_column(line, column)
        message = message.replace("<<(", "<<").replace(")>>", ">>")
    return RDFSyntaxError(syntax, line, message or "syntax error", column=column)


def _read_turtle(path: str | os.PathLike[str], fmt: Format, base: str | None, scope: str | None) -> Iterator[Quad]:
    if _quoted_subject(path, fmt):
        yield from _read_in_memory(path, fmt, base, scope)
        return
    with open(path, "rb") as handle:
        rewriter = StarToTripleTerms(handle, fmt.name)
        stream = io.BufferedReader(rewriter, buffer_size=1 << 16)
        convert = _Converter(fmt.name, _Renamer(scope if scope is not None else None, _GENERATED), base)
        try:
            for quad in ox.parse(stream, _OX_FORMATS[fmt.name], base_iri=base):
                yield convert.quad(quad)
        except SyntaxError as e:
            raise _syntax_error(e, fmt.name, rewriter) from None
        if rewriter.stack:
            raise RDFSyntaxError(fmt.name, rewriter.line_no, "'<<' is never closed")


def _quoted_subject(path: str | os.PathLike[str], fmt: Format) -> bool:
    """Whether pyoxigraph (RDF 1.2: triple terms only as objects) refuses this file for a quoted subject."""
    stat = os.stat(path)
    return _quoted_subject_cached(os.fspath(path), stat.st_size, stat.st_mtime_ns, fmt)


@functools.lru_cache(maxsize=16)
def _quoted_subject_cached(path: str, size: int, mtime: int, fmt: Format) -> bool:
    """One look per file version: the import's two passes ask the same question."""
    with open(path, "rb") as handle:
        rewriter = StarToTripleTerms(handle, fmt.name)
        try:
            for _ in ox.parse(io.BufferedReader(rewriter), _OX_FORMATS[fmt.name], base_iri="http://x.invalid/"):
                pass
        except SyntaxError as e:
            return "<<(" in str(e.msg) and "subject" in str(e.msg)
        except RDFSyntaxError:
            return False
    return False


def _read_in_memory(path: str | os.PathLike[str], fmt: Format, base: str | None, scope: str | None) -> Iterator[Quad]:
    """``star.parse``: Turtle-star with quoted subjects and JSON-LD-star, whole documents."""
    rename = _Renamer(scope)
    for quad in star.parse(Path(path).read_bytes(), fmt, base=base):
        yield rename.quad(quad) if scope is not None else quad


class _Converter:
    """pyoxigraph terms → tgneo's (rdflib terms and ``QuotedTriple``)."""

    def __init__(self, syntax: str, rename: _Renamer, base: str | None) -> None:
        self.syntax = syntax
        self.rename = rename
        self.sentinel = None if base is not None else "http://tgneo-relative.invalid/"

    def quad(self, quad: ox.Quad) -> Quad:
        graph = quad.graph_name
        if isinstance(graph, ox.DefaultGraph):
            g = DEFAULT_GRAPH
        elif isinstance(graph, ox.NamedNode):
            g = str(self.iri(graph))
        else:
            raise MappingError(f"{self.syntax}: blank-node graph names are not supported; tgneo names graphs by IRI")
        s = self.term(quad.subject)
        if isinstance(s, Literal):
            raise MappingError(f"{self.syntax}: a literal cannot be a subject")
        return Quad(s, self.iri(quad.predicate), self.term(quad.object), g)

    def iri(self, node: Any) -> URIRef:
        value = node.value
        if self.sentinel is not None and value.startswith(self.sentinel):
            raise MappingError(
                f"{self.syntax}: relative IRI <{value.removeprefix(self.sentinel)}> and no base; add @base to the "
                "document or give a base IRI (tgneo import --base IRI)"
            )
        return URIRef(value)

    def term(self, node: Any, depth: int = 0) -> Subject | Object:
        if isinstance(node, ox.NamedNode):
            return self.iri(node)
        if isinstance(node, ox.BlankNode):
            return self.rename.bnode(node.value)
        if isinstance(node, ox.Literal):
            if getattr(node, "direction", None) is not None:
                raise MappingError(f"{self.syntax}: base-direction literals (RDF 1.2 @lang--dir) are not supported")
            if node.language:
                return Literal(node.value, lang=node.language)
            datatype = node.datatype.value
            if datatype == _XSD_STRING:
                return Literal(node.value)
            return Literal(node.value, datatype=URIRef(datatype), normalize=False)
        if isinstance(node, ox.Triple):
            if depth >= MAX_NESTING:
                raise MappingError(f"{self.syntax}: quoted triples nest deeper than {MAX_NESTING} levels")
            s = self.term(node.subject, depth + 1)
            o = self.term(node.object, depth + 1)
            return QuotedTriple(s, self.iri(node.predicate), o)  # type: ignore[arg-type]
        raise MappingError(f"{self.syntax}: {node!r} is not an RDF term")


# --------------------------------------------------------------------------------------------------
# JSON-LD


_KEYWORD_VALUE = re.compile(r'(?<!\\)"(@id|@type)"\s*:\s*')
"""A key ``"@id"`` or ``"@type"`` (not an escaped quote inside some string) and the start of its value."""


def _check_jsonld(text: str, syntax: str) -> bool:
    """Refuse a malformed ``@id``/``@type`` at its line and column; say whether embedded nodes (JSON-LD-star) occur."""
    decoder = json.JSONDecoder()
    embedded = False
    for match in _KEYWORD_VALUE.finditer(text):
        key, at = match.group(1), match.end()
        try:
            value, _ = decoder.raw_decode(text, at)
        except json.JSONDecodeError:
            continue  # inside a string, or bad JSON that json.loads reports with its own position
        line = text.count("\n", 0, at) + 1
        column = at - (text.rfind("\n", 0, at) + 1) + 1
        if key == "@id" and isinstance(value, dict):
            embedded = True
        elif key == "@id" and not isinstance(value, str):
            raise RDFSyntaxError(syntax, line, f"@id must be a string, not {json.dumps(value)[:40]}", column=column)
        elif key == "@type" and not (
            isinstance(value, str) or (isinstance(value, list) and all(isinstance(v, str) for v in value))
        ):
            if not isinstance(value, dict):  # a dict is a term definition inside @context
                shown = json.dumps(value)[:40]
                raise RDFSyntaxError(syntax, line, f"@type must be an IRI string or a list of them, not {shown}",
                                     column=column)  # fmt: skip
    return embedded


def _read_jsonld(path: str | os.PathLike[str], fmt: Format, base: str | None, scope: str | None) -> Iterator[Quad]:
    data = Path(path).read_bytes()
    try:
        text = data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as e:
        raise RDFSyntaxError(fmt.name, data[: e.start].count(b"\n") + 1, f"not UTF-8 ({e.reason})") from e
    try:
        json.loads(text)
    except json.JSONDecodeError as e:
        raise RDFSyntaxError(fmt.name, e.lineno, e.msg, column=e.colno) from e
    if _check_jsonld(text, fmt.name):
        yield from _read_in_memory(path, fmt, base, scope)
        return
    refuse_remote(_contexts(json.loads(text)))
    convert = _Converter(fmt.name, _Renamer(scope, _GENERATED), base)
    effective_base = base if base is not None else convert.sentinel
    try:
        for quad in ox.parse(text.encode("utf-8"), ox.RdfFormat.JSON_LD, base_iri=effective_base):
            yield convert.quad(quad)
    except SyntaxError as e:
        raise _syntax_error(e, fmt.name, None) from None


def _contexts(tree: Any) -> list[Any]:
    """Every ``@context`` value in a JSON-LD tree (to refuse remote ones before any parser fetches them)."""
    found: list[Any] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if "@context" in node:
                found.append(node["@context"])
            stack.extend(v for k, v in node.items() if k != "@context")
        elif isinstance(node, list):
            stack.extend(node)
    return found
