"""Streaming RDF writers: quads in, text out, without holding the dataset.

``tgneo export`` reads Neo4j with a cursor and hands each quad here as it arrives; these writers never
build a graph in memory. They are tgneo's only RDF writers: ``star.serialize`` gathers their output into a
string for small, in-memory use. Their output is read back by ``rdf.reader`` (and by rdflib, pyoxigraph and ``prov``).

* **N-Quads / N-Triples** are canonical: one line per distinct quad, sorted by code point. Sorting a
  stream needs an external sort (``extsort``), so memory stays one run of lines.
* **Turtle / TriG** group consecutive quads by graph (``<g> { … }`` blocks), subject (``;``) and
  predicate (``,``), with tgneo's prefixes; an IRI is prefixed only when its local part needs no
  escaping.
* **JSON-LD** is expanded JSON-LD: a top-level array of graph objects, one node object per run of a
  subject's quads (JSON-LD merges node objects that share an ``@id``).

Quoted triples are written in one of three ways (``QuotedMode``):

* ``star``: RDF-star ``<< s p o >>`` (JSON-LD-star embedded nodes ``{"@id": {"@id": s, p: o}}``);
* ``triple-term``: RDF 1.2 triple terms ``<<( s p o )>>``; RDF 1.2 allows them only as objects, and
  JSON-LD has none, so a quoted subject (or JSON-LD) in this mode is refused;
* ``reification``: RDF 1.1 standard reification for tools without RDF-star. The quoted triple
  becomes the IRI ``urn:tgneo:triple:<edge id>``, described by ``rdf:type rdf:Statement``,
  ``rdf:subject``, ``rdf:predicate`` and ``rdf:object`` in the graph of the quad that refers to it.
  ``tgneo import`` recognises these IRIs and reads them back as the quoted triples they stand for.
"""

from __future__ import annotations

import json
import re
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from typing import Any
from typing import Literal as TypingLiteral

from rdflib.term import Literal, URIRef

from tgneo.errors import MappingError, UnsupportedFormat
from tgneo.rdf.extsort import sorted_unique
from tgneo.rdf.formats import Format, get_format
from tgneo.rdf.jsonld import jsonld_id, jsonld_value
from tgneo.rdf.ntriples import check_iri, edge_id, escape_iri, literal_n3, n3
from tgneo.rdf.terms import DEFAULT_GRAPH, Object, Quad, QuotedTriple, Subject
from tgneo.vocab import PREFIXES, PROV, RDF

__all__ = ["QUOTED_MODES", "REIFIED_PREFIX", "QuotedMode", "default_quoted", "reified_iri", "reify", "write"]

QuotedMode = TypingLiteral["star", "triple-term", "reification"]
QUOTED_MODES: tuple[QuotedMode, ...] = ("star", "triple-term", "reification")


REIFIED_PREFIX = "urn:tgneo:triple:"
"""The IRIs that stand for quoted triples in the ``reification`` mode (followed by the edge id)."""
_RECENTLY_REIFIED = 50_000
"""How many reified triples a writer remembers, to describe each once without unbounded memory."""

Sink = Callable[[str], object]


def reified_iri(triple: QuotedTriple) -> URIRef:
    """The IRI standing for ``triple`` in the ``reification`` mode."""
    return URIRef(REIFIED_PREFIX + edge_id(triple.s, triple.p, triple.o))


def write(
    quads: Iterable[Quad], format: str | Format, sink: Sink, quoted: QuotedMode = "star", *, as_entities: bool = False
) -> int:
    """Write ``quads`` to ``sink`` (``file.write``) in ``format``; return how many statements were written.

    The count is of what the file holds, not of what came in: reification adds four statements per
    quoted triple, and N-Quads/N-Triples write each distinct line once.

    Raises:
        UnsupportedFormat: a quad in a named graph for a format without them (Turtle, N-Triples),
            or ``triple-term`` with JSON-LD.
        MappingError: ``triple-term`` with a quoted triple as subject; a term not allowed where it is.
    """
    fmt = format if isinstance(format, Format) else get_format(format)
    if quoted not in QUOTED_MODES:
        raise MappingError(f"unknown quoted-triple mode {quoted!r}; use one of {', '.join(QUOTED_MODES)}")
    if quoted == "triple-term" and fmt.name == "json-ld":
        raise UnsupportedFormat("JSON-LD has no RDF 1.2 triple terms; use --quoted star or reification")
    stream = _checked(quads, fmt)
    if quoted == "reification":
        stream = _Reifier(as_entities).quads(stream)
    if fmt.name in ("nquads", "nt"):
        terms = _Terms(quoted)
        written = 0
        for line in sorted_unique(terms.line(q) for q in stream):
            sink(line)
            written += 1
        return written
    counter = _Counter()
    stream = counter.count(stream)
    if fmt.name == "json-ld":
        _write_jsonld(stream, sink)
    else:
        _TurtleWriter(fmt, sink, _Terms(quoted, prefixes=True)).write(stream)
    return counter.n


class _Counter:
    def __init__(self) -> None:
        self.n = 0

    def count(self, quads: Iterable[Quad]) -> Iterator[Quad]:
        for q in quads:
            self.n += 1
            yield q


def _checked(quads: Iterable[Quad], fmt: Format) -> Iterator[Quad]:
    for q in quads:
        if q.g != DEFAULT_GRAPH and not fmt.named_graphs:
            raise UnsupportedFormat(
                f"{fmt.name} has no named graphs, but quads are in <{q.g}>; "
                "merge the graphs into the default graph first, or write nquads, trig or json-ld"
            )
        yield q


def reify(quads: Iterable[Quad], as_entities: bool = False) -> Iterator[Quad]:
    """``quads`` with every quoted triple replaced by its ``urn:tgneo:triple:…`` IRI and described
    (and, with ``as_entities``, typed ``prov:Entity`` too: see :func:`default_quoted`)."""
    return _Reifier(as_entities).quads(quads)


def default_quoted(profile: str) -> QuotedMode:
    """How an export spells quoted triples unless told: what the profile's readers read.

    The ``prov`` profile is for W3C tools: rdflib 7, pyoxigraph and the ``prov`` package read neither
    RDF-star nor RDF 1.2 in N-Quads or TriG (rdflib stops at ``<<``, pyoxigraph refuses a triple as an
    object), so it reifies (``rdf:Statement``, RDF 1.1) — and types each reified edge ``prov:Entity`` as
    well, which it is (the answer derives from it), so that the ``prov`` package converts it instead of
    warning that ``rdf:Statement`` is not PROV. The ``trustgraph`` profile is TrustGraph's own triples,
    whose edges are quoted triples: RDF-star.
    """
    return "reification" if profile == "prov" else "star"


class _Reifier:
    """Quoted triples → ``urn:tgneo:triple:…`` IRIs, each described (in the graph that uses it) once."""

    def __init__(self, as_entities: bool = False) -> None:
        self.as_entities = as_entities
        self.described: OrderedDict[tuple[URIRef, str], None] = OrderedDict()

    def quads(self, quads: Iterable[Quad]) -> Iterator[Quad]:
        for q in quads:
            extra: list[Quad] = []
            s = self.term(q.s, q.g, extra)
            o = self.term(q.o, q.g, extra)
            yield from extra
            yield Quad(s, q.p, o, q.g)  # type: ignore[arg-type]

    def term(self, term: Subject | Object, g: str, out: list[Quad]) -> Subject | Object:
        if not isinstance(term, QuotedTriple):
            return term
        iri = reified_iri(term)
        if (iri, g) not in self.described:
            self.described[(iri, g)] = None
            if len(self.described) > _RECENTLY_REIFIED:
                self.described.popitem(last=False)
            s = self.term(term.s, g, out)
            o = self.term(term.o, g, out)
            if self.as_entities:
                out.append(Quad(iri, RDF.type, PROV.Entity, g))
            out += [
                Quad(iri, RDF.type, RDF.Statement, g), Quad(iri, RDF.subject, s, g),
                Quad(iri, RDF.predicate, term.p, g), Quad(iri, RDF.object, o, g),
            ]  # fmt: skip
        else:
            self.described.move_to_end((iri, g))
        return iri


_LOCAL = re.compile(r"[A-Za-z_][A-Za-z0-9_\-]*")


class _Terms:
    """How terms are spelled: N-Triples forms, optionally prefixed names, quoted triples per mode."""

    def __init__(self, quoted: QuotedMode, prefixes: bool = False) -> None:
        self.quoted = quoted
        self.prefixes = [(str(ns), name) for name, ns in PREFIXES] if prefixes else []

    def line(self, q: Quad) -> str:
        graph = f" <{escape_iri(q.g)}>" if q.g != DEFAULT_GRAPH else ""
        return f"{self.term(q.s, 's')} {self.term(q.p, 'p')} {self.term(q.o, 'o')}{graph} .\n"

    def term(self, term: Subject | Object, position: str = "o") -> str:
        if isinstance(term, QuotedTriple):
            if self.quoted == "triple-term":
                if position == "s":
                    raise MappingError(
                        f"RDF 1.2 triple terms cannot be subjects: {n3(term)}; use --quoted star or reification"
                    )
                return f"<<( {self.term(term.s, 's')} {self.term(term.p, 'p')} {self.term(term.o)} )>>"
            return f"<< {self.term(term.s, 's')} {self.term(term.p, 'p')} {self.term(term.o)} >>"
        if isinstance(term, URIRef):
            return self.iri(str(term))
        if isinstance(term, Literal):
            return literal_n3(term, self.iri)
        return n3(term)

    def iri(self, iri: str) -> str:
        check_iri(iri)
        for namespace, name in self.prefixes:
            if iri.startswith(namespace) and _LOCAL.fullmatch(iri[len(namespace) :]):
                return f"{name}:{iri[len(namespace) :]}"
        return f"<{escape_iri(iri)}>"


class _TurtleWriter:
    def __init__(self, fmt: Format, sink: Sink, terms: _Terms) -> None:
        self.fmt = fmt
        self.sink = sink
        self.terms = terms

    def write(self, quads: Iterable[Quad]) -> None:
        for name, namespace in PREFIXES:
            self.sink(f"@prefix {name}: <{namespace}> .\n")
        graph: str | None = None
        subject: Subject | None = None
        predicate: URIRef | None = None
        indent = ""
        for q in quads:
            if q.g != graph:
                if subject is not None:
                    self.sink(" .\n")
                if graph not in (None, DEFAULT_GRAPH):
                    self.sink("}\n")
                self.sink("\n")
                graph, subject, predicate = q.g, None, None
                indent = "    " if graph != DEFAULT_GRAPH else ""
                if graph != DEFAULT_GRAPH:
                    self.sink(f"{self.terms.iri(graph)} {{\n")
            obj = self.terms.term(q.o)
            if q.s == subject and q.p == predicate:
                self.sink(f" ,\n{indent}        {obj}")
            elif q.s == subject:
                self.sink(f" ;\n{indent}    {self._predicate(q.p)} {obj}")
            else:
                if subject is not None:
                    self.sink(" .\n")
                self.sink(f"{indent}{self.terms.term(q.s, 's')}\n{indent}    {self._predicate(q.p)} {obj}")
            subject, predicate = q.s, q.p
        if subject is not None:
            self.sink(" .\n")
        if graph not in (None, DEFAULT_GRAPH):
            self.sink("}\n")

    def _predicate(self, p: URIRef) -> str:
        return "a" if p == RDF.type else self.terms.term(p, "p")


def _write_jsonld(quads: Iterable[Quad], sink: Sink) -> None:
    """Expanded JSON-LD(-star), written node by node: default-graph nodes at the top level, each named
    graph as ``{"@id": g, "@graph": [...]}`` (a top-level object without ``@id`` would name a blank graph)."""
    sink("[")
    graph: str | None = None
    node: dict[str, Any] | None = None
    first = {"top": True, "inner": True}

    def emit(text: str, level: str) -> None:
        pad = "\n  " if level == "top" else "\n    "
        sink((pad if first[level] else "," + pad) + text)
        first[level] = False

    def flush() -> None:
        if node is not None:
            emit(json.dumps(node, ensure_ascii=False), "top" if graph == DEFAULT_GRAPH else "inner")

    for q in quads:
        if q.g != graph:
            flush()
            node = None
            if graph not in (None, DEFAULT_GRAPH):
                sink("\n  ]}")
            if q.g != DEFAULT_GRAPH:
                emit(json.dumps({"@id": q.g})[:-1] + ', "@graph": [', "top")
                first["inner"] = True
            graph = q.g
        subject = jsonld_id(q.s)
        if node is None or node["@id"] != subject:
            flush()
            node = {"@id": subject}
        node.setdefault(str(q.p), []).append(jsonld_value(q.o))
    flush()
    if graph not in (None, DEFAULT_GRAPH):
        sink("\n  ]}")
    sink("\n]\n")
