"""Quads ⇄ Neo4j rows, driven by the mapping table and the native rule (pure: no driver here).

``compile_quads`` turns RDF quads into the rows one batched Cypher statement writes; the
:class:`Decompiler` turns stored rows back into quads in a chosen profile. The recorder, the importer,
the loader, the exporter and the streams all go through these, so a step written live and the same step
imported from a file become the same nodes, and export gives back the same quads.

The rules (DESIGN §3, README "The graph model"):

* Every IRI (and blank node) is one ``:Tgneo:TgResource {uri}`` per workspace + collection.
* **The knowledge graph** (the default graph) is native (:mod:`tgneo.native`): a triple whose object is an
  IRI or blank node is a typed relationship between the two nodes (``iri`` and ``id`` on it); one whose
  object is a literal is a property value of its subject (``rdfs:label`` is ``name``).
* A subject with triples in ``urn:graph:retrieval`` or ``urn:graph:source`` is a *provenance entity*: its
  ``rdf:type``s become labels (plus ``:TgExplain`` or ``:TgSource``), mapped literal predicates become
  native properties, mapped IRI predicates become relationships, and ``tg:edge``/``tg:contains`` point at
  ``:TgStatement`` nodes, whose relationship carries the annotations the mapping allows on it
  (``<< sg tg:contains << s p o >> >> tg:sourceText "…"``).
* A **reified edge** (``:TgStatement``, one per (s, p, o), ``id`` its stable hash) stands wherever
  provenance quotes an edge, and wherever the native form cannot hold a triple exactly: a quoted-triple
  subject or object, a named graph other than the default and provenance graphs, a provenance triple the
  table does not cover, a literal whose value does not fit the values its key already holds. Its
  ``asserted_in`` lists the graphs it is asserted in *as a statement* (the native form asserts the rest).
* A literal becomes a native value only when rendering that value gives back the same text;
  otherwise the text is kept (with a tag), so import → export is exact.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from typing import Literal as TypingLiteral

from rdflib.term import BNode, Literal, URIRef

from tgneo.errors import MappingError
from tgneo.kinds import SessionKind
from tgneo.mapping import (
    CLASS_BY_IRI,
    CLASS_BY_LABEL,
    LINK_PROPERTIES,
    LINK_PROPERTY,
    PROP_BY_IRI,
    PROP_BY_NAME,
    PROV_PROFILE_ONLY_LABELS,
    PROV_PROFILE_ONLY_RELS,
    REL_BY_IRI,
    REL_BY_TYPE,
    PropMap,
)
from tgneo.native import (
    Namespaces,
    fact_keys,
    literal_of,
    sidecar,
    stored_literal,
    stored_value,
    stored_values,
    value_kind,
)
from tgneo.rdf.ntriples import edge_id, edge_id_of, spell_node
from tgneo.rdf.profiles import agent_iri, session_iri
from tgneo.rdf.terms import DEFAULT_GRAPH, Object, PlainTriple, Quad, QuotedTriple, Subject
from tgneo.timestamps import iso_z, parse_iso
from tgneo.vocab import GRAPH_RETRIEVAL, GRAPH_SOURCE, PROV, PROVENANCE_GRAPHS, RDF, XSD, Label, Rel

Profile = TypingLiteral["trustgraph", "prov"]
PROFILES: tuple[Profile, ...] = ("trustgraph", "prov")
DEFAULT_PROFILE: Profile = "prov"
"""DESIGN §3: strict W3C PROV-O is the default of every RDF export (CLI, HTTP); ``trustgraph`` is exactly
TrustGraph's own triples, which the streams and the gateway carry."""

_TYPED: dict[str, URIRef] = {"integer": XSD.integer, "float": XSD.double, "datetime": XSD.dateTime}
_GRAPH_LABEL = {GRAPH_RETRIEVAL: Label.EXPLAIN, GRAPH_SOURCE: Label.SOURCE}
_BNODE_PREFIX = "_:"


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


def _literal_for_property(o: Object, row: PropMap) -> Any | None:
    """The property value for literal ``o``, or ``None`` when only a generic statement is exact."""
    if not isinstance(o, Literal) or o.language is not None:
        return None
    text = str(o)
    if o.datatype is None:
        return native_value(text, row)
    expected = _TYPED.get(row.datatype)
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
        return "bnode", _BNODE_PREFIX + str(term)
    if isinstance(term, URIRef):
        if not str(term):
            raise MappingError("an IRI is empty")
        return "iri", str(term)
    raise MappingError(f"{term!r} cannot be a node")


def node_term(kind: str, key: str) -> URIRef | BNode:
    """The RDF term of a stored Resource."""
    if kind == "bnode":
        return BNode(key[len(_BNODE_PREFIX) :] if key.startswith(_BNODE_PREFIX) else key)
    return URIRef(key)


_SELECTIONS = frozenset({Label.EDGE_SELECTION.value, Label.CHUNK_SELECTION.value})
"""TrustGraph types a selection only ``tg:EdgeSelection``/``tg:ChunkSelection``; the ``prov`` profile adds
``prov:Entity`` (tgneo's answer sentences derive from selections, and PROV derives entities from
entities), which the import folds away again (``rdf.profiles``)."""


# ------------------------------------------------------------------------------------------ compile
def _sorted(rows: list[dict[str, Any]], *keys: str) -> list[dict[str, Any]]:
    return sorted(rows, key=lambda r: tuple(r[k] for k in keys))


@dataclass
class WriteBatch:
    """The rows one ``record_batch`` statement writes. Every list is a ``$parameter``.

    :meth:`params` hands every list over sorted by the node it locks, so that concurrent writers
    that share statement or resource nodes (sixteen Focus steps selecting the same edges) take
    their locks in one global order instead of deadlocking each other.

    ``literal_terms`` is not sent: it keeps each literal row's predicate and terms, so that a value the
    stored key cannot hold (the query reports it as a *misfit*) becomes a reified edge in the same
    transaction (:meth:`misfits`).
    """

    resources: list[dict[str, Any]] = field(default_factory=list)
    entities: list[dict[str, Any]] = field(default_factory=list)
    links: list[dict[str, Any]] = field(default_factory=list)
    statements: list[dict[str, Any]] = field(default_factory=list)
    parts: list[dict[str, Any]] = field(default_factory=list)
    statement_links: list[dict[str, Any]] = field(default_factory=list)
    contents: list[dict[str, Any]] = field(default_factory=list)
    facts: list[dict[str, Any]] = field(default_factory=list)
    literals: list[dict[str, Any]] = field(default_factory=list)
    prefixes: list[dict[str, Any]] = field(default_factory=list)
    literal_terms: dict[tuple[str, str], list[PlainTriple]] = field(default_factory=dict)

    def params(self) -> dict[str, list[dict[str, Any]]]:
        return {
            "prefixes": _sorted(self.prefixes, "prefix"),
            "resources": _sorted(self.resources, "uri"),
            "entities": _sorted(self.entities, "uri"),
            "links": sorted(self.links, key=lambda link: (link["to"], link["from"], link["type"])),
            "statements": _sorted(self.statements, "id"),
            # a new statement links its own resources; only nested statements need a separate pass
            "parts": sorted(
                (p for p in self.parts if p["nested"] is not None),
                key=lambda p: (p["nested"], p["statement"], p["role"]),
            ),  # fmt: skip
            "statement_links": sorted(
                self.statement_links, key=lambda link: (link["statement"], link["from"], link["type"])
            ),
            "contents": _sorted(self.contents, "uri"),
            "facts": _sorted(self.facts, "s", "type", "o"),
            "literals": _sorted(self.literals, "s", "key"),
        }

    def size(self) -> int:
        return sum(len(v) for v in self.params().values())

    def misfits(self, rows: Iterable[Sequence[Any]]) -> list[tuple[URIRef | BNode, URIRef, Literal]]:
        """The triples of the literal values a write reported as not fitting their key
        (``[subject, key, [value indexes]]``)."""
        out = []
        for subject, key, indexes in rows:
            triples = self.literal_terms[(subject, key)]
            out += [_terms(triples[i]) for i in indexes]
        return out


def _terms(triple: PlainTriple) -> tuple[URIRef | BNode, URIRef, Literal]:
    s, p, o, _ = triple.quad()
    return s, p, o  # type: ignore[return-value]


def plain_key(value: str, bnode: bool) -> tuple[str, str]:
    """:func:`term_key` of a plain triple's subject or node object, from its text."""
    if bnode:
        return "bnode", _BNODE_PREFIX + value
    if not value:
        raise MappingError("an IRI is empty")
    return "iri", value


def reified(triples: Iterable[tuple[Subject, URIRef, Object]]) -> WriteBatch:
    """A batch writing ``triples`` as reified edges asserted in the default graph: what the native form could not
    hold of a write (a literal value whose type differs from the values its key holds)."""
    compiler = _Compiler()
    for s, p, o in triples:
        compiler.statement(s, p, o, asserted_in=DEFAULT_GRAPH)
    return compiler.batch


class _Compiler:
    def __init__(self, namespaces: Namespaces | None = None) -> None:
        self.batch = WriteBatch()
        self.names = namespaces or Namespaces()
        self._resources: dict[str, str] = {}
        self._statements: dict[str, dict[str, Any]] = {}
        self._facts: set[str] = set()
        self._literals: dict[tuple[str, str], dict[str, Any]] = {}
        self._links: dict[tuple[str, str, str], dict[str, Any]] = {}
        self.diverted: list[tuple[URIRef | BNode, URIRef, Literal]] = []

    def resource(self, term: URIRef | BNode) -> str:
        return self.node(*term_key(term))

    def node(self, kind: str, key: str) -> str:
        """The resource ``key`` (of ``kind``), given a row once."""
        if key not in self._resources:
            self._resources[key] = kind
            self.batch.resources.append({"uri": key, "kind": kind})
        return key

    def statement(self, s: Subject, p: URIRef, o: Object, asserted_in: str | None = None) -> str:
        """The id of the statement node for (s, p, o), creating its row (and nested ones) once."""
        sid = edge_id(s, p, o)
        row = self._statements.get(sid)
        if row is None:
            row = {"id": sid, "props": {"p": str(p)}, "asserted": []}
            self._statements[sid] = row
            for role, prefix, term in (("SUBJECT", "s", s), ("OBJECT", "o", o)):
                if isinstance(term, Literal):
                    # the literal as its subject's property would hold it, so Cypher can tell whether the
                    # knowledge graph asserts it (store.kg, forget_document) without hashing anything
                    value, tag = stored_literal(term)
                    row["props"].update(zip(_LITERAL_PROPS, literal_columns(term), strict=True))
                    row["props"].update({"key": self.names.property_key(str(p)), "o_value": value, "o_tag": tag})
                    continue
                if isinstance(term, QuotedTriple):
                    ref = self.statement(term.s, term.p, term.o)
                    row["props"].update({prefix: ref, f"{prefix}_kind": "triple"})
                    self.batch.parts.append({"statement": sid, "role": role, "nested": ref, "uri": None})
                    continue
                key = self.resource(term)
                row["props"].update({prefix: key, f"{prefix}_kind": term_key(term)[0]})
                self.batch.parts.append({"statement": sid, "role": role, "nested": None, "uri": key})
            self.batch.statements.append(row)
        if asserted_in is not None and asserted_in not in row["asserted"]:
            row["asserted"].append(asserted_in)
        return sid

    def fact(self, s: URIRef | BNode, p: URIRef, o: URIRef | BNode) -> None:
        """A default-graph triple with an IRI or blank-node object: a typed relationship."""
        self.plain_fact(term_key(s), str(p), term_key(o), edge_id(s, p, o))

    def plain_fact(self, s: tuple[str, str], p: str, o: tuple[str, str], sid: str) -> None:
        """:meth:`fact` from the subject's and object's ``(kind, key)``, the predicate IRI and the edge id."""
        if sid in self._facts:
            return
        self._facts.add(sid)
        self.batch.facts.append({"s": self.node(*s), "o": self.node(*o), "type": self.names.relationship_type(p),
                                 "iri": p, "id": sid})  # fmt: skip

    def literal(self, s: URIRef | BNode, p: URIRef, o: Literal) -> None:
        """A default-graph triple with a literal object: a value of its subject's property."""
        self.plain_literal(PlainTriple.of(s, p, o))

    def plain_literal(self, t: PlainTriple) -> None:
        """:meth:`literal` of a plain triple. Values of one key share one Neo4j type; one that does not fit
        the first stays a reified edge. (The import calls this for most of a file's triples: it is kept lean.)"""
        subject = _BNODE_PREFIX + t.s if t.s_bnode else t.s
        if subject not in self._resources:
            self.node(*plain_key(t.s, t.s_bnode))
        key = self.names.property_key(t.p)
        value, tag = stored_value(t.o, t.lang, t.datatype)
        at = (subject, key)
        row = self._literals.get(at)
        if row is None:
            self._literals[at] = row = {"s": subject, "key": key, "values": [value], "tags": [tag]}
            self.batch.literals.append(row)
            self.batch.literal_terms[at] = [t]
            return
        values, tags = row["values"], row["tags"]
        if value_kind(value) != value_kind(values[0]):
            s, p, o = _terms(t)
            self.statement(s, p, o, asserted_in=DEFAULT_GRAPH)
            self.diverted.append((s, p, o))
            return
        for held, held_tag in zip(values, tags, strict=True):  # all of this value's kind: == is exact
            if held == value and held_tag == tag:
                return
        values.append(value)
        tags.append(tag)
        self.batch.literal_terms[at].append(t)

    def entity(self, subject: URIRef | BNode, graph: str, quads: Sequence[Quad]) -> None:
        uri = self.resource(subject)
        labels: list[str] = [_GRAPH_LABEL[graph].value]
        props: dict[str, Any] = {}
        # Plain literals (TrustGraph's own form) claim a single-valued property before typed ones, so
        # that which value becomes the property never depends on the order quads arrive in.
        for q in sorted(quads, key=lambda q: isinstance(q.o, Literal) and q.o.datatype is not None):
            if q.p == RDF.type and isinstance(q.o, URIRef) and q.o in CLASS_BY_IRI:
                label = CLASS_BY_IRI[q.o].label.value
                if label not in labels:
                    labels.append(label)
                continue
            prop = PROP_BY_IRI.get(q.p)
            if prop is not None:
                value = _literal_for_property(q.o, prop)
                if value is not None:
                    if prop.multi:
                        values = props.setdefault(prop.prop, [])
                        if value not in values:
                            values.append(value)
                        continue
                    if prop.prop not in props:
                        props[prop.prop] = value
                        continue
            rel = REL_BY_IRI.get(q.p)
            if rel is not None:
                if rel.target == "statement" and isinstance(q.o, QuotedTriple):
                    sid = self.statement(q.o.s, q.o.p, q.o.o)
                    link: dict[str, Any] = {"from": uri, "type": rel.rel.value, "statement": sid, "props": {}}
                    self._links[(uri, rel.rel.value, sid)] = link
                    self.batch.statement_links.append(link)
                    continue
                if rel.target == "resource" and isinstance(q.o, URIRef | BNode):
                    to = self.resource(q.o)
                    self.batch.links.append({"from": uri, "type": rel.rel.value, "to": to})
                    continue
            self.statement(q.s, q.p, q.o, asserted_in=q.g)
        self.batch.entities.append({"uri": uri, "graph": graph, "labels": labels, "props": props})

    def annotate(self, quad: Quad) -> None:
        """An annotation of a mapped relationship in this batch (``<< sg tg:contains << … >> >> tg:sourceText
        "…"``) becomes its property; anything else about a quoted triple is a statement about a statement."""
        base = quad.s
        if isinstance(base, QuotedTriple) and isinstance(base.s, URIRef | BNode) and isinstance(base.o, QuotedTriple):
            rel = REL_BY_IRI.get(base.p)
            row = LINK_PROPERTY.get((rel.rel, quad.p)) if rel is not None else None
            link = self._links.get((term_key(base.s)[1], rel.rel.value, edge_id(base.o.s, base.o.p, base.o.o))) \
                if rel is not None and row is not None else None  # fmt: skip
            value = _literal_for_property(quad.o, row) if row is not None else None
            if link is not None and row is not None and value is not None and row.prop not in link["props"]:
                link["props"][row.prop] = value
                return
        self.statement(quad.s, quad.p, quad.o, asserted_in=quad.g)


_LITERAL_PROPS = ("o", "o_kind", "o_datatype", "o_lang")


def literal_columns(term: Literal) -> tuple[str, str, str | None, str | None]:
    """What a ``:TgStatement`` keeps of a literal object: ``o``, ``o_kind``, ``o_datatype``, ``o_lang``."""
    return str(term), "literal", str(term.datatype) if term.datatype is not None else None, term.language


def is_annotation(quad: Quad) -> bool:
    """Whether ``quad`` may annotate a mapped relationship (see :meth:`_Compiler.annotate`)."""
    s = quad.s
    return (
        quad.g in PROVENANCE_GRAPHS
        and isinstance(s, QuotedTriple)
        and isinstance(s.o, QuotedTriple)
        and s.p in REL_BY_IRI
        and (REL_BY_IRI[s.p].rel, quad.p) in LINK_PROPERTY
    )


_NO_VALUES: dict[str, Any] = {}
"""The literal map of a resource the batch holds no literal of (never mutated: a row only carries it)."""


class NativeRows:
    """An import's fast path: plain knowledge-graph triples compiled straight into the flat rows of
    ``cypher/import_native.cypher``.

    A triple is *plain* when :meth:`accepts` says so: it is in the default graph, its subject is an IRI or a
    blank node, its object an IRI, a blank node or a literal. Such a triple is exactly one relationship or
    one property value (what :func:`compile_quads` makes of it), so it needs none of the entity or statement
    machinery, and a file of a million of them is written as rows of lists with each resource named once
    per batch: facts and literals refer to their nodes by position in the batch's sorted resource list,
    which the Cypher collects in the same order.
    """

    _SPELLED = 65_536

    def __init__(self, namespaces: Namespaces | None = None) -> None:
        self.quads = 0
        self.names = namespaces or Namespaces()
        self._compiler = _Compiler(self.names)
        self._spelled: dict[str, str] = {}  # node key → its N-Triples spelling (keys of both kinds never clash)
        self._params: dict[str, list[Any]] | None = None

    @staticmethod
    def accepts(quad: Quad) -> bool:
        """Whether ``quad`` is a plain knowledge-graph triple (see the class docstring)."""
        return (
            quad.g == DEFAULT_GRAPH
            and isinstance(quad.s, URIRef | BNode)
            and isinstance(quad.p, URIRef)
            and isinstance(quad.o, URIRef | BNode | Literal)
            and bool(str(quad.p))
        )

    def add(self, quad: Quad) -> None:
        """Add a quad :meth:`accepts`."""
        self.add_plain(PlainTriple.of(quad.s, quad.p, quad.o))  # type: ignore[arg-type]

    def add_plain(self, t: PlainTriple) -> None:
        """Add a plain triple (the line reader's fast path hands these over without building terms)."""
        if t.o_kind == "literal":
            self._compiler.plain_literal(t)
        else:
            s, o = plain_key(t.s, t.s_bnode), plain_key(t.o, t.o_kind == "bnode")
            sid = edge_id_of(self._spell(s), self._spell(("iri", t.p)), self._spell(o))
            self._compiler.plain_fact(s, t.p, o, sid)
        self.quads += 1

    def _spell(self, node: tuple[str, str]) -> str:
        spelled = self._spelled.get(node[1])
        if spelled is None:
            if len(self._spelled) >= self._SPELLED:
                self._spelled.clear()
            spelled = self._spelled[node[1]] = spell_node(*node)
        return spelled

    @property
    def batch(self) -> WriteBatch:
        """What the rows hold, as a batch (its reified statements, when some literals did not fit together)."""
        return self._compiler.batch

    def params(self) -> dict[str, list[Any]]:
        if self._params is None:
            self._params = self._build_params()
        return self._params

    def _build_params(self) -> dict[str, list[Any]]:
        """``$resources`` sorted by uri, each with the map of its literal values (as stored: one value or a
        list, and the sidecar tags when some value has one) and whether it is a subject in the batch; ``$facts``
        name their nodes by position in it."""
        batch = self._compiler.batch
        kinds = self._compiler._resources
        values: dict[str, dict[str, Any]] = {}
        for row in batch.literals:
            props = values.setdefault(row["s"], {})
            held, tags = row["values"], row["tags"]
            props[row["key"]] = held[0] if len(held) == 1 else held
            if any(tags):
                props[sidecar(row["key"])] = tags
        uris = sorted(kinds)
        at = {uri: i for i, uri in enumerate(uris)}
        subjects = {f["s"] for f in batch.facts}
        none = _NO_VALUES
        return {
            "resources": [[uri, kinds[uri], values.get(uri, none), uri in values or uri in subjects] for uri in uris],
            "facts": sorted([at[f["s"]], at[f["o"]], f["type"], f["iri"], f["id"]] for f in batch.facts),
            "prefixes": sorted([prefix, ns] for prefix, ns in self.names.used.items()),
        }

    def reified(self, misfits: Iterable[Sequence[Any]]) -> WriteBatch | None:
        """The reified edges this batch needs, or ``None``: literal values that did not fit the others of their key,
        in the batch or in the database (``misfits`` as ``import_native`` reports them)."""
        stored = self._compiler.batch.misfits(misfits)
        triples = self._compiler.diverted + stored
        return reified(triples) if triples else None

    def freeze(self) -> NativeRows:
        """These rows as they are now, for a writer thread, while this object goes on with the next batch. Their
        :meth:`params` are built here, by the reading thread, which waits on the writers more than they on it."""
        frozen = NativeRows.__new__(NativeRows)
        frozen.quads, frozen._compiler, frozen._spelled, frozen._params = self.quads, self._compiler, {}, None
        frozen.names = Namespaces(prefixes=self.names.prefixes, used=dict(self.names.used))
        frozen.params()
        return frozen

    def clear(self) -> None:
        """Start the next batch (the spelling cache and the namespace table are kept: the same IRIs come again)."""
        self.quads = 0
        self.names.used.clear()
        self._compiler = _Compiler(self.names)
        self._params = None


def compile_quads(
    quads: Iterable[Quad], contents: Mapping[str, str] | None = None, namespaces: Namespaces | None = None
) -> WriteBatch:
    """Compile quads (and librarian texts by document URI) into the rows of one write.

    Raises:
        MappingError: a term that cannot be stored (an empty IRI, a literal in subject position).
    """
    compiler = _Compiler(namespaces)
    by_subject: dict[tuple[Subject, str], list[Quad]] = defaultdict(list)
    entity_graph: dict[Subject, str] = {}
    annotations: list[Quad] = []
    for quad in quads:
        if not isinstance(quad.p, URIRef) or not str(quad.p):
            raise MappingError(f"predicate {quad.p!r} is not an IRI")
        s, o = quad.s, quad.o
        if isinstance(s, URIRef | BNode) and quad.g in PROVENANCE_GRAPHS:
            graph = entity_graph.setdefault(s, quad.g)
            if graph == quad.g:
                by_subject[(s, quad.g)].append(quad)
                continue
        if not isinstance(s, URIRef | BNode | QuotedTriple):
            raise MappingError(f"subject {s!r} must be an IRI, a blank node or a quoted triple")
        if is_annotation(quad):
            annotations.append(quad)
        elif quad.g == DEFAULT_GRAPH and isinstance(s, URIRef | BNode) and isinstance(o, URIRef | BNode):
            compiler.fact(s, quad.p, o)
        elif quad.g == DEFAULT_GRAPH and isinstance(s, URIRef | BNode) and isinstance(o, Literal):
            compiler.literal(s, quad.p, o)
        else:
            compiler.statement(s, quad.p, o, asserted_in=quad.g)
    for (subject, graph), subject_quads in by_subject.items():
        compiler.entity(subject, graph, subject_quads)  # type: ignore[arg-type]
    for quad in annotations:
        compiler.annotate(quad)
    for uri, text in (contents or {}).items():
        key = compiler.resource(URIRef(uri))
        compiler.batch.contents.append({"uri": key, "text": text, "contentType": "text/plain"})
    compiler.batch.prefixes = [{"prefix": p, "namespace": ns} for p, ns in compiler.names.used.items()]
    _check_names(compiler.batch)
    return compiler.batch


def _check_names(batch: WriteBatch) -> None:
    """Labels and relationship types reach Cypher as parameters; they may only come from the vocabulary
    (or, for a fact, from the native rule, which never yields one of the vocabulary's types)."""
    labels = {label for e in batch.entities for label in e["labels"]}
    types = {link["type"] for link in batch.links} | {link["type"] for link in batch.statement_links}
    unknown = (labels - {m.value for m in Label}) | (types - {m.value for m in Rel})
    clash = {f["type"] for f in batch.facts} & {m.value for m in Rel}
    if unknown or clash:
        raise MappingError(f"names outside the vocabulary: {sorted(unknown | clash)}")


# ------------------------------------------------------------------------------------------ decompile
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


def _property_literal(value: Any, row: PropMap, profile: Profile) -> Literal:
    text = render_value(value, row)
    if profile == "prov" and not isinstance(value, str):
        return Literal(text, datatype=_TYPED.get(row.datatype), normalize=False)
    return Literal(text)


class Decompiler:
    """Stored rows → quads in one profile, one row at a time (export streams through this).

    Each row brings the statements it refers to (a selected edge and the quoted triples nested in
    it), so nothing needs the whole collection in memory. The ``prov`` profile adds the session
    activity of each Question and types agents ``prov:SoftwareAgent`` (``rdf.profiles``), and writes the
    annotations of relationships (a contained fact's evidence sentence) as RDF-star annotations; the only
    state kept is which of the few session agents were already described. Knowledge-graph facts are the
    same in both profiles; their property keys are read back with the collection's ``namespaces``.
    """

    def __init__(self, profile: Profile, namespaces: Namespaces | None = None) -> None:
        if profile not in PROFILES:
            raise MappingError(f"unknown profile {profile!r}; use one of {', '.join(PROFILES)}")
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
    profile: Profile,
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


# ------------------------------------------------------------------------------------------ limits
INDEX_KEY_BYTES = 8000
"""What tgneo lets one index key hold (UTF-8 bytes of its strings). Neo4j 5's range indexes refuse a
key past about 8,100 bytes ("Property value is too large to index") — after some of a transaction
was written. The keys are ``(workspace, collection, uri)`` for a Resource and ``(workspace,
collection, s, p)`` for a Statement, so an import checks every quad against this bound before it
writes anything."""


def index_chars(workspace: str, collection: str) -> int:
    """How many characters of terms a key of this workspace and collection surely holds (for :func:`fits_index`:
    a UTF-8 character is at most 4 bytes)."""
    return (INDEX_KEY_BYTES - len(workspace.encode()) - len(collection.encode())) // 4


def fits_index(t: PlainTriple, chars: int) -> bool:
    """Whether every key of a plain triple is surely within :data:`INDEX_KEY_BYTES` (:func:`too_large`'s quick
    bound, counted on its text, ``chars`` from :func:`index_chars`; a blank node's key is 2 characters longer)."""
    return len(t.s) + 2 + len(t.p) <= chars and (t.o_kind == "literal" or len(t.o) + 2 <= chars)


def too_large(quad: Quad, workspace: str, collection: str) -> str | None:
    """The first term of ``quad`` whose stored key would exceed :data:`INDEX_KEY_BYTES`, or ``None``."""
    scope = len(workspace.encode()) + len(collection.encode())
    s, o = quad.s, quad.o
    if not isinstance(s, QuotedTriple) and not isinstance(o, QuotedTriple):
        # a UTF-8 character is at most 4 bytes, and a blank node's key 2 characters longer: most
        # quads are far below the bound, and counting characters costs no encoding
        o_chars = len(o) + 2 if isinstance(o, URIRef | BNode) else 0
        if scope + 4 * max(len(s) + 2 + len(quad.p), o_chars) <= INDEX_KEY_BYTES:
            return None
    stack: list[tuple[Subject, URIRef, Object]] = [(quad.s, quad.p, quad.o)]
    while stack:
        s, p, o = stack.pop()
        p_bytes = len(str(p).encode())
        for term in (s, o):
            if isinstance(term, QuotedTriple):
                stack.append((term.s, term.p, term.o))
            elif isinstance(term, URIRef | BNode) and scope + len(term_key(term)[1].encode()) > INDEX_KEY_BYTES:
                return term_key(term)[1]
        if scope + p_bytes > INDEX_KEY_BYTES:
            return str(p)
        if not isinstance(s, QuotedTriple) and scope + len(term_key(s)[1].encode()) + p_bytes > INDEX_KEY_BYTES:
            return term_key(s)[1]
    return None
