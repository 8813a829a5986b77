"""HTML: one section per heading (``<h1>``…``<h6>``), the text a browser would show, its structure kept.

Scripts, styles, templates, navigation (``<nav>``, DocBook's ``navheader``/``navfooter``) and the
``<head>`` (but its ``<title>``) are left out, and so are the ``#``/``¶`` links that DocBook and
Sphinx put after headings and terms (``a.id_link``, ``a.headerlink``). Block elements end lines,
paragraphs are separated by a blank line, and character references are decoded. Text before the
first heading is a section of its own. The title is ``<title>``, else the first ``<h1>``;
``<meta name="author">`` is the creator. The bytes are read as UTF-8 unless a ``<meta charset>`` in
the first kilobyte says otherwise.

What technical documentation says with its structure is written into the text, so that each
sentence carries what it is about (for extraction, retrieval, evidence and answers alike):

* **definition lists** (``<dl>``): each ``<dd>`` is one paragraph that begins with its term —
  the text of its ``<dt>`` (several ``<dt>`` joined by ``, ``), then ``: `` (nothing more when the term
  ends with a colon), then the definition; the ``<dd>``'s further paragraphs (``<p>``) follow on
  lines of their own *in the same paragraph* (no blank line), each beginning with the term too, so
  that a chunk starting there still names it. The term is the first words of each such line, up
  to ``": "``; :func:`tgneo.nlp.segment.units` leads the line's further sentences with it. DocBook's
  ``<dt><span class="term"><code class="varname">work_mem</code> (<code class="type">integer</code>)
  </span></dt><dd><p>Sets …</p><p>…</p></dd>`` reads ``` `work_mem` (`integer`): Sets …```. A nested
  ``<dl>`` starts new paragraphs of its own.
* **inline code** (``<code>``, ``<kbd>``, ``<samp>``, ``<tt>``) becomes a Markdown code span, like the
  Markdown reader's, so an identifier reaches the extractor whole; adjacent spans with only white
  space between are one span (``<code>pg_dump</code> <code>-Fc</code>`` → ```pg_dump -Fc```).
* **``<pre>``** is a fenced code block (```` ``` ```` lines around its text, kept verbatim), so
  :func:`tgneo.nlp.segment.units` sees it as code; a block after text ending in a colon follows it
  on the next line (no blank line), so a chunk is never cut between the sentence that introduces
  code and the code, and the segmenter joins the two into one unit.
* **tables** with a header (``<thead>`` rows, else a first row of ``<th>`` only) read as
  :mod:`tgneo.ingest.readers.tables` says, the Markdown reader's too: each body row one statement
  (``Header1: cell1; Header2: cell2.``, or ``cell1 — Header2: cell2.`` when the first column names
  the row, or its cells are ``<th>``). A table without a header, or whose cells hold code blocks or
  tables, reads one line a cell.
* **notes and admonitions** (a ``<div>``/``<aside>``/``<section>`` of class ``note``, ``tip``,
  ``warning``, ``caution``, ``important``… — DocBook's and Sphinx's shapes) stay in the current
  section as one paragraph prefixed ``Note: `` (``Warning: ``…, or the admonition's own title when
  it has another); its title element (DocBook's ``<h3 class="title">Note</h3>``, Sphinx's
  ``<p class="admonition-title">``) is that prefix, never a section heading.

Parser: the standard library's ``html.parser``, an event stream this module keeps a stack over
(closing what HTML lets a page leave open: ``<dt>``/``<dd>``, ``<tr>``/``<td>``, ``<thead>``, ``<head>``).
Measured side by side on the 15 pages of ``scripts/bench/quality/sqlite-3.40.1-docs`` (325 KiB, a
shared 2-core machine): tokenising them takes 72 ms with ``html.parser``, 14 ms with lxml and 6 ms
with selectolax (lexbor); reading them into sections takes 70 ms (40 ms before structure was read),
while loading them takes 13.5 s. A tree parser would save under 1% of a load and add a compiled
dependency, so ``html.parser`` stays.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

from tgneo.errors import DocumentError
from tgneo.ingest.readers.base import Decoded, Part, clean, decode_text
from tgneo.ingest.readers.tables import Cell, Row, table_text

MIME = "text/html"

_SKIP = frozenset({"script", "style", "template", "noscript", "head", "svg", "math", "nav"})
_SKIP_CLASSES = frozenset({"navheader", "navfooter", "id_link", "headerlink"})
_VOID = frozenset("area base br col embed hr img input link meta param source track wbr".split())
_BLOCK = frozenset(
    """address article aside blockquote br dd div dl dt figcaption figure footer form header hr li main nav ol p
    pre section table tbody td tfoot th thead tr ul caption""".split()
)
_PARAGRAPH = frozenset({"p", "blockquote", "pre", "ul", "ol", "table", "figure", "hr", "section", "article", "dl"})
_HEADINGS = {f"h{n}": n for n in range(1, 7)}
_CODE = frozenset({"code", "kbd", "samp", "tt"})
_ADMONITIONS = {
    "note": "Note", "tip": "Tip", "hint": "Hint", "warning": "Warning", "caution": "Caution",
    "important": "Important", "attention": "Attention", "danger": "Danger", "error": "Error",
    "seealso": "See also", "admonition": "",
}  # fmt: skip
"""Classes that make a ``<div>``, ``<aside>`` or ``<section>`` an admonition, and the word it reads as."""
_ADMONITION_TAGS = frozenset({"div", "aside", "section"})
_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?([A-Za-z0-9_\-]+)""", re.IGNORECASE)
_OPEN, _CLOSE = "\ue000", "\ue001"
"""Where inline code starts and ends while a page is read (code spans once it is read)."""


@dataclass
class _Frame:
    """An open element and what reading it needs."""

    tag: str
    kind: str = ""  # "skip", "heading", "pre", "code", "dl", "dt", "dd", "table", "tr", "cell", "note", "title"
    sink: list[str] | None = None  # the text captured inside it (a term, a cell, a heading, a code block)
    terms: list[str] = field(default_factory=list)  # dl: the terms of the next dd
    rows: list[Row] = field(default_factory=list)  # table: (head?, cells)
    cells: list[Cell] = field(default_factory=list)  # tr: (text, is <th>, colspan)
    head: bool = False  # tr, cell: inside <thead>
    label: str = ""  # note: its word; cell: colspan as text


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.sections: list[tuple[int, str | None, list[str]]] = [(0, None, [])]
        self.title: str | None = None
        self.creator: str | None = None
        self._in_title = False
        self._stack: list[_Frame] = []
        self._prefix: str | None = None  # a term or "Note: " waiting for the text it opens

    # -- where text goes ------------------------------------------------------------------------------------------

    def _out(self) -> list[str]:
        for frame in reversed(self._stack):
            if frame.sink is not None:
                return frame.sink
        return self.sections[-1][2]

    def _emit(self, text: str) -> None:
        labelling = any(f.kind in ("title", "heading") for f in self._stack)
        if self._prefix is not None and text.strip() and not labelling:
            prefix, self._prefix = self._prefix, None
            self._out().append(prefix)
        self._out().append(text)

    def _has(self, *kinds: str) -> bool:
        return any(frame.kind in kinds for frame in self._stack)

    def _container(self) -> _Frame | None:
        """The innermost definition or admonition the text is in (its paragraphs are one)."""
        for frame in reversed(self._stack):
            if frame.kind in ("dd", "note"):
                return frame
            if frame.kind in ("cell", "dt", "dl", "table"):
                return None
        return None

    def _break(self, tag: str) -> None:
        if self._prefix is not None:
            return  # the term (or "Note: ") and the text it opens stay on one line
        out, inside = self._out(), self._container() is not None
        if tag in _PARAGRAPH and not inside:
            out.append("\n\n")
        elif not inside or not "".join(out[-3:]).rstrip(" ").endswith("\n"):
            out.append("\n")  # one line break between the paragraphs of a definition or a note

    def _flush_prefix(self) -> None:
        """A waiting term with no text after it: written on a line of its own."""
        if self._prefix is not None:
            prefix, self._prefix = self._prefix.rstrip(), None
            self._out().append(prefix)

    # -- events ---------------------------------------------------------------------------------------------------

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "meta":
            if (found.get("name") or "").lower() == "author" and found.get("content"):
                self.creator = " ".join((found["content"] or "").split())
            return
        if tag == "title":
            self._in_title = True
        if tag in _VOID:
            if tag in ("br", "hr") and not self._has("skip"):
                if self._has("pre"):
                    self._out().append("\n")
                else:
                    self._break(tag)
            return
        classes = set((found.get("class") or "").split())
        if self._has("skip") or tag in _SKIP or classes & _SKIP_CLASSES or found.get("role") == "navigation":
            self._stack.append(_Frame(tag, "skip"))
            return
        if self._has("pre"):
            self._stack.append(_Frame(tag, "inert"))
            return
        if tag == "body":
            head = next((i for i, f in enumerate(self._stack) if f.tag == "head"), None)
            if head is not None:
                self._close(head)  # an HTML5 page may leave <head> open
        self._implicit_close(tag)
        if tag in _HEADINGS or "title" in classes or "admonition-title" in classes:
            note = self._stack[-1] if self._stack and self._stack[-1].kind == "note" else None
            if note is not None and not any(f.kind == "title" for f in self._stack):
                self._stack.append(_Frame(tag, "title", sink=[]))  # the admonition's own title
                return
            if tag in _HEADINGS:
                if self._has("dd", "dt", "note", "cell", "title"):
                    self._break("p")
                    self._stack.append(_Frame(tag, "block"))
                else:
                    self._stack.append(_Frame(tag, "heading", sink=[]))
                return
        if tag in _CODE:
            if not self._has("code"):
                self._emit(_OPEN)
            self._stack.append(_Frame(tag, "code"))
            return
        if tag == "pre":
            self._flush_prefix()
            out = self._out()
            while out and not out[-1].strip():
                out.pop()  # code after "…the following command:" follows it on the next line
            out.append("\n" if out and out[-1].rstrip().endswith(":") else "\n\n")
            self._stack.append(_Frame(tag, "pre", sink=[]))
            return
        if tag in _ADMONITION_TAGS and classes & _ADMONITIONS.keys():
            word = next((_ADMONITIONS[c] for c in sorted(classes) if c in _ADMONITIONS and _ADMONITIONS[c]), "")
            self._flush_prefix()
            self._out().append("\n\n")
            self._stack.append(_Frame(tag, "note", label=word))
            self._prefix = f"{word}: " if word else None
            return
        if tag == "dl":
            self._flush_prefix()
            self._out().append("\n\n")
            self._stack.append(_Frame(tag, "dl"))
            return
        if tag == "dt":
            dl = self._nearest("dl")
            if dl is not None and dl.kind == "dl" and dl.label == "dd":
                dl.terms, dl.label = [], ""  # a term after a definition starts the next entry
            self._stack.append(_Frame(tag, "dt", sink=[]))
            return
        if tag == "dd":
            dl = self._nearest("dl")
            terms = dl.terms if dl is not None else []
            if dl is not None:
                dl.label = "dd"
            self._out().append("\n\n")
            term = ", ".join(terms)
            self._prefix = (term if term.endswith(":") else f"{term}:") + " " if term else None
            self._stack.append(_Frame(tag, "dd", label=self._prefix or ""))
            return
        if tag == "table":
            self._break(tag)
            self._stack.append(_Frame(tag, "table"))
            return
        if tag in ("thead", "tbody", "tfoot"):
            self._stack.append(_Frame(tag, "section-" + tag))
            return
        if tag == "tr":
            self._stack.append(_Frame(tag, "tr", head=self._has("section-thead")))
            return
        if tag in ("td", "th"):
            span = found.get("colspan") or "1"
            self._stack.append(_Frame(tag, "cell", sink=[], label=span if span.isdigit() else "1"))
            return
        if tag in _BLOCK:
            self._break(tag)
        if tag == "p" and self._prefix is None:
            container = self._container()
            if container is not None and container.kind == "dd" and container.label:
                self._prefix = container.label  # each paragraph of a definition begins with its term
        self._stack.append(_Frame(tag))

    def _nearest(self, kind: str) -> _Frame | None:
        return next((f for f in reversed(self._stack) if f.kind == kind), None)

    def _implicit_close(self, tag: str) -> None:
        """Close what a start tag ends without an end tag (``<dt>`` after ``<dd>``, ``<td>`` after ``<td>``…)."""
        sections = ("section-thead", "section-tbody", "section-tfoot")
        ends = {
            "dt": ("dt", "dd"), "dd": ("dt", "dd"), "tr": ("tr",), "td": ("cell",), "th": ("cell",),
            "thead": sections, "tbody": sections, "tfoot": sections,
        }.get(tag)  # fmt: skip
        if ends is None:
            return
        bound = {"dt": "dl", "dd": "dl"}.get(tag, "table")
        for i in range(len(self._stack) - 1, -1, -1):
            kind = self._stack[i].kind
            if kind == bound:
                return
            if kind in ends:
                self._close(i)
                return

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False
        for i in range(len(self._stack) - 1, -1, -1):
            if self._stack[i].tag == tag:
                self._close(i)
                return
            if self._stack[i].kind == "pre" and tag != "pre":
                return  # markup inside a code block closes nothing outside it

    def _close(self, i: int) -> None:
        """Close the open element at ``self._stack[i]`` and every element opened inside it."""
        while len(self._stack) > i:
            self._end(self._stack.pop())

    def _end(self, frame: _Frame) -> None:
        kind = frame.kind
        if kind in ("skip", "inert") or kind.startswith("section-"):
            return
        text = "".join(frame.sink or [])
        if kind == "heading":
            label = " ".join(_bare(text).split())
            if label:
                level = _HEADINGS[frame.tag]
                self.sections.append((level, label, [label, "\n\n"]))
        elif kind == "title":
            title = " ".join(_bare(text).split()).rstrip(":")
            note = self._nearest("note")
            if note is not None and title and title.lower() != note.label.lower():
                note.label = title
            if note is not None:
                self._prefix = f"{note.label}: " if note.label else None
        elif kind == "code":
            if not self._has("code"):
                self._emit(_CLOSE)
        elif kind == "pre":
            code = "\n".join(line.rstrip() for line in text.strip("\n").split("\n"))
            fence = "`" * max(3, 1 + max((len(r) for r in re.findall(r"`+", code)), default=0))
            self._out().append(f"{fence}\n{code}\n{fence}\n\n" if code.strip() else "")
        elif kind == "dt":
            term = " ".join(text.split())
            dl = self._nearest("dl")
            if dl is not None and term:
                dl.terms.append(term)
            elif term:
                self._emit(term)
                self._break("p")
        elif kind == "dd":
            self._flush_prefix()
            self._out().append("\n\n")
        elif kind == "note":
            self._prefix = None
            self._out().append("\n\n")
        elif kind == "cell":
            owner = self._nearest("tr")
            if owner is not None:
                owner.cells.append((text, frame.tag == "th", int(frame.label)))
            else:
                self._emit(text)
                self._break("td")
        elif kind == "tr":
            table = self._nearest("table")
            if table is not None and frame.cells:
                table.rows.append((frame.head, frame.cells))
        elif kind == "table":
            outer = self._nearest("table")
            if outer is not None:
                outer.label = "layout"  # a table in a table: the outer one is for layout
            paragraphs = table_text(frame.rows, frame.label != "layout")
            self._out().append("\n\n" + "\n\n".join(paragraphs) + "\n\n" if paragraphs else "")
        elif kind == "dl":
            self._flush_prefix()
            self._out().append("\n\n")
        elif kind == "block" or frame.tag in _BLOCK:
            self._break("p" if kind == "block" else frame.tag)

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title = " ".join(f"{self.title or ''} {data}".split()) or None
        if self._has("skip"):
            return
        if self._has("pre"):
            self._out().append(data)
            return
        self._emit(re.sub(r"\s+", " ", data))


def _bare(text: str) -> str:
    return text.replace(_OPEN, "").replace(_CLOSE, "")


def _code_span(match: re.Match[str]) -> str:
    inner = match.group(1)
    code = inner.strip()
    if not code or "`" in code or "\n" in code:
        return inner
    return f"{inner[: len(inner) - len(inner.lstrip())]}`{code}`{inner[len(inner.rstrip()) :]}"


def _spans(text: str) -> str:
    """Inline code's marks made code spans; adjacent spans with only white space between them are one."""
    text = re.sub(f"{_CLOSE}( ?){_OPEN}", r"\1", text)
    text = re.sub(f"{_OPEN}([^{_OPEN}{_CLOSE}]*){_CLOSE}", _code_span, text)
    return _bare(text)


def _tidy(body: str) -> str:
    """A section's text: lines stripped but inside code blocks, inline code as code spans, white space tidied."""
    out: list[str] = []
    fence: str | None = None
    for line in body.split("\n"):
        if fence is None:
            line = _spans(line).strip()
            opened = re.match(r"`{3,}", line)
            fence = opened.group(0) if opened and line == opened.group(0) else None
        elif line == fence:
            fence = None
        out.append(line)
    return clean("\n".join(out))


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
    parser = _parse(text)
    parts: list[Part] = []
    for _, label, section in _sections(parser):
        if section and section != label:
            parts.append(Part(section, label or f"Section {len(parts) + 1}", len(parts) + 1))
    h1 = next((_bare(label) for level, label, _ in parser.sections if level == 1 and label), None)
    return Decoded("html", MIME, False, tuple(parts), title=parser.title or h1, creator=parser.creator)


def _parse(text: str) -> _Text:
    parser = _Text()
    parser.feed(text)
    parser.close()
    parser._close(0)
    return parser


def _sections(parser: _Text) -> list[tuple[int, str | None, str]]:
    """``(heading level, heading, text)`` of each section read: level 0 and no heading before the first one."""
    return [(level, _bare(label) if label else None, _tidy("".join(body))) for level, label, body in parser.sections]


def fragment(text: str) -> list[tuple[int, str | None, str]]:
    """The sections of a piece of HTML (a block of it in a Markdown file), read as a page is: ``(heading
    level, heading, text)``, the first for what comes before any heading (level 0, no heading)."""
    return _sections(_parse(text))
