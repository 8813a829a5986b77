#!/usr/bin/env python3
"""Answer quality on documents no one in tgneo wrote: pip 24.2's topic guides, with the default provider.

The corpus (``quality/pip-24.2-topics/``, MIT, see ``quality/SOURCE.md``) is loaded as a user loads a
folder (``tgneo load documents DIR``) with the configured provider (``TGNEO_LLM``, offline by default),
into a fresh ``bench-quality-*`` collection; then every question of ``quality/questions.json`` is
asked of GraphRAG, Document RAG and the agent (the router choosing its pattern). Prints, as its LAST
line, JSON ``{"bench": "quality", "ratios": {...}, "absolute": {...}}``:

* ``hit_rate_graphrag``, ``hit_rate_docrag``, ``hit_rate_agent`` — the share of answers that name one
  of the question's gold terms (case-insensitive, as a whole term). Goal ≥ 0.75 each.
* ``source_recall_graphrag``, ``…_docrag``, ``…_agent`` — the share of answers whose cited sources
  include the question's gold file. Goal ≥ 0.9 each.
* ``citation_precision`` — over every engine's answers, the share of (answer sentence, cited sentence)
  pairs where the cited sentence supports the answer sentence: it holds at least half of the answer
  sentence's key terms (identifiers and content words). Goal ≥ 0.9. ``null`` when no answer carries
  sentence citations.
* ``skipped_files`` — the share of the corpus's files the load skipped. Goal 0.

``--show N`` prints N answers per engine with their citations (the README's example comes from here);
``--keep`` keeps the collection. Nothing here knows the answers: the gold terms are only compared
with what the engines said.

    python scripts/bench/quality.py
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
import uuid
from collections.abc import Iterable, Mapping
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
from tgneo.llm.registry import get_llm
from tgneo.nlp.words import content_words, stem
from tgneo.store import Store
from tgneo.store.schema import install_search_schema

HERE = Path(__file__).resolve().parent / "quality"
CORPUS = HERE / "pip-24.2-topics"
QUESTIONS = HERE / "questions.json"
WORKSPACE = "bench"
GOALS = {"hit_rate": 0.75, "source_recall": 0.9, "citation_precision": 0.9, "skipped_files": 0.0}
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


_IDENTIFIER = re.compile(r"[\w$~./<>-]*[_\-./$<>+=:][\w$~./<>+=:-]*\w|\w+")


def mentions(answer: str, term: str) -> bool:
    """Whether ``answer`` names ``term``: case-insensitively, not inside a longer word."""
    left = r"(?<![\w])" if term[:1].isalnum() or term[:1] == "_" else ""
    right = r"(?![\w])" if term[-1:].isalnum() or term[-1:] == "_" else ""
    return re.search(left + re.escape(term) + right, answer, re.IGNORECASE) is not None


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


def ask(engine: Any, question: str, collection: str, files: Mapping[str, str]) -> Answer:
    answer = Answer()
    started = time.perf_counter()
    for event in engine.answer(Request(question, WORKSPACE, collection)):
        if isinstance(event, AnswerChunk):
            answer.text += event.text
        elif isinstance(event, SessionEnd):
            answer.files = {files[s.uri] for s in event.sources if s.uri in files}
            for citation in getattr(event, "citations", ()) or ():
                answer.citations.append((citation.sentence, [e.text for e in citation.evidence]))
        elif isinstance(event, ErrorEvent):
            answer.error = event.message
    answer.seconds = time.perf_counter() - started
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


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--show", type=int, default=0, metavar="N", help="print N answers per engine")
    parser.add_argument("--keep", action="store_true", help="keep the bench-quality-* collection")
    parser.add_argument("--engines", nargs="+", default=[k.wire for k in SessionKind], help="engines to ask")
    args = parser.parse_args(list(argv) if argv is not None else None)
    questions = json.loads(QUESTIONS.read_text(encoding="utf-8"))
    kinds = [SessionKind.parse(name) for name in args.engines]
    collection = f"bench-quality-{uuid.uuid4().hex[:8]}"
    llm = get_llm()
    found = discover([CORPUS])
    files = {source.document_uri: Path(source.name).name for source in found.sources}
    corpus_files = sorted(p.name for p in CORPUS.iterdir() if p.is_file())
    answers: dict[SessionKind, list[Answer]] = {kind: [] for kind in kinds}
    with Store.from_settings() as store:
        store.verify()
        install_search_schema(store, llm.dimensions)
        try:
            started = time.perf_counter()
            report = load_documents(store, llm, WORKSPACE, collection, found.sources)
            load_seconds = time.perf_counter() - started
            console.print(f"{report.summary()} in {load_seconds:.1f}s")
            for _, why in report.skipped:
                console.print(f"  skipped {why}", markup=False)
            for kind in kinds:
                engine = build_engine(kind, store, llm)
                for i, item in enumerate(questions):
                    answer = ask(engine, item["question"], collection, files)
                    answers[kind].append(answer)
                    if i < args.show:
                        show(kind, item["question"], answer)
        finally:
            if not args.keep:
                with store.driver.session(database=store.database) as session:
                    drop_collections(session, WORKSPACE, [collection])
    ratios: dict[str, float | None] = {}
    absolute: dict[str, Any] = {
        "questions": len(questions), "files": len(corpus_files), "model": llm.model,
        "embedding_model": llm.embedding_model, "statements": report.statements, "entities": report.entities,
        "chunks": report.chunks, "load_seconds": round(load_seconds, 1),
    }  # fmt: skip
    pairs = supported = 0
    for kind, got in answers.items():
        hits = sum(any(mentions(a.text, g) for g in q["gold"]) for a, q in zip(got, questions, strict=True))
        recalled = sum(q["source"] in a.files for a, q in zip(got, questions, strict=True))
        ratios[f"hit_rate_{kind.value}"] = ratio(hits, len(got))
        ratios[f"source_recall_{kind.value}"] = ratio(recalled, len(got))
        absolute[f"seconds_per_question_{kind.value}"] = round(sum(a.seconds for a in got) / max(1, len(got)), 3)
        absolute[f"errors_{kind.value}"] = sum(a.error is not None for a in got)
        absolute[f"missed_{kind.value}"] = [
            q["question"] for a, q in zip(got, questions, strict=True)
            if not any(mentions(a.text, g) for g in q["gold"])
        ]  # fmt: skip
        for a in got:
            for sentence, cited in a.citations:
                for text in cited:
                    pairs += 1
                    supported += supports(text, sentence)
    ratios["citation_precision"] = ratio(supported, pairs)
    ratios["skipped_files"] = ratio(len(report.skipped), len(corpus_files))
    for key, value in ratios.items():
        goal = next(v for k, v in GOALS.items() if key.startswith(k))
        op = "==" if key == "skipped_files" else ">="
        console.print(f"{key:28} {'n/a' if value is None else value:>8}   goal {op} {goal}")
    print(json.dumps({"bench": "quality", "ratios": ratios, "absolute": absolute}))
    met = all(
        v is not None and (v <= GOALS["skipped_files"] if k == "skipped_files" else v >= next(
            g for p, g in GOALS.items() if k.startswith(p)))
        for k, v in ratios.items()
    )  # fmt: skip
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
