"""tgneo.explain.entities: every step renders exactly TrustGraph 2.11.1's triples (pure, no database).

The heart of this file is one table: for each entity, the same step built by TrustGraph's own
provenance builder. ``test_triples_are_exactly_trustgraphs`` compares the two as ordered lists of
quads, after converting TrustGraph's ``Triple``/``Term`` objects into tgneo's term model.
"""

from __future__ import annotations

import dataclasses
import json
import re
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
import trustgraph.provenance as tgp
from rdflib import BNode, Literal, URIRef
from rdflib.namespace import XSD
from trustgraph.schema import Term, Triple

from tgneo import uris
from tgneo.errors import InvalidEntity
from tgneo.explain import entities as ent
from tgneo.explain.entities import (
    ENTITY_TYPES,
    TGNEO_ONLY,
    Activity,
    AgentQuestion,
    AgentSynthesis,
    Analysis,
    ChunkSelection,
    Conclusion,
    Decomposition,
    DerivedEntity,
    DocRagExploration,
    DocRagFocus,
    DocRagQuestion,
    DocRagSynthesis,
    Document,
    EdgeSelection,
    Entity,
    Exploration,
    Finding,
    Focus,
    GraphRagQuestion,
    Grounding,
    Observation,
    PatternDecision,
    Plan,
    StepResult,
    Subgraph,
    Synthesis,
    Thought,
    entity_from_dict,
)
from tgneo.rdf.ntriples import edge_id
from tgneo.rdf.terms import Quad, QuotedTriple
from tgneo.vocab import GRAPH_RETRIEVAL, GRAPH_SOURCE, PROV, RDF, RDFS, TG

SID = "0d5f3c1e-9a7b-4e2f-8c6d-1b2a3c4d5e6f"
TS = "2025-06-01T10:15:30.123456Z"
ACTIVITY_UUID = uuid.UUID("11111111-2222-4333-8444-555555555555")
ACT = uris.activity_uri(str(ACTIVITY_UUID))

E = "http://trustgraph.ai/e/"
CURIE, RADIUM, DISCOVERED, BORN = (URIRef(E + n) for n in ("marie-curie", "radium", "discovered", "born"))
EDGE_IRI = QuotedTriple(CURIE, DISCOVERED, RADIUM)
EDGE_TYPED = QuotedTriple(CURIE, BORN, Literal("1867", datatype=XSD.gYear))
EDGE_LANG = QuotedTriple(CURIE, RDFS.label, Literal("Marie Curie", lang="en"))
EDGE_PLAIN = QuotedTriple(CURIE, URIRef(E + "motto"), Literal("Nothing in life is to be feared"))
EDGE_NESTED = QuotedTriple(EDGE_IRI, URIRef(E + "reportedBy"), URIRef(E + "nobel-committee"))
EDGE_BNODE = QuotedTriple(BNode("award1"), URIRef(E + "recipient"), CURIE)

Q, G, X, F, S = (
    uris.question_uri(SID),
    uris.grounding_uri(SID),
    uris.exploration_uri(SID),
    uris.focus_uri(SID),
    uris.synthesis_uri(SID),
)
DQ, DG, DX, DF, DS = (
    uris.docrag_question_uri(SID),
    uris.docrag_grounding_uri(SID),
    uris.docrag_exploration_uri(SID),
    uris.docrag_focus_uri(SID),
    uris.docrag_synthesis_uri(SID),
)
AQ = uris.agent_session_uri(SID)
I1, I2 = uris.agent_iteration_uri(SID, 1), uris.agent_iteration_uri(SID, 2)
TH1 = uris.agent_thought_uri(SID, 1)
OB1 = uris.agent_observation_uri(SID, 1)
DOC = "https://trustgraph.ai/doc/curie-biography"
PAGE = uris.page_uri("p1")
CHUNK = uris.chunk_uri("c1")
CHUNKS = (uris.chunk_uri("c1"), uris.chunk_uri("c2"))
LONG_GOAL = "Establish, from primary sources only, which elements Marie Curie discovered and when"


# --- TrustGraph's terms ↔ tgneo's terms


def to_tg(term: object) -> Term:
    """A tgneo term as TrustGraph's ``Term`` (the inputs we hand to its builders)."""
    if isinstance(term, QuotedTriple):
        return Term(type="t", triple=Triple(s=to_tg(term.s), p=to_tg(term.p), o=to_tg(term.o)))
    if isinstance(term, URIRef):
        return Term(type="i", iri=str(term))
    if isinstance(term, BNode):
        return Term(type="b", id=str(term))
    if isinstance(term, Literal):
        return Term(
            type="l",
            value=str(term),
            datatype=str(term.datatype) if term.datatype else "",
            language=term.language or "",
        )
    raise TypeError(term)


def from_tg(term: Term) -> Any:
    """TrustGraph's ``Term`` as a tgneo term: 'i' IRI, 'l' literal, 'b' blank node, 't' quoted triple."""
    if term.type == "i":
        return URIRef(term.iri)
    if term.type == "l":
        return Literal(
            term.value, datatype=URIRef(term.datatype) if term.datatype else None, lang=term.language or None
        )
    if term.type == "b":
        return BNode(term.id)
    if term.type == "t":
        assert term.triple is not None
        return QuotedTriple(from_tg(term.triple.s), from_tg(term.triple.p), from_tg(term.triple.o))
    raise ValueError(term.type)


def tg_quads(triples: list[Triple], graph: str) -> list[Quad]:
    """TrustGraph's builder output, put in ``graph`` by its own ``set_graph``, as tgneo quads."""
    return [Quad(from_tg(t.s), from_tg(t.p), from_tg(t.o), t.g) for t in tgp.set_graph(triples, graph)]


def tg_edge(selection: EdgeSelection) -> dict[str, Any]:
    """An EdgeSelection as the dict ``focus_triples`` takes, with the edge's original Terms."""
    e = selection.edge
    return {
        "edge": (to_tg(e.s), to_tg(e.p), to_tg(e.o)),
        "concept": selection.concept,
        "score": selection.score,
        "reasoning": selection.reasoning or "",
    }


def activity(name: str = "chunker", version: str = "2.11.1") -> Activity:
    return Activity(component_name=name, component_version=version, uri=ACT, timestamp=TS)


# --- the table: our entity, and TrustGraph's builder called with the same inputs

FULL_EDGES = (
    EdgeSelection(EDGE_IRI, concept="discoveries", score=0.93, reasoning="names the element"),
    EdgeSelection(EDGE_TYPED, concept="birth", score=0.0),
    EdgeSelection(EDGE_LANG, score=1),
    EdgeSelection(EDGE_PLAIN, reasoning="quotes her"),
    EdgeSelection(EDGE_NESTED, concept="", reasoning=""),
    EdgeSelection(EDGE_BNODE, score=-2.5),
)
ANALYSIS_ARGS = {"question": "Who discovered radium?", "limit": 5, "filters": {"lang": "fr", "é": [1, 2.5, None]}}

CASES = [
    # GraphRAG
    pytest.param(
        GraphRagQuestion(uri=Q, query="Who discovered radium?", timestamp=TS),
        lambda: tgp.question_triples(Q, "Who discovered radium?", timestamp=TS),
        id="question",
    ),
    pytest.param(
        GraphRagQuestion(uri=Q, query="Who discovered radium?", timestamp=TS, parent=I1),
        lambda: tgp.question_triples(Q, "Who discovered radium?", timestamp=TS, parent_uri=I1),
        id="question-sub-trace-of-an-agent-step",
    ),
    pytest.param(
        Grounding(uri=G, question=Q, concepts=("radium", "discovery")),
        lambda: tgp.grounding_triples(G, Q, ["radium", "discovery"]),
        id="grounding",
    ),
    pytest.param(
        Grounding(uri=G, question=Q, concepts=("radium",), in_token=120, out_token=0, model="gpt-4o-mini"),
        lambda: tgp.grounding_triples(G, Q, ["radium"], in_token=120, out_token=0, model="gpt-4o-mini"),
        id="grounding-with-tokens",
    ),
    pytest.param(
        Grounding(uri=G, question=Q, in_token=7),
        lambda: tgp.grounding_triples(G, Q, [], in_token=7),
        id="grounding-no-concepts-only-in-token",
    ),
    pytest.param(
        Exploration(uri=X, grounding=G, edge_count=42, entities=(str(CURIE), str(RADIUM))),
        lambda: tgp.exploration_triples(X, G, 42, entities=[str(CURIE), str(RADIUM)]),
        id="exploration",
    ),
    pytest.param(
        Exploration(uri=X, grounding=G, edge_count=0),
        lambda: tgp.exploration_triples(X, G, 0),
        id="exploration-nothing-found",
    ),
    pytest.param(
        Focus(uri=F, exploration=X, session_id=SID, edges=(EdgeSelection(EDGE_IRI),)),
        lambda: tgp.focus_triples(F, X, [{"edge": (to_tg(CURIE), to_tg(DISCOVERED), to_tg(RADIUM))}], SID),
        id="focus-bare-edge",
    ),
    pytest.param(
        Focus(uri=F, exploration=X, session_id=SID, edges=FULL_EDGES, in_token=900, out_token=60, model="m"),
        lambda: tgp.focus_triples(F, X, [tg_edge(e) for e in FULL_EDGES], SID, in_token=900, out_token=60, model="m"),
        id="focus-typed-tagged-nested-blank-edges-with-metadata-and-tokens",
    ),
    pytest.param(
        Focus(uri=F, exploration=X, session_id=SID),
        lambda: tgp.focus_triples(F, X, [], SID),
        id="focus-no-edges",
    ),
    pytest.param(
        Synthesis(uri=S, focus=F),
        lambda: tgp.synthesis_triples(S, F),
        id="synthesis",
    ),
    pytest.param(
        Synthesis(uri=S, focus=F, document=uris.graphrag_answer_uri(SID), in_token=1500, out_token=210, model="m"),
        lambda: tgp.synthesis_triples(
            S, F, document_id=uris.graphrag_answer_uri(SID), in_token=1500, out_token=210, model="m"
        ),
        id="synthesis-with-answer-and-tokens",
    ),
    # Document RAG
    pytest.param(
        DocRagQuestion(uri=DQ, query="What did Curie win?", timestamp=TS),
        lambda: tgp.docrag_question_triples(DQ, "What did Curie win?", timestamp=TS),
        id="docrag-question",
    ),
    pytest.param(
        DocRagQuestion(uri=DQ, query="What did Curie win?", timestamp=TS, parent=I2),
        lambda: tgp.docrag_question_triples(DQ, "What did Curie win?", timestamp=TS, parent_uri=I2),
        id="docrag-question-sub-trace",
    ),
    pytest.param(
        Grounding(uri=DG, question=DQ, concepts=("nobel prize",), in_token=50, out_token=5),
        lambda: tgp.grounding_triples(DG, DQ, ["nobel prize"], in_token=50, out_token=5),
        id="docrag-grounding",
    ),
    pytest.param(
        DocRagExploration(uri=DX, grounding=DG, chunk_count=2, chunk_ids=CHUNKS),
        lambda: tgp.docrag_exploration_triples(DX, DG, 2, chunk_ids=list(CHUNKS)),
        id="docrag-exploration",
    ),
    pytest.param(
        DocRagExploration(uri=DX, grounding=DG, chunk_count=0),
        lambda: tgp.docrag_exploration_triples(DX, DG, 0),
        id="docrag-exploration-no-chunks",
    ),
    pytest.param(
        DocRagFocus(
            uri=DF,
            exploration=DX,
            session_id=SID,
            chunks=(ChunkSelection(CHUNKS[0], 0.97), ChunkSelection(CHUNKS[1])),
        ),
        lambda: tgp.docrag_chunk_selection_triples(
            DF, DX, [{"chunk_id": CHUNKS[0], "score": 0.97}, {"chunk_id": CHUNKS[1], "score": None}], SID
        ),
        id="docrag-focus",
    ),
    pytest.param(
        DocRagSynthesis(uri=DS, exploration=DX),
        lambda: tgp.docrag_synthesis_triples(DS, DX),
        id="docrag-synthesis",
    ),
    pytest.param(
        DocRagSynthesis(uri=DS, exploration=DX, document=uris.docrag_answer_uri(SID), in_token=3, model="m"),
        lambda: tgp.docrag_synthesis_triples(DS, DX, document_id=uris.docrag_answer_uri(SID), in_token=3, model="m"),
        id="docrag-synthesis-with-answer-and-tokens",
    ),
    # agent
    pytest.param(
        AgentQuestion(uri=AQ, query="Compare Curie and Meitner", timestamp=TS),
        lambda: tgp.agent_session_triples(AQ, "Compare Curie and Meitner", timestamp=TS),
        id="agent-question",
    ),
    pytest.param(
        AgentQuestion(uri=AQ, query="Curie", timestamp=TS, parent=uris.agent_decomposition_uri("parent-sid")),
        lambda: tgp.agent_session_triples(
            AQ, "Curie", timestamp=TS, parent_uri=uris.agent_decomposition_uri("parent-sid")
        ),
        id="agent-question-sub-agent",
    ),
    pytest.param(
        PatternDecision(uri=uris.agent_pattern_decision_uri(SID), session=AQ, pattern="react"),
        lambda: tgp.agent_pattern_decision_triples(uris.agent_pattern_decision_uri(SID), AQ, "react"),
        id="pattern-decision",
    ),
    pytest.param(
        PatternDecision(
            uri=uris.agent_pattern_decision_uri(SID), session=AQ, pattern="supervisor", task_type="research"
        ),
        lambda: tgp.agent_pattern_decision_triples(uris.agent_pattern_decision_uri(SID), AQ, "supervisor", "research"),
        id="pattern-decision-with-task-type",
    ),
    pytest.param(
        Analysis(uri=I1, question=AQ, action="knowledge-query"),
        lambda: tgp.agent_iteration_triples(I1, question_uri=AQ, action="knowledge-query"),
        id="analysis-first-iteration-minimal",
    ),
    pytest.param(
        Analysis(
            uri=I1,
            question=AQ,
            action="knowledge-query",
            arguments=ANALYSIS_ARGS,
            thought=Thought(TH1, document=TH1),
            tool_candidates=("knowledge-query", "calculator"),
            step_number=1,
            llm_duration_ms=812,
            in_token=400,
            out_token=35,
            model="m",
        ),
        lambda: tgp.agent_iteration_triples(
            I1,
            question_uri=AQ,
            action="knowledge-query",
            arguments=ANALYSIS_ARGS,
            thought_uri=TH1,
            thought_document_id=TH1,
            tool_candidates=["knowledge-query", "calculator"],
            step_number=1,
            llm_duration_ms=812,
            in_token=400,
            out_token=35,
            model="m",
        ),
        id="analysis-with-thought-document-candidates-timing-and-tokens",
    ),
    pytest.param(
        Analysis(uri=I2, previous=I1, action="calculator", arguments={"expr": "1+1"}, thought=Thought(TH1)),
        lambda: tgp.agent_iteration_triples(
            I2, previous_uri=I1, action="calculator", arguments={"expr": "1+1"}, thought_uri=TH1
        ),
        id="analysis-later-iteration-thought-without-document",
    ),
    pytest.param(
        Observation(uri=OB1, parent=I1),
        lambda: tgp.agent_observation_triples(OB1, I1),
        id="observation",
    ),
    pytest.param(
        Observation(uri=OB1, parent=I1, document=OB1, tool_duration_ms=35),
        lambda: tgp.agent_observation_triples(OB1, I1, document_id=OB1, tool_duration_ms=35),
        id="observation-with-document-and-duration",
    ),
    pytest.param(
        Observation(uri=OB1, parent=S, tool_duration_ms=0, tool_error="timeout after 30s"),
        lambda: tgp.agent_observation_triples(OB1, S, tool_duration_ms=0, tool_error="timeout after 30s"),
        id="observation-failed-tool-is-an-error",
    ),
    pytest.param(
        Conclusion(uri=uris.agent_final_uri(SID), question=AQ),
        lambda: tgp.agent_final_triples(uris.agent_final_uri(SID), question_uri=AQ),
        id="conclusion-without-iterations",
    ),
    pytest.param(
        Conclusion(
            uri=uris.agent_final_uri(SID),
            previous=I2,
            document=uris.agent_answer_uri(SID),
            termination_reason="final-answer",
            in_token=10,
            out_token=20,
            model="m",
        ),
        lambda: tgp.agent_final_triples(
            uris.agent_final_uri(SID),
            previous_uri=I2,
            document_id=uris.agent_answer_uri(SID),
            termination_reason="final-answer",
            in_token=10,
            out_token=20,
            model="m",
        ),
        id="conclusion-after-iterations-with-answer-reason-and-tokens",
    ),
    pytest.param(
        Plan(uri=uris.agent_plan_uri(SID), session=AQ, steps=("find Curie", "find Meitner", "compare")),
        lambda: tgp.agent_plan_triples(uris.agent_plan_uri(SID), AQ, ["find Curie", "find Meitner", "compare"]),
        id="plan",
    ),
    pytest.param(
        Plan(uri=uris.agent_plan_uri(SID), session=AQ, steps=("one",), in_token=1, out_token=2, model="m"),
        lambda: tgp.agent_plan_triples(uris.agent_plan_uri(SID), AQ, ["one"], in_token=1, out_token=2, model="m"),
        id="plan-with-tokens",
    ),
    pytest.param(
        StepResult(uri=uris.agent_step_result_uri(SID, 0), plan=uris.agent_plan_uri(SID), goal="find Curie"),
        lambda: tgp.agent_step_result_triples(
            uris.agent_step_result_uri(SID, 0), uris.agent_plan_uri(SID), "find Curie"
        ),
        id="step-result",
    ),
    pytest.param(
        StepResult(
            uri=uris.agent_step_result_uri(SID, 1),
            plan=uris.agent_plan_uri(SID),
            goal=LONG_GOAL,
            document=uris.agent_step_result_uri(SID, 1),
            in_token=5,
            model="m",
        ),
        lambda: tgp.agent_step_result_triples(
            uris.agent_step_result_uri(SID, 1),
            uris.agent_plan_uri(SID),
            LONG_GOAL,
            document_id=uris.agent_step_result_uri(SID, 1),
            in_token=5,
            model="m",
        ),
        id="step-result-long-goal-label-cut-at-60",
    ),
    pytest.param(
        AgentSynthesis(uri=uris.agent_synthesis_uri(SID), previous=(uris.agent_step_result_uri(SID, 0),)),
        lambda: tgp.agent_synthesis_triples(uris.agent_synthesis_uri(SID), uris.agent_step_result_uri(SID, 0)),
        id="agent-synthesis-from-one-step",
    ),
    pytest.param(
        AgentSynthesis(
            uri=uris.agent_synthesis_uri(SID),
            previous=(uris.agent_finding_uri(SID, 0), uris.agent_finding_uri(SID, 1)),
            document=uris.agent_answer_uri(SID),
            termination_reason="final-answer",
            in_token=1,
            out_token=2,
            model="m",
        ),
        lambda: tgp.agent_synthesis_triples(
            uris.agent_synthesis_uri(SID),
            [uris.agent_finding_uri(SID, 0), uris.agent_finding_uri(SID, 1)],
            document_id=uris.agent_answer_uri(SID),
            termination_reason="final-answer",
            in_token=1,
            out_token=2,
            model="m",
        ),
        id="agent-synthesis-from-several-findings",
    ),
    pytest.param(
        Decomposition(uri=uris.agent_decomposition_uri(SID), session=AQ, goals=("Curie's work", "Meitner's work")),
        lambda: tgp.agent_decomposition_triples(
            uris.agent_decomposition_uri(SID), AQ, ["Curie's work", "Meitner's work"]
        ),
        id="decomposition",
    ),
    pytest.param(
        Decomposition(uri=uris.agent_decomposition_uri(SID), session=AQ, goals=("a",), out_token=9, model="m"),
        lambda: tgp.agent_decomposition_triples(uris.agent_decomposition_uri(SID), AQ, ["a"], out_token=9, model="m"),
        id="decomposition-with-tokens",
    ),
    pytest.param(
        Finding(
            uri=uris.agent_finding_uri(SID, 0), decomposition=uris.agent_decomposition_uri(SID), goal="Curie's work"
        ),
        lambda: tgp.agent_finding_triples(
            uris.agent_finding_uri(SID, 0), uris.agent_decomposition_uri(SID), "Curie's work"
        ),
        id="finding",
    ),
    pytest.param(
        Finding(
            uri=uris.agent_finding_uri(SID, 1),
            decomposition=uris.agent_decomposition_uri(SID),
            goal=LONG_GOAL,
            document=uris.agent_finding_uri(SID, 1),
        ),
        lambda: tgp.agent_finding_triples(
            uris.agent_finding_uri(SID, 1),
            uris.agent_decomposition_uri(SID),
            LONG_GOAL,
            document_id=uris.agent_finding_uri(SID, 1),
        ),
        id="finding-long-goal-with-document",
    ),
    # extraction time
    pytest.param(Document(uri=DOC), lambda: tgp.document_triples(DOC), id="document-bare"),
    pytest.param(
        Document(
            uri=DOC,
            title="Marie Curie: a biography",
            source="https://example.org/curie.pdf",
            date="1938-01-01",
            creator="Ève Curie",
            page_count=412,
            mime_type="application/pdf",
        ),
        lambda: tgp.document_triples(
            DOC,
            title="Marie Curie: a biography",
            source="https://example.org/curie.pdf",
            date="1938-01-01",
            creator="Ève Curie",
            page_count=412,
            mime_type="application/pdf",
        ),
        id="document-full",
    ),
    pytest.param(
        DerivedEntity(uri=PAGE, parent=DOC, activity=activity("pdf-decoder"), page_number=1),
        lambda: tgp.derived_entity_triples(PAGE, DOC, "pdf-decoder", "2.11.1", page_number=1, timestamp=TS),
        id="derived-page",
    ),
    pytest.param(
        DerivedEntity(
            uri=PAGE,
            parent=DOC,
            activity=activity("universal decoder"),
            label="Page 3",
            page_number=3,
            char_offset=0,
            char_length=5120,
            mime_type="application/pdf",
            element_types="NarrativeText,Table",
            table_count=1,
            image_count=0,
        ),
        lambda: tgp.derived_entity_triples(
            PAGE,
            DOC,
            "universal decoder",
            "2.11.1",
            label="Page 3",
            page_number=3,
            char_offset=0,
            char_length=5120,
            mime_type="application/pdf",
            element_types="NarrativeText,Table",
            table_count=1,
            image_count=0,
            timestamp=TS,
        ),
        id="derived-page-with-decoder-metadata",
    ),
    pytest.param(
        DerivedEntity(
            uri=uris.section_uri("s1"), parent=DOC, activity=activity("decoder"), section=True, label="Intro"
        ),
        lambda: tgp.derived_entity_triples(
            uris.section_uri("s1"), DOC, "decoder", "2.11.1", section=True, label="Intro", timestamp=TS
        ),
        id="derived-section",
    ),
    pytest.param(
        DerivedEntity(
            uri=CHUNK,
            parent=PAGE,
            activity=activity(),
            chunk_index=0,
            char_offset=120,
            char_length=1000,
            chunk_size=1000,
            chunk_overlap=50,
        ),
        lambda: tgp.derived_entity_triples(
            CHUNK,
            PAGE,
            "chunker",
            "2.11.1",
            chunk_index=0,
            char_offset=120,
            char_length=1000,
            chunk_size=1000,
            chunk_overlap=50,
            timestamp=TS,
        ),
        id="derived-chunk-with-chunker-settings",
    ),
    pytest.param(
        DerivedEntity(uri=uris.image_uri("i1"), parent=PAGE, activity=activity("decoder"), image=True, page_number=3),
        lambda: tgp.derived_entity_triples(
            uris.image_uri("i1"), PAGE, "decoder", "2.11.1", image=True, page_number=3, timestamp=TS
        ),
        id="derived-image-wins-over-page",
    ),
    pytest.param(
        DerivedEntity(uri=uris.page_uri("x"), parent=DOC, activity=activity("decoder")),
        lambda: tgp.derived_entity_triples(uris.page_uri("x"), DOC, "decoder", "2.11.1", timestamp=TS),
        id="derived-untyped",
    ),
    pytest.param(
        Subgraph(uri=uris.subgraph_uri("sg1"), chunk=CHUNK, activity=activity("kg-extractor")),
        lambda: tgp.subgraph_provenance_triples(
            uris.subgraph_uri("sg1"), [], CHUNK, "kg-extractor", "2.11.1", timestamp=TS
        ),
        id="subgraph-empty",
    ),
    pytest.param(
        Subgraph(
            uri=uris.subgraph_uri("sg1"),
            chunk=CHUNK,
            activity=activity("kg-extractor"),
            statements=(EDGE_IRI, EDGE_TYPED, EDGE_LANG, EDGE_PLAIN, EDGE_NESTED, EDGE_BNODE),
            llm_model="gpt-4o-mini",
            ontology="https://example.org/ontology/science",
        ),
        lambda: tgp.subgraph_provenance_triples(
            uris.subgraph_uri("sg1"),
            [to_tg(e).triple for e in (EDGE_IRI, EDGE_TYPED, EDGE_LANG, EDGE_PLAIN, EDGE_NESTED, EDGE_BNODE)],
            CHUNK,
            "kg-extractor",
            "2.11.1",
            llm_model="gpt-4o-mini",
            ontology_uri="https://example.org/ontology/science",
            timestamp=TS,
        ),
        id="subgraph-with-statements-model-and-ontology",
    ),
]

EXTRACTION_KINDS = {"document", "derived_entity", "subgraph"}


def case_entities() -> Iterator[Entity]:
    for case in CASES:
        entity = case.values[0]
        assert isinstance(entity, Entity)
        yield entity


ENTITIES = [pytest.param(case.values[0], id=case.id) for case in CASES]


@pytest.fixture
def seeded_uuid(monkeypatch: pytest.MonkeyPatch) -> None:
    """TrustGraph mints extraction activity URIs inside its builders; make it mint ``ACT``."""
    monkeypatch.setattr(uuid, "uuid4", lambda: ACTIVITY_UUID)


# --- equivalence with TrustGraph


@pytest.mark.usefixtures("seeded_uuid")
@pytest.mark.parametrize(("entity", "builder"), CASES)
def test_triples_are_exactly_trustgraphs(entity: Entity, builder: Callable[[], list[Triple]]) -> None:
    assert entity.triples() == tg_quads(builder(), entity.graph)


def test_every_entity_type_is_compared_with_trustgraph() -> None:
    """Every kind but tgneo's own (which TrustGraph has no builder for, and only the prov profile exports)."""
    assert {e.kind for e in case_entities()} == set(ENTITY_TYPES) - TGNEO_ONLY


@pytest.mark.parametrize("entity", ENTITIES)
def test_query_time_steps_go_to_retrieval_and_extraction_to_source(entity: Entity) -> None:
    expected = GRAPH_SOURCE if entity.kind in EXTRACTION_KINDS else GRAPH_RETRIEVAL
    assert entity.graph == expected
    assert {quad.g for quad in entity.triples()} == {expected}


@pytest.mark.parametrize("entity", ENTITIES)
def test_parents_are_the_entitys_was_derived_from_links(entity: Entity) -> None:
    links = tuple(str(q.o) for q in entity.triples() if q.s == URIRef(entity.uri) and q.p == PROV.wasDerivedFrom)
    assert entity.parents == links


@pytest.mark.parametrize("entity", ENTITIES)
def test_every_asserted_literal_is_plain(entity: Entity) -> None:
    literals = [q.o for q in entity.triples() if isinstance(q.o, Literal)]
    assert all(lit.datatype is None and lit.language is None for lit in literals)


@pytest.mark.parametrize("entity", ENTITIES)
def test_entities_are_hashable_values(entity: Entity) -> None:
    assert hash(entity) == hash(dataclasses.replace(entity))
    assert entity == dataclasses.replace(entity)


def test_entities_are_frozen() -> None:
    grounding = Grounding(uri=G, question=Q)
    with pytest.raises(dataclasses.FrozenInstanceError):
        grounding.question = X  # type: ignore[misc]


# --- specific behaviours


def test_edge_selection_uris_are_numbered_from_zero_in_order() -> None:
    focus = Focus(uri=F, exploration=X, session_id=SID, edges=(EdgeSelection(EDGE_IRI), EdgeSelection(EDGE_LANG)))
    assert focus.selection_uris == (uris.edge_selection_uri(SID, 0), uris.edge_selection_uri(SID, 1))


def test_chunk_selection_uris_are_numbered_from_zero_in_order() -> None:
    focus = DocRagFocus(uri=DF, exploration=DX, session_id=SID, chunks=tuple(ChunkSelection(c) for c in CHUNKS))
    assert focus.selection_uris == (uris.chunk_selection_uri(SID, 0), uris.chunk_selection_uri(SID, 1))


def test_an_edge_selection_knows_its_statements_id() -> None:
    selection = EdgeSelection(EDGE_TYPED)
    assert selection.edge_id == edge_id(EDGE_TYPED.s, EDGE_TYPED.p, EDGE_TYPED.o)


def test_the_selected_edge_is_a_quoted_triple_keeping_its_literal_datatype() -> None:
    focus = Focus(uri=F, exploration=X, session_id=SID, edges=(EdgeSelection(EDGE_TYPED),))
    (edge,) = [q.o for q in focus.triples() if q.p == TG.edge]
    assert edge == EDGE_TYPED


def test_docrag_synthesis_derives_from_the_exploration_not_the_focus() -> None:
    assert DocRagSynthesis(uri=DS, exploration=DX).parents == (DX,)


def _types(entity: Entity) -> set[object]:
    return {q.o for q in entity.triples() if q.s == URIRef(entity.uri) and q.p == RDF.type}


def test_a_failed_tool_call_makes_the_observation_an_error() -> None:
    assert TG.Error in _types(Observation(uri=OB1, parent=I1, tool_error="boom"))
    assert TG.Error not in _types(Observation(uri=OB1, parent=I1))


def test_analysis_arguments_are_json_in_their_given_key_order() -> None:
    analysis = Analysis(uri=I1, question=AQ, action="t", arguments={"b": 1, "a": [True, None]})
    (arguments,) = [q.o for q in analysis.triples() if q.p == TG.arguments]
    assert str(arguments) == '{"b": 1, "a": [true, null]}'


def test_analysis_keeps_its_own_copy_of_the_arguments() -> None:
    arguments: dict[str, Any] = {"q": "radium"}
    analysis = Analysis(uri=I1, question=AQ, action="t", arguments=arguments)
    arguments["q"] = "changed"
    assert analysis.arguments == {"q": "radium"}


def test_agent_synthesis_accepts_a_single_previous_uri_as_trustgraph_does() -> None:
    assert AgentSynthesis(uri=uris.agent_synthesis_uri(SID), previous=I1).previous == (I1,)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("flags", "expected"),
    [
        ({"image": True, "section": True, "page_number": 1, "chunk_index": 0}, TG.Image),
        ({"section": True, "page_number": 1, "chunk_index": 0}, TG.Section),
        ({"page_number": 1, "chunk_index": 0}, TG.Page),
        ({"chunk_index": 0}, TG.Chunk),
        ({}, None),
    ],
)
def test_derived_entity_type_follows_trustgraphs_precedence(flags: dict[str, Any], expected: URIRef | None) -> None:
    assert DerivedEntity(uri=PAGE, parent=DOC, activity=activity(), **flags).entity_type == expected


def test_an_activity_names_its_software_agent() -> None:
    assert activity("pdf decoder").agent.uri == "https://trustgraph.ai/agent/pdf%20decoder"


def test_an_activity_mints_a_fresh_uri_by_default() -> None:
    first = Activity(component_name="chunker", component_version="1")
    second = Activity(component_name="chunker", component_version="1")
    assert first.uri != second.uri
    assert first.uri.startswith("https://trustgraph.ai/activity/")


def test_lists_are_accepted_and_kept_as_tuples() -> None:
    grounding = Grounding(uri=G, question=Q, concepts=["radium", "polonium"])  # type: ignore[arg-type]
    assert grounding.concepts == ("radium", "polonium")


def test_uriref_fields_are_kept_as_plain_strings() -> None:
    grounding = Grounding(uri=URIRef(G), question=URIRef(Q))
    assert type(grounding.uri) is str
    assert type(grounding.question) is str


@pytest.mark.parametrize("empty", ["", None])
def test_empty_optional_text_is_absent_as_in_trustgraph(empty: str | None) -> None:
    assert EdgeSelection(EDGE_IRI, concept=empty, reasoning=empty) == EdgeSelection(EDGE_IRI)
    assert Observation(uri=OB1, parent=I1, tool_error=empty).tool_error is None


# --- timestamps


TRUSTGRAPH_TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?Z")


@pytest.mark.parametrize("cls", [GraphRagQuestion, DocRagQuestion, AgentQuestion])
def test_a_question_is_stamped_now_in_trustgraphs_format(cls: type[GraphRagQuestion]) -> None:
    before = datetime.now(UTC)
    question = cls(uri=Q, query="q")
    after = datetime.now(UTC)
    assert TRUSTGRAPH_TIMESTAMP.fullmatch(question.timestamp)
    assert before <= datetime.fromisoformat(question.timestamp) <= after


def test_the_default_timestamp_has_the_shape_trustgraph_writes() -> None:
    (theirs,) = [t.o.value for t in tgp.question_triples(Q, "q") if t.p.iri.endswith("startedAtTime")]
    ours = GraphRagQuestion(uri=Q, query="q").timestamp
    assert TRUSTGRAPH_TIMESTAMP.fullmatch(theirs)
    assert len(ours) == len(theirs)


def test_an_activity_is_stamped_now_in_trustgraphs_format() -> None:
    assert TRUSTGRAPH_TIMESTAMP.fullmatch(Activity(component_name="c", component_version="1").timestamp)


@pytest.mark.parametrize(
    ("given", "stored"),
    [
        (TS, TS),
        ("2025-06-01T12:15:30.123456+02:00", TS),
        ("2025-06-01T10:15:30+00:00", "2025-06-01T10:15:30Z"),
    ],
)
def test_explicit_timestamps_are_stored_in_trustgraphs_utc_form(given: str, stored: str) -> None:
    assert GraphRagQuestion(uri=Q, query="q", timestamp=given).timestamp == stored


# --- bad input


def _bad(cls: type, **fields: Any) -> Callable[[], object]:
    return lambda: cls(**fields)


A = activity()
INVALID = [
    pytest.param(_bad(GraphRagQuestion, uri="", query="q"), "GraphRagQuestion.uri: empty IRI", id="empty-uri"),
    pytest.param(
        _bad(GraphRagQuestion, uri="urn:a b", query="q"), "GraphRagQuestion.uri: 'urn:a b'", id="space-in-uri"
    ),
    pytest.param(_bad(GraphRagQuestion, uri="question-1", query="q"), "needs a 'scheme:'", id="uri-without-scheme"),
    pytest.param(
        _bad(GraphRagQuestion, uri=Q, query="  "), "GraphRagQuestion.query: must not be empty", id="blank-query"
    ),
    pytest.param(_bad(AgentQuestion, uri=AQ, query=None), "AgentQuestion.query: expected a string", id="no-query"),
    pytest.param(
        _bad(DocRagQuestion, uri=DQ, query="q", parent=""), "DocRagQuestion.parent: empty IRI", id="empty-parent"
    ),
    pytest.param(
        _bad(GraphRagQuestion, uri=Q, query="q", timestamp="2025-06-01T10:15:30"),
        "GraphRagQuestion.timestamp: '2025-06-01T10:15:30' has no time zone",
        id="naive-timestamp",
    ),
    pytest.param(
        _bad(GraphRagQuestion, uri=Q, query="q", timestamp="yesterday"),
        "GraphRagQuestion.timestamp: 'yesterday' is not an ISO 8601 timestamp",
        id="garbage-timestamp",
    ),
    pytest.param(_bad(Grounding, uri=G, question="not an iri"), "Grounding.question", id="broken-parent"),
    pytest.param(
        _bad(Grounding, uri=G, question=Q, in_token=-1), "Grounding.in_token: must not be negative", id="neg-in"
    ),
    pytest.param(
        _bad(Grounding, uri=G, question=Q, out_token="12"),
        "Grounding.out_token: expected a non-negative integer",
        id="string-out-token",
    ),
    pytest.param(_bad(Grounding, uri=G, question=Q, in_token=True), "Grounding.in_token", id="bool-token"),
    pytest.param(_bad(Grounding, uri=G, question=Q, model=""), "Grounding.model: must not be empty", id="empty-model"),
    pytest.param(
        _bad(Grounding, uri=G, question=Q, concepts=("a", "")),
        "Grounding.concepts[1]: must not be empty",
        id="empty-concept",
    ),
    pytest.param(
        _bad(Grounding, uri=G, question=Q, concepts="radium"),
        "Grounding.concepts: expected a list or tuple, got str",
        id="concepts-as-one-string",
    ),
    pytest.param(_bad(Exploration, uri=X, grounding=G, edge_count=-3), "Exploration.edge_count", id="neg-edge-count"),
    pytest.param(
        _bad(Exploration, uri=X, grounding=G, edge_count=1, entities=("http://ok", "not ok")),
        "Exploration.entities[1]",
        id="broken-seed-entity",
    ),
    pytest.param(_bad(Focus, uri=F, exploration=X, session_id=""), "Focus.session_id", id="empty-session-id"),
    pytest.param(
        _bad(Focus, uri=F, exploration=X, session_id=SID, edges=(EDGE_IRI,)),
        "Focus.edges[0]: expected an EdgeSelection",
        id="bare-triple-as-selection",
    ),
    pytest.param(_bad(EdgeSelection, edge=(CURIE, DISCOVERED, RADIUM)), "EdgeSelection.edge", id="tuple-edge"),
    pytest.param(_bad(EdgeSelection, edge=EDGE_IRI, score=float("nan")), "EdgeSelection.score", id="nan-score"),
    pytest.param(_bad(ChunkSelection, chunk_id=""), "ChunkSelection.chunk_id: empty IRI", id="empty-chunk-id"),
    pytest.param(_bad(ChunkSelection, chunk_id=CHUNK, score="high"), "ChunkSelection.score", id="text-score"),
    pytest.param(
        _bad(DocRagExploration, uri=DX, grounding=DG, chunk_count=1, chunk_ids=("chunk 1",)),
        "DocRagExploration.chunk_ids[0]",
        id="broken-chunk-id",
    ),
    pytest.param(_bad(Synthesis, uri=S, focus=F, document=""), "Synthesis.document: empty IRI", id="empty-document"),
    pytest.param(
        _bad(PatternDecision, uri=AQ + "/p", session=AQ, pattern=""), "PatternDecision.pattern", id="no-pattern"
    ),
    pytest.param(_bad(Analysis, uri=I1, action="t"), "give exactly one of 'question'", id="analysis-orphan"),
    pytest.param(
        _bad(Analysis, uri=I2, question=AQ, previous=I1, action="t"),
        "Analysis: give exactly one of 'question'",
        id="analysis-two-parents",
    ),
    pytest.param(
        _bad(Analysis, uri=I1, question=AQ, action="t", arguments={"x": object()}),
        "Analysis.arguments: not JSON-serialisable",
        id="unserialisable-arguments",
    ),
    pytest.param(
        _bad(Analysis, uri=I1, question=AQ, action="t", arguments=["x"]),
        "Analysis.arguments: expected a mapping",
        id="list-arguments",
    ),
    pytest.param(
        _bad(Analysis, uri=I1, question=AQ, action="t", step_number=-1), "Analysis.step_number", id="neg-step"
    ),
    pytest.param(_bad(Analysis, uri=I1, question=AQ, action="t", thought=TH1), "Analysis.thought", id="thought-as-str"),
    pytest.param(_bad(Thought, uri="thought"), "Thought.uri", id="broken-thought-uri"),
    pytest.param(
        _bad(Observation, uri=OB1, parent=I1, tool_duration_ms=-5),
        "Observation.tool_duration_ms: must not be negative",
        id="neg-tool-duration",
    ),
    pytest.param(_bad(Conclusion, uri=AQ + "/final"), "Conclusion: give exactly one", id="conclusion-orphan"),
    pytest.param(_bad(StepResult, uri=AQ + "/step/0", plan=AQ + "/plan", goal=" "), "StepResult.goal", id="blank-goal"),
    pytest.param(_bad(AgentSynthesis, uri=AQ + "/synthesis", previous=()), "needs at least one", id="synthesis-orphan"),
    pytest.param(
        _bad(Finding, uri=AQ + "/finding/0", decomposition="", goal="g"), "Finding.decomposition", id="no-decomp"
    ),
    pytest.param(_bad(Document, uri=DOC, source="curie.pdf"), "Document.source", id="relative-source"),
    pytest.param(_bad(Document, uri=DOC, page_count=-1), "Document.page_count", id="neg-page-count"),
    pytest.param(
        _bad(DerivedEntity, uri=PAGE, parent=DOC, activity=A, page_number=-1),
        "DerivedEntity.page_number",
        id="neg-page-number",
    ),
    pytest.param(
        _bad(DerivedEntity, uri=PAGE, parent=DOC, activity="chunker"),
        "DerivedEntity.activity: expected an Activity",
        id="activity-as-str",
    ),
    pytest.param(
        _bad(DerivedEntity, uri=PAGE, parent=DOC, activity=A, section="yes"),
        "DerivedEntity.section: expected True or False",
        id="truthy-section",
    ),
    pytest.param(
        _bad(Activity, component_name="chunker", component_version=""),
        "Activity.component_version: must not be empty",
        id="no-version",
    ),
    pytest.param(
        _bad(Activity, component_name="c", component_version="1", uri="act"), "Activity.uri", id="bad-act-uri"
    ),
    pytest.param(
        _bad(Subgraph, uri=uris.subgraph_uri("x"), chunk=CHUNK, activity=A, statements=[(CURIE, BORN, RADIUM)]),
        "Subgraph.statements[0]: expected a QuotedTriple",
        id="tuple-statement",
    ),
    pytest.param(
        _bad(Subgraph, uri=uris.subgraph_uri("x"), chunk=CHUNK, activity=A, ontology="science"),
        "Subgraph.ontology",
        id="relative-ontology",
    ),
]


@pytest.mark.parametrize(("build", "message"), INVALID)
def test_invalid_input_is_refused_naming_the_field(build: Callable[[], object], message: str) -> None:
    with pytest.raises(InvalidEntity) as caught:
        build()
    assert message in str(caught.value)


@pytest.mark.parametrize(
    ("cls", "fields"),
    [(Entity, {"uri": Q}), (ent.LlmStep, {"uri": Q}), (ent.Question, {"uri": Q, "query": "q"})],
)
def test_abstract_bases_cannot_be_built(cls: type, fields: dict[str, str]) -> None:
    with pytest.raises(TypeError, match="abstract"):
        cls(**fields)


# --- registry


def _concrete_entity_classes(cls: type[Entity] = Entity) -> set[type[Entity]]:
    found: set[type[Entity]] = set()
    for sub in cls.__subclasses__():
        if hasattr(sub, "kind"):
            found.add(sub)
        found |= _concrete_entity_classes(sub)
    return found


def test_every_concrete_entity_is_registered_under_its_own_kind() -> None:
    assert {cls.kind: cls for cls in _concrete_entity_classes()} == ENTITY_TYPES
    assert all(kind == cls.kind for kind, cls in ENTITY_TYPES.items())


def test_entity_from_dict_builds_the_registered_type() -> None:
    built = entity_from_dict("grounding", uri=G, question=Q, concepts=["radium"], in_token=3)
    assert built == Grounding(uri=G, question=Q, concepts=("radium",), in_token=3)


def test_entity_from_dict_round_trips_json_payloads() -> None:
    payload = json.loads(json.dumps({"uri": I1, "question": AQ, "action": "t", "arguments": {"a": 1}}))
    assert entity_from_dict("analysis", **payload) == Analysis(uri=I1, question=AQ, action="t", arguments={"a": 1})


def test_entity_from_dict_refuses_an_unknown_kind() -> None:
    with pytest.raises(InvalidEntity, match=r"^unknown entity type 'x'$"):
        entity_from_dict("x", uri=Q)


def test_entity_from_dict_refuses_an_unknown_field() -> None:
    with pytest.raises(InvalidEntity, match=r"^grounding: unknown field 'colour'"):
        entity_from_dict("grounding", uri=G, question=Q, colour="red")


def test_entity_from_dict_refuses_a_missing_field() -> None:
    with pytest.raises(InvalidEntity, match=r"^grounding: missing field 'question'$"):
        entity_from_dict("grounding", uri=G)


def test_entity_from_dict_validates_values() -> None:
    with pytest.raises(InvalidEntity, match="Exploration.edge_count"):
        entity_from_dict("exploration", uri=X, grounding=G, edge_count=-1)
