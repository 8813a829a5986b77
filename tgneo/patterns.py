"""A triple pattern — ``s``/``p``/``o`` (each optional) and a graph selector — and what it matches (pure).

This is the query TrustGraph's ``triples`` service answers (reference §2.6), shared by the store,
which finds the candidates in Neo4j, and the gateway, which reads it off the wire. The semantics are
TrustGraph's server's, as the reference recommends:

* **graphs** — ``g`` absent or ``""``: the default graph only; ``"*"``: every graph; an IRI: that
  graph; with no ``s``, ``p`` or ``o`` and no ``g``: every graph (so ``tg-show-graph`` dumps it all);
* **terms** — IRIs and blank nodes by identity; a literal with a datatype or a language by all three;
  a *plain* literal (what TrustGraph's CLI builds when it re-quotes an edge) matches any stored literal
  with the same text, whatever its datatype or language; a quoted triple by matching its parts so,
  recursively.

Results come back in one deterministic order (:func:`sort_key`), because TrustGraph's client compares
consecutive answers and truncates at ``limit``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rdflib.term import BNode, Literal, URIRef

from tgneo.rdf.ntriples import n3
from tgneo.rdf.terms import Object, Quad, QuotedTriple, Subject

ALL_GRAPHS = "*"
DEFAULT_LIMIT = 10_000
MAX_LIMIT = 100_000


def term_matches(pattern: Subject | Object, term: Subject | Object) -> bool:
    """Whether a stored ``term`` matches a pattern term (plain literals match any datatype or language)."""
    if isinstance(pattern, QuotedTriple):
        return (
            isinstance(term, QuotedTriple)
            and term_matches(pattern.s, term.s)
            and term_matches(pattern.p, term.p)
            and term_matches(pattern.o, term.o)
        )
    if isinstance(pattern, Literal):
        if not isinstance(term, Literal) or str(term) != str(pattern):
            return False
        if pattern.datatype is None and pattern.language is None:
            return True
        return term.datatype == pattern.datatype and term.language == pattern.language
    if isinstance(pattern, BNode):
        return isinstance(term, BNode) and str(term) == str(pattern)
    return isinstance(term, URIRef) and not isinstance(term, BNode) and str(term) == str(pattern)


@dataclass(frozen=True)
class TriplePattern:
    """``s``, ``p``, ``o`` (``None`` = any), the graph selector ``g`` (``None`` = absent) and a ``limit``."""

    s: Subject | None = None
    p: URIRef | None = None
    o: Object | None = None
    g: str | None = None
    limit: int = DEFAULT_LIMIT

    @property
    def open(self) -> bool:
        """No ``s``, ``p`` or ``o``: a dump of the collection."""
        return self.s is None and self.p is None and self.o is None

    def graph_matches(self, graph: str) -> bool:
        """Whether a quad in ``graph`` (``""`` the default graph) is in the selected graphs."""
        if self.g is None:
            return self.open or graph == ""
        if self.g == ALL_GRAPHS:
            return True
        return graph == self.g

    def matches(self, quad: Quad) -> bool:
        """Whether ``quad`` is an answer."""
        return (
            self.graph_matches(quad.g)
            and (self.s is None or term_matches(self.s, quad.s))
            and (self.p is None or term_matches(self.p, quad.p))
            and (self.o is None or term_matches(self.o, quad.o))
        )


_RANK = {URIRef: 0, BNode: 1, Literal: 2, QuotedTriple: 3}


def _natural(text: str) -> tuple[str | int, ...]:
    """``text`` with its digit runs as numbers, so ``…:edge:2`` comes before ``…:edge:10``."""
    return tuple(int(part) if i % 2 else part for i, part in enumerate(re.split(r"(\d+)", text)))


def _term_key(term: Subject | Object) -> tuple[int, tuple[str | int, ...], str]:
    if isinstance(term, QuotedTriple):
        return _RANK[QuotedTriple], _natural(n3(term)), ""
    extra = f"{term.datatype or ''}@{term.language or ''}" if isinstance(term, Literal) else ""
    return _RANK[type(term)] if type(term) in _RANK else 0, _natural(str(term)), extra


def sort_key(quad: Quad) -> tuple[object, ...]:
    """The one order answers come in: subject, predicate, object (IRIs, then blank nodes, literals and
    quoted triples; digit runs compared as numbers), then graph."""
    return _term_key(quad.s), _term_key(quad.p), _term_key(quad.o), quad.g


def answer(pattern: TriplePattern, quads: list[Quad]) -> list[Quad]:
    """The distinct quads that match, in :func:`sort_key` order, at most ``pattern.limit``."""
    found = sorted({q for q in quads if pattern.matches(q)}, key=sort_key)
    return found[: pattern.limit]
