"""Chunking: sizes and overlaps respected, boundaries at sentences or words, the whole text covered."""

from __future__ import annotations

import pytest

from tgneo.errors import BadRequest
from tgneo.ingest.chunking import ChunkSettings, chunk_spans

PROSE = (
    "Marie Curie was born in Warsaw in 1867. She moved to Paris in 1891. She studied physics at the "
    "University of Paris. She married Pierre Curie in 1895. Together they discovered polonium and radium. "
) * 12


@pytest.mark.parametrize(("size", "overlap"), [(200, 0), (200, 40), (333, 99), (1000, 100), (60, 20)])
def test_no_chunk_is_longer_than_the_size_and_neighbours_share_at_most_the_overlap(size: int, overlap: int) -> None:
    spans = chunk_spans(PROSE, ChunkSettings(size, overlap))
    assert spans and all(span.length <= size for span in spans)
    for before, after in zip(spans, spans[1:], strict=False):
        assert before.start < after.start
        assert not PROSE[before.end : after.start].strip()  # no text between them is left out
        assert before.end - after.start <= overlap


def test_chunks_cover_the_whole_text() -> None:
    text = PROSE.strip()
    spans = chunk_spans(text, ChunkSettings(150, 30))
    assert spans[0].start == 0 and spans[-1].end == len(text)


def test_a_chunk_ends_at_a_sentence_when_one_ends_in_the_second_half_of_its_window() -> None:
    for span in chunk_spans(PROSE.strip(), ChunkSettings(300, 50))[:-1]:
        assert PROSE[span.end - 1] == "."


def test_a_chunk_never_ends_after_an_abbreviation() -> None:
    """``e.g.`` is no sentence end to ``nlp.segment``, the one segmenter, so no chunk ends there (one used to)."""
    text = (
        "Radium was isolated in 1902. Curie studied several salts, e.g. radium chloride and bromide, "
        "in pip v24.2 style runs of many words that go on and on for a long while here."
    )
    spans = chunk_spans(text, ChunkSettings(96, 0))
    assert [text[s.start : s.end].rsplit(" ", 1)[-1] for s in spans[:-1]] == ["in"]


def test_a_chunk_never_ends_between_a_code_fence_and_its_close_when_a_sentence_ends_before_it() -> None:
    text = (
        "Polonium was found in 1898 by the Curies in Paris. To list the isotopes, run the query below:\n\n"
        "```\nSELECT name FROM isotopes. WHERE element = 'Po'. ORDER BY mass.\n```\n\nThe list is short."
    )
    first, second = (text[s.start : s.end] for s in chunk_spans(text, ChunkSettings(140, 0)))
    assert first.endswith("run the query below:") and second.startswith("```")


def test_a_chunk_ends_at_a_word_when_no_sentence_ends_in_its_window() -> None:
    text = "word " * 100
    for span in chunk_spans(text, ChunkSettings(47, 10)):
        assert not text[span.start].isspace() and not text[span.end - 1].isspace()
        assert span.end == len(text.rstrip()) or text[span.end] == " "


def test_an_overlapping_chunk_starts_at_the_start_of_a_word() -> None:
    text = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma " * 5
    for span in chunk_spans(text, ChunkSettings(60, 25))[1:]:
        assert text[span.start - 1] == " " and text[span.start] != " "


def test_one_unbroken_word_longer_than_the_size_is_cut_at_the_size() -> None:
    spans = chunk_spans("x" * 95, ChunkSettings(40, 0))
    assert [(s.start, s.end) for s in spans] == [(0, 40), (40, 80), (80, 95)]


def test_white_space_alone_gives_no_chunk() -> None:
    assert chunk_spans(" \n\t  \n", ChunkSettings()) == []


@pytest.mark.parametrize(
    ("size", "overlap", "problem"),
    [
        (10, 0, "at least 20"),
        (100, 100, "less than the chunk size"),
        (100, -1, "at least 0"),
        (True, 0, "whole number"),
    ],
)
def test_settings_that_cannot_work_are_refused_with_the_reason(size: int, overlap: int, problem: str) -> None:
    with pytest.raises(BadRequest, match=problem):
        ChunkSettings(size, overlap)
