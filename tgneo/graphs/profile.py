"""Answering over a knowledge graph another tool wrote, through a graph profile (:mod:`tgneo.graph_profiles`).

:class:`ProfileGraph` is the engines' reader (:class:`~tgneo.graphs.reader.GraphReader`) over their graph. It
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

Finding where to start, with no model of theirs (module :mod:`tgneo.graph_profiles` names the indexes, and which
of them may be missing):

1. their vector index, when it exists and the configured embedder is a real model of the index's dimensions
   (the offline embedder's hashed vectors can never be what filled their index);
2. else tgneo's side index (``tgneo load index --graph``): tgneo-owned entries in tgneo's own indexes,
   each pointing at one of their nodes by element id, and trusted only where the node still is the one the
   entry was made from (its key, else the digest of its text: :func:`tgneo.store.foreign.made_from`); an entry
   whose id Neo4j gave to another node after a delete is left out, with a warning to build the index again;
3. else their full-text index;
4. else a full scan of at most :data:`SCAN_LIMIT` nodes of their label, matching names (or chunk texts) word
   by word (``profile_seeds_scan``, ``profile_chunks_scan``).

A question never fails for want of an optional index. A *required* vector index that is missing follows one
rule, the same for every engine and checked before anything is recorded (:meth:`ProfileGraph.require_content`):
tgneo's side index stands in for it when it holds entries of that kind (entities, chunks) in the question's
workspace and collection, with a warning; else the question is refused (:class:`~tgneo.errors.ProfileError`, a
400) naming the index and the remedy, ``tgneo load index --graph PROFILE``.

Every fallback warns, on every question: route 3 or 4, and route 2 whenever it stands in for a vector index of
theirs (missing, or not one the configured embedder can ask). One warning per question and per kind names the
route taken, why, and the remedy; it is logged (logger ``tgneo.graphs``: ``tgneo serve``'s log, ``tgneo load
index``'s stderr) and kept for the engine (:meth:`ProfileGraph.take_warnings`), which streams it as a
:class:`~tgneo.explain.events.WarningEvent`, so every road — ``tgneo ask``, the Python API, HTTP, the gateway
socket — carries it to its client. The trace keeps it as its retrieval hits do: a hit of route 3 or 4 is a
full-text hit (``tgneo:textRank``/``textScore``, no vector rank), of route 1 or 2 a vector hit.

Which edge an extracted fact came from: their writers record which chunks an *entity* was extracted
from (``FROM_CHUNK``, ``HAS_ENTITY``, ``MENTIONS``), not which chunk a *relationship* came from. tgneo
takes the passages that mention both ends of a relationship (else its subject), and in them the
sentence that names both ends and most of the question's words as the evidence.
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rdflib.term import Literal, URIRef

from tgneo import uris
from tgneo.explain.extraction_time import Activity, DerivedEntity, Document, Evidence, Subgraph
from tgneo.graph_profiles import (
    DOCUMENT_TEXT,
    GraphProfile,
    ProfileError,
    chunk_iri,
    element_iri,
    node_iri,
    source_iri,
    type_iri,
)
from tgneo.graphmodel.compiler import compile_quads
from tgneo.graphs.reader import Reads
from tgneo.llm.base import LLM
from tgneo.nlp.segment import Unit, units
from tgneo.nlp.words import STOPWORDS
from tgneo.rdf.ntriples import edge_id
from tgneo.rdf.terms import DEFAULT_GRAPH, Quad, QuotedTriple
from tgneo.scope import check_scope
from tgneo.store.driver import Store
from tgneo.store.foreign import Checked, IndexInfo, check, made_from, read
from tgneo.store.kg import (
    MIN_SIMILARITY,
    OVERFETCH,
    AnswerSources,
    ChunkHit,
    Edge,
    EvidenceRow,
    Seed,
    SeedRow,
    answer_sources,
    fuse,
    fuse_seeds,
)
from tgneo.store.schema import CHUNK_VECTOR_INDEX, ENTITY_NAME_INDEX, ENTITY_VECTOR_INDEX
from tgneo.store.search import lucene_query, smallest_name
from tgneo.store.write_path import write_batch
from tgneo.version import __version__
from tgneo.vocab import RDFS

__all__ = ["SCAN_LIMIT", "STREAMED", "ProfileGraph"]

log = logging.getLogger("tgneo.graphs")

STREAMED = "tgneo_streamed"
"""The attribute of a log record whose warning a question's stream carries too (:meth:`ProfileGraph.take_warnings`)."""

SCAN_LIMIT = 100_000
"""The most nodes of their label a full scan (the last route, module docstring) reads per question."""

Route = str
"""How their entities or chunks are found: ``theirs`` (their vector index), ``side``, ``fulltext`` or ``scan``."""


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
        self._warned: set[str] = set()
        self._said: list[str] = []

    # -- what the engines call ---------------------------------------------------------------------

    def require_content(self, reads: Reads = "any") -> None:
        """Refuse a question before anything is recorded when the profile does not fit the database (a label, type,
        property or required full-text index it names is missing). A missing optional index is no refusal: the
        routes of the module docstring always end in a bounded full scan.

        A missing *required* vector index (their entities' or, when the database has chunks of the profile's
        label, their chunks') is one rule for every engine, whatever it reads — GraphRAG, Document RAG and the
        agent answer, or refuse, alike: tgneo's side index stands in for it when it holds entries of that kind
        here (and a warning says so, now and on every question), else the question is refused.

        Raises:
            ProfileError: the first name the database lacks; or a missing required vector index with no side
                index to stand in for it, named with the remedy (``tgneo load index --graph …``).
        """
        checked = check(self.store, self.profile, chunks=reads == "chunks")
        for line in checked.unbuilt:
            field, _, name = line.partition(" ")
            what = "entities" if field.startswith("entity.") else "chunks"
            if not self._side_counts()[1 if what == "chunks" else 0]:
                shown = ", ".join(checked.vector_indexes) or "none"
                raise ProfileError(
                    f"graph profile {self.profile.name!r}: {field} names the vector index {name}, which does not "
                    f"exist in the database (vector indexes there: {shown}), and no side index of tgneo's stands in "
                    f"for it in workspace {self.workspace!r}, collection {self.collection!r}; build one (their "
                    f"{what} are then found by it): tgneo load index --graph {self.profile.graph_arg} --workspace "
                    f"{self.workspace} --collection {self.collection}"
                )  # fmt: skip
            self._warn(what, "side", checked)

    def take_warnings(self) -> list[str]:
        """The warnings said since the last call (each fallback of the module docstring, once per question and
        kind), for the engine to stream; each was logged on ``tgneo.graphs`` as it was said."""
        said, self._said = self._said, []
        return said

    def _entity_route(self, checked: Checked) -> Route:
        """How entities are found (module docstring), said once per question when it is a fallback."""
        if checked.entity_vector is not None and self._fits(checked.entity_vector):
            return "theirs"
        route = "side" if self._side_counts()[0] else "fulltext" if checked.entity_fulltext is not None else "scan"
        self._warn("entities", route, checked)
        return route

    def _chunk_route(self, checked: Checked) -> Route:
        """How chunks are found: as :meth:`_entity_route`."""
        if checked.chunk_vector is not None and self._fits(checked.chunk_vector):
            return "theirs"
        route = "side" if self._side_counts()[1] else "fulltext" if checked.chunk_fulltext is not None else "scan"
        self._warn("chunks", route, checked)
        return route

    def seed_entities(
        self, concepts: Sequence[str], vectors: Sequence[list[float]] | None, per_concept: int, total: int
    ) -> list[Seed]:
        """Their entities the concepts name, best first (where from: the module docstring's order)."""
        if not concepts:
            return []
        checked, entity = check(self.store, self.profile), self.profile.entity
        common: dict[str, Any] = {"label": entity.label, "key": entity.key, "name": entity.name,
                                  "exclude": list(self.profile.exclude_labels), "per_concept": per_concept}  # fmt: skip
        fetch = max(100, per_concept * OVERFETCH)
        rows = [{"text": c, "query": lucene_query(c), "vector": vectors[i] if vectors else None}
                for i, c in enumerate(concepts)]  # fmt: skip
        route = self._entity_route(checked)
        if route == "theirs" and not vectors:
            route = "fulltext" if checked.entity_fulltext is not None else "scan"
        if route == "theirs" and checked.entity_vector is not None:
            records = read(self.store, "profile_seeds_vector", index=checked.entity_vector.name, concepts=rows,
                           min_similarity=MIN_SIMILARITY, fetch=fetch, **common)  # fmt: skip
        elif route == "side":
            records = self._made_from("entities", read(
                self.store, "profile_seeds_side", workspace=self.workspace, collection=self.collection,
                name_index=ENTITY_NAME_INDEX, vector_index=ENTITY_VECTOR_INDEX, concepts=rows,
                min_similarity=MIN_SIMILARITY, fetch=fetch, **common,
            ))  # fmt: skip
        elif route == "fulltext" and checked.entity_fulltext is not None:
            records = read(self.store, "profile_seeds_text", index=checked.entity_fulltext.name, concepts=rows,
                           fetch=fetch, **common)  # fmt: skip
        else:
            scanned = [{"text": c, "words": w} for c in concepts if (w := _words(c))]
            records = read(self.store, "profile_seeds_scan", concepts=scanned, scan=SCAN_LIMIT, **common)
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
                name=entity.name, exclude=list(self.profile.exclude_labels),
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
        text = route in ("fulltext", "scan")
        if route == "theirs" and checked.chunk_vector is not None:
            records = read(self.store, "profile_chunks_vector", index=checked.chunk_vector.name,
                           embedding=chunk.embedding, vectors=list(vectors),
                           question_vector=question_vector, **common)  # fmt: skip
        elif route == "side":
            records = self._made_from("chunks", read(
                self.store, "profile_chunks_side", workspace=self.workspace, collection=self.collection,
                chunk_index=CHUNK_VECTOR_INDEX, vectors=list(vectors), question_vector=question_vector, **common,
            ))  # fmt: skip
        elif text and checked.chunk_fulltext is not None:
            queries = [q for q in (lucene_query(c) for c in concepts) if q.strip()]
            records = read(self.store, "profile_chunks_text", index=checked.chunk_fulltext.name, queries=queries,
                           question=lucene_query(question), **common)  # fmt: skip
        else:
            scanned = [{"text": c, "words": w} for c in concepts if (w := _words(c))]
            records = read(self.store, "profile_chunks_scan", label=chunk.label, key=chunk.key, text=chunk.text,
                           concepts=scanned, question_words=_words(question), per_concept=per_concept,
                           scan=SCAN_LIMIT)  # fmt: skip
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

    def _made_from(self, what: str, records: list[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
        """The side index hits that resolved to the node their entry was made from (module docstring, route 2).

        The others point, by an element id Neo4j gave again after a delete, at a node the entry was not made
        from; they are left out (never resolved to that node), and a warning, once per question and kind, says
        how many and how to rebuild the entries.
        """
        kept = [r for r in records if made_from(r)]
        left_out = len(records) - len(kept)
        if left_out and f"reused {what}" not in self._warned:
            self._warned.add(f"reused {what}")
            self._say(
                f"graph profile {self.profile.name!r}: {left_out} side index "
                f"{'entry' if left_out == 1 else 'entries'} for their {what} left out: their element ids now name "
                "other nodes than the ones the entries were made from (Neo4j gives a deleted node's id to a new node, "
                "as when a graph is rebuilt); build the side index again: tgneo load index --graph "
                f"{self.profile.graph_arg} --workspace {self.workspace} --collection {self.collection}"
            )
        return kept

    def _say(self, warning: str) -> None:
        """Log a warning and keep it for the engine's stream (:meth:`take_warnings`); the record says that a stream
        carries it (``tgneo_streamed``), so ``tgneo ask``, which prints the stream's warnings, does not print the
        log's too."""
        log.warning("%s", warning, extra={STREAMED: True})
        self._said.append(warning)

    def _warn(self, what: str, route: Route, checked: Checked) -> None:
        """Say, once per question and kind, which fallback route finds their ``what`` and why (module docstring):
        always for their full-text index and the full scan; for the side index whenever it stands in for a vector
        index of theirs (missing, or one the configured embedder cannot ask), not where they have none at all."""
        vector = checked.entity_vector if what == "entities" else checked.chunk_vector
        absent = checked.absent(f"{'entity' if what == 'entities' else 'chunk'}.vector_index")
        if what in self._warned or (route == "side" and absent is None and vector is None):
            return
        self._warned.add(what)
        profile = self.profile
        label = profile.entity.label if what == "entities" else profile.chunk.label
        why = [self._vector_reason(vector, absent, label)]
        if route in ("fulltext", "scan"):
            why.append(f"no side index in workspace {self.workspace!r}, collection {self.collection!r}")
        if route == "scan":
            fulltext = checked.absent(f"{'entity' if what == 'entities' else 'chunk'}.fulltext_index")
            why.append(f"their full-text index {fulltext} does not exist" if fulltext else
                       f"no full-text index of theirs is on :{label}")  # fmt: skip
        index = checked.entity_fulltext if what == "entities" else checked.chunk_fulltext
        used = {
            "side": "tgneo's side index",
            "fulltext": f"their full-text index {index.name if index else ''!r}",
            "scan": f"a full scan of at most {SCAN_LIMIT} :{label} nodes matching the question's words",
        }[route]
        if route != "side":
            remedy = (f"; for search by meaning, build tgneo's side index: tgneo load index --graph "
                      f"{profile.graph_arg} --workspace {self.workspace} --collection {self.collection}")  # fmt: skip
        elif vector is not None:
            remedy = (f"; to search their index {vector.name!r} itself, configure the embedding model that filled it "
                      "(TGNEO_EMBEDDING_PROVIDER, TGNEO_EMBEDDING_MODEL)")  # fmt: skip
        else:
            remedy = ""
        self._say(f"graph profile {profile.name!r}: their {what} (:{label}) are found by {used} ({'; '.join(why)})"
                  f"{remedy}")  # fmt: skip

    def _vector_reason(self, vector: IndexInfo | None, absent: str | None, label: str) -> str:
        """Why their vector index is not the route: missing, absent by default, or not askable by this embedder."""
        if absent is not None:
            return f"their vector index {absent} does not exist"
        if vector is None:
            return f"no vector index of theirs is on :{label}"
        if vector.dimensions != self.llm.dimensions:
            return (f"their vector index {vector.name!r} holds {vector.dimensions}-dimensional vectors, but the "
                    f"configured embedder ({self.llm.embedding_model}) gives {self.llm.dimensions}")  # fmt: skip
        return f"the offline embedder cannot ask their vector index {vector.name!r} (its vectors come from their model)"

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
        label, key = (doc.label, doc.key or doc.name) if is_doc else (chunk.label, chunk.key)
        records = read(
            self.store, "profile_passages", elements=wanted, key=key, text=DOCUMENT_TEXT if is_doc else chunk.text,
            order=None if is_doc else chunk.order, part_of=None if is_doc else chunk.part_of,
            document_label=doc.label, document_names=list(doc.naming), document_key=doc.key,
            document_text=DOCUMENT_TEXT, source=None if is_doc else chunk.source,
        )  # fmt: skip
        for r in records:
            own = self._iri(label, key, r["element"], r["key"])
            document, title = self._document(r, own)
            self.found.passages[r["element"]] = _Passage(
                r["element"], chunk_iri(own), r["text"] or "", r["position"], document, title, tuple(r["labels"])
            )

    def _document(self, r: Mapping[str, Any], own: str) -> tuple[str, str | None]:
        """The IRI and title of a passage's document (:mod:`tgneo.graph_profiles`, "Document names"): by the first
        naming property it holds; else by its key (titled by the key a user gave, or by its text's first line when
        the key is an md5 LangChain made up); a chunk whose ``source`` names no document of theirs by
        :func:`~tgneo.graph_profiles.source_iri`; a passage that is no document's, by itself."""
        doc = self.profile.document
        if r["document"] is not None:
            if r["named_by"] is not None:
                return node_iri(doc.label, r["named_by"], r["document_name"]), str(r["document_name"])
            first = next((line.strip() for line in (r["document_text"] or "").splitlines() if line.strip()), None)
            title = first[:80] if first else None
            if doc.key is not None and r["document_key"] is not None:
                key = str(r["document_key"])
                shown = title if _MD5.fullmatch(key) else key  # an md5 LangChain made up means nothing to a reader
                return node_iri(doc.label, doc.key, r["document_key"]), shown
            return element_iri(r["document"]), title
        if r["source"] is not None:
            return source_iri(r["source"]), str(r["source"])
        return own, None

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


_WORD = re.compile(r"[^\W_]+")
_MD5 = re.compile(r"[0-9a-f]{32}")
"""The ``id`` LangChain's ``add_graph_documents`` gives a source document that has none: the md5 of its text."""


def _words(text: str) -> list[str]:
    """The lower-case words of ``text`` a full scan matches, each once: no stopword (``of`` would match inside
    every ``offline``), two letters or more, or a number."""
    found = (w for w in _WORD.findall(text.lower()) if (len(w) > 1 or w.isdigit()) and w not in STOPWORDS)
    return list(dict.fromkeys(found))


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
