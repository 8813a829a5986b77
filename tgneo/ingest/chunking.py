"""Cut a page's or a section's text into overlapping chunks, at sentence or word boundaries.

Why characters and not tokens: a chunk's ``tg:charOffset``/``tg:charLength`` point into its parent's
text, so a reader (or TrustGraph's viewer) can find the passage again; characters are what those
offsets count, and they do not depend on which model later reads the chunk.

The rules, for ``size`` and ``overlap`` in characters:

* no chunk is longer than ``size``;
* a chunk ends at the last sentence end in the second half of its window — where :mod:`tgneo.nlp.segment`, the
  one segmenter, ends a sentence or another unit (never after an abbreviation, an initial or inside an
  identifier such as ``v24.2``), or at a blank line — else at the last space, else (one unbroken word longer
  than the window) exactly at ``size``;
* the next chunk starts at most ``overlap`` characters before the previous one ended, moved forward
  to the start of a word, and always after the previous chunk's start, so the chunks cover the whole
  text, in order, and the work ends;
* leading and trailing white space is not part of any chunk, and a text of white space only has none.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass

from tgneo.errors import BadRequest
from tgneo.nlp.segment import units

__all__ = ["DEFAULT_CHUNK_OVERLAP", "DEFAULT_CHUNK_SIZE", "ChunkSettings", "Span", "chunk_spans"]

DEFAULT_CHUNK_SIZE = 1000
DEFAULT_CHUNK_OVERLAP = 100

_BLANK_LINE = re.compile(r"\n[^\S\n]*\n")
_FENCED = re.compile(r"^[^\S\n]*(`{3,}|~{3,})[^\n]*\n.*?^[^\S\n]*\1[^\S\n]*$", re.M | re.S)


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


def sentence_ends(text: str) -> list[int]:
    """Where a chunk may end after a sentence, in order: the end of each unit :func:`~tgneo.nlp.segment.units`
    cuts (a sentence, a list item, a row, a heading) and each blank line — but not inside a fenced code block,
    whose lines a unit may take in (a sentence ending in a colon holds the code after it), so that a chunk
    never ends between a fence and its close."""
    fenced = [(m.start(), m.end()) for m in _FENCED.finditer(text)]
    ends = {u.end for u in units(text) if not any(a < u.end < b for a, b in fenced)}
    return sorted(ends | {m.start() for m in _BLANK_LINE.finditer(text)})


def _cut(text: str, start: int, limit: int, ends: list[int]) -> int:
    """Where a chunk that starts at ``start`` ends when it may reach ``limit`` (exclusive)."""
    if limit >= len(text):
        return len(text)
    window = text[start:limit]
    half = len(window) // 2
    first, last = bisect_right(ends, start + half), bisect_left(ends, limit + 1)
    if last > first:
        return ends[last - 1]
    space = window.rfind(" ", half)
    if space <= 0:
        space = max(window.rfind("\n", half), window.rfind("\t", half))
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
    ends = sentence_ends(text)
    start = _skip_space(text, 0)
    while start < len(text):
        end = _trim(text, start, _cut(text, start, start + size, ends))
        if end <= start:  # a window of white space only: nothing more to say
            break
        spans.append(Span(start, end))
        if end >= _trim(text, 0, len(text)):
            break
        nxt = max(end - overlap, start + 1)
        if nxt < end and nxt > 0 and not text[nxt - 1].isspace():
            # Move forward to the start of a word so a chunk never opens mid-word.
            boundary = re.search(r"\s", text[nxt:end])
            nxt = nxt + boundary.start() if boundary else end
        start = _skip_space(text, nxt)
    return spans
