"""Markdown: one section per heading, inline markup reduced to its text.

Headings are ATX (``## Early life``) or setext (a line underlined with ``===`` or ``---``); those
inside fenced code blocks do not count. Text before the first heading is a section of its own. The
first level-1 heading (else the first heading) is the title. A section's text is its heading line
then its body, with links and images reduced to their text, emphasis and code marks removed, and
block quote and list markers dropped — the prose a reader sees, which is what the extractor and the
chunk's offsets refer to.
"""

from __future__ import annotations

import re

from tgneo.ingest.readers.base import Decoded, Part, clean, decode_text

MIME = "text/markdown"

_ATX = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)\s*$")
_FENCE = re.compile(r"^ {0,3}(```|~~~)")
_INLINE = (
    (re.compile(r"!\[([^\]]*)\]\([^)]*\)"), r"\1"),  # images → alt text
    (re.compile(r"\[([^\]]+)\]\([^)]*\)"), r"\1"),  # links → their text
    (re.compile(r"\[([^\]]+)\]\[[^\]]*\]"), r"\1"),  # reference links
    (re.compile(r"<[^>\n]+>"), ""),  # inline HTML tags
    (re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1"), r"\2"),  # strong
    (re.compile(r"(?<![\w*])([*_])(?=\S)(.+?)(?<=\S)\1(?![\w*])"), r"\2"),  # emphasis
    (re.compile(r"`([^`]*)`"), r"\1"),  # code spans
)
_BLOCK_MARK = re.compile(r"^ {0,3}(?:>\s?|[-*+]\s+|\d+[.)]\s+)")


def plain(line: str) -> str:
    """One line of Markdown as the text a reader sees."""
    line = _BLOCK_MARK.sub("", line)
    for pattern, repl in _INLINE:
        line = pattern.sub(repl, line)
    return line


def read(data: bytes) -> Decoded:
    """Sections of a Markdown file (see the module docstring)."""
    lines = decode_text(data).split("\n")
    sections: list[tuple[int, str | None, list[str]]] = [(0, None, [])]
    fenced = False
    i = 0
    while i < len(lines):
        line = lines[i]
        if _FENCE.match(line):
            fenced = not fenced
            i += 1
            continue
        heading = None if fenced else _heading(lines, i)
        if heading is not None:
            level, text, used = heading
            sections.append((level, text, [text]))
            i += used
            continue
        if not fenced:
            line = plain(line)
        sections[-1][2].append(line)
        i += 1
    parts: list[Part] = []
    for _, label, body in sections:
        text = clean("\n".join(body))
        if text and text != label:
            parts.append(Part(text, label or f"Section {len(parts) + 1}", len(parts) + 1))
    headings = [(level, label) for level, label, _ in sections if label]
    title = next((label for level, label in headings if level == 1), headings[0][1] if headings else None)
    return Decoded("markdown", MIME, False, tuple(parts), title=title)


def _heading(lines: list[str], i: int) -> tuple[int, str, int] | None:
    """``(level, text, lines used)`` when a heading starts at line ``i``."""
    atx = _ATX.match(lines[i])
    if atx and atx.group(2):
        return len(atx.group(1)), plain(atx.group(2)), 1
    if lines[i].strip() and i + 1 < len(lines) and _SETEXT.match(lines[i + 1]) and not _BLOCK_MARK.match(lines[i]):
        return (1 if lines[i + 1].strip()[0] == "=" else 2), plain(lines[i].strip()), 2
    return None
