"""Quads → the rows one batched Cypher statement writes (pure): :func:`compile_quads`, and :class:`NativeRows` for
the plain knowledge-graph triples that make up most of a large import."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rdflib.term import BNode, Literal, URIRef

from tgneo.errors import MappingError
from tgneo.graphmodel.terms import (
    BNODE_PREFIX,
    literal_for_property,
    term_key,
)
from tgneo.mapping import (
    CLASS_BY_IRI,
    LINK_PROPERTY,
    PROP_BY_IRI,
    REL_BY_IRI,
)
from tgneo.native import (
    Namespaces,
    sidecar,
    stored_literal,
    stored_value,
    value_kind,
)
from tgneo.rdf.ntriples import edge_id, edge_id_of, spell_node
from tgneo.rdf.terms import DEFAULT_GRAPH, Object, PlainTriple, Quad, QuotedTriple, Subject
from tgneo.vocab import GRAPH_RETRIEVAL, GRAPH_SOURCE, PROVENANCE_GRAPHS, RDF, Label, Rel

_GRAPH_LABEL = {GRAPH_RETRIEVAL: Label.EXPLAIN, GRAPH_SOURCE: Label.SOURCE}


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
        return "bnode", BNODE_PREFIX + value
    if not value:
        raise MappingError("an IRI is empty")
    return "iri", value


def reified(triples: Iterable[tuple[Subject, URIRef, Object]]) -> WriteBatch:
    """A batch writing ``triples`` as reified edges asserted in the default graph: what the native form could not
    hold of a write (a literal value whose type differs from the values its key holds)."""
    compiler = Compiler()
    for s, p, o in triples:
        compiler.statement(s, p, o, asserted_in=DEFAULT_GRAPH)
    return compiler.batch


class Compiler:
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
        subject = BNODE_PREFIX + t.s if t.s_bnode else t.s
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
                value = literal_for_property(q.o, prop)
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
            value = literal_for_property(quad.o, row) if row is not None else None
            if link is not None and row is not None and value is not None and row.prop not in link["props"]:
                link["props"][row.prop] = value
                return
        self.statement(quad.s, quad.p, quad.o, asserted_in=quad.g)


_LITERAL_PROPS = ("o", "o_kind", "o_datatype", "o_lang")


def literal_columns(term: Literal) -> tuple[str, str, str | None, str | None]:
    """What a ``:TgStatement`` keeps of a literal object: ``o``, ``o_kind``, ``o_datatype``, ``o_lang``."""
    return str(term), "literal", str(term.datatype) if term.datatype is not None else None, term.language


def is_annotation(quad: Quad) -> bool:
    """Whether ``quad`` may annotate a mapped relationship (see :meth:`Compiler.annotate`)."""
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
        self._compiler = Compiler(self.names)
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
        self._compiler = Compiler(self.names)
        self._params = None


def compile_quads(
    quads: Iterable[Quad], contents: Mapping[str, str] | None = None, namespaces: Namespaces | None = None
) -> WriteBatch:
    """Compile quads (and librarian texts by document URI) into the rows of one write.

    Raises:
        MappingError: a term that cannot be stored (an empty IRI, a literal in subject position).
    """
    compiler = Compiler(namespaces)
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
