"""Chunking: sizes and overlaps respected, boundaries at sentences or words, the whole text covered, and every chunk
after the first beginning where a sentence begins (in real documents too, and as stored in Neo4j)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.ingesting import load, query
from tgneo.errors import BadRequest
from tgneo.ingest.chunking import ChunkSettings, chunk_spans
from tgneo.ingest.readers import decode
from tgneo.nlp.segment import units
from tgneo.store import Store

QUALITY = Path(__file__).resolve().parents[1] / "scripts" / "bench" / "quality"
POSTGRES = QUALITY / "postgresql-15.20-docs"

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


def _begins_a_sentence(text: str, at: int) -> bool:
    """Whether ``text[at:]`` begins where the segmenter begins a unit (a sentence, an item at its marker, a row, a
    heading, a short code block)."""
    marker = re.compile(r"(?:[-*+•]|\d{1,3}[.)])[^\S\n]+")
    return any(u.start == at or (u.kind == "item" and marker.fullmatch(text, at, u.start)) for u in units(text))


def _in_code(text: str, at: int) -> bool:
    """Whether ``at`` is the first character of a line (or its fence) of a fenced code block, which holds no
    sentences."""
    fenced = [
        m.span() for m in re.finditer(r"^[^\S\n]*(`{3,}|~{3,})[^\n]*\n.*?^[^\S\n]*\1[^\S\n]*$", text, re.M | re.S)
    ]
    line = text.rfind("\n", 0, at) + 1
    return any(a <= at < b for a, b in fenced) and not text[line:at].strip()


def test_a_chunk_after_the_first_starts_where_a_sentence_starts_and_shares_only_whole_sentences() -> None:
    """The overlap begins at a sentence: the first sentence starting within ``overlap`` of the chunk's end (here
    *She moved to Paris in 1891.*, 28 characters), or none (so the next chunk starts right after)."""
    text = PROSE.strip()
    starts = {u.start for u in units(text)}
    for size, overlap in ((150, 30), (200, 40), (1000, 100), (333, 99)):
        spans = chunk_spans(text, ChunkSettings(size, overlap))
        assert len(spans) > 1
        for before, after in zip(spans, spans[1:], strict=False):
            assert after.start in starts, (size, overlap, text[after.start : after.start + 30])
            shared = before.end - after.start
            assert shared <= overlap
            earlier = [s for s in starts if before.end - overlap <= s < after.start and s > before.start]
            assert not earlier  # the overlap is as long as whole sentences allow: none starts before it in reach
    spans = chunk_spans(text, ChunkSettings(150, 30))
    assert any(
        text[a.start : b.end].startswith("She moved to Paris in 1891.") for a, b in zip(spans, spans[1:], strict=False)
    )
    shared = [text[b.start : a.end] for a, b in zip(spans, spans[1:], strict=False) if a.end > b.start]
    assert shared and all(s.endswith(".") and s[0].isupper() for s in shared)


@pytest.mark.parametrize("corpus", ["pip-24.2-topics", "sqlite-3.40.1-docs", "postgresql-15.20-docs"])
def test_in_real_documents_every_chunk_after_the_first_begins_a_sentence(corpus: str) -> None:
    """Over the quality sets' pages as the readers read them (MyST Markdown, hand-written HTML, DocBook HTML): every
    later chunk of a page or section begins where the segmenter begins a sentence — or, inside a long code block
    (no sentences there: a shell session, a table printed by a query), at one of its lines. 304 of their 320 later
    chunks began mid-sentence when the overlap was cut ``overlap`` characters back at any word."""
    later = 0
    for path in sorted((QUALITY / corpus).iterdir()):
        if path.suffix not in (".md", ".html"):
            continue
        for part in decode(path.name, path.read_bytes()).parts:
            for span in chunk_spans(part.text, ChunkSettings())[1:]:
                later += 1
                at = span.start
                assert _begins_a_sentence(part.text, at) or _in_code(part.text, at), (
                    f"{path.name}: …{part.text[max(0, at - 40) : at]!r} | {part.text[at : at + 40]!r}…"
                )
    assert later > 20


def test_the_chunks_stored_for_real_pages_begin_where_their_sections_sentences_begin(
    store: Store, collection: str, tmp_path: Path
) -> None:
    """Loaded into Neo4j (PostgreSQL's reference pages, read by the HTML reader, default chunk settings), every
    chunk after a section's first starts at a sentence of its section's text, and still shares at most the overlap
    with the chunk before."""
    pages = tmp_path / "pages"
    pages.mkdir()
    for name in ("explicit-locking.html", "indexes-partial.html", "wal-configuration.html", "sql-reindex.html"):
        (pages / name).write_bytes((POSTGRES / name).read_bytes())
    assert load(store, collection, pages).loaded == 4
    rows = query(
        store,
        """MATCH (c:TgChunk {workspace: $w, collection: $c})-[:WAS_DERIVED_FROM]->(s)
        WHERE s:TgSection OR s:TgPage
        RETURN s.uri AS part, s.text AS text, c.chunkIndex AS i, c.charOffset AS offset, c.charLength AS length
        ORDER BY part, i""",
        w="w", c=collection,
    )  # fmt: skip
    later = [r for r in rows if r["i"] > 0]
    assert len(later) >= 40
    for row in later:
        assert _begins_a_sentence(row["text"], row["offset"]), row["text"][row["offset"] : row["offset"] + 60]
    for before, after in zip(rows, rows[1:], strict=False):
        if before["part"] == after["part"]:
            assert 0 <= after["offset"] and before["offset"] + before["length"] - after["offset"] <= 100
