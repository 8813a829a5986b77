"""Cut a page's or a section's text into overlapping chunks, at sentence or word boundaries.

Why characters and not tokens: a chunk's ``tg:charOffset``/``tg:charLength`` point into its parent's
text, so a reader (or TrustGraph's viewer) can find the passage again; characters are what those
offsets count, and they do not depend on which model later reads the chunk.

The rules, for ``size`` and ``overlap`` in characters:

* no chunk is longer than ``size``;
* a chunk ends at the last sentence end in the second half of its window — where :mod:`tgneo.nlp.segment`, the
  one segmenter, ends a sentence or another unit (never after an abbreviation, an initial or inside an
  identifier such as ``v24.2``), or at a blank line — else at the last line break, else at the last space, else
  (one unbroken word longer than the window) exactly at ``size``;
* the next chunk starts where a sentence starts (:func:`sentence_starts`: a unit the segmenter cuts, a list item
  at its marker): at the first one at most ``overlap`` characters before the previous chunk ended, so that the
  overlap is whole sentences and a quote read from either chunk keeps its subject; where none starts in that
  reach, right after the previous chunk (no overlap). Only a sentence longer than half a chunk, cut by it, is
  taken up again mid-sentence: at the start of a word at most ``overlap`` characters back. The next chunk
  always starts after the previous one's start, so the chunks cover the whole text, in order, and the work
  ends (issue 48: the overlap used to start ``overlap`` characters back at whatever word was there, so 304 of
  the 320 later chunks of the three quality sets began mid-sentence);
* leading and trailing white space is not part of any chunk, and a text of white space only has none.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from tgneo.errors import BadRequest
from tgneo.nlp.segment import Unit, units

__all__ = [
    "DEFAULT_CHUNK_OVERLAP", "DEFAULT_CHUNK_SIZE", "RULES_VERSION", "ChunkSettings", "Span", "chunk_spans",
    "sentence_starts",
]  # fmt: skip

DEFAULT_CHUNK_SIZE = 1000
DEFAULT_CHUNK_OVERLAP = 100
RULES_VERSION = 2
"""The version of the rules above, part of every document's derivation key (:func:`tgneo.ingest.layout.derivation_key`):
a chunk's URI names one cut of one text, so a document loaded again after the rules changed is cut again and
replaces its old derivation (the traces that quoted the old one are marked stale), rather than being kept as
*unchanged* with chunks the rules no longer make. 2: the overlap starts at a sentence (issue 48)."""

_BLANK_LINE = re.compile(r"\n[^\S\n]*\n")
_FENCED = re.compile(r"^[^\S\n]*(`{3,}|~{3,})[^\n]*\n.*?^[^\S\n]*\1[^\S\n]*$", re.M | re.S)
_MARKER = re.compile(r"[^\S\n]*(?:[-*+•]|\d{1,3}[.)])[^\S\n]+")
"""A list item's marker, all that stands before the item's first sentence on its line (``- ``, ``2. ``)."""


@dataclass(frozen=True)
class ChunkSettings:
    """How text is cut: ``size`` characters at most, ``overlap`` characters shared by neighbours."""

    size: int = DEFAULT_CHUNK_SIZE
    overlap: int = DEFAULT_CHUNK_OVERLAP

    def __post_init__(self) -> None:
        for name in ("size", "overlap"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise BadRequest(f"chunk {name} must be a whole number of characters, not {value!r}")
        if self.size < 20:
            raise BadRequest(f"chunk size must be at least 20 characters, not {self.size}")
        if not 0 <= self.overlap < self.size:
            raise BadRequest(
                f"chunk overlap must be at least 0 and less than the chunk size ({self.size}), not {self.overlap}"
            )


@dataclass(frozen=True)
class Span:
    """One chunk: ``text[start:end]`` of its parent."""

    start: int
    end: int

    @property
    def length(self) -> int:
        return self.end - self.start


def sentence_ends(text: str, found: Sequence[Unit] | None = None) -> list[int]:
    """Where a chunk may end after a sentence, in order: the end of each unit :func:`~tgneo.nlp.segment.units`
    cuts (a sentence, a list item, a row, a heading) and each blank line — but not inside a fenced code block,
    whose lines a unit may take in (a sentence ending in a colon holds the code after it), so that a chunk
    never ends between a fence and its close. ``found``: the text's units, when the caller has them already."""
    fenced = [(m.start(), m.end()) for m in _FENCED.finditer(text)]
    ends = {u.end for u in (units(text) if found is None else found) if not any(a < u.end < b for a, b in fenced)}
    return sorted(ends | {m.start() for m in _BLANK_LINE.finditer(text)})


def sentence_starts(text: str) -> list[int]:
    """Where a chunk may start, in order: where each unit :func:`~tgneo.nlp.segment.units` cuts begins (a sentence,
    a list item, a row, a heading, a short code block) — a list item's first sentence at its marker (``- ``), so
    that the chunk holds the item whole."""
    return sorted({_begins(text, unit) for unit in units(text)})


def _begins(text: str, unit: Unit) -> int:
    """Where ``unit`` begins in ``text``: its start, or for a list item's first sentence, its marker's."""
    if unit.kind != "item":
        return unit.start
    line = text.rfind("\n", 0, unit.start) + 1
    if _MARKER.fullmatch(text, line, unit.start) is None:
        return unit.start
    return line + len(text[line : unit.start]) - len(text[line : unit.start].lstrip())


def _next_start(text: str, start: int, end: int, overlap: int, found: list[Unit], starts: list[int]) -> int:
    """Where the chunk after ``text[start:end]`` starts (the rules in the module docstring); ``found`` are the text's
    units, ``starts`` their :func:`sentence_starts`."""
    reach = max(end - overlap, start + 1)
    first = bisect_left(starts, reach)
    if first < len(starts) and starts[first] < end:
        return starts[first]  # the overlap: whole sentences
    last = bisect_left(found, end, key=lambda u: u.start) - 1  # the last unit begun before the chunk's end
    if last < 0 or found[last].end <= end:
        return end  # no sentence starts within reach: the next begins after this chunk
    if reach < end and not text[reach - 1].isspace():  # a sentence longer than half a chunk, cut: at a word
        boundary = re.search(r"\s", text[reach:end])
        reach = reach + boundary.start() if boundary else end
    return reach


def _cut(text: str, start: int, limit: int, ends: list[int]) -> int:
    """Where a chunk that starts at ``start`` ends when it may reach ``limit`` (exclusive)."""
    if limit >= len(text):
        return len(text)
    window = text[start:limit]
    half = len(window) // 2
    first, last = bisect_right(ends, start + half), bisect_left(ends, limit + 1)
    if last > first:
        return ends[last - 1]
    space = window.rfind("\n", half)  # a line's end first: in a long code block the next chunk begins at a line
    if space <= 0:
        space = max(window.rfind(" ", half), window.rfind("\t", half))
    if space > 0:
        return start + space
    return limit


def _skip_space(text: str, i: int) -> int:
    while i < len(text) and text[i].isspace():
        i += 1
    return i


def _trim(text: str, start: int, end: int) -> int:
    while end > start and text[end - 1].isspace():
        end -= 1
    return end


def chunk_spans(text: str, settings: ChunkSettings | None = None) -> list[Span]:
    """The chunks of ``text`` by the rules in the module docstring, in order."""
    settings = settings or ChunkSettings()
    size, overlap = settings.size, settings.overlap
    spans: list[Span] = []
    found = units(text)
    ends = sentence_ends(text, found)
    starts = sorted({_begins(text, unit) for unit in found})
    start = _skip_space(text, 0)
    while start < len(text):
        end = _trim(text, start, _cut(text, start, start + size, ends))
        if end <= start:  # a window of white space only: nothing more to say
            break
        spans.append(Span(start, end))
        if end >= _trim(text, 0, len(text)):
            break
        start = _skip_space(text, _next_start(text, start, end, overlap, found, starts))
    return spans
