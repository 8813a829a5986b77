#!/usr/bin/env python3
"""Where Document RAG loses a question's gold file, stage by stage, on the evaluation sets.

``quality.py``'s *source recall* counts an answer whose citations name the question's gold file: the documents
of the sentences the answer cites (:func:`tgneo.engines.attribution.cited_sources`), not of everything it was
handed. A miss there can be retrieval's or the answer's. This bench follows each question of a set through
Document RAG's stages and counts the questions whose gold file is still there after each:

* ``exact`` — the ten chunks nearest the whole question by their own vectors, compared with every chunk of the
  collection (``chunks_by_vector_exact.cypher``): the best the chunk vectors can do for ten passages;
* ``vector`` — the ten best of Document RAG's vector list (each concept's and the question's nearest chunks
  through the approximate vector index, ranked by similarity to the question): what the index costs;
* ``full_text`` — the full-text list (the question's words through the chunk full-text index, its ten best);
* ``handed`` — the ten the two lists' reciprocal-rank fusion hands the answer (:func:`tgneo.store.kg.fuse`), the
  passages a real model would read: what the fusion costs;
* ``cited`` — the documents the offline answer's sentences cite: what the answer costs.

The stages are computed as the engine computes them (its grounding, its embedder, ``kg.search_chunks``), and the
engine itself is asked for ``cited``; the passages it was handed are checked against ``handed`` (``mismatched``
counts the questions where they differ: it should be 0). Paraphrases are counted apart. Nothing is printed per
question unless ``--show`` is given, so the held-out PostgreSQL set can be measured without reading its answers.
Prints, as its LAST line, JSON ``{"bench": "sources", "ratios": {...}, "absolute": {...}}`` with
``{stage}_{set}`` and ``{stage}_paraphrases_{set}`` (shares of the set's questions).

    python scripts/bench/sources.py --set sqlite
"""

from __future__ import annotations

import argparse
import json
import uuid
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from cleanup import drop_collections  # scripts/bench/cleanup.py
from quality import SETS, WORKSPACE, EvalSet, Heard, ask, ratio, sources  # scripts/bench/quality.py
from rich.console import Console
from rich.progress import track
from rich.table import Table

from tgneo.engines import build_engine
from tgneo.engines.docrag import DocRag
from tgneo.engines.graphrag import concepts_of
from tgneo.ingest.loader import load_documents
from tgneo.ingest.sources import discover
from tgneo.kinds import SessionKind
from tgneo.llm.base import LLM, Task
from tgneo.llm.registry import get_llm
from tgneo.store import Store, kg
from tgneo.store.queries import Q
from tgneo.store.schema import install_search_schema

STAGES = ("exact", "vector", "full_text", "handed", "cited")
DOC_LIMIT = DocRag.defaults["doc_limit"]
console = Console(stderr=True)


def files_of(store: Store, collection: str, chunks: Iterable[str], files: dict[str, str]) -> dict[str, str]:
    """The file each chunk was cut from, placed as an answer's evidence is (``answer_sources.cypher``)."""
    rows = [kg.EvidenceRow(uri, chunk=uri) for uri in dict.fromkeys(chunks)]
    places = kg.answer_sources(store, WORKSPACE, collection, rows).places
    return {uri: files.get(place.document or "", "") for uri, place in places.items()}


def follow(store: Store, llm: LLM, evalset: EvalSet, show: bool) -> tuple[dict[str, float | None], dict[str, Any]]:
    """Load one set into a fresh collection and count, per stage, the questions whose gold file is still there."""
    questions = evalset.load()
    collection = f"bench-sources-{evalset.name}-{uuid.uuid4().hex[:8]}"
    found = discover([evalset.corpus])
    files = {source.document_uri: Path(source.name).name for source in found.sources}
    kept: Counter[str] = Counter()
    kept_paraphrases: Counter[str] = Counter()
    mismatched = 0
    try:
        load_documents(store, llm, WORKSPACE, collection, found.sources)
        heard = Heard(llm)
        engine = build_engine(SessionKind.DOC_RAG, store, heard)
        for item in track(questions, description=f"{evalset.name}: following", console=console, transient=True):
            question, gold = item["question"], set(sources(item))  # a two-part question's: either part's file
            concepts = concepts_of(llm.complete(Task("grounding", {"question": question})).text, question)
            embedded = llm.embed([*concepts, question]).vectors
            hits = kg.search_chunks(store, WORKSPACE, collection, embedded, embedded[-1], DOC_LIMIT, question)
            exact = store.read(
                Q.chunks_by_vector_exact, workspace=WORKSPACE, collection=collection, vector=embedded[-1],
                limit=DOC_LIMIT,
            )  # fmt: skip
            answer = ask(engine, question, collection, files, heard=heard)
            handed = [h.uri for h in hits[:DOC_LIMIT]]
            passages = [p["id"] for t in heard.tasks if t.stage == "docrag-synthesis" for p in t.inputs["passages"]]
            mismatched += passages != handed
            file = files_of(store, collection, [h.uri for h in hits], files)
            there = {
                "exact": bool(gold & {files.get(r["document"] or "", "") for r in exact}),
                "vector": bool(gold & {file[h.uri] for h in hits if h.vector_rank and h.vector_rank <= DOC_LIMIT}),
                "full_text": bool(gold & {file[h.uri] for h in hits if h.text_rank}),
                "handed": bool(gold & {file[uri] for uri in handed}),
                "cited": bool(gold & answer.files),
            }
            kept.update(stage for stage, yes in there.items() if yes)
            if item.get("paraphrase"):
                kept_paraphrases.update(stage for stage, yes in there.items() if yes)
            if show and not all(there.values()):
                lost = ", ".join(stage for stage, yes in there.items() if not yes)
                console.print(
                    f"{question}\n  gold {sorted(gold)}; not in: {lost}; cited {sorted(answer.files)}", markup=False
                )
    finally:
        with store.driver.session(database=store.database) as session:
            drop_collections(session, WORKSPACE, [collection])
    name, paraphrases = evalset.name, sum(bool(q.get("paraphrase")) for q in questions)
    ratios: dict[str, float | None] = {}
    for stage in STAGES:
        ratios[f"{stage}_{name}"] = ratio(kept[stage], len(questions))
        if paraphrases:
            ratios[f"{stage}_paraphrases_{name}"] = ratio(kept_paraphrases[stage], paraphrases)
    absolute = {f"questions_{name}": len(questions), f"paraphrases_{name}": paraphrases,
                f"mismatched_{name}": mismatched}  # fmt: skip
    absolute.update({f"{stage}_count_{name}": kept[stage] for stage in STAGES})
    absolute.update({f"{stage}_paraphrases_count_{name}": kept_paraphrases[stage] for stage in STAGES})
    return ratios, absolute


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--set", dest="sets", action="append", choices=[*SETS, "all"], help="which set (default all)")
    parser.add_argument("--show", action="store_true", help="print each question that loses its gold file")
    args = parser.parse_args(list(argv) if argv is not None else None)
    chosen = list(SETS) if not args.sets or "all" in args.sets else list(dict.fromkeys(args.sets))
    llm = get_llm()
    ratios: dict[str, float | None] = {}
    absolute: dict[str, Any] = {"embedding_model": llm.embedding_model}
    with Store.from_settings() as store:
        store.verify()
        install_search_schema(store, llm.dimensions)
        for name in chosen:
            got, facts = follow(store, llm, SETS[name], args.show)
            ratios.update(got)
            absolute.update(facts)
    table = Table(title="Questions whose gold file is still there, stage by stage (Document RAG)")
    table.add_column("set")
    for stage in STAGES:
        table.add_column(stage, justify="right")
    for name in chosen:
        n, p = absolute[f"questions_{name}"], absolute[f"paraphrases_{name}"]
        cells = []
        for stage in STAGES:
            cell = f"{absolute[f'{stage}_count_{name}']}/{n}"
            if p:
                cell += f" ({absolute[f'{stage}_paraphrases_count_{name}']}/{p})"
            cells.append(cell)
        table.add_row(name, *cells)
    console.print(table)
    print(json.dumps({"bench": "sources", "ratios": ratios, "absolute": absolute}))
    return 0 if all(absolute[f"mismatched_{name}"] == 0 for name in chosen) else 1


if __name__ == "__main__":
    raise SystemExit(main())
