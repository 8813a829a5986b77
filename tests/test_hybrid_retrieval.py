"""Hybrid retrieval: Document RAG reads the chunk vector index and the chunk full-text index, GraphRAG the entity
vector and name indexes; each fuses the two rankings by reciprocal rank and records in its Exploration which index
found each chunk or seed entity, at which rank.

The corpus is three pages of SQLite's documentation (the quality bench's second set; no one here wrote them).
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from tgneo.engines import DocRag, GraphRag, Request
from tgneo.explain.events import AnswerChunk, SessionEnd
from tgneo.ingest.loader import load_documents
from tgneo.ingest.sources import discover
from tgneo.llm.offline import OfflineLLM
from tgneo.rdf.ontology import graph_of, validate
from tgneo.store import Store
from tgneo.store.kg import RRF_K, ChunkHit, SeedRow, fuse, fuse_seeds
from tgneo.store.rdf_export import export_quads
from tgneo.store.traces import get_trace
from tgneo.tracetree import render_trace
from tgneo.vocab import TGNEO

W = "w"
PAGES = Path(__file__).resolve().parents[1] / "scripts" / "bench" / "quality" / "sqlite-3.40.1-docs"
QUESTION = "Which pragma turns on foreign key constraint enforcement?"


@pytest.fixture(scope="module")
def sqlite_docs(store: Store) -> str:
    collection = f"test-hybrid-{uuid.uuid4().hex[:8]}"
    found = discover([PAGES / name for name in ("foreignkeys.html", "autoinc.html", "lang_vacuum.html")])
    report = load_documents(store, OfflineLLM(), W, collection, found.sources)
    assert report.loaded == 3 and not report.skipped
    return collection


def traced(engine: type[DocRag | GraphRag], store: Store, collection: str) -> tuple[str, dict[str, Any]]:
    """The trace IRI and the trace of ``engine``'s answer to :data:`QUESTION`."""
    events = list(engine(store, OfflineLLM()).answer(Request(QUESTION, W, collection)))
    end = events[-1]
    assert isinstance(end, SessionEnd) and end.trace
    return end.trace, get_trace(store, W, collection, end.trace)


@pytest.fixture(scope="module")
def answered(store: Store, sqlite_docs: str) -> tuple[str, dict[str, Any]]:
    return traced(DocRag, store, sqlite_docs)


def test_reciprocal_rank_fusion_puts_a_chunk_both_lists_found_above_chunks_one_list_found() -> None:
    hits = [
        ChunkHit("urn:c:vector-first", "", score=0.9, rerank=0.9),
        ChunkHit("urn:c:both", "", score=0.8, rerank=0.8, text_score=3.0),
        ChunkHit("urn:c:text-first", "", score=None, rerank=0.1, text_score=9.0),
    ]
    ranked = fuse(hits)
    assert [h.uri for h in ranked][0] == "urn:c:both"
    both = ranked[0]
    assert (both.vector_rank, both.text_rank) == (2, 2)
    assert both.fused == pytest.approx(2 / (RRF_K + 2))
    assert {h.uri: (h.vector_rank, h.text_rank) for h in ranked[1:]} == {
        "urn:c:vector-first": (1, None), "urn:c:text-first": (None, 1),
    }  # fmt: skip


@pytest.fixture(scope="module")
def graph_answered(store: Store, sqlite_docs: str) -> tuple[str, dict[str, Any]]:
    return traced(GraphRag, store, sqlite_docs)


def test_seed_fusion_puts_an_entity_both_indexes_found_for_a_concept_above_entities_one_found() -> None:
    rows = [
        SeedRow("urn:e:vector-first", "a", "pragma", vector_score=0.95, text_score=None),
        SeedRow("urn:e:both", "b", "pragma", vector_score=0.85, text_score=2.0),
        SeedRow("urn:e:text-first", "c", "pragma", vector_score=None, text_score=9.0),
    ]
    ranked = [seed for _, seed in fuse_seeds(rows, per_concept=3, total=3)]
    assert ranked[0].uri == "urn:e:both"
    assert (ranked[0].vector_rank, ranked[0].text_rank) == (2, 2)
    assert ranked[0].fused == pytest.approx(2 / (RRF_K + 2))
    assert {s.uri: (s.vector_rank, s.text_rank) for s in ranked[1:]} == {
        "urn:e:vector-first": (1, None), "urn:e:text-first": (None, 1),
    }  # fmt: skip


def test_seed_fusion_keeps_per_concept_best_and_an_entity_once_at_its_best_concepts_ranks() -> None:
    rows = [
        SeedRow("urn:e:shared", "s", "alpha", vector_score=None, text_score=1.0),
        SeedRow("urn:e:alpha-best", "a", "alpha", vector_score=None, text_score=5.0),
        SeedRow("urn:e:alpha-third", "x", "alpha", vector_score=None, text_score=0.5),
        SeedRow("urn:e:shared", "s", "beta", vector_score=0.9, text_score=4.0),
    ]
    ranked = {seed.uri: seed for _, seed in fuse_seeds(rows, per_concept=2, total=10)}
    assert set(ranked) == {"urn:e:shared", "urn:e:alpha-best"}  # alpha kept two; its third is cut
    shared = ranked["urn:e:shared"]
    assert (shared.concept, shared.vector_rank, shared.text_rank) == ("beta", 1, 1)
    assert [s.uri for _, s in fuse_seeds(rows, per_concept=2, total=1)] == ["urn:e:shared"]


def test_graphrag_exploration_records_which_index_found_each_seed_entity(
    graph_answered: tuple[str, dict[str, Any]],
) -> None:
    _, trace = graph_answered
    exploration = next(s for s in trace["steps"] if s["type"] == "Exploration")
    hits = exploration["hits"]
    assert hits, "GraphRAG found no seed entity for a question its documents answer"
    assert [h["rank"] for h in hits] == list(range(1, len(hits) + 1))
    assert {h["item"] for h in hits} == {e["uri"] for e in exploration["entities"]}
    assert all(h["vector_rank"] is not None or h["text_rank"] is not None for h in hits)
    assert [h["fused"] for h in hits] == sorted((h["fused"] for h in hits), reverse=True)


def test_graphrag_retrieval_hits_pass_the_shapes_and_leave_only_in_the_prov_profile(
    store: Store, sqlite_docs: str, graph_answered: tuple[str, dict[str, Any]]
) -> None:
    uri, _ = graph_answered
    prov = export_quads(store, W, sqlite_docs, uri, "prov")
    assert sum(q.o == TGNEO.RetrievalHit for q in prov) >= 1
    conforms, _, report = validate(graph_of(prov))
    assert conforms, report
    trustgraph = export_quads(store, W, sqlite_docs, uri, "trustgraph")
    assert not any(str(term).startswith(str(TGNEO)) for q in trustgraph for term in (q.s, q.p, q.o))


def test_the_exploration_records_which_index_found_each_chunk_and_the_focus_reads_them_in_fused_order(
    answered: tuple[str, dict[str, Any]],
) -> None:
    _, trace = answered
    steps = {s["type"]: s for s in trace["steps"]}
    hits = steps["Exploration"]["hits"]
    assert [h["rank"] for h in hits] == list(range(1, len(hits) + 1))
    assert len(hits) == steps["Exploration"]["properties"]["chunkCount"]
    assert all(h["vector_rank"] is not None or h["text_rank"] is not None for h in hits)
    assert any(h["vector_rank"] is not None and h["text_rank"] is not None for h in hits)  # both lists contributed
    assert [h["fused"] for h in hits] == sorted((h["fused"] for h in hits), reverse=True)
    focus = [c["chunk"]["uri"] for c in sorted(steps["Focus"]["chunks"], key=lambda c: c["selection"])]
    assert set(focus) == {h["item"] for h in hits[: len(focus)]}


def test_the_answer_names_the_pragma_the_documentation_gives(store: Store, sqlite_docs: str) -> None:
    events = list(DocRag(store, OfflineLLM()).answer(Request(QUESTION, W, sqlite_docs)))
    answer = "".join(e.text for e in events if isinstance(e, AnswerChunk))
    assert "foreign_keys" in answer


def test_retrieval_hits_pass_the_shapes_and_leave_only_in_the_prov_profile(
    store: Store, sqlite_docs: str, answered: tuple[str, dict[str, Any]]
) -> None:
    uri, _ = answered
    prov = export_quads(store, W, sqlite_docs, uri, "prov")
    assert any(q.o == TGNEO.RetrievalHit for q in prov)
    conforms, _, report = validate(graph_of(prov))
    assert conforms, report
    trustgraph = export_quads(store, W, sqlite_docs, uri, "trustgraph")
    assert not any(str(term).startswith(str(TGNEO)) for q in trustgraph for term in (q.s, q.p, q.o))


def test_trace_show_says_which_index_found_each_chunk(answered: tuple[str, dict[str, Any]]) -> None:
    _, trace = answered
    console = Console(width=200, record=True)
    console.print(render_trace(trace))
    shown = console.export_text()
    assert "vector rank / full-text rank → fused" in shown
    assert "full text #1 (" in shown and "vector #1 (" in shown


def test_trace_show_names_each_seed_entity_graphrag_found_and_which_index_found_it(
    graph_answered: tuple[str, dict[str, Any]],
) -> None:
    _, trace = graph_answered
    exploration = next(s for s in trace["steps"] if s["type"] == "Exploration")
    best = exploration["hits"][0]
    name = next(e["label"] for e in exploration["entities"] if e["uri"] == best["item"])
    console = Console(width=250, record=True)
    console.print(render_trace(trace))
    shown = console.export_text()
    assert "seed entity(ies): vector rank / full-text rank → fused" in shown
    assert f"#1 {name} <{best['item']}>" in shown
