#!/usr/bin/env python3
"""How far sentence ranking alone can go: the ceiling an extractive answer meets, per offline embedder.

The offline answers quote the sentences of what was retrieved that score best for the question
(:mod:`tgneo.llm.offline.answers`). This bench gives them the best retrieval there can be — every sentence of
the one document that answers, for each question of the evaluation sets of ``scripts/bench/quality/`` (no Neo4j
needed; ``--set`` to choose some, default all) — and asks whether the top sentence, or any of the top three or
ten, names one of the question's gold terms (as ``quality.py`` judges an answer), ranking by:

* ``cosine`` — the embedder's similarity of each sentence to the question, alone;
* ``blend`` — the score the offline answers use (key terms, meaning where the embedder knows it, answer type);

and, beside those, whether the offline Document RAG answer itself (``docrag-synthesis``, which quotes a further
sentence only when it carries what was asked) names a gold term when it is handed that whole document as its
passages (``answer``): what the engines' answers reach with retrieval that cannot miss. Where an engine's hit rate
is near that, its shortfall is the answer's rule of quoting, not retrieval.

A two-part question (``parts``, issue 48) is handed every sentence of its part's page, or of both pages when its
parts come from two (the passages of both, for ``answer``), and counts as ``quality.py`` counts it: answered when a
gold term of any part is named. Beside that, ``answer_both_parts`` is the share of the two-part questions whose
offline answer, so handed its page(s), names a gold term of every part: the bound for ``quality.py``'s
``both_parts``.

``corpus top 25`` ranks, by ``blend``, every sentence of the whole set instead (no retrieval, no document known)
and looks at the best 25: GraphRAG's context at most (``edge_limit`` 25 edges, one a sentence first). GraphRAG
ranks only the sentences its exploration reached (and weighs a word by its rarity among them), so where its context
recall is under this, the pool it ranked, not the scorer, lost the answer.

Prints, as its LAST line, JSON ``{"bench": "sentences", "ratios": {...}, "absolute": {...}}`` with
``{ranking}_top{1,3,10}_{set}_{model}``, ``answer_{set}_{model}``, ``corpus_top25_{set}_{model}``,
``…_paraphrases_{set}_{model}`` (the share of questions answered at that depth) and, for a set with two-part
questions, ``answer_both_parts_{set}_{model}``. An engine does worse than the
document's columns (retrieval misses, other documents' sentences compete), so where ``blend_top3_paraphrases`` stays
under issue 38's goal for paraphrases (0.5), no tuning of the answers reaches it with that embedder. Embedders not
installed (or not fetched) are reported and skipped.

    python scripts/bench/sentences.py
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from embedders import installed  # scripts/bench/embedders.py
from quality import SETS, EvalSet, every_part, golds, mentions, sources  # scripts/bench/quality.py
from rich.console import Console
from rich.table import Table

from tgneo.ingest.readers import decode
from tgneo.llm.offline.answers import docrag_synthesis, sentence_scores
from tgneo.llm.offline.embedders import EMBEDDERS
from tgneo.llm.offline.meaning import using
from tgneo.nlp.segment import sentences

console = Console(stderr=True, width=None if sys.stderr.isatty() else 140)
DEPTHS = (1, 3, 10)
"""Top 1 and 3: what a quoted answer can hold; top 10: what a context handed to a model can (GraphRAG hands at least
13 evidence sentences: 25 edges, at most two a sentence), the ceiling for context recall by sentence ranking."""
RANKINGS = ("cosine", "blend")
CORPUS_DEPTH = 25
"""The ``corpus`` column's depth: the evidence sentences GraphRAG hands synthesis at most."""


def document_parts(corpus: Path) -> dict[str, list[str]]:
    """Each file's parts (its sections' texts), as a load reads them."""
    return {
        path.name: [part.text for part in decode(path.name, path.read_bytes()).parts]
        for path in sorted(p for p in corpus.iterdir() if p.is_file())
    }


def distinct_sentences(parts: Sequence[str]) -> list[str]:
    """A document's distinct sentences, as the answers see them (whitespace folded)."""
    return list(dict.fromkeys(" ".join(s.split()) for s in sentences("\n".join(parts))))


def ranked(scores: Sequence[float]) -> list[int]:
    """The candidates' indexes, best score first (ties in text order)."""
    return sorted(range(len(scores)), key=lambda i: (-scores[i], i))


def answered(order: Sequence[int], candidates: Sequence[str], gold: Sequence[str], depth: int) -> bool:
    return any(mentions(candidates[i], g) for i in order[:depth] for g in gold)


Counts = dict[tuple[str, int, bool], int]
"""(ranking, depth, paraphrases only) → questions answered; the ``answer`` column's depth is 0, and
``("answer_both_parts", 0, False)`` counts the two-part questions whose answer names every part."""


def count(e: Any, evalset: EvalSet) -> tuple[Counts, list[dict[str, Any]]]:
    """How many of the set's questions each ranking answers at each depth, and the questions."""
    docs = document_parts(evalset.corpus)
    every = list(dict.fromkeys(s for parts in docs.values() for s in distinct_sentences(parts)))
    questions = evalset.load()
    counts = {(r, d, p): 0 for r in RANKINGS for d in DEPTHS for p in (False, True)}
    counts |= {("answer", 0, p): 0 for p in (False, True)} | {("corpus", CORPUS_DEPTH, p): 0 for p in (False, True)}
    counts[("answer_both_parts", 0, False)] = 0
    for q in questions:
        passages = [text for source in sources(q) for text in docs[source]]
        candidates = distinct_sentences(passages)
        gold = golds(q)
        question, *others = e.vectors([q["question"], *candidates])  # None: a text with no words
        cosine = [sum(a * b for a, b in zip(question or (), v or (), strict=False)) for v in others]
        with using(e):
            blend = sentence_scores(q["question"], candidates)
            said = docrag_synthesis({"question": q["question"], "passages": [{"text": t} for t in passages]})
            overall = sentence_scores(q["question"], every)
        for ranking, scores in (("cosine", cosine), ("blend", blend)):
            order = ranked(scores)
            for depth in DEPTHS:
                hit = answered(order, candidates, gold, depth)
                counts[(ranking, depth, False)] += hit
                counts[(ranking, depth, True)] += hit and bool(q.get("paraphrase"))
        hits = {
            ("answer", 0): any(mentions(said, g) for g in gold),
            ("corpus", CORPUS_DEPTH): answered(ranked(overall), every, gold, CORPUS_DEPTH),
        }
        counts[("answer_both_parts", 0, False)] += "parts" in q and every_part(said, q)
        for (ranking, depth), hit in hits.items():
            counts[(ranking, depth, False)] += hit
            counts[(ranking, depth, True)] += hit and bool(q.get("paraphrase"))
    return counts, questions


def column(ranking: str, depth: int) -> str:
    return "answer" if ranking == "answer" else f"{ranking} top {depth}"


COLUMNS = [*((r, d) for r in RANKINGS for d in DEPTHS), ("answer", 0), ("corpus", CORPUS_DEPTH)]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--set", dest="sets", action="append", choices=[*SETS, "all"], help="evaluation set(s) to run (default: all)"
    )
    args = parser.parse_args(argv)
    chosen = list(SETS) if not args.sets or "all" in args.sets else list(dict.fromkeys(args.sets))
    ratios: dict[str, float] = {}
    absolute: dict[str, Any] = {}
    table = Table(title="questions answered by the best sentences of the answering document, or of the set (corpus)")
    for heading in ("embedder", "set", *(column(r, d) for r, d in COLUMNS), "answer both parts"):
        table.add_column(heading)
    for model, e in installed(EMBEDDERS):
        for name in chosen:
            counts, questions = count(e, SETS[name])
            paraphrases = sum(bool(q.get("paraphrase")) for q in questions)
            two_part = sum("parts" in q for q in questions)
            absolute[f"questions_{name}"], absolute[f"paraphrases_{name}"] = len(questions), paraphrases
            row = [model, name]
            both = counts.pop(("answer_both_parts", 0, False))
            if two_part:
                absolute[f"two_part_{name}"] = two_part
                ratios[f"answer_both_parts_{name}_{model}"] = round(both / two_part, 3)
            for (ranking, depth, para), n in counts.items():
                if para and not paraphrases:
                    continue
                at = column(ranking, depth).replace(" top ", "_top")
                key = f"{at}{'_paraphrases' if para else ''}_{name}_{model}"
                ratios[key] = round(n / (paraphrases if para else len(questions)), 3)
                if not para:
                    cell = f"{n}/{len(questions)}"
                    row.append(cell + (f" ({counts[(ranking, depth, True)]}/{paraphrases})" if paraphrases else ""))
            table.add_row(*row, f"{both}/{two_part}" if two_part else "")
    console.print(table)
    print(json.dumps({"bench": "sentences", "ratios": ratios, "absolute": absolute}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
