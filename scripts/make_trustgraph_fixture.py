#!/usr/bin/env python3
"""Write tests/data/trustgraph_sessions.nq: RDF produced by TrustGraph 2.11.1's OWN provenance builders.

The file holds extraction provenance for one document (document → page → chunk → subgraph with
``tg:contains << … >>``), the knowledge graph and vocabulary labels (default graph), and one session
of each kind — GraphRAG, DocRAG, ReAct (with a GraphRAG sub-trace under an iteration and a failed
tool call), plan-then-execute and supervisor — all built by ``trustgraph.provenance`` (a dev
dependency) with fixed ids and timestamps, then serialised as N-Quads-star. It is the input of the
import → export round-trip test: tgneo must give back exactly these quads.

    .venv/bin/python scripts/make_trustgraph_fixture.py        # rewrites the file
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any
from unittest import mock

import trustgraph.provenance as tg
from rdflib.term import BNode, Literal, URIRef
from trustgraph.schema import Term, Triple

from tgneo.rdf.star import serialize
from tgneo.rdf.terms import Quad, QuotedTriple
from tgneo.vocab import SKOS

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "trustgraph_sessions.nq"
TS = "2025-06-01T10:15:30.123456Z"
EX = "http://example.org/"
DOC = "https://trustgraph.ai/doc/curie-bio"


def iri(value: str) -> Term:
    return Term(type="i", iri=value)


def lit(value: str, datatype: str = "", language: str = "") -> Term:
    return Term(type="l", value=value, datatype=datatype, language=language)


def fact(s: str, p: str, o: Term) -> Triple:
    return Triple(s=iri(s), p=iri(p), o=o)


def term(t: Term) -> Any:
    if t.type == "i":
        return URIRef(t.iri)
    if t.type == "l":
        return Literal(t.value, datatype=URIRef(t.datatype) if t.datatype else None, lang=t.language or None)
    if t.type == "b":
        return BNode(t.id)
    if t.type == "t":
        return QuotedTriple(term(t.triple.s), term(t.triple.p), term(t.triple.o))
    raise ValueError(f"unknown term type {t.type!r}")


def quads(triples: list[Triple], graph: str) -> list[Quad]:
    return [Quad(term(t.s), term(t.p), term(t.o), graph) for t in triples]


FACTS = [
    fact(EX + "marie-curie", EX + "discovered", iri(EX + "radium")),
    fact(EX + "marie-curie", EX + "discovered", iri(EX + "polonium")),
    fact(EX + "marie-curie", str(SKOS.definition), lit("Physicist and chemist", language="en")),
    fact(EX + "marie-curie", EX + "born", lit("1867", datatype="http://www.w3.org/2001/XMLSchema#gYear")),
    fact(EX + "marie-curie", EX + "bornIn", iri(EX + "warsaw")),
]
LABELS = [
    fact(EX + "marie-curie", tg.RDFS_LABEL, lit("Marie Curie")),
    fact(EX + "radium", tg.RDFS_LABEL, lit("Radium")),
    fact(EX + "polonium", tg.RDFS_LABEL, lit("Polonium")),
    fact(EX + "discovered", tg.RDFS_LABEL, lit("discovered")),
    fact(EX + "warsaw", tg.RDFS_LABEL, lit("Warsaw")),
]


def extraction() -> list[Quad]:
    page, chunk, sg = "urn:page:p1", "urn:chunk:c1", "https://trustgraph.ai/subgraph/sg1"
    with mock.patch("trustgraph.provenance.uris.uuid.uuid4", side_effect=[f"act-{i}" for i in range(10)]):
        out = tg.document_triples(DOC, title="Marie Curie, a biography", source="https://example.org/curie.pdf",
                                  date="2025-05-01", creator="Eve Curie", page_count=1,
                                  mime_type="application/pdf")  # fmt: skip
        out += tg.derived_entity_triples(page, DOC, "pdf-decoder", "2.11.1", page_number=1, mime_type="text/plain",
                                         char_offset=0, char_length=120, timestamp=TS)  # fmt: skip
        out += tg.derived_entity_triples(chunk, page, "chunker", "2.11.1", chunk_index=0, char_offset=0,
                                         char_length=120, chunk_size=1000, chunk_overlap=50, timestamp=TS)  # fmt: skip
        out += tg.subgraph_provenance_triples(sg, FACTS, chunk, "kg-extractor", "2.11.1", llm_model="mock-llm",
                                              ontology_uri="https://example.org/ontology", timestamp=TS)  # fmt: skip
    return quads(out, tg.GRAPH_SOURCE)


def graphrag(sid: str, parent: str | None = None) -> list[Triple]:
    q, g, x, f, s = (tg.question_uri(sid), tg.grounding_uri(sid), tg.exploration_uri(sid), tg.focus_uri(sid),
                     tg.synthesis_uri(sid))  # fmt: skip
    edges = [
        {"edge": (FACTS[0].s, FACTS[0].p, FACTS[0].o), "concept": "discoveries", "score": 0.93,
         "reasoning": "names a discovery"},
        {"edge": (FACTS[2].s, FACTS[2].p, FACTS[2].o), "concept": "marie curie", "score": 0.71},
    ]  # fmt: skip
    return [
        *tg.question_triples(q, "What did Marie Curie discover?", TS, parent_uri=parent),
        *tg.grounding_triples(g, q, ["marie curie", "discoveries"], 12, 5, "mock-llm"),
        *tg.exploration_triples(x, g, 2, [EX + "marie-curie"]),
        *tg.focus_triples(f, x, edges, sid, 40, 9, "mock-llm"),
        *tg.synthesis_triples(s, f, f"urn:trustgraph:synthesis:{sid}", 100, 8, "mock-llm"),
    ]


def docrag(sid: str) -> list[Triple]:
    q, g, x, f, s = (tg.docrag_question_uri(sid), tg.docrag_grounding_uri(sid), tg.docrag_exploration_uri(sid),
                     tg.docrag_focus_uri(sid), tg.docrag_synthesis_uri(sid))  # fmt: skip
    return [
        *tg.docrag_question_triples(q, "Who discovered polonium?", TS),
        *tg.grounding_triples(g, q, ["polonium"], 9, 3, "mock-llm"),
        *tg.docrag_exploration_triples(x, g, 1, ["urn:chunk:c1"]),
        *tg.docrag_chunk_selection_triples(f, x, [{"chunk_id": "urn:chunk:c1", "score": 0.88}], sid),
        *tg.docrag_synthesis_triples(s, x, f"urn:trustgraph:docrag:{sid}/answer", 80, 6, "mock-llm"),
    ]


def react(sid: str, sub_sid: str) -> list[Triple]:
    session, i1, i2 = tg.agent_session_uri(sid), tg.agent_iteration_uri(sid, 1), tg.agent_iteration_uri(sid, 2)
    return [
        *tg.agent_session_triples(session, "Where was Marie Curie born?", TS),
        *tg.agent_pattern_decision_triples(tg.agent_pattern_decision_uri(sid), session, "react", "lookup"),
        *tg.agent_iteration_triples(
            i1,
            question_uri=session,
            action="web-search",
            arguments={"q": "Curie birthplace"},
            thought_uri=tg.agent_thought_uri(sid, 1),
            thought_document_id=tg.agent_thought_uri(sid, 1),
            tool_candidates=["web-search", "graph-rag"],
            step_number=1,
            llm_duration_ms=420,
            in_token=50,
            out_token=20,
            model="mock-llm",
        ),  # fmt: skip
        *tg.agent_observation_triples(
            tg.agent_observation_uri(sid, 1), i1, tool_duration_ms=3001, tool_error="web-search timed out after 3000 ms"
        ),  # fmt: skip
        *tg.agent_iteration_triples(
            i2,
            previous_uri=i1,
            action="graph-rag",
            arguments={"question": "Where was Marie Curie born?"},
            tool_candidates=["web-search", "graph-rag"],
            step_number=2,
            llm_duration_ms=380,
            in_token=70,
            out_token=18,
            model="mock-llm",
        ),  # fmt: skip
        *graphrag(sub_sid, parent=i2),  # the graph-rag tool's own trace, under the iteration
        *tg.agent_observation_triples(
            tg.agent_observation_uri(sid, 2),
            tg.synthesis_uri(sub_sid),
            document_id=tg.agent_observation_uri(sid, 2),
            tool_duration_ms=900,
        ),  # fmt: skip
        *tg.agent_final_triples(
            tg.agent_final_uri(sid),
            previous_uri=i2,
            document_id=f"urn:trustgraph:agent:{sid}/answer",
            termination_reason="final-answer",
            in_token=90,
            out_token=12,
            model="mock-llm",
        ),  # fmt: skip
    ]


def plan(sid: str) -> list[Triple]:
    session, p = tg.agent_session_uri(sid), tg.agent_plan_uri(sid)
    r1, r2 = tg.agent_step_result_uri(sid, 0), tg.agent_step_result_uri(sid, 1)
    return [
        *tg.agent_session_triples(session, "Summarise Curie's discoveries", TS),
        *tg.agent_pattern_decision_triples(tg.agent_pattern_decision_uri(sid), session, "plan-then-execute"),
        *tg.agent_plan_triples(p, session, ["find discoveries", "summarise"], 30, 15, "mock-llm"),
        *tg.agent_step_result_triples(r1, p, "find discoveries", r1, 20, 10, "mock-llm"),
        *tg.agent_step_result_triples(r2, p, "summarise"),
        *tg.agent_synthesis_triples(
            tg.agent_synthesis_uri(sid),
            [r1, r2],
            f"urn:trustgraph:agent:{sid}/answer",
            "final-answer",
            60,
            20,
            "mock-llm",
        ),  # fmt: skip
    ]


def supervisor(sid: str, sub_sid: str) -> list[Triple]:
    session, d = tg.agent_session_uri(sid), tg.agent_decomposition_uri(sid)
    f1, f2 = tg.agent_finding_uri(sid, 0), tg.agent_finding_uri(sid, 1)
    return [
        *tg.agent_session_triples(session, "Compare Curie and Meitner", TS),
        *tg.agent_pattern_decision_triples(tg.agent_pattern_decision_uri(sid), session, "supervisor", "research"),
        *tg.agent_decomposition_triples(d, session, ["Curie's work", "Meitner's work"], 25, 10, "mock-llm"),
        *tg.agent_session_triples(tg.agent_session_uri(sub_sid), "Curie's work", TS, parent_uri=d),
        *tg.agent_finding_triples(f1, d, "Curie's work", f1),
        *tg.agent_finding_triples(f2, d, "Meitner's work"),
        *tg.agent_synthesis_triples(tg.agent_synthesis_uri(sid), [f1, f2], f"urn:trustgraph:agent:{sid}/answer"),
    ]


def build() -> list[Quad]:
    sessions = [
        *graphrag("00000000-0000-4000-8000-000000000001"),
        *docrag("00000000-0000-4000-8000-000000000002"),
        *react("00000000-0000-4000-8000-000000000003", "00000000-0000-4000-8000-000000000004"),
        *plan("00000000-0000-4000-8000-000000000005"),
        *supervisor("00000000-0000-4000-8000-000000000006", "00000000-0000-4000-8000-000000000007"),
    ]
    default = quads([*FACTS, *LABELS, *tg.get_vocabulary_triples()], "")
    return [*default, *extraction(), *quads(sessions, tg.GRAPH_RETRIEVAL)]


def main() -> int:
    OUT.parent.mkdir(parents=True, exist_ok=True)
    text = serialize(build(), "nquads")
    header = "# Generated by scripts/make_trustgraph_fixture.py from trustgraph.provenance 2.11.1's builders.\n"
    OUT.write_text(header + text, encoding="utf-8")
    print(f"wrote {len(text.splitlines())} quads to {OUT}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
