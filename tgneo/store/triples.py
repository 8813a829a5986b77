"""Triple-pattern queries over the graph model: TrustGraph's ``triples`` service, answered from Neo4j.

TrustGraph stores triples; tgneo stores nodes (entities with labels, properties and relationships; a
native knowledge graph of typed relationships and property values; reified statements). A pattern is
answered in two steps: index-backed Cypher finds the *candidate* entities, knowledge-graph nodes, facts
and statements (``cypher/triples_*.cypher``), then their rows are rendered back as quads by the same
decompiler export uses (``graphmodel.decompiler.Decompiler``, profile ``trustgraph``: exactly the triples
TrustGraph's builders emit) and filtered exactly by :mod:`tgneo.patterns`. So what a client reads
through ``triples`` is what an export of the same nodes holds, quad for quad.

Which index serves which pattern (the ones TrustGraph's clients send, reference §7.5):

* ``s`` (+ ``g``, + ``p``) — ``fetch_entity``, label lookups: the node by its key ``(workspace,
  collection, uri)`` (its entity quads and its native facts: ``name`` is its ``rdfs:label``) and the
  reified statements by ``(workspace, collection, s, p)``; one round trip;
* ``p`` + ``o`` IRI (+ ``g``) — children by ``prov:wasDerivedFrom``: the object's node by its key,
  then its incoming relationships;
* ``p`` + quoted ``o`` + ``g`` — ``tg:contains <<s p o>>``: the quoted statement by ``(s, p)``, then
  who points at it;
* ``p`` + ``g`` — ``tg:query`` (the list of traces): entities by ``(workspace, collection, graph)``,
  statements by ``(workspace, collection, p)``, facts by their relationship type;
* anything else (no ``s``/``p``/``o``, a literal object without a predicate) pages through the
  collection in key order until ``limit`` answers are found.

The graph selector narrows the search before Neo4j is asked: entities live in the provenance graphs
and native facts in the default graph, so a pattern that cannot match one never reads it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rdflib.term import BNode, Literal, URIRef

from tgneo.graphmodel.decompiler import StoredEntity, StoredFacts, StoredStatement, decompile
from tgneo.graphmodel.terms import term_key
from tgneo.mapping import CLASS_BY_IRI, PROP_BY_IRI, PROP_BY_NAME, REL_BY_IRI
from tgneo.native import STRUCTURE_KEYS, Namespaces
from tgneo.patterns import TriplePattern, answer, term_matches
from tgneo.rdf.terms import DEFAULT_GRAPH, Object, Quad, QuotedTriple
from tgneo.scope import check_scope
from tgneo.store.driver import Store
from tgneo.store.queries import Q
from tgneo.store.rdf_export import namespaces, stored_facts
from tgneo.store.values import native
from tgneo.vocab import GRAPH_RETRIEVAL, GRAPH_SOURCE, RDF

_PROPERTIES = sorted(PROP_BY_NAME)
_PAGE = 2000
"""Rows per page when a pattern has to be answered by reading the collection in key order."""
_END = "\U0010ffff"
"""A cursor past every key (the greatest code point)."""


def find_triples(store: Store, workspace: str, collection: str, pattern: TriplePattern) -> list[Quad]:
    """The quads of ``workspace``/``collection`` that match ``pattern``, in its deterministic order.

    Raises:
        InvalidEntity: a blank workspace or collection.
        StoreUnavailable: Neo4j cannot be reached.
    """
    check_scope(workspace, collection)
    search = _Search(store, workspace, collection, pattern)
    return answer(pattern, search.run())


class _Search:
    def __init__(self, store: Store, workspace: str, collection: str, pattern: TriplePattern) -> None:
        self.store, self.workspace, self.collection, self.pattern = store, workspace, collection, pattern
        self.graphs = [g for g in (GRAPH_RETRIEVAL, GRAPH_SOURCE) if pattern.graph_matches(g)]
        self.kg = pattern.graph_matches(DEFAULT_GRAPH)
        self._names: Namespaces | None = None

    @property
    def names(self) -> Namespaces:
        if self._names is None:
            self._names = namespaces(self.store, self.workspace, self.collection)
        return self._names

    def _read(self, query: Any, **params: Any) -> list[Any]:
        return self.store.read(query, workspace=self.workspace, collection=self.collection, **params)

    def run(self) -> list[Quad]:
        p, o = self.pattern.p, self.pattern.o
        if self.pattern.s is not None:
            keys = self._keys(self.pattern.s)
            nodes = keys if isinstance(self.pattern.s, URIRef | BNode) else []
            return self._quads(nodes if self.graphs else [], [], subjects=keys, predicate=str(p) if p else None,
                               fact_uris=nodes if self.kg else [])  # fmt: skip
        if isinstance(o, URIRef | BNode):
            return self._by_object(o)
        if isinstance(o, QuotedTriple):
            ids = self._keys(o)
            rel = self._rel(p)
            records = self._read(
                Q.triples_by_statement, ids=ids, rel=rel, graphs=self._entity_graphs(p, rel),
                predicate=str(p) if p is not None else None, limit=self.pattern.limit,
            )  # fmt: skip
            return self._quads(records[0]["uris"], records[0]["ids"])
        if p is not None and (o is None or (isinstance(o, Literal) and o.language is None)):
            return self._by_predicate(p, o)
        return self._scan()

    # -------------------------------------------------------------------------------- the shapes
    def _rel(self, p: URIRef | None) -> str | None:
        row = REL_BY_IRI.get(p) if p is not None else None
        return row.rel.value if row is not None else None

    def _entity_graphs(self, p: URIRef | None, rel: str | None) -> list[str]:
        """The graphs entities may answer in: none when ``p`` is given and is no mapped relationship."""
        return self.graphs if p is None or rel is not None else []

    def _by_object(self, o: URIRef | BNode) -> list[Quad]:
        p = self.pattern.p
        rel = self._rel(p)
        key = term_key(o)[1]
        records = self._read(
            Q.triples_by_object, key=key, rel=rel, graphs=self._entity_graphs(p, rel),
            predicate=str(p) if p is not None else None, facts=self.kg, limit=self.pattern.limit,
        )  # fmt: skip
        uris, ids = list(records[0]["uris"]), list(records[0]["ids"])
        cls = CLASS_BY_IRI.get(o) if isinstance(o, URIRef) else None
        if cls is not None and p in (None, RDF.type) and self.graphs:
            typed = self._read(Q.triples_by_class, label=cls.label.value, graphs=self.graphs, limit=self.pattern.limit)
            uris += [u for u in typed[0]["uris"] if u not in uris]
        kind = term_key(o)[0]
        facts = [StoredFacts(s, s_kind or "iri", {}, ((pred, kind, key),)) for s, s_kind, pred in records[0]["facts"]]
        return self._quads(uris, ids) + decompile([], [], "trustgraph", facts, self.names)

    def _by_predicate(self, p: URIRef, o: Object | None) -> list[Quad]:
        prop = PROP_BY_IRI.get(p)
        rel = self._rel(p)
        fact_type = fact_key = None
        if self.kg and not isinstance(o, Literal):
            fact_type = self.names.relationship_type(str(p))
        if self.kg and (o is None or isinstance(o, Literal)):
            fact_key = self.names.property_key(str(p))
        records = self._read(
            Q.triples_by_predicate,
            predicate=str(p),
            property=prop.prop if prop is not None and (o is None or isinstance(o, Literal)) else None,
            rel=rel if o is None else None,
            typed=p == RDF.type and o is None,
            value=str(o) if isinstance(o, Literal) else None,
            graphs=self.graphs,
            fact_type=fact_type,
            fact_key=fact_key,
            limit=self.pattern.limit,
        )
        record = records[0]
        facts = [StoredFacts(s, s_kind or "iri", {}, ((pred, o_kind or "iri", target),))
                 for s, s_kind, pred, o_kind, target in record["rels"]]  # fmt: skip
        return self._quads(record["uris"], record["ids"], fact_uris=record["keyed"]) + decompile(
            [], [], "trustgraph", facts, self.names
        )

    def _scan(self) -> list[Quad]:
        """Read the collection page by page, in key order, until ``limit`` answers are found."""
        found: set[Quad] = set()
        after_uri, after_id = "", ""
        while True:
            records = self._read(Q.triples_page, after_uri=after_uri, after_id=after_id, limit=_PAGE)
            uris, ids = list(records[0]["uris"]), list(records[0]["ids"])
            quads = self._quads(uris if self.graphs else [], ids, fact_uris=uris if self.kg else [])
            found.update(q for q in quads if self.pattern.matches(q))
            if len(found) >= self.pattern.limit or (len(uris) < _PAGE and len(ids) < _PAGE):
                return list(found)
            # a list that came back short is exhausted: move its cursor past every key
            after_uri = uris[-1] if len(uris) == _PAGE else _END
            after_id = ids[-1] if len(ids) == _PAGE else _END

    # -------------------------------------------------------------------------------- terms and rows
    def _keys(self, term: object) -> list[str]:
        """The stored keys a subject or quoted-object pattern term can have (statement ids for quoted ones)."""
        if isinstance(term, URIRef | BNode):
            return [term_key(term)[1]]
        if not isinstance(term, QuotedTriple):
            return []
        subjects = self._keys(term.s)
        if not subjects:
            return []
        inner = term.o
        if isinstance(inner, QuotedTriple):
            objects: list[str] | None = self._keys(inner)
            if not objects:
                return []
        elif isinstance(inner, Literal):
            objects = [str(inner)]
        else:
            objects = [term_key(inner)[1]]
        records = self._read(Q.triples_statements, subjects=subjects, predicate=str(term.p), objects=objects)
        statements = [_statement(r) for r in records]
        if not isinstance(inner, Literal):
            return [st.id for st in statements]
        return [st.id for st in statements if st.o_kind == "literal" and term_matches(inner, _literal(st))]

    def _quads(
        self,
        uris: Sequence[str],
        ids: Sequence[str],
        *,
        subjects: Sequence[str] = (),
        predicate: str | None = None,
        fact_uris: Sequence[str] = (),
    ) -> list[Quad]:
        if not uris and not ids and not subjects and not fact_uris:
            return []
        records = self._read(
            Q.triples_rows, uris=list(uris), properties=_PROPERTIES, ids=list(ids), subjects=list(subjects),
            predicate=predicate, limit=self.pattern.limit, fact_uris=list(fact_uris), reserved=STRUCTURE_KEYS,
        )  # fmt: skip
        entities = [_entity(e) for e in records[0]["entities"]]
        statements = [_statement(s) for s in records[0]["statements"]]
        facts = [stored_facts(f) for f in records[0]["facts"]]
        names = self.names if facts else None
        return decompile(entities, statements, "trustgraph", facts, names)


def _entity(row: Mapping[str, Any]) -> StoredEntity:
    return StoredEntity(
        uri=row["uri"],
        kind=row["kind"] or "iri",
        graph=row["graph"],
        labels=tuple(row["labels"]),
        props={name: native(value) for name, value in row["props"]},
        links=tuple((t, k or "iri", u) for t, k, u in row["links"]),
        statement_links=tuple((t, sid, native(props)) for t, sid, props in row["statement_links"]),
    )


def _statement(row: Mapping[str, Any]) -> StoredStatement:
    return StoredStatement(
        id=row["id"],
        s=row["s"],
        s_kind=row["s_kind"],
        p=row["p"],
        o=row["o"],
        o_kind=row["o_kind"],
        o_datatype=row["o_datatype"],
        o_lang=row["o_lang"],
        asserted_in=tuple(row.get("asserted_in") or ()),
    )


def _literal(st: StoredStatement) -> Literal:
    return Literal(st.o or "", lang=st.o_lang or None, datatype=URIRef(st.o_datatype) if st.o_datatype else None)
