"""GraphRAG's Focus hands synthesis many sentences, not a few sentences' many facts (issue 38): past the best
sentences, which keep their pair of facts, one edge of each sentence before any sentence's second.

Pure: the selection rule of :func:`tgneo.engines.graphrag.select`, on edges whose evidence is SQLite's
documentation's own sentences (``scripts/bench/quality/sqlite-3.40.1-docs``, as tgneo's HTML reader and
segmenter read them): reference prose states several facts a sentence, so its co-occurrence edges come in
runs that score alike.
"""

from __future__ import annotations

from itertools import combinations

from rdflib import URIRef

from tgneo.engines.graphrag import PER_EVIDENCE, select
from tgneo.rdf.terms import QuotedTriple
from tgneo.store.kg import Edge

MANY_FACTS = (  # wal.html
    'This feature allows WAL databases to be created, read, and written by legacy VFSes that lack the "version 2" '
    "shared-memory methods xShmMap, xShmLock, xShmBarrier, and xShmUnmap on the sqlite3_io_methods object."
)
ONE_FACT_EACH = [  # limits.html
    "The default setting for SQLITE_MAX_COLUMN is 2000.",
    "The default value of this macro is 1 billion (1 thousand million or 1,000,000,000).",
    "The current implementation has a default value of 1000.",
    "The default value of this limit is 100.",
    "The maximum number of terms is SQLITE_MAX_COMPOUND_SELECT which defaults to 500.",
    "The default value of this limit is 50000.",
    "The default maximum trigger recursion depth is 1000.",
    "The number of simultaneously attached databases is limited to SQLITE_MAX_ATTACHED which is set to 10 by default.",
]


def edge(n: int, evidence: str) -> Edge:
    s, o = URIRef(f"urn:t:s{n}"), URIRef(f"urn:t:o{n}")
    return Edge(f"e{n}", QuotedTriple(s, URIRef("urn:t:p"), o), f"s{n}", "co-occurs with", f"o{n}", evidence)


def corpus() -> tuple[dict[str, Edge], dict[str, float]]:
    """A sentence of 15 edges (six of its terms, pairwise) scoring above every one of eight single-fact
    sentences, as the edges of a sentence that names all the question's terms do."""
    by_id: dict[str, Edge] = {}
    scores: dict[str, float] = {}
    for n, _ in enumerate(combinations(range(6), 2)):
        by_id[f"e{n}"], scores[f"e{n}"] = edge(n, MANY_FACTS), 0.9 - n * 0.001
    for i, sentence in enumerate(ONE_FACT_EACH):
        n = 100 + i
        by_id[f"e{n}"], scores[f"e{n}"] = edge(n, sentence), 0.5 - i * 0.01
    return by_id, scores


def test_a_many_fact_sentence_gives_at_most_its_share_of_the_selected_edges() -> None:
    by_id, scores = corpus()
    chosen = select(scores, by_id, score_limit=10, limit=25)
    assert sum(by_id[k].evidence == MANY_FACTS for k in chosen) == PER_EVIDENCE


def test_the_score_limit_counts_the_edges_left_once_each_sentence_is_capped() -> None:
    by_id, scores = corpus()
    chosen = select(scores, by_id, score_limit=10, limit=25)
    sentences = {by_id[k].evidence for k in chosen}
    assert len(chosen) == 10  # the cut is filled: 2 of the many-fact sentence, then 8 sentences of one fact
    assert set(ONE_FACT_EACH) <= sentences


def test_the_best_sentences_give_their_pair_of_facts_at_once() -> None:
    by_id, scores = corpus()
    chosen = select(scores, by_id, score_limit=9, limit=25)
    assert chosen[:2] == ["e0", "e1"]  # the best sentence's two facts (a question's hop), then one-fact sentences
    assert [by_id[k].evidence for k in chosen[2:]] == ONE_FACT_EACH[:7]


def test_a_sentence_past_the_best_gives_a_second_edge_only_after_every_sentence_gave_one() -> None:
    by_id, scores = corpus()
    for n in range(15):  # the many-fact sentence now ranks sixth, between the fifth and sixth one-fact sentences
        scores[f"e{n}"] = 0.455 - n * 0.0001
    chosen = select(scores, by_id, score_limit=9, limit=25)
    assert sum(by_id[k].evidence == MANY_FACTS for k in chosen) == 1
    assert len({by_id[k].evidence for k in chosen}) == 9
    wide = select(scores, by_id, score_limit=30, limit=25)  # room for every sentence: then its second edge
    assert sum(by_id[k].evidence == MANY_FACTS for k in wide) == PER_EVIDENCE


def test_the_best_scored_edges_come_first_and_an_edge_scored_zero_is_never_selected() -> None:
    by_id, scores = corpus()
    scores["e107"] = 0.0
    chosen = select(scores, by_id, score_limit=30, limit=25)
    assert chosen[:2] == ["e0", "e1"]
    assert "e107" not in chosen
    assert [scores[k] for k in chosen] == sorted((scores[k] for k in chosen), reverse=True)
