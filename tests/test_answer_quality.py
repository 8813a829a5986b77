"""Answers worth explaining on documents none of us wrote: pip 24.2's topic guides (scripts/bench/quality/SOURCE.md).

Against the real Neo4j, with the default (offline) provider: every file loads, identifiers become whole
entities, every statement keeps the sentence it was read from, each answer sentence cites the evidence
that supports it (recorded as PROV, exported in the ``prov`` profile only, streamed on the final
message), the agent reads the documents as well as the graph, and a collection embedded by
another model is refused until it is re-embedded.
"""

from __future__ import annotations

import json
import re
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.clirun import tgneo
from tests.conftest import Neo4jServer
from tests.ingesting import query
from tests.serving import Served
from tgneo.engines import Request, build_engine
from tgneo.engines.attribution import attribute
from tgneo.errors import EmbeddingMismatch
from tgneo.explain.events import AnswerChunk, Evidence, SessionEnd
from tgneo.ingest.index import index_collection
from tgneo.ingest.loader import LoadReport, load_documents
from tgneo.ingest.sources import discover
from tgneo.kinds import SessionKind
from tgneo.llm.base import Task
from tgneo.llm.offline import OfflineLLM
from tgneo.llm.offline.extraction import CO_OCCURS
from tgneo.rdf.ontology import graph_of, validate
from tgneo.service.runtime import Runtime
from tgneo.store import Store
from tgneo.store.rdf_export import export_quads
from tgneo.store.traces import get_trace
from tgneo.vocab import RDFS, TGNEO

CORPUS = Path(__file__).resolve().parent.parent / "scripts" / "bench" / "quality" / "pip-24.2-topics"
W = "w-quality"
QUESTION = "Which option disables pip's caching?"


@pytest.fixture(scope="module")
def pip_docs(store: Store) -> Iterator[tuple[str, LoadReport]]:
    collection = f"test-pip-{uuid.uuid4().hex[:8]}"
    report = load_documents(store, OfflineLLM(), W, collection, discover([CORPUS]).sources)
    yield collection, report
    query(store, "MATCH (n {workspace: $w, collection: $c}) DETACH DELETE n", w=W, c=collection)


def ask(store: Store, kind: SessionKind, question: str, collection: str) -> tuple[str, SessionEnd]:
    answer, end = "", None
    for event in build_engine(kind, store, OfflineLLM()).answer(Request(question, W, collection)):
        if isinstance(event, AnswerChunk):
            answer += event.text
        elif isinstance(event, SessionEnd):
            end = event
    assert end is not None, answer
    return answer, end


def test_every_file_loads_and_gives_statements(store: Store, pip_docs: tuple[str, LoadReport]) -> None:
    collection, report = pip_docs
    assert report.skipped == [] and report.loaded == len(list(CORPUS.glob("*.md")))
    per_document = query(
        store,
        """MATCH (d:TgDocument {workspace: $w, collection: $c})
        RETURN d.title AS title,
               COUNT { (d)<-[:WAS_DERIVED_FROM]-{2}(:TgChunk)<-[:WAS_DERIVED_FROM]-(:TgSubgraph) } AS found""",
        w=W, c=collection,
    )  # fmt: skip
    assert len(per_document) == report.loaded and all(
        r["found"] > 0 for r in per_document if r["title"] != "Topic Guides"
    )


def test_a_markdown_file_whose_prose_is_one_long_line_is_not_skipped(store: Store, tmp_path: Path) -> None:
    """The reported case: a document's line breaks lost, the whole file one line starting with ``#``."""
    one_line = " ".join((CORPUS / "secure-installs.md").read_text(encoding="utf-8").split())
    path = tmp_path / "secure-installs-one-line.md"
    path.write_text(one_line, encoding="utf-8")
    collection = f"test-oneline-{uuid.uuid4().hex[:8]}"
    report = load_documents(store, OfflineLLM(), W, collection, discover([path]).sources)
    assert report.skipped == [] and report.loaded == 1 and report.statements > 20 and report.entities > 10
    query(store, "MATCH (n {workspace: $w, collection: $c}) DETACH DELETE n", w=W, c=collection)


@pytest.mark.parametrize(
    "name", ["PIP_CONFIG_FILE", "--no-cache-dir", "~/.cache/pip", "get_preference", "ResolutionImpossible",
             "origin.json", "pip cache dir", "--require-hashes", "http-v2"],
)  # fmt: skip
def test_identifiers_are_entities_kept_whole(store: Store, pip_docs: tuple[str, LoadReport], name: str) -> None:
    collection, _ = pip_docs
    found = query(store, "MATCH (e:TgResource {workspace: $w, collection: $c, name: $name}) RETURN e.uri AS uri",
                  w=W, c=collection, name=name)  # fmt: skip
    assert len(found) == 1, name


def test_every_statement_keeps_the_sentence_it_was_read_from_as_a_span_of_its_chunk(
    store: Store, pip_docs: tuple[str, LoadReport]
) -> None:
    collection, _ = pip_docs
    rows = query(
        store,
        """MATCH (sg:TgSubgraph {workspace: $w, collection: $c})-[:WAS_DERIVED_FROM]->(chunk:TgChunk)
        MATCH (sg)-[contains:CONTAINS]->(st:TgStatement) WHERE st.p <> $label
        RETURN contains.sourceText AS sentence, contains.sourceCharOffset AS start,
               contains.sourceCharLength AS length, chunk.text AS chunk""",
        w=W, c=collection, label=str(RDFS.label),
    )  # fmt: skip
    assert rows and all(r["sentence"] for r in rows)  # every fact the offline extractor found has its sentence
    for r in rows:
        span = r["chunk"][r["start"] : r["start"] + r["length"]]
        span = "\n".join(line for line in span.split("\n") if not re.match(r"\s*(```|~~~)", line))
        # the unit may join a fence's lines with "; " or lead with its label ("Linux: ~/.cache/pip"), and a
        # sentence ending in a colon holds the code it introduces, not the fence lines between (segment.units)
        spoken, marked = " ".join(re.findall(r"\w+", r["sentence"])), " ".join(re.findall(r"\w+", span))
        assert marked and marked in spoken, r


def test_co_occurrence_relates_the_terms_of_one_sentence(store: Store, pip_docs: tuple[str, LoadReport]) -> None:
    collection, _ = pip_docs
    rows = query(
        store,
        """MATCH (s:TgResource {workspace: $w, collection: $c})-[:CO_OCCURS_WITH]->(o:TgResource)
        UNWIND (CASE WHEN valueType(s.name) STARTS WITH 'LIST' THEN s.name ELSE [s.name] END) AS s_name
        UNWIND (CASE WHEN valueType(o.name) STARTS WITH 'LIST' THEN o.name ELSE [o.name] END) AS o_name
        RETURN s_name AS s, o_name AS o""",
        w=W, c=collection,
    )  # fmt: skip
    pairs = {(r["s"], r["o"]) for r in rows}
    assert ("environment variable", "PIP_CONFIG_FILE") in pairs and CO_OCCURS == "co-occurs with"


@pytest.mark.parametrize("kind", [SessionKind.GRAPH_RAG, SessionKind.DOC_RAG, SessionKind.AGENT], ids=str)
def test_the_answer_names_the_term_and_each_sentence_cites_its_evidence(
    store: Store, pip_docs: tuple[str, LoadReport], kind: SessionKind
) -> None:
    collection, _ = pip_docs
    answer, end = ask(store, kind, QUESTION, collection)
    assert "--no-cache-dir" in answer
    assert [c.sentence for c in end.citations] and " ".join(c.sentence for c in end.citations) == answer
    supporting = [e for c in end.citations for e in c.evidence if "--no-cache-dir" in e.text]
    assert supporting and all(e.title == "Caching" and e.section and e.chunk for e in supporting)
    assert "Caching" in {s.title for s in end.sources}


def test_answer_sentences_are_recorded_as_prov_and_exported_in_the_prov_profile_only(
    store: Store, pip_docs: tuple[str, LoadReport]
) -> None:
    collection, _ = pip_docs
    _, end = ask(store, SessionKind.GRAPH_RAG, QUESTION, collection)
    trace = get_trace(store, W, collection, end.trace or "")
    synthesis = next(s for s in trace["steps"] if s["type"] == "Synthesis")
    (sentence,) = synthesis["sentences"]
    assert sentence["supported"] and sentence["evidence"][0]["selection"].startswith("urn:trustgraph:prov:edge:")
    assert "--no-cache-dir" in sentence["evidence"][0]["text"]
    prov = export_quads(store, W, collection, end.trace, "prov")
    assert any(q.o == TGNEO.AnswerSentence for q in prov)
    conforms, _, report = validate(graph_of(prov))
    assert conforms, report
    trustgraph = export_quads(store, W, collection, end.trace, "trustgraph")
    assert not any(str(term).startswith(str(TGNEO)) for q in trustgraph for term in (q.s, q.p, q.o))


def test_a_paraphrase_is_supported_and_an_unrelated_sentence_is_marked_not_hidden() -> None:
    evidence = [
        Evidence("urn:x:sel:0", "pip's caching behaviour is disabled by passing the `--no-cache-dir` option.", 0)
    ]
    citations, sentences = attribute(
        "Passing --no-cache-dir disables pip's caching. Einstein played the violin.", evidence, OfflineLLM(),
        "urn:trustgraph:prov:synthesis:x",
    )  # fmt: skip
    assert [c.supported for c in citations] == [True, False]
    assert sentences[0].evidence == ("urn:x:sel:0",) and sentences[1].evidence == () and sentences[1].support is None


def test_the_stream_carries_the_citations_on_its_final_message(served: Served) -> None:
    a = served.a
    question = "Which element discovered by Marie Curie was named after her native country?"
    response = requests.post(f"{served.base}/api/v1/graph-rag", headers=a.headers, timeout=120,
                             json={"query": question, "collection": a.collection})  # fmt: skip
    final = json.loads(response.content.splitlines()[-1])
    citation = final["citations"][0]  # the answer first; the sentence on who discovered it may follow
    assert citation["sentence"] == "Polonium was named after Poland, the native country of Marie Curie."
    assert citation["evidence"][0]["title"] == "Polonium and radium" and citation["evidence"][0]["chunk"]


def test_the_agent_reads_the_documents_when_the_graph_has_nothing() -> None:
    llm = OfflineLLM()
    nothing = "No knowledge-graph entity in workspace 'w', collection 'c' matches what was searched for: 'x'."
    history = [{"action": "knowledge-query", "arguments": {"question": "q"}, "observation": nothing, "error": None}]
    tools: list[dict[str, Any]] = [
        {"name": n, "description": "", "arguments": {}} for n in ("knowledge-query", "document-query")
    ]
    step = json.loads(llm.complete(Task("react", {"question": "What is x?", "tools": tools, "history": history})).text)
    assert step["action"] == "document-query"
    both: list[dict[str, Any]] = [*history, {"action": "document-query", "arguments": {}, "observation": nothing,
                                             "error": None}]  # fmt: skip
    final = json.loads(llm.complete(Task("react", {"question": "What is x?", "tools": tools, "history": both})).text)
    assert final["final_answer"] == "I found nothing that answers this question."
    assert "neither the knowledge graph nor the documents" in final["thought"]


def test_the_agent_asks_the_documents_too_when_the_graph_s_answer_names_the_question_s_words() -> None:
    # the shape of pip's "Which URL prefix selects Mercurial?": the graph's sentence names Mercurial, not the prefix
    llm = OfflineLLM()
    question = "Which URL prefix selects Mercurial?"
    graph = "Mercurial is one of the version control systems that pip supports for installing from a URL."
    documents = "Mercurial URLs take the hg+ prefix, as in hg+https://hg.example.com/MyProject."
    tools: list[dict[str, Any]] = [
        {"name": n, "description": "", "arguments": {}} for n in ("knowledge-query", "document-query")
    ]
    history: list[dict[str, Any]] = [
        {"action": "knowledge-query", "arguments": {"question": question}, "observation": graph, "error": None}
    ]
    step = json.loads(llm.complete(Task("react", {"question": question, "tools": tools, "history": history})).text)
    assert step["action"] == "document-query" and step["arguments"] == {"question": question}
    history.append(
        {"action": "document-query", "arguments": {"question": question}, "observation": documents, "error": None}
    )
    final = json.loads(llm.complete(Task("react", {"question": question, "tools": tools, "history": history})).text)
    assert final["final_answer"] == documents


def test_the_agent_answers_from_an_observation_whose_quoted_sentence_says_nothing_or_could_not() -> None:
    # a sentence of pip's documentation, quoted by GraphRAG: "all-or-nothing" is not the graph saying it has nothing
    llm = OfflineLLM()
    question = "Which weak hash algorithms are excluded from hash-checking?"
    said = ("However, weaker ones such as md5, sha1, and sha224 are excluded to avoid giving a false sense of "
            "security. Note that hash-checking is an all-or-nothing proposition.")  # fmt: skip
    history = [
        {"action": "knowledge-query", "arguments": {"question": question}, "observation": said, "error": None},
        {"action": "document-query", "arguments": {"question": question}, "error": None,
         "observation": "The documents retrieved do not answer this question."},
    ]  # fmt: skip
    tools: list[dict[str, Any]] = [
        {"name": n, "description": "", "arguments": {}} for n in ("knowledge-query", "document-query")
    ]
    step = json.loads(llm.complete(Task("react", {"question": question, "tools": tools, "history": history})).text)
    assert step["final_answer"] == said


def test_a_database_embedded_by_the_hashed_model_moves_to_minilm_with_one_command(
    tmp_path: Path, plain_neo4j: Neo4jServer
) -> None:
    # the upgrade to the sentence-embedding model: collections embedded by the hashed model (256 dimensions) are
    # refused to all-MiniLM-L6-v2 (384) until `tgneo load index --reembed --all-collections`; a vector index is
    # database-wide, so this runs on a database of its own (the session's private one, emptied)
    from tests.private_neo4j import emptied

    shutil.copy(CORPUS / "caching.md", tmp_path / "caching.md")
    hashed, minilm = (
        OfflineLLM(embedding_model="tgneo-offline-hash-256"),
        OfflineLLM(embedding_model="all-minilm-l6-v2-q"),
    )
    server = emptied(plain_neo4j)
    with Store.from_settings(server.settings()) as store:
        for collection in ("pip", "other"):
            load_documents(store, hashed, W, collection, discover([tmp_path]).sources)
        with pytest.raises(EmbeddingMismatch, match=r"tgneo load index --reembed --all-collections"):
            list(Runtime(store, llm=minilm).ask(SessionKind.DOC_RAG, Request(QUESTION, W, "pip")))
        env = {**server.env(), "TGNEO_EMBEDDING_MODEL": minilm.embedding_model}
        done = tgneo(None, "load", "index", "--reembed", "--all-collections", env=env)
        assert f"embedded with {minilm.embedding_model}" in done.stderr, done.stderr
        models = query(store, "MATCH (n:TgResource {workspace: $w}) WHERE n.embeddedWith IS NOT NULL "
                              "RETURN DISTINCT n.embeddedWith AS m", w=W)  # fmt: skip
        assert [r["m"] for r in models] == [minilm.embedding_model]
        messages = list(Runtime(store, llm=minilm).ask(SessionKind.DOC_RAG, Request(QUESTION, W, "pip")))
        assert "--no-cache-dir" in "".join(str(m.get("response", "")) for m in messages)
        assert index_collection(store, minilm, W, "pip").entities == 0  # nothing left to do
