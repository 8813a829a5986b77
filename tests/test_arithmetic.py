"""Questions computed from facts they do not state (:mod:`tgneo.nlp.arithmetic`): pure, no database, no model."""

from __future__ import annotations

import pytest

from tgneo.nlp.arithmetic import Computation, computation, expression, operand


@pytest.mark.parametrize(
    ("question", "lookups"),
    [
        (
            "How old was Marie Curie when she won her first Nobel Prize?",
            ("When was Marie Curie born?", "What year was it when Marie Curie won her Nobel Prize?"),
        ),
        ("At what age did Pierre Curie die?", ("When was Pierre Curie born?", "When did Pierre Curie die?")),
        ("How long did Marie Curie live?", ("When was Marie Curie born?", "When did Marie Curie die?")),
        (
            "How many years passed between the discovery of radium and the founding of the Radium Institute?",
            ("When was the discovery of radium?", "When was the founding of the Radium Institute?"),
        ),
        (
            "How many years after the discovery of radium did Marie Curie found the Radium Institute?",
            ("When was the discovery of radium?", "When did Marie Curie found the Radium Institute?"),
        ),
        (
            "How many more Nobel Prizes did Marie Curie win than Pierre Curie?",
            ("How many Nobel Prizes did Marie Curie win?", "How many Nobel Prizes did Pierre Curie win?"),
        ),
    ],
)
def test_a_computed_question_names_one_lookup_per_fact(question: str, lookups: tuple[str, ...]) -> None:
    found = computation(question)
    assert found is not None and found.lookups == lookups


def test_a_year_the_question_gives_is_an_operand_without_a_lookup() -> None:
    assert computation("How old was Marie Curie in 1900?") == Computation(("When was Marie Curie born?",), (1900,))


@pytest.mark.parametrize(
    "question",
    [
        "What is the difference between pip install and pip download?",  # a difference of meaning, not of numbers
        "How long does pip keep its cache?",
        "How many significant decimal digits are kept when text is converted to a REAL value?",
    ],
)
def test_a_question_that_asks_for_no_arithmetic_is_none(question: str) -> None:
    assert computation(question) is None


def test_a_lookup_reads_the_year_of_what_it_asks_about_its_subject() -> None:
    found = computation("How long did Marie Curie live?")
    assert found is not None
    # another person's death, and another event of hers, date nothing
    assert operand(found, 1, "Pierre Curie died in Paris in 1906. Marie Curie married Pierre Curie in 1895.") is None
    assert operand(found, 1, "Marie Curie died in Passy in 1934.") == (1934, "Marie Curie died in Passy in 1934.")


def test_a_first_event_takes_the_earliest_year_found() -> None:
    found = computation("How old was Marie Curie when she won her first Nobel Prize?")
    assert found is not None
    said = "Marie Curie won the Nobel Prize in Chemistry in 1911. Marie Curie won the Nobel Prize in Physics in 1903."
    assert operand(found, 1, said) == (1903, "Marie Curie won the Nobel Prize in Physics in 1903.")


def test_amounts_are_read_as_numerals_or_number_words_and_subtracted_in_order() -> None:
    found = computation("How many more Nobel Prizes did Marie Curie win than Pierre Curie?")
    assert found is not None
    mine = operand(found, 0, "Marie Curie won two Nobel Prizes.")
    theirs = operand(found, 1, "Pierre Curie won 1 Nobel Prize.")
    assert mine is not None and theirs is not None
    assert expression(found, [mine[0], theirs[0]]) == "2 - 1"


def test_a_span_is_the_later_year_minus_the_earlier_whatever_the_order() -> None:
    found = computation("How many years passed between the founding of the institute and the discovery of radium?")
    assert found is not None and expression(found, [1932, 1898]) == "1932 - 1898"
