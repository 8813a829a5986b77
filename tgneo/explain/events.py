"""The event catalogue: what the recorder emits after a step is durable in Neo4j.

Event name: ``explain``. The wire form is TrustGraph's response message
``{message_type: "explain", explain_id, explain_graph, explain_triples}``, with triples in
TrustGraph's term encoding (``{"t": "i", "i": …}`` IRIs, ``{"t": "l", "v": …}`` literals,
``{"t": "t", "tr": {…}}`` quoted triples; ``"g"`` omitted for the default graph), so TrustGraph's CLI
and SDK parse tgneo's streams unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rdflib.term import BNode, Literal, URIRef

from tgneo.errors import MappingError
from tgneo.rdf.terms import Object, Quad, QuotedTriple, Subject


def wire_term(term: Subject | Object) -> dict[str, Any]:
    """One term in TrustGraph's wire encoding."""
    if isinstance(term, QuotedTriple):
        return {"t": "t", "tr": {"s": wire_term(term.s), "p": wire_term(term.p), "o": wire_term(term.o)}}
    if isinstance(term, Literal):
        out: dict[str, Any] = {"t": "l", "v": str(term)}
        if term.datatype is not None:
            out["dt"] = str(term.datatype)
        if term.language is not None:
            out["ln"] = term.language
        return out
    if isinstance(term, BNode):
        return {"t": "b", "d": str(term)}
    if isinstance(term, URIRef):
        return {"t": "i", "i": str(term)}
    raise MappingError(f"{term!r} has no wire encoding")


def wire_quad(quad: Quad) -> dict[str, Any]:
    """One triple in TrustGraph's wire encoding, with ``g`` unless it is the default graph."""
    out: dict[str, Any] = {"s": wire_term(quad.s), "p": wire_term(quad.p), "o": wire_term(quad.o)}
    if quad.g:
        out["g"] = quad.g
    return out


@dataclass(frozen=True)
class ExplainEvent:
    """Event name: ``explain``. A step is recorded; its triples travel inline.

    :ivar explain_id: the step's URI.
    :ivar explain_graph: the named graph of its triples (``urn:graph:retrieval`` for query time).
    :ivar triples: the step's quads, exactly as TrustGraph's builder emits them.
    :ivar kind: the entity kind (``grounding``, ``focus``, …).
    """

    explain_id: str
    explain_graph: str
    triples: Sequence[Quad]
    kind: str

    name = "explain"

    def to_wire(self) -> dict[str, Any]:
        """The response message fields TrustGraph clients read."""
        return {
            "message_type": "explain",
            "explain_id": self.explain_id,
            "explain_graph": self.explain_graph,
            "explain_triples": [wire_quad(q) for q in self.triples],
        }
