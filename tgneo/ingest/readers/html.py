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
* **tables** with a header (``<thead>`` rows, else a first row of ``<th>`` only) of two columns or
  more: each body row is one paragraph, a statement ending with a full stop: ``Header1: cell1;
  Header2: cell2.`` (a cell's own closing full stop dropped but at the end), or ``cell1 — Header2:
  cell2.`` when the first column names the row (its cells are
  ``<th>``, or its header is empty or a naming word such as *Name*, *Option*, *Parameter*). Lines
  within a cell are joined by ``, ``. A table without a header, or whose cells hold code blocks or
  tables, reads as before: one line a cell.
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
_NAMING = frozenset(
    """name option parameter setting command function operator key variable field column term flag property
    attribute element method value mode keyword macro pragma directive code""".split()
)
"""A first column whose header's last word is one of these names its rows."""
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
    rows: list[tuple[bool, list[tuple[str, bool, int]]]] = field(default_factory=list)  # table: (head?, cells)
    cells: list[tuple[str, bool, int]] = field(default_factory=list)  # tr: (text, is <th>, colspan)
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
            self._out().append(_table(frame.rows, frame.label != "layout"))
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


def _cell(text: str, joiner: str = ", ") -> str:
    """A cell's lines as one line: joined by ``joiner`` (by a space after closing punctuation)."""
    out = ""
    for line in (" ".join(line.split()) for line in text.split("\n")):
        if line:
            out = line if not out else out + (" " if out[-1] in ".,;:!?" else joiner) + line
    return out


def _table(rows: list[tuple[bool, list[tuple[str, bool, int]]]], structured: bool) -> str:
    """A table's text (see the module docstring); ``structured``: no table in its cells."""
    if not rows:
        return ""
    structured = structured and not any("```" in text for _, cells in rows for text, _, _ in cells)
    head = [cells for is_head, cells in rows if is_head]
    body = [cells for is_head, cells in rows if not is_head]
    if not head and all(th for _, th, _ in rows[0][1]):
        head, body = [rows[0][1]], [cells for _, cells in rows[1:]]
    headers: list[str] = []
    for text, _, span in head[-1] if head else []:
        headers.extend([_cell(text, " ")] * span)
    if not structured or len({h for h in headers if h}) < 2 or not body:
        lines = [text.strip() for _, cells in rows for text, _, _ in cells]
        return "\n\n" + "\n".join(line for line in lines if line) + "\n\n"
    first = headers[0].split()[-1].lower().rstrip("s") if headers[0] else ""
    out: list[str] = []
    for cells in body:
        named = cells[0][1] or not headers[0] or first in _NAMING
        pairs: list[str] = []
        column = 0
        for n, (text, _, span) in enumerate(cells):
            value = _cell(text)
            header = headers[column] if column < len(headers) else ""
            column += span
            if not value:
                continue
            if n == 0 and named:
                pairs.append(value)
            else:
                pairs.append(f"{header}: {value}" if header and header != value else value)
        if not pairs:
            continue
        pairs[:-1] = [re.sub(r"(?<=[\w)`'\"])\.$", "", pair) for pair in pairs[:-1]]  # "…: Fewer checks; Since: …"
        row = f"{pairs[0]} — {'; '.join(pairs[1:])}" if named and len(pairs) > 1 else "; ".join(pairs)
        out.append(row if row[-1] in ".!?" else row + ".")
    return "\n\n" + "\n\n".join(out) + "\n\n"


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
    parser = _Text()
    parser.feed(text)
    parser.close()
    parser._close(0)
    parts: list[Part] = []
    for _, label, body in parser.sections:
        name = _bare(label) if label else None
        section = _tidy("".join(body))
        if section and section != name:
            parts.append(Part(section, name or f"Section {len(parts) + 1}", len(parts) + 1))
    h1 = next((_bare(label) for level, label, _ in parser.sections if level == 1 and label), None)
    return Decoded("html", MIME, False, tuple(parts), title=parser.title or h1, creator=parser.creator)
