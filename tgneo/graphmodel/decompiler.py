"""Stored rows → quads in one export profile (pure): :class:`Decompiler` streams, :func:`decompile` collects."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from rdflib.term import BNode, Literal, URIRef

from tgneo.errors import MappingError
from tgneo.graphmodel.terms import (
    TYPED_DATATYPES,
    node_term,
    render_value,
)
from tgneo.kinds import SessionKind
from tgneo.mapping import (
    CLASS_BY_LABEL,
    LINK_PROPERTIES,
    PROP_BY_NAME,
    PROV_PROFILE_ONLY_LABELS,
    PROV_PROFILE_ONLY_RELS,
    REL_BY_TYPE,
    PropMap,
)
from tgneo.native import (
    Namespaces,
    fact_keys,
    literal_of,
    sidecar,
    stored_values,
)
from tgneo.rdf.export_profiles import EXPORT_PROFILES, ExportProfile, agent_iri, session_iri
from tgneo.rdf.terms import DEFAULT_GRAPH, Object, Quad, QuotedTriple, Subject
from tgneo.vocab import PROV, RDF, Label, Rel

_SELECTIONS = frozenset({Label.EDGE_SELECTION.value, Label.CHUNK_SELECTION.value})
"""TrustGraph types a selection only ``tg:EdgeSelection``/``tg:ChunkSelection``; the ``prov`` profile adds
``prov:Entity`` (tgneo's answer sentences derive from selections, and PROV derives entities from
entities), which the import folds away again (``rdf.export_profiles``)."""


@dataclass(frozen=True)
class StoredStatement:
    """A ``:TgStatement`` node as read back (terms resolved by the reader)."""

    id: str
    s: str
    s_kind: str
    p: str
    o: str | None
    o_kind: str
    o_datatype: str | None = None
    o_lang: str | None = None
    asserted_in: tuple[str, ...] = ()


@dataclass(frozen=True)
class StoredEntity:
    """A provenance entity node as read back: labels, properties and outgoing mapped relationships."""

    uri: str
    kind: str
    graph: str
    labels: tuple[str, ...]
    props: Mapping[str, Any]
    links: tuple[tuple[str, str, str], ...] = ()  # (type, target kind, target uri)
    statement_links: tuple[tuple[str, str, Mapping[str, Any]], ...] = ()  # (type, statement id, annotations)


@dataclass(frozen=True)
class StoredFacts:
    """A knowledge-graph node's native facts as read back: its fact properties and its outgoing facts."""

    uri: str
    kind: str
    props: Mapping[str, Any]
    rels: tuple[tuple[str, str, str], ...] = ()  # (predicate IRI, object kind, object uri)

    def literals(self, names: Namespaces) -> Iterator[tuple[URIRef, Literal]]:
        """``(predicate, literal)`` of every fact property (``name`` is ``rdfs:label``)."""
        for key in fact_keys(self.props):
            predicate = names.predicate_of_key(key)
            if predicate is None:
                raise MappingError(f"property {key!r} of <{self.uri}> names a prefix this collection does not hold")
            for value, tag in stored_values(self.props[key], self.props.get(sidecar(key))):
                yield URIRef(predicate), literal_of(value, tag)


class _Terms:
    def __init__(self, statements: Mapping[str, StoredStatement]) -> None:
        self.statements = statements

    def node(self, kind: str, key: str) -> Subject:
        if kind == "triple":
            return self.quoted(key)
        return node_term(kind, key)

    def quoted(self, sid: str) -> QuotedTriple:
        st = self.statements.get(sid)
        if st is None:
            raise MappingError(f"statement {sid} is referenced but was not read")
        return QuotedTriple(self.node(st.s_kind, st.s), URIRef(st.p), self.obj(st))

    def obj(self, st: StoredStatement) -> Object:
        if st.o_kind == "literal":
            return Literal(
                st.o or "",
                lang=st.o_lang or None,
                datatype=URIRef(st.o_datatype) if st.o_datatype else None,
                normalize=False,
            )
        return self.node(st.o_kind, st.o or "")


def _property_literal(value: Any, row: PropMap, profile: ExportProfile) -> Literal:
    text = render_value(value, row)
    if profile == "prov" and not isinstance(value, str):
        return Literal(text, datatype=TYPED_DATATYPES.get(row.datatype), normalize=False)
    return Literal(text)


class Decompiler:
    """Stored rows → quads in one profile, one row at a time (export streams through this).

    Each row brings the statements it refers to (a selected edge and the quoted triples nested in
    it), so nothing needs the whole collection in memory. The ``prov`` profile adds the session
    activity of each Question and types agents ``prov:SoftwareAgent`` (``rdf.export_profiles``), and writes the
    annotations of relationships (a contained fact's evidence sentence) as RDF-star annotations; the only
    state kept is which of the few session agents were already described. Knowledge-graph facts are the
    same in both profiles; their property keys are read back with the collection's ``namespaces``.
    """

    def __init__(self, profile: ExportProfile, namespaces: Namespaces | None = None) -> None:
        if profile not in EXPORT_PROFILES:
            raise MappingError(f"unknown profile {profile!r}; use one of {', '.join(EXPORT_PROFILES)}")
        self.profile = profile
        self.names = namespaces or Namespaces()
        self._agents: set[URIRef] = set()

    def entity(self, e: StoredEntity, statements: Mapping[str, StoredStatement]) -> Iterator[Quad]:
        """The quads of one entity node (its types, properties and mapped relationships)."""
        terms = _Terms(statements)
        s = node_term(e.kind, e.uri)
        g = e.graph
        labels = set(e.labels)
        if self.profile == "trustgraph" and labels & PROV_PROFILE_ONLY_LABELS:
            return  # tgneo's own nodes: TrustGraph's profile has no word for them
        session = self.profile == "prov" and _needs_session(labels, e.props)
        for label in e.labels:
            cls = CLASS_BY_LABEL.get(Label(label)) if label in Label._value2member_map_ else None
            if cls is not None:
                yield Quad(s, RDF.type, cls.iri, g)
        if self.profile == "prov" and Label.PROV_AGENT.value in labels:
            yield Quad(s, RDF.type, PROV.SoftwareAgent, g)
        if self.profile == "prov" and labels & _SELECTIONS and Label.PROV_ENTITY.value not in labels:
            yield Quad(s, RDF.type, PROV.Entity, g)  # answer sentences derive from selections: PROV entities
        for name, value in e.props.items():
            row = PROP_BY_NAME.get(name)
            if row is None or value is None:
                continue
            for v in value if isinstance(value, list) else [value]:
                literal = _property_literal(v, row, self.profile)
                if session and row.iri == PROV.startedAtTime:
                    yield Quad(session_iri(str(s)), row.iri, literal, g)
                else:
                    yield Quad(s, row.iri, literal, g)
        for rel_type, kind, target in e.links:
            rel = REL_BY_TYPE.get(Rel(rel_type))
            if rel is not None and not (self.profile == "trustgraph" and rel.rel in PROV_PROFILE_ONLY_RELS):
                yield Quad(s, rel.iri, node_term(kind, target), g)
        for rel_type, sid, notes in e.statement_links:
            rel = REL_BY_TYPE.get(Rel(rel_type))
            if rel is None:
                continue
            quoted = terms.quoted(sid)
            yield Quad(s, rel.iri, quoted, g)
            if self.profile == "prov":
                for row in LINK_PROPERTIES.get(rel.rel, ()):
                    if notes.get(row.prop) is not None:
                        literal = _property_literal(notes[row.prop], row, self.profile)
                        yield Quad(QuotedTriple(s, rel.iri, quoted), row.iri, literal, g)
        if session:
            yield from self._session(s, labels, g)

    def _session(self, question: URIRef | BNode, labels: set[str], g: str) -> Iterator[Quad]:
        activity = session_iri(str(question))
        agent = agent_iri(SessionKind.of_labels(labels))
        yield Quad(question, PROV.wasGeneratedBy, activity, g)
        yield Quad(activity, RDF.type, PROV.Activity, g)
        yield Quad(activity, PROV.wasAssociatedWith, agent, g)
        if agent not in self._agents:
            self._agents.add(agent)
            yield Quad(agent, RDF.type, PROV.Agent, g)
            yield Quad(agent, RDF.type, PROV.SoftwareAgent, g)

    def statement(self, st: StoredStatement, statements: Mapping[str, StoredStatement]) -> Iterator[Quad]:
        """The quads asserting one statement, one per graph it is asserted in."""
        terms = _Terms(statements)
        for g in st.asserted_in:
            yield Quad(terms.node(st.s_kind, st.s), URIRef(st.p), terms.obj(st), g)

    def facts(self, node: StoredFacts) -> Iterator[Quad]:
        """The default-graph quads of one knowledge-graph node: its outgoing facts, then its literal facts."""
        s = node_term(node.kind, node.uri)
        for predicate, kind, target in node.rels:
            yield Quad(s, URIRef(predicate), node_term(kind, target), DEFAULT_GRAPH)
        for predicate, literal in node.literals(self.names):
            yield Quad(s, predicate, literal, DEFAULT_GRAPH)


def _needs_session(labels: set[str], props: Mapping[str, Any]) -> bool:
    """A Question, or any entity with a start time that is not an Activity: the prov profile gives it one."""
    if Label.PROV_ACTIVITY.value in labels or isinstance(labels, str):
        return False
    return Label.QUESTION.value in labels or props.get("startedAtTime") is not None


def decompile(
    entities: Iterable[StoredEntity],
    statements: Iterable[StoredStatement],
    profile: ExportProfile,
    facts: Iterable[StoredFacts] = (),
    namespaces: Namespaces | None = None,
) -> list[Quad]:
    """Quads for stored entities, statements and knowledge-graph nodes, in ``profile``."""
    decompiler = Decompiler(profile, namespaces)
    by_id = {st.id: st for st in statements}
    out: list[Quad] = []
    for e in entities:
        out.extend(decompiler.entity(e, by_id))
    for st in by_id.values():
        out.extend(decompiler.statement(st, by_id))
    for node in facts:
        out.extend(decompiler.facts(node))
    return out
