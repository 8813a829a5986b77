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


# -- the kind of thing asked for (issue 48, item 1): Apache httpd's manual, adapted ----------------------------------

GRACEFUL_STOP = (
    "Graceful Stop\n\n"
    "The WINCH or `graceful-stop` signal causes the parent process to advise the children to exit after their "
    "current request (or to exit immediately if they're not serving anything). The parent will then remove its "
    "`PidFile` and cease listening on all ports. The parent will continue to run, and monitor children which are "
    "handling requests. Once all children have finalised and exited or the timeout specified by the "
    "`GracefulShutdownTimeout` has been reached, the parent will also exit. If the timeout is reached, any "
    "remaining children will be sent the TERM signal to force them to exit."
)
NAMES_IT = "Once all children have finalised and exited or the timeout specified by the `GracefulShutdownTimeout`"
LEANS = "If the timeout is reached, any remaining children will be sent the TERM signal to force them to exit."


@pytest.mark.parametrize(
    ("question", "wanted"),
    [
        ("Which directive bounds how long a graceful stop waits for its children?", "term"),
        ("What signal makes the parent process re-read its configuration files?", "term"),
        ("Which HTTP status code does the server send when the request body is too large?", "term"),
        ("What is the default checkpoint style?", "value"),
        ("Which transaction behaviour is the default when BEGIN has no qualifier?", "value"),
        ("Where is pip's cache stored by default on Linux?", "place"),
    ],
)
def test_a_question_asking_for_a_directive_signal_or_default_says_so(question: str, wanted: str) -> None:
    assert wants(question) == wanted


def test_the_sentence_naming_the_directive_is_quoted_beside_the_one_that_leans_on_it() -> None:
    question = "Which directive sets the timeout after which the remaining children are sent the TERM signal?"
    task = Task("docrag-synthesis", {"question": question, "passages": [{"text": GRACEFUL_STOP}]})
    text = OfflineLLM().complete(task).text
    assert text.startswith(NAMES_IT) and LEANS in text  # the name first, then the sentence it answers with


def test_the_agent_quotes_the_directive_s_sentence_beside_the_one_that_leans_on_it() -> None:
    question = "Which directive sets the timeout after which the remaining children are sent the TERM signal?"
    found = f"{NAMES_IT} has been reached, the parent will also exit. {LEANS}"
    task = Task("agent-synthesis", {"question": question, "results": [{"goal": question, "text": found}]})
    assert OfflineLLM().complete(task).text == found


def test_a_sentence_that_names_what_was_asked_needs_no_neighbour() -> None:
    question = "Which signal is sent to the remaining children when the graceful stop timeout is reached?"
    task = Task("docrag-synthesis", {"question": question, "passages": [{"text": GRACEFUL_STOP}]})
    assert OfflineLLM().complete(task).text == LEANS


def test_a_default_is_answered_by_the_reference_card_s_row() -> None:
    card = (
        "DeflateBufferSize Directive\n\nDescription: Fragment size to be compressed at one time by zlib.\n\n"
        "Syntax: `DeflateBufferSize value`.\n\nDefault: `DeflateBufferSize 8096`.\n\n"
        "Context: server config, virtual host.\n\nStatus: Extension.\n\nModule: mod_deflate.\n\n"
        "The `DeflateBufferSize` directive specifies the size in bytes of the fragments that zlib should compress "
        "at one time."
    )
    question = "What is the default of DeflateBufferSize?"
    assert fits(wants(question), question, "Default: `DeflateBufferSize 8096`.") == 1.0
    assert fits(wants(question), question, "Syntax: `DeflateBufferSize value`.") == 0.0
    task = Task("docrag-synthesis", {"question": question, "passages": [{"text": card}]})
    assert OfflineLLM().complete(task).text.startswith("Default: `DeflateBufferSize 8096`.")
