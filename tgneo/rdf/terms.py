"""The term model every pure module shares: rdflib terms plus a quoted triple.

rdflib 7 has no RDF-star terms, yet TrustGraph's provenance points at knowledge-graph edges with
quoted triples (``es tg:edge << s p o >>``). ``QuotedTriple`` fills that gap as a hashable value, so a
provenance quad is simply ``Quad(s, p, o, g)`` where ``o`` may be a ``QuotedTriple``. The default graph
is the empty string, as on TrustGraph's wire.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import NamedTuple, TypeAlias

from rdflib.term import BNode, Literal, URIRef

DEFAULT_GRAPH = ""

MAX_NESTING = 100
"""The deepest a quoted triple may nest (``<< << … >> p o >>`` counts 2), in every reader and writer.

Readers refuse deeper input with a syntax error naming the line and column; the compiler refuses a
deeper term built in Python. 100 is far past anything provenance needs (TrustGraph nests one level)
and keeps every recursive walk (rendering, hashing, isomorphism) far inside Python's recursion limit,
so what tgneo writes, it always reads back."""


@dataclass(frozen=True, slots=True)
class QuotedTriple:
    """An RDF-star quoted triple ``<< s p o >>``: a reference to a statement, not an assertion of it."""

    s: Subject
    p: URIRef
    o: Object

    def __str__(self) -> str:
        return f"<< {self.s.n3() if not isinstance(self.s, QuotedTriple) else self.s} {self.p.n3()} " + (
            f"{self.o.n3() if not isinstance(self.o, QuotedTriple) else self.o} >>"
        )


Subject: TypeAlias = URIRef | BNode | QuotedTriple
Object: TypeAlias = URIRef | BNode | Literal | QuotedTriple


class Quad(NamedTuple):
    """One triple in one named graph (``g == ""`` is the default graph)."""

    s: Subject
    p: URIRef
    o: Object
    g: str = DEFAULT_GRAPH


class PlainTriple(NamedTuple):
    """A default-graph triple held as text: IRI or blank-node subject, IRI predicate, IRI, blank-node or
    literal object (``o`` is then the lexical form, with ``lang`` or ``datatype``).

    Why text: a knowledge-graph import is mostly such triples, and building rdflib terms for each costs more
    than parsing the line. The line reader's fast path yields these, the native writer consumes them
    (``graphmodel.compiler.NativeRows``), and :meth:`quad` is the same triple as terms, for every other path.
    Blank-node labels are already scoped to their file (``reader.scoped_label``), without ``_:``.
    """

    s: str
    s_bnode: bool
    p: str
    o: str
    o_kind: str  # "iri" | "bnode" | "literal"
    lang: str | None = None
    datatype: str | None = None

    def quad(self) -> Quad:
        subject: Subject = BNode(self.s) if self.s_bnode else URIRef(self.s)
        obj: Object
        if self.o_kind == "iri":
            obj = URIRef(self.o)
        elif self.o_kind == "bnode":
            obj = BNode(self.o)
        elif self.lang is not None:
            obj = Literal(self.o, lang=self.lang)
        elif self.datatype is not None:
            obj = Literal(self.o, datatype=URIRef(self.datatype), normalize=False)
        else:
            obj = Literal(self.o)
        return Quad(subject, URIRef(self.p), obj)

    @classmethod
    def of(cls, s: URIRef | BNode, p: URIRef, o: URIRef | BNode | Literal) -> PlainTriple:
        """The plain triple of three terms (the inverse of :meth:`quad`)."""
        if isinstance(o, Literal):
            datatype = o.datatype
            return cls(str(s), isinstance(s, BNode), str(p), str(o), "literal", o.language,
                       str(datatype) if datatype is not None else None)  # fmt: skip
        return cls(str(s), isinstance(s, BNode), str(p), str(o), "bnode" if isinstance(o, BNode) else "iri")


Triple: TypeAlias = tuple[Subject, URIRef, Object]


def bnodes_of(triple: QuotedTriple) -> Iterator[BNode]:
    """The blank nodes inside a quoted triple, at any depth."""
    for term in (triple.s, triple.o):
        if isinstance(term, BNode):
            yield term
        elif isinstance(term, QuotedTriple):
            yield from bnodes_of(term)
