"""Realistic sessions for the tests: extraction provenance plus one session of each engine kind.

Every librarian text ends with its session id or chunk URI, so no two texts in the store are equal
(tests/test_recorder.py relies on that to trip a uniqueness constraint on purpose).

Each builder returns the ordered steps an engine would report, as ``(entity, contents)`` pairs, so
tests can record them with the Recorder or render their triples for an RDF file.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rdflib.term import Literal, URIRef

from tgneo import uris
from tgneo.explain import entities as ent
from tgneo.rdf.terms import Quad, QuotedTriple
from tgneo.vocab import RDFS, SKOS

EX = "http://example.org/"
CURIE, RADIUM, POLONIUM = URIRef(EX + "marie-curie"), URIRef(EX + "radium"), URIRef(EX + "polonium")
DISCOVERED, BORN_IN, WARSAW = URIRef(EX + "discovered"), URIRef(EX + "bornIn"), URIRef(EX + "warsaw")
EDGE_RADIUM = QuotedTriple(CURIE, DISCOVERED, RADIUM)
EDGE_POLONIUM = QuotedTriple(CURIE, DISCOVERED, POLONIUM)
EDGE_DEFINITION = QuotedTriple(CURIE, SKOS.definition, Literal("Physicist and chemist", lang="en"))
EDGE_BORN = QuotedTriple(CURIE, BORN_IN, WARSAW)
DOC = "https://trustgraph.ai/doc/curie-bio"
TS = "2025-06-01T10:15:30.123456Z"

Step = tuple[ent.Entity, dict[str, str]]


@dataclass
class Corpus:
    """Knowledge graph quads plus extraction provenance for one document."""

    kg: list[Quad] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    chunk: str = ""
    page: str = ""


def corpus(doc: str = DOC) -> Corpus:
    """One document, one page, one chunk, one subgraph containing three facts (plus their labels)."""
    c = Corpus()
    c.kg = [
        Quad(CURIE, RDFS.label, Literal("Marie Curie")),
        Quad(RADIUM, RDFS.label, Literal("Radium")),
        Quad(POLONIUM, RDFS.label, Literal("Polonium")),
        Quad(DISCOVERED, RDFS.label, Literal("discovered")),
        Quad(CURIE, DISCOVERED, RADIUM),
        Quad(CURIE, DISCOVERED, POLONIUM),
        Quad(CURIE, SKOS.definition, Literal("Physicist and chemist", lang="en")),
    ]
    decoder = ent.Activity(component_name="pdf-decoder", component_version="2.11.1", timestamp=TS)
    chunker = ent.Activity(component_name="chunker", component_version="2.11.1", timestamp=TS)
    extractor = ent.Activity(component_name="kg-extractor", component_version="2.11.1", timestamp=TS)
    page = ent.DerivedEntity(uri=uris.page_uri(), parent=doc, activity=decoder, page_number=1, mime_type="text/plain")
    chunk = ent.DerivedEntity(
        uri=uris.chunk_uri(), parent=page.uri, activity=chunker, chunk_index=0, char_offset=0, char_length=40,
        chunk_size=1000, chunk_overlap=50,
    )  # fmt: skip
    c.page, c.chunk = page.uri, chunk.uri
    c.steps = [
        (ent.Document(uri=doc, title="Marie Curie, a biography", mime_type="application/pdf", page_count=1), {}),
        (page, {}),
        (chunk, {chunk.uri: f"Marie Curie discovered radium and polonium. [{chunk.uri}]"}),
        (
            ent.Subgraph(
                uri=uris.subgraph_uri(), chunk=chunk.uri, activity=extractor,
                statements=[EDGE_RADIUM, EDGE_POLONIUM, EDGE_DEFINITION], llm_model="mock-llm",
            ),
            {},
        ),
    ]  # fmt: skip
    return c


def graphrag(sid: str | None = None, parent: str | None = None) -> list[Step]:
    """Question ← Grounding ← Exploration ← Focus (2 edges) ← Synthesis."""
    sid = sid or uris.new_session_id()
    q = ent.GraphRagQuestion(uri=uris.question_uri(sid), query="What did Marie Curie discover?", timestamp=TS,
                           parent=parent)  # fmt: skip
    g = ent.Grounding(uri=uris.grounding_uri(sid), question=q.uri, concepts=("marie curie", "discoveries"),
                    in_token=12, out_token=5, model="mock-llm")  # fmt: skip
    x = ent.Exploration(uri=uris.exploration_uri(sid), grounding=g.uri, edge_count=2, entities=(str(CURIE),))
    f = ent.Focus(
        uri=uris.focus_uri(sid), exploration=x.uri, session_id=sid, in_token=40, out_token=9, model="mock-llm",
        edges=(
            ent.EdgeSelection(edge=EDGE_RADIUM, concept="discoveries", score=0.93, reasoning="names a discovery"),
            ent.EdgeSelection(edge=EDGE_DEFINITION, concept="marie curie", score=0.71),
        ),
    )  # fmt: skip
    answer = uris.graphrag_answer_uri(sid)
    s = ent.Synthesis(uri=uris.synthesis_uri(sid), focus=f.uri, document=answer, in_token=100, out_token=8,
                    model="mock-llm")  # fmt: skip
    return [(q, {}), (g, {}), (x, {}), (f, {}), (s, {answer: f"Marie Curie discovered radium. [{sid}]"})]


def docrag(chunk: str, sid: str | None = None) -> list[Step]:
    """Question ← Grounding ← Exploration ← {Focus (chunk selection), Synthesis}."""
    sid = sid or uris.new_session_id()
    q = ent.DocRagQuestion(uri=uris.docrag_question_uri(sid), query="Who discovered polonium?", timestamp=TS)
    g = ent.Grounding(uri=uris.docrag_grounding_uri(sid), question=q.uri, concepts=("polonium",), in_token=9,
                    out_token=3, model="mock-llm")  # fmt: skip
    x = ent.DocRagExploration(uri=uris.docrag_exploration_uri(sid), grounding=g.uri, chunk_count=1, chunk_ids=(chunk,))
    f = ent.DocRagFocus(uri=uris.docrag_focus_uri(sid), exploration=x.uri, session_id=sid,
                      chunks=(ent.ChunkSelection(chunk_id=chunk, score=0.88),))  # fmt: skip
    answer = uris.docrag_answer_uri(sid)
    s = ent.DocRagSynthesis(uri=uris.docrag_synthesis_uri(sid), exploration=x.uri, document=answer, in_token=80,
                          out_token=6, model="mock-llm")  # fmt: skip
    return [(q, {}), (g, {}), (x, {}), (f, {}), (s, {answer: f"Marie Curie discovered polonium. [{sid}]"})]


def react(sid: str | None = None) -> list[Step]:
    """Session ← PatternDecision; i1 (thought) ← observation (error); i2 ← observation; Conclusion."""
    sid = sid or uris.new_session_id()
    session = ent.AgentQuestion(uri=uris.agent_session_uri(sid), query="Where was Marie Curie born?", timestamp=TS)
    decision = ent.PatternDecision(uri=uris.agent_pattern_decision_uri(sid), session=session.uri, pattern="react")
    t1 = ent.Thought(uri=uris.agent_thought_uri(sid, 1), document=uris.agent_thought_uri(sid, 1))
    i1 = ent.Analysis(
        uri=uris.agent_iteration_uri(sid, 1), question=session.uri, action="web-search",
        arguments={"q": "Marie Curie birthplace"}, thought=t1, tool_candidates=("web-search", "graph-rag"),
        step_number=1, llm_duration_ms=420, in_token=50, out_token=20, model="mock-llm",
    )  # fmt: skip
    o1 = ent.Observation(uri=uris.agent_observation_uri(sid, 1), parent=i1.uri, tool_duration_ms=3001,
                       tool_error="web-search timed out after 3000 ms")  # fmt: skip
    i2 = ent.Analysis(
        uri=uris.agent_iteration_uri(sid, 2), previous=i1.uri, action="graph-rag",
        arguments={"question": "Where was Marie Curie born?"}, tool_candidates=("web-search", "graph-rag"),
        step_number=2, llm_duration_ms=380, in_token=70, out_token=18, model="mock-llm",
    )  # fmt: skip
    o2_uri = uris.agent_observation_uri(sid, 2)
    o2 = ent.Observation(uri=o2_uri, parent=i2.uri, document=o2_uri, tool_duration_ms=900)
    answer = uris.agent_answer_uri(sid)
    fin = ent.Conclusion(uri=uris.agent_final_uri(sid), previous=i2.uri, document=answer,
                       termination_reason="final-answer", in_token=90, out_token=12, model="mock-llm")  # fmt: skip
    return [
        (session, {}), (decision, {}), (i1, {t1.uri: f"I should search the web. [{sid}]"}), (o1, {}), (i2, {}),
        (o2, {o2.uri: f"Warsaw [{sid}]"}), (fin, {answer: f"Marie Curie was born in Warsaw. [{sid}]"}),
    ]  # fmt: skip


def plan(sid: str | None = None) -> list[Step]:
    """Session ← Plan ← StepResult × 2 ← Synthesis."""
    sid = sid or uris.new_session_id()
    session = ent.AgentQuestion(uri=uris.agent_session_uri(sid), query="Summarise Curie's discoveries", timestamp=TS)
    p = ent.Plan(uri=uris.agent_plan_uri(sid), session=session.uri, steps=("find discoveries", "summarise"),
               in_token=30, out_token=15, model="mock-llm")  # fmt: skip
    r1 = ent.StepResult(uri=uris.agent_step_result_uri(sid, 0), plan=p.uri, goal="find discoveries",
                      document=uris.agent_step_result_uri(sid, 0))  # fmt: skip
    r2 = ent.StepResult(uri=uris.agent_step_result_uri(sid, 1), plan=p.uri, goal="summarise")
    answer = uris.agent_answer_uri(sid)
    s = ent.AgentSynthesis(uri=uris.agent_synthesis_uri(sid), previous=(r1.uri, r2.uri), document=answer,
                         termination_reason="final-answer")  # fmt: skip
    return [
        (session, {}),
        (p, {}),
        (r1, {r1.uri: f"radium, polonium [{sid}]"}),
        (r2, {}),
        (s, {answer: f"Radium and polonium. [{sid}]"}),
    ]


def supervisor(sid: str | None = None) -> list[Step]:
    """Session ← Decomposition ← Finding × 2 (one with a sub-agent session) ← Synthesis."""
    sid = sid or uris.new_session_id()
    session = ent.AgentQuestion(uri=uris.agent_session_uri(sid), query="Compare Curie and Meitner", timestamp=TS)
    d = ent.Decomposition(uri=uris.agent_decomposition_uri(sid), session=session.uri,
                          goals=("Curie's work", "Meitner's work"), in_token=25, out_token=10,
                          model="mock-llm")  # fmt: skip
    sub_sid = uris.new_session_id()
    sub = ent.AgentQuestion(uri=uris.agent_session_uri(sub_sid), query="Curie's work", timestamp=TS, parent=d.uri)
    f1 = ent.Finding(uri=uris.agent_finding_uri(sid, 0), decomposition=d.uri, goal="Curie's work",
                   document=uris.agent_finding_uri(sid, 0))  # fmt: skip
    f2 = ent.Finding(uri=uris.agent_finding_uri(sid, 1), decomposition=d.uri, goal="Meitner's work")
    answer = uris.agent_answer_uri(sid)
    s = ent.AgentSynthesis(uri=uris.agent_synthesis_uri(sid), previous=(f1.uri, f2.uri), document=answer)
    return [
        (session, {}), (d, {}), (sub, {}), (f1, {f1.uri: f"radioactivity [{sid}]"}), (f2, {}),
        (s, {answer: f"Both physicists. [{sid}]"}),
    ]  # fmt: skip


def long_react(iterations: int, sid: str | None = None) -> list[Step]:
    """A ReAct session whose steps form one long chain: i1 ← o1 ← i2 ← o2 … ← Conclusion.

    Each iteration derives from the previous observation, so the chain is ``2 * iterations + 1`` deep:
    the shape that once cut traces off at depth 64.
    """
    sid = sid or uris.new_session_id()
    session = ent.AgentQuestion(uri=uris.agent_session_uri(sid), query="Count to forty, one tool call each",
                                timestamp=TS)  # fmt: skip
    steps: list[Step] = [(session, {})]
    previous: str | None = None
    for n in range(1, iterations + 1):
        it = ent.Analysis(
            uri=uris.agent_iteration_uri(sid, n), question=session.uri if previous is None else None,
            previous=previous, action="calculator", arguments={"expression": f"{n - 1} + 1"}, step_number=n,
            in_token=10, out_token=2, model="mock-llm",
        )  # fmt: skip
        obs_uri = uris.agent_observation_uri(sid, n)
        steps += [(it, {}), (ent.Observation(uri=obs_uri, parent=it.uri, document=obs_uri), {obs_uri: f"{n} [{sid}]"})]
        previous = obs_uri
    answer = uris.agent_answer_uri(sid)
    final = ent.Conclusion(uri=uris.agent_final_uri(sid), previous=previous, document=answer,
                           termination_reason="final-answer")  # fmt: skip
    steps.append((final, {answer: f"Forty. [{sid}]"}))
    return steps
