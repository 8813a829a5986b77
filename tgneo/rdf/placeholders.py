"""Placeholders: how rdflib carries the quoted triples and blank-node labels it would otherwise lose.

rdflib 7 neither parses ``<< … >>`` nor keeps blank-node labels, so the Turtle-star, TriG-star and
JSON-LD-star readers and writers replace each quoted triple and each ``_:label`` with a
``<urn:tgneo:TOKEN:…>`` IRI that rdflib handles, and swap the terms back afterwards
(:class:`Resolver`). ``TOKEN`` is random per call, so no input can forge a placeholder, and
:func:`no_leak` guarantees none ever reaches a result.
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from rdflib import Dataset, Graph
from rdflib.graph import DATASET_DEFAULT_GRAPH_ID
from rdflib.term import BNode, Literal, Node, URIRef

from tgneo.errors import MappingError
from tgneo.rdf.ntriples import BNODE_LABEL, canonical_order, n3
from tgneo.rdf.terms import DEFAULT_GRAPH, Object, Quad, QuotedTriple, Subject
from tgneo.vocab import PREFIXES


@contextmanager
def rdflib_quietly() -> Iterator[None]:
    """Silence the DeprecationWarnings rdflib 7.6 raises against itself.

    Its own TriG and JSON-LD plugins still call ``ConjunctiveGraph`` and ``Dataset.default_context``,
    which it has deprecated (pytest's ``filterwarnings = error`` would turn them into failures). Only
    warnings attributed to rdflib's own modules are hidden. ``catch_warnings`` swaps process-wide
    state, so under threads the worst case is that rdflib's self-deprecations stay hidden a while longer.
    """
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=DeprecationWarning, module=r"rdflib\.")
        yield


@dataclass
class Quoted:
    """One quoted triple lifted out of a document: what it said, and where, for parsing and for messages."""

    source: str
    """The original text, quoted back in error messages."""
    inner: str = ""
    """Its ``s p o`` with any nested quoted triples already replaced by placeholders (Turtle, TriG)."""
    prologue: str = ""
    """The ``@prefix``/``@base`` declarations in force where it opened (Turtle, TriG)."""
    line: int | None = None


@dataclass
class Placeholders:
    """The placeholder IRIs of one ``parse`` or ``serialize`` call.

    Each call draws a random token, so no document can contain (and so forge) a placeholder, and a
    leftover one is recognisable by ``prefix`` wherever it turns up.
    """

    token: str = field(default_factory=lambda: uuid.uuid4().hex)
    quoted: dict[str, Quoted] = field(default_factory=dict)
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

    def lift_quoted(self, quoted: Quoted) -> str:
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
                return shorten(self.quoted[key].source)
            if key in self.labels:
                return f"_:{self.labels[key]}"
            return self.replacement.get(key, key)

        return re.sub(f"<?({re.escape(self.prefix)}[qb]\\d{{9}})>?", back, message)


def shorten(text: str, limit: int = 80) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


class Resolver:
    """Turn rdflib's nodes back into tgneo terms: placeholders become quoted triples and labelled blank nodes."""

    def __init__(self, syntax: str, ph: Placeholders, inner: dict[str, tuple[Node, Node, Node]]) -> None:
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
            if BNODE_LABEL.fullmatch(f"_:{node}"):
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


def rdflib_quads(ds: Dataset) -> Iterator[tuple[Node, Node, Node, Node | None]]:
    """Every (s, p, o, g) of an rdflib Dataset, g being the graph's name."""
    for s, p, o, g in ds.quads((None, None, None, None)):
        yield s, p, o, getattr(g, "identifier", g)


def parse_rdflib(ds: Dataset, text: str, rdflib_format: str, base: str) -> None:
    """rdflib's parse, keeping every literal's lexical form as written (``"007"``, ``…Z``).

    rdflib normalises typed literals by default (``"2025-06-01T10:15:30Z"^^xsd:dateTime`` becomes
    ``…+00:00``), which would make an import → export round trip inexact. The switch is
    process-wide, so it is turned off only for the parse.
    """
    import rdflib

    saved = rdflib.NORMALIZE_LITERALS
    rdflib.NORMALIZE_LITERALS = False
    try:
        with rdflib_quietly():
            ds.parse(data=text, format=rdflib_format, publicID=base)
    finally:
        rdflib.NORMALIZE_LITERALS = saved


def explain_error(error: Exception) -> tuple[int | None, str]:
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


def dataset(quads: list[Quad], lift: Callable[[Subject | Object], Node]) -> Dataset:
    """An rdflib Dataset of ``quads`` in canonical order, terms passed through ``lift``, tgneo's prefixes bound."""
    ds = Dataset()
    for prefix, namespace in PREFIXES:
        ds.bind(prefix, URIRef(str(namespace)), override=True, replace=True)
    graphs: dict[str, Graph] = {DEFAULT_GRAPH: ds.default_graph}
    for quad in canonical_order(quads):
        if quad.g not in graphs:
            graphs[quad.g] = ds.graph(URIRef(quad.g))
        graphs[quad.g].add((lift(quad.s), quad.p, lift(quad.o)))
    return ds


def no_leak(out: str, ph: Placeholders) -> str:
    """The last guard: output never carries a placeholder, whatever rdflib chose to do with one."""
    if ph.token in out:
        raise MappingError("a quoted triple or blank node could not be written in this position")
    return out
