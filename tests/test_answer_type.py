"""Focused extractive answers: the sentence that offers what the question wants, and the clause that answers.

The sentences are SQLite's documentation's own (``scripts/bench/quality/sqlite-3.40.1-docs``).
"""

from __future__ import annotations

import pytest

from tgneo.engines.attribution import attribute
from tgneo.explain.events import Evidence
from tgneo.llm.base import Task
from tgneo.llm.offline import OfflineLLM
from tgneo.nlp.answer_type import LONG_SENTENCE_WORDS, asked_noun, clauses, fits, wants

AUTOINC = (
    "If the AUTOINCREMENT keyword appears after INTEGER PRIMARY KEY, that changes the automatic ROWID assignment "
    "algorithm to prevent the reuse of ROWIDs over the lifetime of the database; in other words, the purpose of "
    "AUTOINCREMENT is to prevent the reuse of ROWIDs from previously deleted rows."
)
SEQUENCE = (
    'SQLite keeps track of the largest ROWID using an internal table named "sqlite_sequence" which is created '
    "and initialized automatically whenever a normal table that contains an AUTOINCREMENT column is created."
)


@pytest.mark.parametrize(
    ("question", "wanted"),
    [
        ("Which keyword prevents the reuse of a rowid?", "term"),
        ("Which pragma turns on foreign key enforcement?", "term"),
        ("How many kinds of temporary files does SQLite use?", "number"),
        ("What is the default maximum number of columns in a table?", "number"),
        ("What is a WITHOUT ROWID table?", "definition"),
        ("Why does WAL mode need shared memory?", None),
    ],
)
def test_a_question_says_what_kind_of_answer_it_wants(question: str, wanted: str | None) -> None:
    assert wants(question) == wanted


def test_a_term_question_wants_a_sentence_naming_a_term_the_question_does_not() -> None:
    question = "Which table records the largest rowid handed out?"
    assert fits("term", question, SEQUENCE) == 1.0  # a table named "sqlite_sequence"
    assert fits("term", "Which keyword prevents the reuse of a rowid?", SEQUENCE) == 0.5  # a term, not a keyword's
    assert fits("term", "Which keyword prevents the reuse of a rowid?", AUTOINC) == 1.0  # the AUTOINCREMENT keyword
    assert not fits("term", question, "The largest rowid is remembered for each table.")


def test_a_number_question_wants_a_number_and_a_definition_question_the_subject_said_to_be() -> None:
    assert fits("number", "How many?", "SQLite currently uses nine distinct types of temporary files.")
    assert not fits("number", "How many?", "SQLite uses several kinds of temporary files.")
    question = "What is a WITHOUT ROWID table?"
    assert fits("definition", question, "A WITHOUT ROWID table is a table that uses a Clustered Index as its key.")
    assert not fits("definition", question, "WITHOUT ROWID tables were added in version 3.8.2.")


def test_a_long_sentence_splits_into_clauses_and_a_short_one_stays_whole() -> None:
    assert len(AUTOINC.split()) > LONG_SENTENCE_WORDS
    first, second = clauses(AUTOINC)
    assert first.endswith("over the lifetime of the database") and second.startswith("in other words")
    assert clauses(SEQUENCE) == [SEQUENCE]


def test_the_answer_opens_with_the_sentence_naming_the_asked_for_term_before_its_neighbour() -> None:
    # the passage names the internal table first; the question asks for the keyword
    question = "Which keyword stops SQLite from reusing the rowids of deleted rows?"
    passages = [{"id": "urn:c:1", "text": f"{SEQUENCE} {AUTOINC}"}]
    answer = OfflineLLM().complete(Task("docrag-synthesis", {"question": question, "passages": passages})).text
    assert answer.index("purpose of AUTOINCREMENT") < answer.find("sqlite_sequence")


def test_a_clause_is_quoted_alone_and_cites_the_whole_sentence_it_was_cut_from() -> None:
    question = "What is the purpose of AUTOINCREMENT?"
    passages = [{"id": "urn:c:1", "text": AUTOINC}]
    answer = OfflineLLM().complete(Task("docrag-synthesis", {"question": question, "passages": passages})).text
    assert answer.startswith("In other words, the purpose of AUTOINCREMENT") and "INTEGER PRIMARY KEY" not in answer
    citations, _ = attribute(answer, (Evidence("urn:c:sel:0", AUTOINC, 0),), OfflineLLM(), "urn:x:synthesis")
    assert [e.text for c in citations for e in c.evidence] == [AUTOINC]


@pytest.mark.parametrize(
    ("question", "noun"),
    [
        ("Which river flows through the city where Marie Curie was born?", "river"),
        ("What kind of problem is dependency resolution known to be?", "problem"),
        ("What is a WITHOUT ROWID table?", None),
        ("Which of the two is older?", None),
        ("Where did Marie Curie die?", None),
    ],
)
def test_the_noun_a_which_question_asks_for_is_found(question: str, noun: str | None) -> None:
    assert asked_noun(question) == noun


def test_a_passage_naming_the_kind_of_thing_asked_for_outranks_one_holding_more_of_the_question() -> None:
    # a two-hop question: the sentence on the birth holds more of its words, the one naming a river answers
    passages = [{"text": "Marie Curie was born in Warsaw in 1867. The city lies on the Vistula, a long river."}]
    question = "Which river flows through the city where Marie Curie was born?"
    text = OfflineLLM().complete(Task("docrag-synthesis", {"question": question, "passages": passages})).text
    assert "Vistula" in text
