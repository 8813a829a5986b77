"""Export profiles — which triples an RDF export writes — and the rules that fold ``prov``'s back on import (pure).

Two profiles: ``prov`` (strict W3C PROV-O, the default) and ``trustgraph`` (exactly TrustGraph's own triples).
Not to be confused with *graph profiles* (:mod:`tgneo.graph_profiles`), the names other tools give the knowledge
graphs they write. The ``prov`` profile's extra structure:

TrustGraph types each Question ``prov:Entity`` and gives it ``prov:startedAtTime``, whose domain is
``prov:Activity``: under PROV-O's own semantics the Question is then both, which PROV forbids. The
``prov`` profile keeps the Question an Entity and models the session that asked it as an Activity:

.. code-block:: turtle

    <Q>          prov:wasGeneratedBy <Q/session> .                  # only in the prov profile
    <Q/session>  a prov:Activity ;
                 prov:startedAtTime "2025-06-01T10:15:30Z"^^xsd:dateTime ;
                 prov:wasAssociatedWith <https://trustgraph.ai/agent/graph-rag> .
    <https://trustgraph.ai/agent/graph-rag> a prov:Agent, prov:SoftwareAgent .

Every stored ``prov:Agent`` is also said to be a ``prov:SoftwareAgent`` (TrustGraph's agents are
services: ``pdf-decoder``, ``chunker``, ``kg-extractor``).

The import folds that structure back with :func:`fold`, one quad at a time, so that importing a
``prov`` export gives exactly the graph its ``trustgraph`` twin gives, even while streaming. The
rules apply only inside the provenance graphs (``urn:graph:retrieval``, ``urn:graph:source``), and
they recognise the session activity and its agent by their IRIs, never by anything a TrustGraph
builder writes: ``…/session`` is not one of TrustGraph's URI patterns, and ``prov:SoftwareAgent`` is
not a class it uses.
"""

from __future__ import annotations

import re
from typing import Literal as TypingLiteral

from rdflib.term import Literal, URIRef

from tgneo.kinds import SessionKind
from tgneo.rdf.terms import Quad
from tgneo.vocab import PROV, PROVENANCE_GRAPHS, RDF, TRUSTGRAPH_BASE

ExportProfile = TypingLiteral["trustgraph", "prov"]
EXPORT_PROFILES: tuple[ExportProfile, ...] = ("trustgraph", "prov")
DEFAULT_EXPORT_PROFILE: ExportProfile = "prov"
"""Strict W3C PROV-O is the default of every RDF export (CLI, HTTP); ``trustgraph`` is exactly
TrustGraph's own triples, which the streams and the gateway carry."""

__all__ = [
    "AGENT_BASE",
    "DEFAULT_EXPORT_PROFILE",
    "EXPORT_PROFILES",
    "SESSION_SUFFIX",
    "ExportProfile",
    "agent_iri",
    "fold",
    "session_iri",
]

SESSION_SUFFIX = "/session"
"""The session activity of Question ``Q`` is ``Q`` + this suffix."""
AGENT_BASE = f"{TRUSTGRAPH_BASE}/agent/"
"""TrustGraph's agent IRIs (``…/agent/chunker``); the session agents are ``…/agent/graph-rag`` etc."""
_SELECTION = re.compile(r"urn:trustgraph:prov:(?:edge|chunk):[^:]+:\d+$")
"""An edge or chunk selection's IRI (``uris.edge_selection_uri``, ``uris.chunk_selection_uri``)."""
_SESSION_AGENTS = frozenset(f"{AGENT_BASE}{name}" for name in (*(k.wire for k in SessionKind), "question"))


def session_iri(question: str) -> URIRef:
    """The ``prov:Activity`` that generated Question ``question`` in the ``prov`` profile."""
    return URIRef(question + SESSION_SUFFIX)


def agent_iri(kind: SessionKind | None) -> URIRef:
    """The ``prov:SoftwareAgent`` a session of ``kind`` is associated with (``…/agent/graph-rag``)."""
    return URIRef(f"{AGENT_BASE}{kind.wire if kind is not None else 'question'}")


def fold(quad: Quad) -> Quad | None:
    """The quad to store for ``quad`` read from a file: itself, moved to the Question, or ``None`` (dropped).

    The identity for everything but the ``prov`` profile's session activities, their agents and the
    ``prov:SoftwareAgent`` typing.
    """
    if quad.g not in PROVENANCE_GRAPHS:
        return quad
    s, p, o = quad.s, quad.p, quad.o
    if p == RDF.type and o == PROV.SoftwareAgent:
        return None
    if not isinstance(s, URIRef):
        return quad
    subject = str(s)
    if p == RDF.type and o == PROV.Entity and _SELECTION.match(subject):
        return None  # the prov profile's typing of a selection (graphmodel), not TrustGraph's
    if p == PROV.wasGeneratedBy and isinstance(o, URIRef) and str(o) == subject + SESSION_SUFFIX:
        return None
    if subject in _SESSION_AGENTS and p == RDF.type:
        return None
    if subject.endswith(SESSION_SUFFIX):
        if p == RDF.type and o == PROV.Activity:
            return None
        if p == PROV.wasAssociatedWith and isinstance(o, URIRef) and str(o) in _SESSION_AGENTS:
            return None
        if p == PROV.startedAtTime and isinstance(o, Literal):
            return Quad(URIRef(subject.removesuffix(SESSION_SUFFIX)), p, o, quad.g)
    return quad
