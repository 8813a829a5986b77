"""HTML: one section per heading (``<h1>``…``<h6>``), the text a browser would show.

Scripts, styles, templates and the ``<head>`` (but its ``<title>``) are left out; block elements
(paragraphs, list items, table rows, ``<br>``…) end lines, paragraphs are separated by a blank line,
and character references are decoded. Text before the first heading is a section of its own. The
title is ``<title>``, else the first ``<h1>``; ``<meta name="author">`` is the creator. The bytes are
read as UTF-8 unless a ``<meta charset>`` in the first kilobyte says otherwise.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

from tgneo.errors import DocumentError
from tgneo.ingest.readers.base import Decoded, Part, clean, decode_text

MIME = "text/html"

_SKIP = frozenset({"script", "style", "template", "noscript", "head", "svg", "math"})
_BLOCK = frozenset(
    """address article aside blockquote br dd div dl dt figcaption figure footer form header hr li main nav ol p
    pre section table tbody td tfoot th thead tr ul""".split()
)
_PARAGRAPH = frozenset({"p", "blockquote", "pre", "ul", "ol", "table", "figure", "hr", "section", "article"})
_HEADINGS = {f"h{n}": n for n in range(1, 7)}
_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?([A-Za-z0-9_\-]+)""", re.IGNORECASE)


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.sections: list[tuple[int, str | None, list[str]]] = [(0, None, [])]
        self.title: str | None = None
        self.creator: str | None = None
        self._skip: list[str] = []
        self._in_title = False
        self._heading: tuple[int, list[str]] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "meta":
            found = dict(attrs)
            if (found.get("name") or "").lower() == "author" and found.get("content"):
                self.creator = " ".join((found["content"] or "").split())
            return
        if tag == "title":
            self._in_title = True
        if tag in _SKIP:
            self._skip.append(tag)
            return
        if tag in _HEADINGS and not self._skip:
            self._heading = (_HEADINGS[tag], [])
        elif tag in _BLOCK:
            self._break(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False
        if self._skip and tag == self._skip[-1]:
            self._skip.pop()
            return
        if tag in _HEADINGS and self._heading is not None:
            level, words = self._heading
            self._heading = None
            text = " ".join("".join(words).split())
            if text:
                self.sections.append((level, text, [text, "\n\n"]))
        elif tag in _BLOCK:
            self._break(tag)

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title = " ".join(f"{self.title or ''} {data}".split()) or None
        if self._skip:
            return
        if self._heading is not None:
            self._heading[1].append(data)
            return
        self.sections[-1][2].append(re.sub(r"\s+", " ", data))

    def _break(self, tag: str) -> None:
        self.sections[-1][2].append("\n\n" if tag in _PARAGRAPH else "\n")


def read(data: bytes) -> Decoded:
    """Sections of an HTML file (see the module docstring)."""
    declared = _CHARSET.search(data[:1024])
    charset = declared.group(1).decode("ascii").lower() if declared else "utf-8"
    if charset.replace("-", "").replace("_", "") in ("utf8", "utf8sig"):
        text = decode_text(data)
    else:
        try:
            text = data.decode(charset)
        except (LookupError, UnicodeDecodeError) as e:
            raise DocumentError(f"cannot be read as {charset} (its declared charset): {e}") from None
    parser = _Text()
    parser.feed(text)
    parser.close()
    parts: list[Part] = []
    for _, label, body in parser.sections:
        section = clean("\n".join(line.strip() for line in "".join(body).split("\n")))
        if section and section != label:
            parts.append(Part(section, label or f"Section {len(parts) + 1}", len(parts) + 1))
    h1 = next((label for level, label, _ in parser.sections if level == 1 and label), None)
    return Decoded("html", MIME, False, tuple(parts), title=parser.title or h1, creator=parser.creator)
