"""Answering over a knowledge graph another tool wrote, through a graph profile (:mod:`tgneo.profiles`).

:class:`ProfileGraph` is the engines' reader (:class:`~tgneo.store.kg.GraphReader`) over their graph. It
reads their nodes and relationships and never writes one: what tgneo records lives on tgneo-owned
nodes in the question's workspace and collection, which name their nodes by IRI (never a relationship to
them, so no pattern of theirs, however wide, ever meets a tgneo node).

Where the engines need extraction provenance, it is written as tgneo's own, for what an answer selected
only, just before the sources are read (:meth:`ProfileGraph.answer_sources`): each passage an answer
rests on (a chunk, or a LangChain document) becomes a ``tg:Chunk`` derived from a ``tg:Document``
named by their document's name property, holding the text the answer read (a snapshot: their chunk may
change later, the trace must keep what it quoted); a selected edge is contained in the passage's
``tg:Subgraph`` with the sentence it was read from. Every reader of tgneo's own traces (``trace show``,
the sources, sentence citations, the viewer, export, TrustGraph's CLI, retention) then reads these
traces as it reads any other.

Finding where to start, with no model of theirs (module :mod:`tgneo.profiles` names the indexes):

1. their vector index, when the configured embedder is a real model of the index's dimensions (the
   offline embedder's hashed vectors can never be what filled their index);
2. else tgneo's side index (``tgneo load index --graph``): tgneo-owned entries in tgneo's own indexes,
   each pointing at one of their nodes by element id;
3. else their full-text index;
4. else a one-line error naming both dimensions (or the missing index) and the remedy.

Which edge an extracted fact came from: their writers record which chunks an *entity* was extracted
from (``FROM_CHUNK``, ``HAS_ENTITY``, ``MENTIONS``), not which chunk a *relationship* came from. tgneo
takes the passages that mention both ends of a relationship (else its subject), and in them the
sentence that names both ends and most of the question's words as the evidence.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rdflib.term import Literal, URIRef

from tgneo import uris
from tgneo.errors import EmbeddingMismatch, NotIndexed
from tgneo.explain.source import Activity, DerivedEntity, Document, Evidence, Subgraph
from tgneo.graphmodel import compile_quads
from tgneo.llm.base import LLM
from tgneo.nlp.segment import Unit, units
from tgneo.profiles import DOCUMENT_TEXT, GraphProfile, chunk_iri, element_iri, node_iri, type_iri
from tgneo.rdf.ntriples import edge_id
from tgneo.rdf.terms import DEFAULT_GRAPH, Quad, QuotedTriple
from tgneo.scope import check_scope
from tgneo.store.driver import Store
from tgneo.store.foreign import Checked, IndexInfo, check, read
from tgneo.store.kg import (
    MIN_SIMILARITY,
    OVERFETCH,
    AnswerSources,
    ChunkHit,
    Edge,
    EvidenceRow,
    Reads,
    Seed,
    SeedRow,
    answer_sources,
    fuse,
    fuse_seeds,
)
from tgneo.store.schema import CHUNK_VECTOR_INDEX, ENTITY_NAME_INDEX, ENTITY_VECTOR_INDEX
from tgneo.store.search import lucene_query, smallest_name
from tgneo.store.writer import write_batch
from tgneo.version import __version__
from tgneo.vocab import RDFS

__all__ = ["ProfileGraph"]


@dataclass
class _Passage:
    """One passage of theirs (a chunk, or a document that is its own text) as read for an answer."""

    element: str
    iri: str
    text: str
    position: object
    document: str | None
    title: str | None
    labels: tuple[str, ...] = ()


@dataclass
class _Found:
    """What one question learnt about their graph, kept so that the sources can be recorded."""

    elements: dict[str, str] = field(default_factory=dict)
    """IRI → element id of their node."""
    names: dict[str, str] = field(default_factory=dict)
    """IRI (entity or predicate) → the name a reader sees."""
    evidence: dict[str, list[tuple[str, Unit | None]]] = field(default_factory=dict)
    """Edge id → (passage element, the sentence in it) of each passage it was read from."""
    passages: dict[str, _Passage] = field(default_factory=dict)
    """Passage element → the passage."""
    chunks: dict[str, str] = field(default_factory=dict)
    """Chunk IRI → element id (chunks Document RAG retrieved)."""
    triples: dict[str, QuotedTriple] = field(default_factory=dict)
    """Edge id → the edge (every edge explored)."""


class ProfileGraph:
    """The engines' reader over their graph (module docstring), for one question and its sub-traces."""

    def __init__(self, store: Store, llm: LLM, profile: GraphProfile, workspace: str, collection: str) -> None:
        check_scope(workspace, collection)
        self.store, self.llm, self.profile = store, llm, profile
        self.workspace, self.collection = workspace, collection
        self.found = _Found()
        self._side: tuple[int, int] | None = None
        self._named: set[str] = set()

    # -- what the engines call ---------------------------------------------------------------------

    def require_content(self, reads: Reads = "any") -> None:
        """Refuse a question before anything is recorded when the profile does not fit the database, or when no
        index (theirs that the embedder can ask, tgneo's side index, or full text) finds what the engine reads."""
        checked = check(self.store, self.profile, chunks=reads == "chunks")
        if reads in ("entities", "any"):
            entities = self._entity_route(checked)
            if entities is not None or reads == "entities":
                if entities is None:
                    raise self._unsearchable("entities", checked.entity_vector)
                return
        chunked = check(self.store, self.profile, chunks=True)
        if self._chunk_route(chunked) is None:
            raise self._unsearchable("chunks", chunked.chunk_vector)

    def _entity_route(self, checked: Checked) -> str | None:
        """How entities are found: ``theirs`` (vector), ``side``, ``fulltext``, or ``None``."""
        if checked.entity_vector is not None and self._fits(checked.entity_vector):
            return "theirs"
        if self._side_counts()[0]:
            return "side"
        return "fulltext" if checked.entity_fulltext is not None else None

    def _chunk_route(self, checked: Checked) -> str | None:
        """How chunks are found: as :meth:`_entity_route`."""
        if checked.chunk_vector is not None and self._fits(checked.chunk_vector):
            return "theirs"
        if self._side_counts()[1]:
            return "side"
        return "fulltext" if checked.chunk_fulltext is not None else None

    def seed_entities(
        self, concepts: Sequence[str], vectors: Sequence[list[float]] | None, per_concept: int, total: int
    ) -> list[Seed]:
        """Their entities the concepts name, best first (where from: the module docstring's order)."""
        if not concepts:
            return []
        checked, entity = check(self.store, self.profile), self.profile.entity
        common: dict[str, Any] = {"label": entity.label, "key": entity.key, "name": entity.name,
                                  "per_concept": per_concept, "fetch": max(100, per_concept * OVERFETCH)}  # fmt: skip
        rows = [{"text": c, "query": lucene_query(c), "vector": vectors[i] if vectors else None}
                for i, c in enumerate(concepts)]  # fmt: skip
        route = self._entity_route(checked)
        if route == "theirs" and vectors and checked.entity_vector is not None:
            records = read(self.store, "profile_seeds_vector", index=checked.entity_vector.name, concepts=rows,
                           min_similarity=MIN_SIMILARITY, **common)  # fmt: skip
        elif route == "side":
            records = read(self.store, "profile_seeds_side", workspace=self.workspace, collection=self.collection,
                           name_index=ENTITY_NAME_INDEX, vector_index=ENTITY_VECTOR_INDEX, concepts=rows,
                           min_similarity=MIN_SIMILARITY, **common,
                           )  # fmt: skip
        elif route == "fulltext" and checked.entity_fulltext is not None:
            records = read(
                self.store, "profile_seeds_text", index=checked.entity_fulltext.name, concepts=rows, **common
            )
        else:
            raise self._unsearchable("entities", checked.entity_vector)
        their = {r["element"]: (r["key"], r["name"]) for r in records}
        found = [SeedRow.of(r, "element") for r in records]
        seeds = []
        for row, seed in fuse_seeds(found, per_concept, total):
            iri = self._entity(row.key, *their[row.key])
            seeds.append(replace(seed, uri=iri, name=self.found.names.get(iri)))
        return seeds

    def explore(
        self, seeds: Sequence[str], max_path_length: int, per_entity: int, max_edges: int, words: Sequence[str] = ()
    ) -> list[Edge]:
        """Their relationships within ``max_path_length`` hops of the seeds (as :func:`tgneo.store.kg.explore`)."""
        entity, found = self.profile.entity, self.found
        frontier = [found.elements[s] for s in dict.fromkeys(seeds) if s in found.elements]
        seen = set(frontier)
        edges: dict[str, tuple[QuotedTriple, list[str]]] = {}
        for _ in range(max_path_length):
            if not frontier or len(edges) >= max_edges:
                break
            records = read(
                self.store, "profile_explore_hop", frontier=frontier, label=entity.label, key=entity.key,
                name=entity.name,
                mentions=self.profile.mentions, passage_label=self.profile.passage_label, per_entity=per_entity,
                words=list(words),
            )  # fmt: skip
            reached: list[str] = []
            for r in sorted(records, key=lambda r: r["rel"]):
                if len(edges) >= max_edges:
                    break
                key, triple = self._triple(r)
                edges.setdefault(key, (triple, list(r["passages"])))
                for element in (r["s_element"], r["o_element"]):
                    if element not in seen:
                        seen.add(element)
                        reached.append(element)
            frontier = reached
        return self._edges(edges, words)

    def edge(self, element: str, words: Sequence[str] = ()) -> Edge | None:
        """Their relationship with this element id (a pipeline's retrieved edge), or ``None`` if there is none."""
        entity = self.profile.entity
        records = read(self.store, "profile_relationship", id=element, label=entity.label, key=entity.key,
                       name=entity.name, mentions=self.profile.mentions,
                       passage_label=self.profile.passage_label)  # fmt: skip
        if not records:
            return None
        key, triple = self._triple(records[0])
        return self._edges({key: (triple, list(records[0]["passages"]))}, words)[0]

    def _triple(self, r: Mapping[str, Any]) -> tuple[str, QuotedTriple]:
        """The edge id and triple of one relationship row (``profile_explore_hop``, ``profile_relationship``)."""
        s = self._entity(r["s_element"], r["s_key"], r["s_name"])
        o = self._entity(r["o_element"], r["o_key"], r["o_name"])
        p = type_iri(r["type"])
        self.found.names.setdefault(p, r["type"].lower().replace("_", " "))
        triple = QuotedTriple(URIRef(s), URIRef(p), URIRef(o))
        key = edge_id(triple.s, triple.p, triple.o)
        self.found.triples[key] = triple
        return key, triple

    def _edges(self, edges: Mapping[str, tuple[QuotedTriple, list[str]]], words: Sequence[str]) -> list[Edge]:
        """The edges with their names and evidence sentences (their passages read in one round trip)."""
        found = self.found
        self._read_passages([p for _, passages in edges.values() for p in passages])
        self._name(edges.values())
        out = []
        for key, (triple, passages) in edges.items():
            s_name, o_name = found.names.get(str(triple.s), ""), found.names.get(str(triple.o), "")
            placed = [(p, _sentence(found.passages[p].text, s_name, o_name, words)) for p in passages
                      if p in found.passages]  # fmt: skip
            placed.sort(key=lambda pair: pair[1] is None)
            found.evidence[key] = placed
            evidence = placed[0][1].text if placed and placed[0][1] is not None else None
            out.append(Edge(key, triple, s_name or str(triple.s), found.names[str(triple.p)], o_name or str(triple.o),
                            evidence))  # fmt: skip
        return out

    def search_chunks(
        self,
        concepts: Sequence[str],
        vectors: Sequence[list[float]],
        question: str,
        question_vector: list[float],
        per_concept: int,
    ) -> list[ChunkHit]:
        """Their chunks nearest the concepts, deduplicated, with their similarity to the question."""
        if not vectors:
            return []
        checked, chunk = check(self.store, self.profile, chunks=True), self.profile.chunk
        common: dict[str, Any] = {"label": chunk.label, "key": chunk.key, "text": chunk.text,
                                  "per_concept": per_concept, "fetch": max(100, per_concept * OVERFETCH)}  # fmt: skip
        route = self._chunk_route(checked)
        text = route == "fulltext"
        if route == "theirs" and checked.chunk_vector is not None:
            records = read(self.store, "profile_chunks_vector", index=checked.chunk_vector.name,
                           embedding=chunk.embedding, vectors=list(vectors),
                           question_vector=question_vector, **common)  # fmt: skip
        elif route == "side":
            records = read(self.store, "profile_chunks_side", workspace=self.workspace, collection=self.collection,
                           chunk_index=CHUNK_VECTOR_INDEX, vectors=list(vectors),
                           question_vector=question_vector, **common)  # fmt: skip
        elif text and checked.chunk_fulltext is not None:
            queries = [q for q in (lucene_query(c) for c in concepts) if q.strip()]
            records = read(self.store, "profile_chunks_text", index=checked.chunk_fulltext.name, queries=queries,
                           question=lucene_query(question), **common)  # fmt: skip
        else:
            raise self._unsearchable("chunks", checked.chunk_vector)
        hits = []
        for r in records:
            iri = chunk_iri(self._iri(chunk.label, chunk.key, r["element"], r["key"]))
            self.found.chunks[iri] = r["element"]
            score = float(r["score"])
            hits.append(ChunkHit(iri, r["text"] or "", None if text else score, float(r["rerank"] or 0.0),
                                 score if text else None))  # fmt: skip
        return fuse(hits)

    def chunk(self, element: str) -> str | None:
        """The IRI of their chunk with this element id (a pipeline's retrieved item), or ``None`` if there is none."""
        self._read_passages([element], chunks=True)
        passage = self.found.passages.get(element)
        if passage is None or self.profile.chunk.label not in passage.labels:
            return None
        self.found.chunks[passage.iri] = element
        return passage.iri

    def answer_sources(self, rows: Sequence[EvidenceRow]) -> AnswerSources:
        """Record the source provenance of what an answer selected (module docstring), then read it as tgneo's own."""
        quads, contents = self._sources(rows)
        if quads:
            what = f"recording the sources an answer over graph profile {self.profile.name} read"
            write_batch(self.store, self.workspace, self.collection, compile_quads(quads, contents), what=what)
        return answer_sources(self.store, self.workspace, self.collection, rows)

    # -- inside ------------------------------------------------------------------------------------

    def _iri(self, label: str, key: str | None, element: str, value: object) -> str:
        return node_iri(label, key, value) if key is not None and value is not None else element_iri(element)

    def _entity(self, element: str, key: object, name: object) -> str:
        entity = self.profile.entity
        iri = self._iri(entity.label, entity.key, element, key)
        self.found.elements[iri] = element
        shown = smallest_name(name)
        if shown:
            self.found.names.setdefault(iri, shown)
        return iri

    def _fits(self, index: IndexInfo) -> bool:
        """Whether their vector index can be asked with the configured embedder's vectors."""
        return self.llm.name != "offline" and index.dimensions == self.llm.dimensions

    def _side_counts(self) -> tuple[int, int]:
        if self._side is None:
            record = read(self.store, "profile_side_count", workspace=self.workspace, collection=self.collection)[0]
            self._side = (int(record["entities"]), int(record["chunks"]))
        return self._side

    def _unsearchable(self, what: str, vector: IndexInfo | None) -> Exception:
        name, remedy = (
            self.profile.name,
            (
                f"build tgneo's side index with `tgneo load index --graph {self.profile.name} "
                f"--workspace {self.workspace} --collection {self.collection}`"
            ),
        )
        if vector is not None and vector.dimensions != self.llm.dimensions:
            return EmbeddingMismatch(
                f"graph profile {name!r}: their vector index {vector.name!r} holds {vector.dimensions}-dimensional "
                f"vectors, but the configured embedder ({self.llm.embedding_model}) gives {self.llm.dimensions}: "
                f"configure the model that filled it ({vector.dimensions} dimensions), or {remedy}"
            )
        if vector is not None:
            return EmbeddingMismatch(
                f"graph profile {name!r}: the offline embedder cannot ask their vector index {vector.name!r} (its "
                f"vectors come from their model): configure that model, or {remedy}"
            )
        label = self.profile.entity.label if what == "entities" else self.profile.chunk.label
        return NotIndexed(f"graph profile {name!r}: no index of theirs finds their {what} (:{label}): {remedy}")

    def _name(self, edges: Iterable[tuple[QuotedTriple, list[str]]]) -> None:
        """Record the names of the explored edges' ends and types (``rdfs:label``) on tgneo's nodes for their IRIs,
        before any step quotes them: a client reading an explain event (``tgneo ask -x``, TrustGraph's CLI) looks
        the labels up as soon as it arrives (each question writes only the names it has not written yet)."""
        wanted = {str(term) for triple, _ in edges for term in (triple.s, triple.p, triple.o)}
        fresh = {iri: name for iri, name in self.found.names.items() if iri in wanted and iri not in self._named}
        if not fresh:
            return
        quads = [Quad(URIRef(iri), RDFS.label, Literal(name), DEFAULT_GRAPH) for iri, name in fresh.items()]
        what = f"naming what an answer over graph profile {self.profile.name} explored"
        write_batch(self.store, self.workspace, self.collection, compile_quads(quads), what=what)
        self._named.update(fresh)

    def _read_passages(self, elements: Sequence[str], *, chunks: bool = False) -> None:
        """Read the passages ``elements`` (with ``chunks``: chunks Document RAG retrieved, which for LangChain
        are ``Neo4jVector``'s chunks rather than the source documents its entities are linked to)."""
        wanted = [e for e in dict.fromkeys(elements) if e not in self.found.passages]
        if not wanted:
            return
        profile, chunk, doc = self.profile, self.profile.chunk, self.profile.document
        is_doc = profile.passage == "document" and not chunks
        label, key = (doc.label, doc.name) if is_doc else (chunk.label, chunk.key)
        records = read(
            self.store, "profile_passages", elements=wanted, key=key, text=DOCUMENT_TEXT if is_doc else chunk.text,
            order=None if is_doc else chunk.order, part_of=None if is_doc else chunk.part_of,
            document_label=doc.label, document_name=doc.name, source=None if is_doc else chunk.source,
        )  # fmt: skip
        for r in records:
            own = self._iri(label, key, r["element"], r["key"])
            if r["document_name"] is not None:
                document = node_iri(doc.label, doc.name, r["document_name"])
            else:
                document = element_iri(r["document"]) if r["document"] is not None else own
            title = str(r["document_name"]) if r["document_name"] is not None else None
            self.found.passages[r["element"]] = _Passage(
                r["element"], chunk_iri(own), r["text"] or "", r["position"], document, title, tuple(r["labels"])
            )

    def _sources(self, rows: Sequence[EvidenceRow]) -> tuple[list[Quad], dict[str, str]]:
        """The provenance quads and passage texts behind ``rows`` (module docstring)."""
        found = self.found
        by_chunk = {v: k for k, v in found.chunks.items()}
        self._read_passages([found.chunks[r.chunk] for r in rows if r.chunk in found.chunks], chunks=True)
        contained: dict[str, list[tuple[QuotedTriple, Unit | None]]] = {}
        used: set[str] = set()
        triples = found.triples
        for row in rows:
            if row.chunk is not None and row.chunk in found.chunks:
                used.add(found.chunks[row.chunk])
            if row.statement is not None and row.statement in triples:
                for element, unit in found.evidence.get(row.statement, []):
                    contained.setdefault(element, []).append((triples[row.statement], unit))
                    used.add(element)
        quads: list[Quad] = []
        contents: dict[str, str] = {}
        stamp = f"{self.profile.name}-{__version__}"
        for element in sorted(used):
            passage = found.passages.get(element)
            if passage is None:
                continue
            iri = by_chunk.get(element, passage.iri)
            digest = hashlib.sha1(iri.encode()).hexdigest()
            document = passage.document or iri
            quads += Document(uri=document, title=passage.title or document).triples()
            position = passage.position if isinstance(passage.position, int) and passage.position >= 0 else None
            reader = Activity(component_name=f"{self.profile.name}-lexical-graph", component_version=stamp,
                              uri=uris.activity_uri(f"{digest}-lexical"))  # fmt: skip
            quads += DerivedEntity(uri=iri, parent=document, activity=reader, chunk_index=position, chunk=True,
                                   label=f"{passage.title or 'chunk'} #{position}" if position is not None else None
                                   ).triples()  # fmt: skip
            contents[iri] = passage.text
            if element in contained:
                statements = tuple(dict.fromkeys(t for t, _ in contained[element]))
                evidence: dict[QuotedTriple, Evidence] = {}
                for t, u in contained[element]:
                    if u is not None:
                        evidence.setdefault(t, Evidence(u.text, u.start, u.end - u.start))
                extraction = Activity(component_name=f"{self.profile.name}-extraction", component_version=stamp,
                                      uri=uris.activity_uri(f"{digest}-extraction"))  # fmt: skip
                quads += Subgraph(uri=uris.subgraph_uri(f"neo4j-{digest}"), chunk=iri, activity=extraction,
                                  statements=statements, evidence=tuple(evidence.items())).triples()  # fmt: skip
        return quads, contents


def _sentence(text: str, s_name: str, o_name: str, words: Sequence[str]) -> Unit | None:
    """The sentence of ``text`` naming both ends (else one) and most of ``words``; ``None`` when none names either."""
    best: tuple[int, int, int] | None = None
    chosen = None
    s_low, o_low = s_name.lower(), o_name.lower()
    for unit in units(text):
        if unit.kind == "heading":
            continue
        low = unit.text.lower()
        named = (s_low in low if s_low else False) + (o_low in low if o_low else False)
        if not named:
            continue
        rank = (named, sum(1 for w in words if w in low), -unit.start)
        if best is None or rank > best:
            best, chosen = rank, unit
    return chosen
