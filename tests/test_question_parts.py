"""Questions that ask two things (issue 48): every engine grounds, retrieves and selects for each part on its own,
answers each part with a sentence of its own, cites both, and says in the trace which part each concept, retrieved
item and selection served.

Against the real Neo4j, with the offline provider, over the sample corpus: its two-page questions ask one thing of
``polonium-and-radium.html`` or ``marie-curie.md`` and one of ``warsaw.txt``, so both documents must be cited.
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from tests.ingesting import query
from tgneo.engines import Request, build_engine
from tgneo.explain.events import AnswerChunk, SessionEnd
from tgneo.ingest.loader import load_documents
from tgneo.ingest.sample import sources
from tgneo.kinds import SessionKind
from tgneo.llm.offline import OfflineLLM
from tgneo.nlp.answer_type import parts
from tgneo.nlp.segment import sentences
from tgneo.rdf.formats import get_format
from tgneo.rdf.ontology import graph_of, validate
from tgneo.rdf.star import isomorphic, serialize
from tgneo.store import Store
from tgneo.store.health import residue
from tgneo.store.rdf_export import export_quads
from tgneo.store.rdf_import import import_file
from tgneo.store.retention import delete_trace
from tgneo.store.traces import get_trace
from tgneo.tracetree import render_trace
from tgneo.vocab import TG, TGNEO

W = "w"
TWO_PAGES = "Which element was named after Poland, and which sea does the Vistula flow into?"
"""Polonium is named in ``polonium-and-radium.html``, the Baltic Sea in ``warsaw.txt``."""
DIED = "Where did Marie Curie die, and in which year was the University of Warsaw founded?"
"""Passy is in ``marie-curie.md`` (*She died in Passy in 1934.*), 1816 in ``warsaw.txt``; the second part opens with a
preposition."""
BOTH_OF = "What are the atomic numbers of Polonium and Radium?"
"""The same thing asked of two names: 84 and 88, one page."""


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        (
            "What are the default values of DeflateBufferSize and DeflateInflateRatioLimit?",
            ["What are the default values of DeflateBufferSize?",
             "What are the default values of DeflateInflateRatioLimit?"],
        ),
        (
            "Which signal does `apache2ctl -k graceful` send to the parent, and which does `-k graceful-stop` send?",
            ["Which signal does `apache2ctl -k graceful` send to the parent?",
             "which signal does `-k graceful-stop` send?"],
        ),
        (DIED, ["Where did Marie Curie die?", "in which year was the University of Warsaw founded?"]),
        ("Which keywords designate a generated column, and as of which version does SQLite support STRICT tables?",
         ["Which keywords designate a generated column?", "as of which version does SQLite support STRICT tables?"]),
        ("Where was Marie Curie born and when did she die?", ["Where was Marie Curie born?",
                                                              "when did Marie Curie die?"]),
        ("Which option controls how and when the cache is cleaned?", None),
        ("What is the difference between VACUUM and ANALYZE?", None),
        ("Which command shows the directory pip uses for its cache?", None),
    ],
)  # fmt: skip
def test_a_question_is_split_into_the_parts_it_asks_each_saying_what_it_wants(
    question: str, expected: list[str] | None
) -> None:
    assert parts(question) == (expected or [question])


@pytest.fixture(scope="module")
def sample(store: Store) -> str:
    collection = f"test-parts-{uuid.uuid4().hex[:8]}"
    assert load_documents(store, OfflineLLM(), W, collection, sources()).loaded == 4
    return collection


def ask(store: Store, collection: str, kind: SessionKind, question: str) -> tuple[str, SessionEnd]:
    events = list(build_engine(kind, store, OfflineLLM()).answer(Request(question, W, collection)))
    end = events[-1]
    assert isinstance(end, SessionEnd) and end.trace, events[-1]
    return "".join(e.text for e in events if isinstance(e, AnswerChunk)), end


@pytest.fixture(scope="module")
def answers(store: Store, sample: str) -> dict[tuple[SessionKind, str], tuple[str, SessionEnd]]:
    return {(kind, q): ask(store, sample, kind, q) for kind in SessionKind for q in (TWO_PAGES, DIED, BOTH_OF)}


ENGINES = [SessionKind.GRAPH_RAG, SessionKind.DOC_RAG, SessionKind.AGENT]


@pytest.mark.parametrize("kind", ENGINES, ids=lambda k: k.wire)
@pytest.mark.parametrize(
    ("question", "gold", "documents"),
    [
        (TWO_PAGES, (("polonium",), ("Baltic",)), {"Polonium and radium", "Warsaw"}),
        (DIED, (("Passy",), ("1816",)), {"Marie Curie", "Warsaw"}),
        (BOTH_OF, (("84",), ("88",)), {"Polonium and radium"}),
    ],
)  # fmt: skip
def test_each_part_is_answered_by_a_sentence_of_its_own_and_every_page_they_come_from_is_cited(
    answers: dict[tuple[SessionKind, str], tuple[str, SessionEnd]],
    kind: SessionKind,
    question: str,
    gold: tuple[tuple[str, ...], ...],
    documents: set[str],
) -> None:
    text, end = answers[(kind, question)]
    said = sentences(text)
    for terms in gold:
        assert any(t.lower() in s.lower() for s in said for t in terms), (kind.wire, question, text)
    assert {s.title for s in end.sources} >= documents, (kind.wire, text, end.sources)
    cited = [c for c in end.citations if c.evidence]
    assert len(cited) >= len(gold), (kind.wire, text)  # a cited sentence for each part
    for terms in gold:
        assert any(any(t.lower() in c.sentence.lower() for t in terms) for c in cited), (kind.wire, terms)


def trace_of(store: Store, collection: str, answered: tuple[str, SessionEnd]) -> dict[str, Any]:
    return get_trace(store, W, collection, answered[1].trace or "")


def test_graphrag_grounds_explores_and_selects_for_each_part_and_its_trace_says_which_served_which(
    store: Store, sample: str, answers: dict[tuple[SessionKind, str], tuple[str, SessionEnd]]
) -> None:
    trace = trace_of(store, sample, answers[(SessionKind.GRAPH_RAG, TWO_PAGES)])
    steps = {s["type"]: s for s in trace["steps"]}
    grounding = steps["Grounding"]
    assert [(p["index"], p["text"]) for p in grounding["parts"]] == list(enumerate(parts(TWO_PAGES), start=1))
    own = [set(p["concepts"]) for p in grounding["parts"]]
    assert all(own) and set(grounding["properties"]["concept"]) == own[0] | own[1]
    assert any("poland" in c.lower() for c in own[0]) and any("vistula" in c.lower() for c in own[1])
    hits = steps["Exploration"]["hits"]
    assert hits and all(h.get("parts") for h in hits)
    assert {p for h in hits for p in h["parts"]} == {1, 2}  # each part found seed entities of its own
    edges = steps["Focus"]["edges"]
    assert all(e.get("parts") for e in edges) and {p for e in edges for p in e["parts"]} == {1, 2}
    for edge in edges:  # an edge selected for a part answers one of that part's concepts
        if edge.get("concept") and len(edge["parts"]) == 1:
            assert set(edge["concept"]) <= own[edge["parts"][0] - 1]
    assert trace["totals"]["inToken"] > 0


def test_document_rag_retrieves_for_each_part_and_both_pages_reach_its_focus(
    store: Store, sample: str, answers: dict[tuple[SessionKind, str], tuple[str, SessionEnd]]
) -> None:
    trace = trace_of(store, sample, answers[(SessionKind.DOC_RAG, TWO_PAGES)])
    steps = {s["type"]: s for s in trace["steps"]}
    assert len(steps["Grounding"]["parts"]) == 2
    hits = steps["Exploration"]["hits"]
    assert [h["rank"] for h in hits] == list(range(1, len(hits) + 1))
    assert {p for h in hits[:2] for p in h["parts"]} == {1, 2}  # the parts' best chunks, in turns
    chunks = steps["Focus"]["chunks"]
    assert all(c.get("parts") for c in chunks)
    documents = {d for c in chunks if 2 in c["parts"] for d in c["chunk"]["chain"]}
    assert any(d for d in documents), chunks
    titles = {s.title for s in answers[(SessionKind.DOC_RAG, TWO_PAGES)][1].sources}
    assert titles >= {"Polonium and radium", "Warsaw"}


def test_the_agent_looks_each_part_up_on_its_own(
    store: Store, sample: str, answers: dict[tuple[SessionKind, str], tuple[str, SessionEnd]]
) -> None:
    trace = trace_of(store, sample, answers[(SessionKind.AGENT, TWO_PAGES)])
    asked = [
        (s["properties"]["action"], s["properties"]["arguments"]) for s in trace["steps"] if s["type"] == "Analysis"
    ]
    for part in parts(TWO_PAGES):
        for tool in ("knowledge-query", "document-query"):
            assert any(action == tool and part in arguments for action, arguments in asked), (tool, part, asked)
    questions = {s["properties"]["query"] for s in trace["steps"] if s["depth"] > 0 and "query" in s["properties"]}
    assert set(parts(TWO_PAGES)) <= questions  # each lookup is a sub-trace asking one part


def test_a_question_of_one_part_records_no_parts(store: Store, sample: str) -> None:
    for kind in (SessionKind.GRAPH_RAG, SessionKind.DOC_RAG):
        _, end = ask(store, sample, kind, "Which river flows through the city where Marie Curie was born?")
        trace = get_trace(store, W, sample, end.trace or "")
        assert not any("parts" in s for s in trace["steps"])
        assert not any(
            "parts" in x for s in trace["steps"] for key in ("hits", "edges", "chunks") for x in s.get(key, [])
        )
        prov = export_quads(store, W, sample, end.trace, "prov")
        assert not any(q.o == TGNEO.QuestionPart for q in prov)


@pytest.mark.parametrize("kind", [SessionKind.GRAPH_RAG, SessionKind.DOC_RAG], ids=lambda k: k.wire)
def test_question_parts_pass_the_shapes_leave_only_in_the_prov_profile_and_round_trip(
    store: Store,
    sample: str,
    answers: dict[tuple[SessionKind, str], tuple[str, SessionEnd]],
    kind: SessionKind,
    tmp_path: Path,
) -> None:
    uri = answers[(kind, TWO_PAGES)][1].trace or ""
    prov = export_quads(store, W, sample, uri, "prov")
    part_nodes = {q.s for q in prov if q.o == TGNEO.QuestionPart}
    assert len(part_nodes) == 2
    assert all(any(q.s == p and q.p == TG.concept for q in prov) for p in part_nodes)
    served = [q for q in prov if q.p == TGNEO.forPart]
    assert {q.o for q in served} == part_nodes
    conforms, _, report = validate(graph_of(prov))
    assert conforms, report
    trustgraph = export_quads(store, W, sample, uri, "trustgraph")
    assert not any(str(term).startswith(str(TGNEO)) for q in trustgraph for term in (q.s, q.p, q.o))
    out = tmp_path / "trace.nq"
    out.write_text(serialize(prov, "nquads"), encoding="utf-8")
    twin = f"{sample}-twin-{kind.value}"
    import_file(store, W, twin, out, get_format("nquads"))
    assert isomorphic(export_quads(store, W, twin, uri, "prov"), prov)


def test_trace_show_says_which_part_each_concept_hit_and_selection_served(
    store: Store, sample: str, answers: dict[tuple[SessionKind, str], tuple[str, SessionEnd]]
) -> None:
    console = Console(width=240, record=True)
    console.print(render_trace(trace_of(store, sample, answers[(SessionKind.GRAPH_RAG, TWO_PAGES)])))
    shown = console.export_text()
    first, second = parts(TWO_PAGES)
    assert f"part 1 {first!r}" in shown and f"part 2 {second!r}" in shown
    assert "for part 1" in shown and "for part 2" in shown


def test_deleting_a_two_part_trace_deletes_its_parts_and_leaves_no_garbage(store: Store, sample: str) -> None:
    _, end = ask(store, sample, SessionKind.DOC_RAG, TWO_PAGES)
    uri = end.trace or ""
    count = "MATCH (p:QuestionPart {workspace: $w, collection: $c}) WHERE p.uri STARTS WITH $t RETURN count(p) AS n"
    assert query(store, count, w=W, c=sample, t=uri)[0]["n"] == 2
    assert delete_trace(store, W, sample, uri) is not None
    assert query(store, count, w=W, c=sample, t=uri)[0]["n"] == 0
    assert not residue(store, W, sample)
