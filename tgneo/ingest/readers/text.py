"""Plain text: sections start at title lines.

A *title line* is a paragraph of one short line (at most 8 words) that does not end like a sentence
(``.``, ``!``, ``?``, ``:``, ``;``, ``,``). It starts a section labelled with it, and the first one,
when it opens the file, is the document's title. Form feeds also end a section. Text without title
lines is one section.
"""

from __future__ import annotations

import re

from tgneo.ingest.readers.base import Decoded, Part, clean, decode_text

MIME = "text/plain"


def is_title(paragraph: str) -> bool:
    """One short line that does not end like a sentence."""
    line = paragraph.strip()
    return "\n" not in line and 0 < len(line.split()) <= 8 and line[-1] not in ".!?:;,"


def read(data: bytes) -> Decoded:
    """Sections of a text file (see the module docstring)."""
    text = decode_text(data)
    parts: list[Part] = []
    title: str | None = None
    for page in text.split("\f"):
        label: str | None = None
        body: list[str] = []
        for paragraph in re.split(r"\n\s*\n", page):
            if not paragraph.strip():
                continue
            if is_title(paragraph):
                if title is None and not parts and not body:
                    title = paragraph.strip()
                _close(parts, label, body)
                label, body = paragraph.strip(), [paragraph.strip()]
                continue
            body.append(paragraph)
        _close(parts, label, body)
    return Decoded("text", MIME, False, tuple(parts), title=title)


def _close(parts: list[Part], label: str | None, body: list[str]) -> None:
    text = clean("\n\n".join(body))
    if text and not (label is not None and text == label):
        parts.append(Part(text, label or f"Section {len(parts) + 1}", len(parts) + 1))
    body.clear()
