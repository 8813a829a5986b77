"""Terms ⇄ stored keys and literals ⇄ native values: the two conversions compiling and decompiling share (pure).

A node term is stored as ``(kind, key)``; a literal becomes a native property value only when rendering it
gives back the same text (``"007"`` stays text), so import → export is exact."""

from __future__ import annotations

import math
from datetime import datetime
from typing import Any

from rdflib.term import BNode, Literal, URIRef

from tgneo.errors import MappingError
from tgneo.mapping import (
    PropMap,
)
from tgneo.rdf.ntriples import edge_id
from tgneo.rdf.terms import Object, QuotedTriple, Subject
from tgneo.timestamps import iso_z, parse_iso
from tgneo.vocab import XSD

TYPED_DATATYPES: dict[str, URIRef] = {"integer": XSD.integer, "float": XSD.double, "datetime": XSD.dateTime}
BNODE_PREFIX = "_:"


# ------------------------------------------------------------------------------------------ values
def render_value(value: Any, row: PropMap) -> str:
    """The lexical form of a stored value, as TrustGraph writes it (``str(n)``, ``…Z`` timestamps)."""
    if isinstance(value, bool):  # bool is an int; never stored, but be exact if someone did
        return "true" if value else "false"
    if isinstance(value, datetime):
        return iso_z(value)
    return str(value)  # str(0.93) == "0.93", str(12) == "12": TrustGraph's own rendering


def native_value(lexical: str, row: PropMap) -> Any:
    """The native value for ``lexical`` when it renders back identically, else ``lexical`` itself."""
    value: Any = lexical
    try:
        if row.datatype == "integer":
            value = int(lexical)
        elif row.datatype == "float":
            value = float(lexical)
            if not math.isfinite(value):
                return lexical
        elif row.datatype == "datetime":
            value = parse_iso(lexical)
            if value.tzinfo is None:
                return lexical
        else:
            return lexical
    except ValueError:
        return lexical
    return value if render_value(value, row) == lexical else lexical


def literal_for_property(o: Object, row: PropMap) -> Any | None:
    """The property value for literal ``o``, or ``None`` when only a generic statement is exact."""
    if not isinstance(o, Literal) or o.language is not None:
        return None
    text = str(o)
    if o.datatype is None:
        return native_value(text, row)
    expected = TYPED_DATATYPES.get(row.datatype)
    if expected is not None and o.datatype == expected:
        value = native_value(text, row)
        return value if not isinstance(value, str) else None  # typed but not canonical: keep exact
    return None


# ------------------------------------------------------------------------------------------ terms
def term_key(term: Subject | Object) -> tuple[str, str]:
    """``(kind, key)`` of a node term: ``iri``/``bnode`` with its Resource uri, or ``triple`` with an id."""
    if isinstance(term, QuotedTriple):
        return "triple", edge_id(term.s, term.p, term.o)
    if isinstance(term, BNode):
        return "bnode", BNODE_PREFIX + str(term)
    if isinstance(term, URIRef):
        if not str(term):
            raise MappingError("an IRI is empty")
        return "iri", str(term)
    raise MappingError(f"{term!r} cannot be a node")


def node_term(kind: str, key: str) -> URIRef | BNode:
    """The RDF term of a stored Resource."""
    if kind == "bnode":
        return BNode(key[len(BNODE_PREFIX) :] if key.startswith(BNODE_PREFIX) else key)
    return URIRef(key)
