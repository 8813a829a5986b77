"""Reading the knowledge graph for the engines: seed entities, neighbourhoods, chunks, citations.

Each function is one round trip, whatever the number of concepts, entities or facts it is given
(``UNWIND`` in the query), because a GraphRAG question must stay within a handful of round trips.
Everything is kept to one workspace and collection. Facts come back as the triples they are, whichever
form stores them (a typed relationship, a property value, a reified edge), with the same ``edge_id``, so
an edge the engine selects is the very edge extraction provenance quotes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from rdflib.term import BNode, Literal, URIRef

from tgneo.graphmodel.terms import node_term, term_key
from tgneo.native import DEFAULT_NAMESPACE, STRUCTURE_KEYS, literal_of
from tgneo.nlp.words import content_words
from tgneo.rdf.ntriples import edge_id
from tgneo.rdf.terms import Object, QuotedTriple, Subject
from tgneo.store.driver import Store
from tgneo.store.queries import Q
from tgneo.store.schema import CHUNK_TEXT_INDEX, CHUNK_VECTOR_INDEX, ENTITY_NAME_INDEX, ENTITY_VECTOR_INDEX
from tgneo.store.search import lucene_query, smallest_name
from tgneo.store.values import native
from tgneo.vocab import RDFS

MIN_SIMILARITY = 0.8
"""The least vector score (Neo4j's cosine score, ``(1 + cos) / 2``) that makes an entity a seed:
below it a concept's nearest names are not about it (cos < 0.6)."""
OVERFETCH = 10
WIDEN = 20
"""When an over-fetch holds too few of the collection's hits (other collections crowd the index), the
read is widened this many times, once — through the index still, so a question's cost never grows
with the collection. Past that, fewer hits come back than asked for."""
"""Vector and full-text indexes span every workspace; ask for this many times more (at least 100), then filter."""


@dataclass(frozen=True)
class Seed:
    """An entity a concept named, how well (``score``, 0..1), and why: its rank and score in the vector list
    and in the full-text list of the concept that ranked it best (``None`` where that list did not find it),
    and its reciprocal-rank-fusion score there (:func:`fuse_seeds`)."""

    uri: str
    name: str | None
    score: float
    concept: str
    vector_rank: int | None = None
    vector_score: float | None = None
    text_rank: int | None = None
    text_score: float | None = None
    fused: float = 0.0

    @property
    def vector_similarity(self) -> float | None:
        """Its similarity to the concept, where the vector list found it."""
        return self.vector_score


@dataclass(frozen=True)
class Edge:
    """A knowledge-graph statement with its terms as stored, their labels, and its evidence sentence.

    ``evidence`` is the sentence the statement was extracted from (``tg:sourceText`` of a Subgraph
    containing it) that mentions most of the question's words; ``None`` when extraction recorded none.
    """

    id: str
    triple: QuotedTriple
    s_label: str
    p_label: str
    o_label: str
    evidence: str | None = None

    @property
    def text(self) -> str:
        """How the LLM sees it to score it: ``subject, predicate, object`` in labels."""
        return f"{self.s_label}, {self.p_label}, {self.o_label}"

    @property
    def fact(self) -> str:
        """How the LLM sees it to answer from it: ``subject predicate object``, as a sentence reads."""
        return f"{self.s_label} {self.p_label} {self.o_label}"

    @property
    def object_uri(self) -> str | None:
        o = self.triple.o
        return str(o) if isinstance(o, URIRef) else None

    @property
    def subject_uri(self) -> str | None:
        s = self.triple.s
        return str(s) if isinstance(s, URIRef) else None


@dataclass(frozen=True)
class ChunkHit:
    """A chunk retrieval found, and why: its best vector similarity to a concept (``score``, ``None`` when only
    its words found it), its full-text score (``text_score``, ``None`` when only its embedding did), its
    similarity to the whole question (``rerank``), and, once :func:`fuse` has ranked it, its rank in each
    list and its fused score."""

    uri: str
    text: str
    score: float | None
    rerank: float
    text_score: float | None = None
    vector_rank: int | None = None
    text_rank: int | None = None
    fused: float = 0.0

    @property
    def vector_similarity(self) -> float | None:
        """Its similarity to the whole question (what the vector list ranks by), where that list found it."""
        return None if self.vector_rank is None else self.rerank


RRF_K = 60
"""Reciprocal rank fusion's constant (Cormack et al. 2009, and LLM Graph Builder's hybrid search): a chunk
ranked ``r`` in a list earns ``1 / (RRF_K + r)`` from it."""


def fuse(hits: Sequence[ChunkHit]) -> list[ChunkHit]:
    """``hits`` ranked by reciprocal rank fusion of their two lists, best first, each with its ranks.

    The vector list ranks the chunks an embedding found by their similarity to the whole question (the
    reranker Document RAG always had); the full-text list ranks the chunks the question's words found by
    Lucene's score. A chunk in both lists earns from both, which is what lifts a chunk that says the
    question's words *and* means its meaning above one that only does either. Ties go to the better vector
    similarity, then to the IRI, so the order is deterministic.
    """
    vector_rank = ranks((h.uri, None if h.score is None else h.rerank) for h in hits)
    text_rank = ranks((h.uri, h.text_score) for h in hits)
    ranked = []
    for h in hits:
        v, t = vector_rank.get(h.uri), text_rank.get(h.uri)
        ranked.append(ChunkHit(h.uri, h.text, h.score, h.rerank, h.text_score, v, t, rrf(v, t)))
    return sorted(ranked, key=lambda h: (-h.fused, -h.rerank, h.uri))


def ranks(scored: Iterable[tuple[str, float | None]]) -> dict[str, int]:
    """The 1-based rank of each key in one list, best score first (ties by key); keys without a score are not in
    the list."""
    listed = sorted(((key, score) for key, score in scored if score is not None), key=lambda ks: (-ks[1], ks[0]))
    return {key: i for i, (key, _) in enumerate(listed, start=1)}


def rrf(*in_lists: int | None) -> float:
    """Reciprocal rank fusion: ``Σ 1 / (RRF_K + rank)`` over the lists an item is ranked in (``None``: not there)."""
    return sum(1.0 / (RRF_K + r) for r in in_lists if r)


@dataclass(frozen=True)
class SeedRow:
    """One entity one concept's search found: its key (an IRI, or another tool's element id), its name, and its
    score in each list that found it (the vector index's similarity, the full-text index's Lucene score)."""

    key: str
    name: object
    concept: str
    vector_score: float | None
    text_score: float | None

    @classmethod
    def of(cls, record: Mapping[str, Any], key: str) -> SeedRow:
        """The row of a seed query's record (``cypher/seed_entities.cypher``, ``profile_seeds_*.cypher``)."""
        vector, text = optional_float(record["vector_score"]), optional_float(record["text_score"])
        return cls(record[key], record["name"], record["concept"], vector, text)


def fuse_seeds(rows: Sequence[SeedRow], per_concept: int, total: int) -> list[tuple[SeedRow, Seed]]:
    """The entities ``rows`` found, ranked by reciprocal rank fusion, best first, each with its ranks.

    Each concept ranks its own two lists (vector similarity, Lucene score) and keeps its ``per_concept`` best
    by fused score (:data:`RRF_K`, as :func:`fuse` ranks chunks): an entity both indexes found for a concept
    rises above one that only either did, whatever the two scores' scales. An entity several concepts found
    keeps its best concept's ranks; the ``total`` best are returned. Ties go to the better score, then the key.
    ``Seed.uri`` is the row's key: a caller whose keys are not IRIs maps them.
    """
    by_concept: dict[str, list[SeedRow]] = {}
    for row in rows:
        by_concept.setdefault(row.concept, []).append(row)
    best: dict[str, Seed] = {}
    found: dict[str, SeedRow] = {}
    for concept in sorted(by_concept):
        listed = by_concept[concept]
        vector_rank = ranks((r.key, r.vector_score) for r in listed)
        text_rank = ranks((r.key, r.text_score) for r in listed)
        seeds = []
        for r in listed:
            v, t = vector_rank.get(r.key), text_rank.get(r.key)
            fused = rrf(v, t)
            text_norm = r.text_score / (r.text_score + 1.0) if r.text_score is not None else 0.0
            score = max(r.vector_score or 0.0, text_norm)
            seeds.append((Seed(r.key, None, score, concept, v, r.vector_score, t, r.text_score, fused), r))
        seeds.sort(key=lambda pair: (-pair[0].fused, -pair[0].score, pair[0].uri))
        for seed, row in seeds[:per_concept]:
            held = best.get(seed.uri)
            if held is None or (seed.fused, seed.score) > (held.fused, held.score):
                best[seed.uri], found[seed.uri] = seed, row
    ranked = sorted(best.values(), key=lambda s: (-s.fused, -s.score, s.uri))[:total]
    return [(found[s.uri], s) for s in ranked]


def seed_entities(
    store: Store,
    workspace: str,
    collection: str,
    concepts: Sequence[str],
    vectors: Sequence[list[float]] | None,
    per_concept: int,
    total: int,
) -> list[Seed]:
    """The entities the concepts name (full-text and, with ``vectors``, vector search), fused by :func:`fuse_seeds`."""
    if not concepts:
        return []
    rows = [
        {"text": c, "query": lucene_query(c), "vector": vectors[i] if vectors else None} for i, c in enumerate(concepts)
    ]
    records = store.read(
        Q.seed_entities, workspace=workspace, collection=collection, asked={"concepts": rows}, per_concept=per_concept,
        overfetch=max(100, per_concept * OVERFETCH), name_index=ENTITY_NAME_INDEX,
        vector_index=ENTITY_VECTOR_INDEX, min_similarity=MIN_SIMILARITY, widen=WIDEN, reserved=STRUCTURE_KEYS,
    )  # fmt: skip
    seeds = [SeedRow.of(r, "uri") for r in records]
    return [replace(seed, name=display_name(row.name)) for row, seed in fuse_seeds(seeds, per_concept, total)]


def display_name(name: object) -> str | None:
    """:func:`~tgneo.store.search.smallest_name`, or ``None`` for a node without a name."""
    return smallest_name(name) or None if name is not None else None


def explore(
    store: Store,
    workspace: str,
    collection: str,
    seeds: Sequence[str],
    max_path_length: int,
    per_entity: int,
    max_edges: int,
    words: Sequence[str] = (),
) -> list[Edge]:
    """The knowledge-graph facts within ``max_path_length`` hops of the seeds, breadth first, at most ``max_edges``.

    One round trip per hop: each hop's frontier is the entities the previous hop reached. When an
    entity has more than ``per_entity`` facts, those whose IRIs and evidence sentence mention most of
    ``words`` (the question's words, lower case) are kept first, so a hub entity's relevant edges are
    not lost to an arbitrary cut. Relationships are ranked and cut in Neo4j (a hub may have thousands);
    an entity's literal values (a handful, on the node itself) and its reified edges join them here, under
    the same ranking.
    """
    edges: dict[str, Edge] = {}
    frontier = list(dict.fromkeys(seeds))
    seen = set(frontier)
    for _ in range(max_path_length):
        if not frontier or len(edges) >= max_edges:
            break
        records = store.read(
            Q.explore_hop, workspace=workspace, collection=collection, per_entity=per_entity,
            asked={"frontier": frontier, "words": list(words)}, reserved=STRUCTURE_KEYS,
            default_namespace=DEFAULT_NAMESPACE, label_predicate=str(RDFS.label),
        )  # fmt: skip
        by_entity: dict[str, list[tuple[int, Edge]]] = {}
        for r in records:
            edge = _edge(r)
            by_entity.setdefault(r["frontier"], []).append((_rank(edge, words), edge))
        picked: dict[str, Edge] = {}
        for ranked in by_entity.values():
            ranked.sort(key=lambda pair: (-pair[0], pair[1].id))
            for _, edge in ranked[:per_entity]:
                picked.setdefault(edge.id, edge)
        reached: list[str] = []
        for edge in sorted((e for e in picked.values() if e.id not in edges), key=lambda e: e.id)[
            : max_edges - len(edges)
        ]:
            edges[edge.id] = edge
            for uri in (edge.subject_uri, edge.object_uri):
                if uri is not None and uri not in seen:
                    seen.add(uri)
                    reached.append(uri)
        frontier = reached
    return list(edges.values())


def _term(kind: str, value: str | None) -> Subject:
    return node_term(kind, value or "")


def _object(kind: str, value: str | None, datatype: str | None, lang: str | None) -> Object:
    if kind == "literal":
        return Literal(value or "", lang=lang or None, datatype=URIRef(datatype) if datatype else None)
    return node_term(kind, value or "")


def _shown(term: object) -> str:
    """A term without a name, as a reader should see it: a literal's text, an IRI's last segment."""
    if isinstance(term, Literal):
        return str(term)
    if isinstance(term, URIRef | BNode):
        text = str(term).rstrip("/#")
        return re.split(r"[/#:]", text)[-1].replace("-", " ").replace("_", " ") or str(term)
    return str(term)


def _edge(r: Mapping[str, Any]) -> Edge:
    """One explored fact, whichever form it is stored in."""
    s = _term(r["s_kind"], r["s"])
    p = URIRef(r["p"])
    if r["kind"] == "literal":
        o: Object = literal_of(native(r["value"]), r["tag"] or "")
        sid = edge_id(s, p, o)
    else:
        o = _object(r["o_kind"], r["o"], r["o_datatype"], r["o_lang"])
        sid = r["id"]
    triple = QuotedTriple(s, p, o)
    return Edge(sid, triple, display_name(r["s_name"]) or _shown(triple.s), display_name(r["p_name"]) or _shown(p),
                display_name(r["o_name"]) or _shown(o), r["evidence"])  # fmt: skip


def _rank(edge: Edge, words: Sequence[str]) -> int:
    """How many of the question's words a fact's terms and evidence mention (``explore_hop``'s own ranking)."""
    t = edge.triple
    s, o = (term_key(x)[1] if isinstance(x, URIRef | BNode) else str(x) for x in (t.s, t.o))
    terms = f"{s} {t.p} {o} {edge.evidence or ''}".lower()
    return sum(1 for w in words if w in terms)


@dataclass(frozen=True)
class Place:
    """Where a piece of evidence was read: its chunk, the page or section that holds it, its document."""

    chunk: str
    section: str | None
    document: str | None
    title: str | None


@dataclass(frozen=True)
class EvidenceRow:
    """One piece of evidence to place: a selected statement (with its evidence sentence) or a selected chunk."""

    key: str
    statement: str | None = None
    evidence: str | None = None
    chunk: str | None = None


@dataclass(frozen=True)
class AnswerSources:
    """The documents an answer rests on (each once, first cited first), and where each row's evidence was read."""

    documents: list[tuple[str, str]]
    places: dict[str, Place]


def answer_sources(store: Store, workspace: str, collection: str, rows: Sequence[EvidenceRow]) -> AnswerSources:
    """Place each row's evidence and list the documents behind all of them, in one round trip.

    A statement may have been extracted from several chunks: every document counts as a source, and its
    place is the chunk whose evidence sentence is the row's (else the first).
    """
    if not rows:
        return AnswerSources([], {})
    params = [{"key": r.key, "statement": r.statement, "evidence": r.evidence, "chunk": r.chunk} for r in rows]
    records = store.read(Q.answer_sources, workspace=workspace, collection=collection, rows=params)
    documents: dict[str, str] = {}
    places: dict[str, Place] = {}
    for r in records:
        if r["document"] is not None:
            documents.setdefault(r["document"], r["title"] or r["document"])
        if r["key"] not in places:
            places[r["key"]] = Place(r["chunk"], r["section"], r["document"], r["title"])
    return AnswerSources(list(documents.items()), places)


def search_chunks(
    store: Store,
    workspace: str,
    collection: str,
    vectors: Sequence[list[float]],
    question_vector: list[float],
    per_concept: int,
    question: str = "",
) -> list[ChunkHit]:
    """The chunks nearest each concept vector and those the question's content words find in the full-text
    index (hybrid retrieval), deduplicated, ranked by :func:`fuse`."""
    if not vectors and not question:
        return []
    terms = lucene_query(" ".join(dict.fromkeys(w for w in content_words(question) if len(w) > 1)))
    records = store.read(
        Q.search_chunks, workspace=workspace, collection=collection, vectors=list(vectors),
        question_vector=question_vector, per_concept=per_concept, overfetch=max(100, per_concept * OVERFETCH),
        chunk_index=CHUNK_VECTOR_INDEX, widen=WIDEN, text_index=CHUNK_TEXT_INDEX, terms=terms.strip(),
        text_limit=per_concept,
    )  # fmt: skip
    return fuse([
        ChunkHit(r["uri"], r["text"] or "", optional_float(r["score"]), float(r["rerank"] or 0.0),
                 optional_float(r["text_score"]))
        for r in records
    ])  # fmt: skip


def optional_float(value: object) -> float | None:
    """A score read from Neo4j, or ``None`` where the list that scores it did not find the item."""
    return None if value is None else float(value)  # type: ignore[arg-type]


def labels(store: Store, workspace: str, collection: str, iris: Sequence[str]) -> dict[str, str]:
    """The name (``rdfs:label``) of each IRI that has one (the smallest, when it has several)."""
    wanted = list(dict.fromkeys(iris))
    if not wanted:
        return {}
    records = store.read(Q.labels, workspace=workspace, collection=collection, uris=wanted)
    return {r["uri"]: r["label"] for r in records}
