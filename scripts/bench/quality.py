#!/usr/bin/env python3
"""Answer quality on documents no one in tgneo wrote, with the default provider.

Three evaluation sets (``--set``, default all; sources, licences and how the questions were written:
``quality/SOURCE.md``): ``pip``, pip 24.2's topic guides (``quality/pip-24.2-topics/``, MyST Markdown,
``questions.json``); ``sqlite``, 15 pages of SQLite 3.40.1's hand-written HTML documentation
(``quality/sqlite-3.40.1-docs/``, ``questions-sqlite.json``); ``postgres``, 17 pages of PostgreSQL 15.20's
manual, HTML generated from DocBook with definition lists, tables and admonitions
(``quality/postgresql-15.20-docs/``, ``questions-postgres.json``, written before tgneo read the pages; it is
run before and after a change and its answers are not read in between, so that it tells whether a fix
generalises: ``quality/baseline-postgres.json`` keeps the "before" figures).

Each set's corpus is loaded as a user loads a folder (``tgneo load documents DIR``) with the configured
provider (``TGNEO_LLM``, offline by default), into a fresh ``bench-quality-*`` collection; then every
question of the set is asked of GraphRAG, Document RAG and the agent (the router choosing its pattern).
Prints, as its LAST line, JSON ``{"bench": "quality", "ratios": {...}, "absolute": {...}}``, every key
suffixed with its set (``hit_rate_postgres_docrag``):

* ``hit_rate_graphrag``, ``hit_rate_docrag``, ``hit_rate_agent`` — the share of answers that name one
  of the question's gold terms (case-insensitive, as a whole term). Goal ≥ 0.75 each (issue 38).
* ``paraphrase_hit_rate_…`` — the same over the questions marked ``paraphrase`` (they share no content word
  with the sentence that answers them). Goal ≥ 0.5.
* ``context_recall_graphrag``, ``…_docrag``, ``…_agent`` — the share of questions where the context
  handed to the answering stage names a gold term (matched as for the hit rate): what a real model
  (``TGNEO_LLM=openai``) would read, taken from the tasks the engine gives its provider, unchanged. For
  GraphRAG, the selected edges' facts and evidence sentences of its ``synthesis`` task; for Document RAG,
  the passages of its ``docrag-synthesis`` task; for the agent, its last ``react`` step's observations or
  its ``agent-synthesis`` results (the sub-traces' own contexts are not the agent's). It tells whether
  the answer was there to be given: a miss here is retrieval's, a hit here and a miss in the hit rate is
  the answer's. Goal ≥ 0.9 each; ``paraphrase_context_recall_…`` ≥ 0.7.
* ``source_recall_graphrag``, ``…_docrag``, ``…_agent`` — the share of answers whose cited sources
  include the question's gold file. Goal ≥ 0.9 each.
* ``citation_precision`` — over every engine's answers, the share of (answer sentence, cited sentence)
  pairs where the cited sentence supports the answer sentence: it holds at least half of the answer
  sentence's key terms (identifiers and content words). Goal ≥ 0.9. ``null`` when no answer carries
  sentence citations.
* ``skipped_files`` — the share of the corpus's files the load skipped. Goal 0.

``--show N`` prints N answers per engine with their citations (the manual's example comes from here);
``--keep`` keeps the collection. Nothing here knows the answers: the gold terms are only compared
with what the engines said.

``--graph PROFILE`` (repeatable; ``all`` for the three) measures answers over the graphs other tools write
instead (graph profiles, ``tgneo.graph_profiles``): on a private Neo4j with APOC (which their libraries need), the
corpus is loaded into tgneo's own store, then written by each tool's own code (``tests/foreign_graphs.py``:
neo4j-graphrag's components, LangChain's ``add_graph_documents`` and ``Neo4jVector``, LLM Graph Builder's
statements) from the facts tgneo's offline extractor reads, tgneo's side index is built over it (their
vectors are 1536-dimensional, from a model tgneo does not have), and every question is asked through the
profile. Prints ``hit_rate_{profile}_{engine}``, ``source_recall_{profile}_{engine}`` beside tgneo's own
(``hit_rate_tgneo_{engine}`` …) and ``gap_{profile}_{engine}``: tgneo's own hit rate minus the profile's.
Goal: every gap ≤ 0.1 (source recall likewise).

    python scripts/bench/quality.py
    python scripts/bench/quality.py --graph all
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
import uuid
from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cleanup import drop_collections  # scripts/bench/cleanup.py
from rich.console import Console

from tgneo.engines import Request, build_engine
from tgneo.explain.events import AnswerChunk, ErrorEvent, SessionEnd
from tgneo.ingest.loader import load_documents
from tgneo.ingest.sources import discover
from tgneo.kinds import SessionKind
from tgneo.llm.base import LLM, Completion, Embeddings, Task
from tgneo.llm.registry import get_llm
from tgneo.nlp.words import content_words, stem
from tgneo.store import Store
from tgneo.store.schema import install_search_schema

HERE = Path(__file__).resolve().parent / "quality"
CORPUS = HERE / "pip-24.2-topics"
QUESTIONS = HERE / "questions.json"
WORKSPACE = "bench"
GOALS = {
    "hit_rate": 0.75, "paraphrase_hit_rate": 0.5, "context_recall": 0.9, "paraphrase_context_recall": 0.7,
    "source_recall": 0.9, "citation_precision": 0.9, "skipped_files": 0.0,
}  # fmt: skip
console = Console(stderr=True)


@dataclass
class Answer:
    """What one engine said to one question: the text, the files it cited, its sentence citations."""

    text: str = ""
    files: set[str] = field(default_factory=set)
    citations: list[tuple[str, list[str]]] = field(default_factory=list)
    """(answer sentence, the sentences it cites)."""
    error: str | None = None
    seconds: float = 0.0
    context: list[str] = field(default_factory=list)
    """The texts the answering stage was handed (:func:`context_of`)."""


_IDENTIFIER = re.compile(r"[\w$~./<>-]*[_\-./$<>+=:][\w$~./<>+=:-]*\w|\w+")


def mentions(answer: str, term: str) -> bool:
    """Whether ``answer`` names ``term``: case-insensitively, not inside a longer word."""
    left = r"(?<![\w])" if term[:1].isalnum() or term[:1] == "_" else ""
    right = r"(?![\w])" if term[-1:].isalnum() or term[-1:] == "_" else ""
    return re.search(left + re.escape(term) + right, answer, re.IGNORECASE) is not None


def holds(context: Sequence[str], gold: Iterable[str]) -> bool:
    """Whether a context (its texts) names one of the gold terms, each text matched as :func:`mentions` does."""
    return any(mentions(text, term) for term in gold for text in context)


def key_terms(sentence: str) -> set[str]:
    """The terms a sentence says something with: identifiers kept whole, and the stems of content words."""
    identifiers = {t.lower() for t in _IDENTIFIER.findall(sentence) if not t.isalpha() and len(t) > 1}
    return identifiers | {stem(w) for w in content_words(sentence) if len(w) > 2}


def supports(cited: str, answer_sentence: str) -> bool:
    """A cited sentence supports an answer sentence when it holds at least half of its key terms."""
    wanted = key_terms(answer_sentence)
    if not wanted:
        return True
    have = key_terms(cited)
    return len(wanted & have) * 2 >= len(wanted)


class Heard(LLM):
    """The configured provider, unchanged, keeping every task an engine hands it: what a model would read."""

    def __init__(self, llm: LLM) -> None:
        self.llm = llm
        self.name, self.model, self.embedding_model = llm.name, llm.model, llm.embedding_model
        self.tasks: list[Task] = []

    @property
    def dimensions(self) -> int:
        return self.llm.dimensions

    def complete(self, task: Task) -> Completion:
        self.tasks.append(task)
        return self.llm.complete(task)

    def stream(self, task: Task) -> Generator[str, None, Completion]:
        self.tasks.append(task)
        return (yield from self.llm.stream(task))

    def embed(self, texts: Sequence[str]) -> Embeddings:
        return self.llm.embed(texts)


CONTEXT: dict[str, Callable[[Mapping[str, Any]], list[str]]] = {
    "synthesis": lambda inputs: [str(t) for t in (*inputs.get("facts", ()), *inputs.get("evidence", ()))],
    "docrag-synthesis": lambda inputs: [str(p["text"]) for p in inputs.get("passages", ())],
    "react": lambda inputs: [str(h.get("observation") or "") for h in inputs.get("history", ())],
    "agent-synthesis": lambda inputs: [str(r.get("text") or "") for r in inputs.get("results", ())],
}
"""What a model reads in each answering stage's inputs: the texts it answers from, not the question."""
ANSWERING = {
    SessionKind.GRAPH_RAG: ("synthesis",),
    SessionKind.DOC_RAG: ("docrag-synthesis",),
    SessionKind.AGENT: ("react", "agent-synthesis"),
}
"""The stages whose last call gives each engine's answer (an agent's RAG tools call ``synthesis`` too, for
their observations; the agent answers from those in its last ``react`` step or its ``agent-synthesis``)."""


def context_of(kind: SessionKind, tasks: Sequence[Task]) -> list[str]:
    """The context the engine ``kind`` handed its answering stage, from the ``tasks`` it gave its provider for
    one question: the last answering call's texts (none when it answered without one, e.g. nothing found)."""
    last = next((t for t in reversed(tasks) if t.stage in ANSWERING[kind]), None)
    return [text for text in CONTEXT[last.stage](last.inputs) if text.strip()] if last is not None else []


def ask(
    engine: Any,
    question: str,
    collection: str,
    files: Mapping[str, str] | None = None,
    graph: Any = None,
    heard: Heard | None = None,
) -> Answer:
    """One answer and what it cited. ``files`` maps tgneo's document URIs to file names; over a graph profile
    (``graph``) a source is named by their document's name property (a path, a file name, or LangChain's
    ``file#chunk`` id), so its file is the name's last segment. ``heard``, the provider the engine was built
    with, gives the answer's context."""
    answer = Answer()
    if heard is not None:
        heard.tasks.clear()
    started = time.perf_counter()
    for event in engine.answer(Request(question, WORKSPACE, collection, graph=graph)):
        if isinstance(event, AnswerChunk):
            answer.text += event.text
        elif isinstance(event, SessionEnd):
            if files is not None:
                answer.files = {files[s.uri] for s in event.sources if s.uri in files}
            else:
                answer.files = {Path(s.title.split("#")[0]).name for s in event.sources if s.title}
            for citation in getattr(event, "citations", ()) or ():
                answer.citations.append((citation.sentence, [e.text for e in citation.evidence]))
        elif isinstance(event, ErrorEvent):
            answer.error = event.message
    answer.seconds = time.perf_counter() - started
    if heard is not None:
        answer.context = context_of(engine.kind, heard.tasks)
    return answer


def ratio(numerator: int, denominator: int) -> float | None:
    return round(numerator / denominator, 3) if denominator else None


def show(kind: SessionKind, question: str, answer: Answer) -> None:
    console.rule(f"{kind.wire}: {question}")
    console.print(answer.text, markup=False)
    for n, (sentence, cited) in enumerate(answer.citations, start=1):
        console.print(f"  [{n}] {sentence}", markup=False)
        for text in cited:
            console.print(f"      ← {text}", markup=False)
    console.print(f"  sources: {', '.join(sorted(answer.files)) or 'none'}", markup=False)


@dataclass(frozen=True)
class EvalSet:
    """One evaluation set: a corpus folder no one in tgneo wrote, and the questions asked of it."""

    name: str
    corpus: Path
    questions: Path

    def load(self) -> list[dict[str, Any]]:
        return list(json.loads(self.questions.read_text(encoding="utf-8")))


SETS = {
    "pip": EvalSet("pip", CORPUS, QUESTIONS),
    "sqlite": EvalSet("sqlite", HERE / "sqlite-3.40.1-docs", HERE / "questions-sqlite.json"),
    "postgres": EvalSet("postgres", HERE / "postgresql-15.20-docs", HERE / "questions-postgres.json"),
}


def goal_of(key: str) -> float:
    """The goal a ratio is held to: the longest :data:`GOALS` key it starts with."""
    return GOALS[max((k for k in GOALS if key.startswith(k)), key=len)]


def met(key: str, value: float | None) -> bool:
    if value is None:
        return False
    return value <= goal_of(key) if key.startswith("skipped_files") else value >= goal_of(key)


def measure(
    store: Store, llm: Any, kinds: list[SessionKind], evalset: EvalSet, show_n: int, keep: bool
) -> tuple[dict[str, float | None], dict[str, Any]]:
    """Load one set's corpus into a fresh collection, ask every question of every engine, and score them."""
    questions = evalset.load()
    collection = f"bench-quality-{evalset.name}-{uuid.uuid4().hex[:8]}"
    found = discover([evalset.corpus])
    files = {source.document_uri: Path(source.name).name for source in found.sources}
    corpus_files = sorted(p.name for p in evalset.corpus.iterdir() if p.is_file())
    answers: dict[SessionKind, list[Answer]] = {kind: [] for kind in kinds}
    try:
        started = time.perf_counter()
        report = load_documents(store, llm, WORKSPACE, collection, found.sources)
        load_seconds = time.perf_counter() - started
        console.print(f"{evalset.name}: {report.summary()} in {load_seconds:.1f}s")
        for _, why in report.skipped:
            console.print(f"  skipped {why}", markup=False)
        heard = Heard(llm)
        for kind in kinds:
            engine = build_engine(kind, store, heard)
            for i, item in enumerate(questions):
                answer = ask(engine, item["question"], collection, files, heard=heard)
                answers[kind].append(answer)
                if i < show_n:
                    show(kind, item["question"], answer)
    finally:
        if not keep:
            with store.driver.session(database=store.database) as session:
                drop_collections(session, WORKSPACE, [collection])
    name = evalset.name
    ratios: dict[str, float | None] = {}
    paraphrases = [i for i, q in enumerate(questions) if q.get("paraphrase")]
    absolute: dict[str, Any] = {
        f"questions_{name}": len(questions), f"paraphrases_{name}": len(paraphrases),
        f"files_{name}": len(corpus_files),
        f"statements_{name}": report.statements, f"entities_{name}": report.entities, f"chunks_{name}": report.chunks,
        f"load_seconds_{name}": round(load_seconds, 1),
    }  # fmt: skip
    pairs = supported = 0
    for kind, got in answers.items():
        hit = [any(mentions(a.text, g) for g in q["gold"]) for a, q in zip(got, questions, strict=True)]
        held = [holds(a.context, q["gold"]) for a, q in zip(got, questions, strict=True)]
        recalled = sum(q["source"] in a.files for a, q in zip(got, questions, strict=True))
        ratios[f"hit_rate_{name}_{kind.value}"] = ratio(sum(hit), len(got))
        if paraphrases:
            para = sum(hit[i] for i in paraphrases)
            ratios[f"paraphrase_hit_rate_{name}_{kind.value}"] = ratio(para, len(paraphrases))
        ratios[f"context_recall_{name}_{kind.value}"] = ratio(sum(held), len(got))
        if paraphrases:
            para = sum(held[i] for i in paraphrases)
            ratios[f"paraphrase_context_recall_{name}_{kind.value}"] = ratio(para, len(paraphrases))
        ratios[f"source_recall_{name}_{kind.value}"] = ratio(recalled, len(got))
        absolute[f"seconds_per_question_{name}_{kind.value}"] = round(sum(a.seconds for a in got) / max(1, len(got)), 3)
        absolute[f"errors_{name}_{kind.value}"] = sum(a.error is not None for a in got)
        absolute[f"missed_{name}_{kind.value}"] = [q["question"] for h, q in zip(hit, questions, strict=True) if not h]
        absolute[f"source_missed_{name}_{kind.value}"] = [
            q["question"] for a, q in zip(got, questions, strict=True) if q["source"] not in a.files
        ]
        absolute[f"context_missed_{name}_{kind.value}"] = [
            q["question"] for h, q in zip(held, questions, strict=True) if not h
        ]
        for a in got:
            for sentence, cited in a.citations:
                for text in cited:
                    pairs += 1
                    supported += supports(text, sentence)
    ratios[f"citation_precision_{name}"] = ratio(supported, pairs)
    ratios[f"skipped_files_{name}"] = ratio(len(report.skipped), len(corpus_files))
    return ratios, absolute


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--show", type=int, default=0, metavar="N", help="print N answers per engine")
    parser.add_argument("--keep", action="store_true", help="keep the bench-quality-* collections")
    parser.add_argument("--engines", nargs="+", default=[k.wire for k in SessionKind], help="engines to ask")
    parser.add_argument(
        "--set", dest="sets", action="append", choices=[*SETS, "all"], help="evaluation set(s) to run (default: all)"
    )
    parser.add_argument(
        "--graph",
        action="append",
        metavar="PROFILE",
        help="ask over the graph this tool writes (neo4j-graphrag, llm-graph-builder, langchain, all); pip set only",
    )
    args = parser.parse_args(list(argv) if argv is not None else None)
    kinds = [SessionKind.parse(name) for name in args.engines]
    if args.graph:
        return graph_profiles(args.graph, kinds, SETS["pip"].load(), args.show)
    chosen = list(SETS) if not args.sets or "all" in args.sets else list(dict.fromkeys(args.sets))
    llm = get_llm()
    ratios: dict[str, float | None] = {}
    absolute: dict[str, Any] = {"model": llm.model, "embedding_model": llm.embedding_model}
    with Store.from_settings() as store:
        store.verify()
        install_search_schema(store, llm.dimensions)
        for name in chosen:
            got, facts = measure(store, llm, kinds, SETS[name], args.show, args.keep)
            ratios.update(got)
            absolute.update(facts)
    for key, value in ratios.items():
        op = "<=" if key.startswith("skipped_files") else ">="
        console.print(f"{key:44} {'n/a' if value is None else value:>8}   goal {op} {goal_of(key)}")
    print(json.dumps({"bench": "quality", "ratios": ratios, "absolute": absolute}))
    return 0 if all(met(k, v) for k, v in ratios.items()) else 1


def scores(got: list[Answer], questions: list[dict[str, Any]]) -> tuple[float | None, float | None]:
    """(hit rate, source recall) of one engine's answers."""
    hits = sum(any(mentions(a.text, g) for g in q["gold"]) for a, q in zip(got, questions, strict=True))
    recalled = sum(q["source"] in a.files for a, q in zip(got, questions, strict=True))
    return ratio(hits, len(got)), ratio(recalled, len(got))


def graph_profiles(names: list[str], kinds: list[SessionKind], questions: list[dict[str, Any]], show_n: int) -> int:
    """``--graph``: the module docstring's last paragraph."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the tests' writers and private server
    from tests.coexisting import driver_for
    from tests.foreign_graphs import (
        DIMENSIONS,
        read_corpus,
        their_embedding,
        wipe_theirs,
        write_langchain,
        write_llm_graph_builder,
        write_neo4j_graphrag,
    )
    from tests.private_neo4j import private_neo4j
    from tgneo.graph_profiles import BUILTIN
    from tgneo.ingest.side_index import build_side_index
    from tgneo.store import install_schema
    from tgneo.store.foreign import clear_checks

    profiles = list(BUILTIN) if "all" in names else names
    unknown = [n for n in profiles if n not in BUILTIN]
    if unknown:
        raise SystemExit(f"--graph: {unknown[0]!r} is not one of {', '.join(BUILTIN)}, all")
    llm = get_llm()
    found = discover([CORPUS])
    files = {source.document_uri: Path(source.name).name for source in found.sources}
    ratios: dict[str, float | None] = {}
    absolute: dict[str, Any] = {"questions": len(questions), "model": llm.model, "their_dimensions": DIMENSIONS}
    with private_neo4j("bench-graphs", plugins=("apoc",)) as server, driver_for(server) as driver:
        with Store.from_settings(server.settings()) as store:
            install_schema(store)
            install_search_schema(store, llm.dimensions)
            own = "bench-quality-own"
            try:
                report = load_documents(store, llm, WORKSPACE, own, found.sources)
                console.print(f"tgneo's own store: {report.summary()}")
                for kind in kinds:
                    engine = build_engine(kind, store, llm)
                    got = [ask(engine, q["question"], own, files) for q in questions]
                    ratios[f"hit_rate_tgneo_{kind.value}"], ratios[f"source_recall_tgneo_{kind.value}"] = scores(
                        got, questions
                    )
                corpus = read_corpus(sorted(p for p in CORPUS.iterdir() if p.is_file()))
                for name in profiles:
                    wipe_theirs(driver)
                    clear_checks()
                    started = time.perf_counter()
                    if name == "neo4j-graphrag":
                        built = write_neo4j_graphrag(driver, corpus, their_embedding, DIMENSIONS)
                    elif name == "langchain":
                        built = write_langchain(server, corpus, their_embedding)
                    else:
                        built = write_llm_graph_builder(server, driver, corpus, their_embedding, DIMENSIONS)
                    collection = f"bench-graph-{name}"
                    side = build_side_index(store, llm, BUILTIN[name], WORKSPACE, collection)
                    console.print(f"{name}: {built} written in {time.perf_counter() - started:.1f}s; side index {side}")
                    absolute[f"graph_{name}"] = {
                        "chunks": built.chunks, "facts": built.facts, "side_entities": side.entities,
                        "side_chunks": side.chunks,
                    }  # fmt: skip
                    for kind in kinds:
                        engine = build_engine(kind, store, llm)
                        got = []
                        for i, q in enumerate(questions):
                            answer = ask(engine, q["question"], collection, graph=BUILTIN[name])
                            got.append(answer)
                            if i < show_n:
                                show(kind, q["question"], answer)
                        hit, recall = scores(got, questions)
                        ratios[f"hit_rate_{name}_{kind.value}"] = hit
                        ratios[f"source_recall_{name}_{kind.value}"] = recall
                        own_hit = ratios[f"hit_rate_tgneo_{kind.value}"]
                        own_recall = ratios[f"source_recall_tgneo_{kind.value}"]
                        ratios[f"gap_{name}_{kind.value}"] = (
                            round(own_hit - hit, 3) if own_hit is not None and hit is not None else None
                        )
                        ratios[f"recall_gap_{name}_{kind.value}"] = (
                            round(own_recall - recall, 3) if own_recall is not None and recall is not None else None
                        )
                        absolute[f"errors_{name}_{kind.value}"] = [a.error for a in got if a.error][:3]
                        absolute[f"seconds_per_question_{name}_{kind.value}"] = round(
                            sum(a.seconds for a in got) / max(1, len(got)), 3
                        )
            finally:  # a bench removes everything it created
                wipe_theirs(driver)
                with store.driver.session(database=store.database) as session:
                    drop_collections(session, WORKSPACE, [own, *(f"bench-graph-{n}" for n in profiles)])
    for key, value in ratios.items():
        goal = "   goal <= 0.1" if "gap_" in key else ""
        console.print(f"{key:40} {'n/a' if value is None else value:>8}{goal}")
    print(json.dumps({"bench": "quality-graphs", "ratios": ratios, "absolute": absolute}))
    met = all(v is not None and v <= 0.1 for k, v in ratios.items() if "gap_" in k)
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
