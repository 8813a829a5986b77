"""Markdown (CommonMark, GitHub's tables, and the MyST dialect Sphinx projects write): one section per heading.

Parsed by markdown-it-py (the CommonMark parser ``rich`` already brings) with mdit-py-plugins for
what MyST and Pandoc add: front matter, definition lists, roles, targets, colon fences, footnotes
and ``!!!`` admonitions. The parse is a tree; this module only says how each node reads as the
prose a reader sees, kept so that identifiers survive:

* **headings** (ATX ``## Early life`` or setext) start sections; one of more than
  :data:`MAX_HEADING_WORDS` words is prose whose line breaks were lost (a whole document on one
  line), and reads as prose;
* **code spans stay code spans** (```pip cache dir```), their text exactly as written, as the HTML
  reader writes ``<code>``, so that ``PIP_<UPPER_LONG_NAME>`` or ``urn:graph:retrieval`` reaches the
  extractor whole and later stages can tell what was code; links and images become their text,
  emphasis marks go, backslash escapes and character references are resolved; inline HTML tags go
  but ``<code>``, ``<kbd>``, ``<samp>`` and ``<tt>``, which become code spans, and ``<br>``, a line break;
* **fenced code blocks** are kept verbatim with their fences (the extractor tells code from prose by
  them), and an **indented code block** is fenced the same way; a block right after text ending in a
  colon (``… use the following command:``) follows it on the next line, no blank line between, so
  that no chunk is cut between the two and :func:`tgneo.nlp.segment.units` joins them into one unit;
* **admonitions** stay in their section as one statement: MyST directives that hold prose
  (``{note}``, ``{warning}``, ``{tab} Linux``, ``{admonition} Example``, ``{versionchanged} 23.3`` …,
  in backtick or colon fences) are read as Markdown whose first paragraph begins with the title
  Sphinx would render, then ``": "`` (``Note: Only ASCII…``, ``Changed in version 23.3: A new cache
  format…``); a title that opens code, a list or nothing stays a line of its own (``Linux`` then the
  block it labels); in a tab (``{tab} Unix``, ``{tab-item}``) *every* paragraph begins so (``Unix:
  User: …``), since the same paragraphs recur in each tab and only the title tells them apart.
  reST's ``.. note::``, GitHub's ``> **Note**`` / ``> [!NOTE]`` and MkDocs' ``!!! note`` read the same
  way. Containers (``{tab-set}``, ``{grid}``, ``{div}`` …) read as the Markdown they hold. A
  directive's options (``:class: tip``) are left out. MyST roles become their text (``{ref}`` links)
  or a code span (``{any}`--require-hashes```, ``{file}``, ``{pypi}``…);
* a **definition list** reads ``Term: definition``, and each further paragraph of the definition
  begins with its term too (as the HTML reader writes ``<dl>``), so that a chunk starting there
  still names it; a term before a list or code is a line of its own (``Global:``), the list after it;
* **tables** read one statement a row, each cell named by its column's header, as
  :mod:`tgneo.ingest.readers.tables` says (the HTML reader's rule), never ``a | run | of | pipes``;
* **lists** keep their markers (one item a line, nested items indented), block quote markers go;
* **HTML blocks** are read by the HTML reader (:func:`tgneo.ingest.readers.html.fragment`): their
  text, their tables and notes as on a page, their headings (``<h1 align="center">``) as headings;
  comments go;
* MyST targets (``(config-file)=``), comments (``% …``), link definitions and the front matter are
  left out; front matter's ``title:`` and ``author:`` are the document's title and creator.
  Footnotes read ``[1]: text`` at the end of the section that first refers to them (``… your
  computer [1] that …``).

Text before the first heading is a section of its own. The title is front matter's ``title``, else
the first level-1 heading, else the first heading.

Measured on the 13 guides of ``scripts/bench/quality/pip-24.2-topics`` (64 KiB, a shared 2-core machine):
reading them takes about 31 ms (the regular expressions this replaced: 21 ms), loading them about 15 s.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.tree import SyntaxTreeNode
from mdit_py_plugins.admon import admon_plugin
from mdit_py_plugins.colon_fence import colon_fence_plugin
from mdit_py_plugins.deflist import deflist_plugin
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.front_matter import front_matter_plugin
from mdit_py_plugins.myst_blocks import myst_block_plugin
from mdit_py_plugins.myst_role import myst_role_plugin

from tgneo.ingest.readers import html
from tgneo.ingest.readers.base import Decoded, Part, clean, decode_text
from tgneo.ingest.readers.tables import Row, table_text

MIME = "text/markdown"
MAX_HEADING_WORDS = 16
"""A heading with more words than this is prose that lost its line breaks, not a heading."""

_PARSER = (
    MarkdownIt("commonmark", {"html": True})
    .enable(["table", "strikethrough"])
    .use(front_matter_plugin)
    .use(deflist_plugin)
    .use(myst_role_plugin)
    .use(myst_block_plugin)
    .use(colon_fence_plugin)
    .use(admon_plugin)
    .use(footnote_plugin)
)
_PROSE_DIRECTIVES = {
    "note": "Note", "warning": "Warning", "caution": "Caution", "tip": "Tip", "hint": "Hint",
    "important": "Important", "attention": "Attention", "danger": "Danger", "error": "Error",
    "seealso": "See also", "admonition": "", "tab": "", "tab-item": "", "dropdown": "", "topic": "", "sidebar": "",
    "card": "", "grid-item-card": "",
    "versionadded": "New in version", "versionchanged": "Changed in version", "deprecated": "Deprecated since version",
}  # fmt: skip
"""MyST directives whose body is prose, and the title line Sphinx renders for each (its argument after)."""
_CONTAINERS = frozenset({"tab-set", "grid", "grid-item", "div", "container", "only", "margin", "epigraph"})
"""MyST directives that only hold Markdown: read as what they hold, with no title."""
_TABS = frozenset({"tab", "tab-item"})
"""Directives whose title says what each paragraph in them is about (``Linux``, ``Windows``)."""
_VERSIONED = frozenset({"versionadded", "versionchanged", "deprecated"})
_LINK_ROLES = frozenset({"ref", "doc", "term", "numref", "abbr", "sup", "sub", "guilabel", "menuselection"})
_ROLE_TARGET = re.compile(r"\s*<[^<>]+>\s*$")
_DIRECTIVE = re.compile(r"^\{([\w:-]+)\}\s*(.*)$")
_OPTION = re.compile(r"^:[\w-]+:(?:\s.*)?$")
_REST_ADMONITION = re.compile(r"^\.\.\s+([a-z-]+)::[ \t]*(.*)$")
_GITHUB_ADMONITION = re.compile(r"^\[!(\w+)\]\s*")
_CODE_TAGS = re.compile(r"^</?(code|kbd|samp|tt)\b[^<>]*>$", re.IGNORECASE)
_BREAK_TAG = re.compile(r"^<br\s*/?>$", re.IGNORECASE)
_FRONT_MATTER_FIELD = re.compile(r"^(title|author)\s*:\s*(.+?)\s*$", re.MULTILINE)


@dataclass
class _Block:
    """A block of a section's text: a paragraph (``prose``), ``code``, a ``list``, a ``table`` row, a
    definition's ``term`` or a ``line`` (a title) on its own, ``html``, or a reST admonition's title
    waiting for the block it opens (``rest-title``); an ``attached`` one follows the block before on
    the next line, in the same paragraph, instead of after a blank line."""

    text: str
    kind: str
    attached: bool = False


@dataclass
class _Heading:
    level: int
    label: str


@dataclass
class _Section:
    level: int
    label: str | None
    line: int
    blocks: list[_Block] = field(default_factory=list)


def read(data: bytes) -> Decoded:
    """Sections of a Markdown file (see the module docstring)."""
    env: dict[str, Any] = {}
    tree = SyntaxTreeNode(_PARSER.parse(decode_text(data), env))
    reader = _Reader(dict(env.get("references", {})))
    sections = [_Section(0, None, 0)]
    title = creator = None
    notes: list[tuple[str, int, list[_Block]]] = []
    for node in tree.children:
        if node.type == "front_matter":
            title, creator = _front_matter(node.content)
        elif node.type == "footnote_block":
            notes.extend(reader.footnotes(node))
        else:
            for item in reader.blocks([node], top=True):
                if isinstance(item, _Heading):
                    sections.append(_Section(item.level, item.label, node.map[0] if node.map else 0))
                else:
                    sections[-1].blocks.append(item)
    starts = [s.line for s in sections]
    cited = _references(tree)
    for label, line, blocks in notes:
        sections[max(0, bisect_right(starts, cited.get(label, line)) - 1)].blocks.extend(blocks)
    parts: list[Part] = []
    for section in sections:
        text = clean(_join([_Block(section.label, "line"), *section.blocks] if section.label else section.blocks))
        if text and text != section.label:
            parts.append(Part(text, section.label or f"Section {len(parts) + 1}", len(parts) + 1))
    headings = [(s.level, s.label) for s in sections if s.label]
    first = next((label for level, label in headings if level == 1), headings[0][1] if headings else None)
    return Decoded("markdown", MIME, False, tuple(parts), title=title or first, creator=creator)


def _references(tree: SyntaxTreeNode) -> dict[str, int]:
    """The line where each footnote is first referred to (its note is read in that section)."""
    found: dict[str, int] = {}
    for node in tree.walk():
        if node.type == "footnote_ref":
            owner: SyntaxTreeNode | None = node
            while owner is not None and not owner.map:
                owner = owner.parent
            found.setdefault(str(node.meta.get("label", "")), owner.map[0] if owner is not None and owner.map else 0)
    return found


def _front_matter(text: str) -> tuple[str | None, str | None]:
    """The ``title`` and ``author`` a YAML front matter names (plain one-line values)."""
    found = {key: value.strip("'\"").strip() for key, value in _FRONT_MATTER_FIELD.findall(text)}
    return found.get("title") or None, found.get("author") or None


def _join(blocks: Sequence[_Block]) -> str:
    """Blocks as text: a blank line between, but before an attached block, or code after a colon."""
    out = ""
    for block in blocks:
        if not block.text.strip():
            continue
        if out:
            follows = block.attached or (block.kind == "code" and out.rstrip().endswith(":"))
            out += "\n" if follows else "\n\n"
        out += block.text
    return out


class _Reader:
    """Reads a document's nodes; ``references``: its link definitions, for the Markdown inside directives."""

    def __init__(self, references: dict[str, Any]) -> None:
        self.references = references

    def parse(self, text: str) -> list[SyntaxTreeNode]:
        """Markdown inside a directive, parsed knowing the document's link definitions."""
        return SyntaxTreeNode(_PARSER.parse(text, {"references": dict(self.references)})).children

    def blocks(
        self, nodes: Sequence[SyntaxTreeNode], top: bool = False, tab: str | None = None
    ) -> list[_Block | _Heading]:
        """What ``nodes`` read as, in order; headings are :class:`_Heading` at the ``top`` level, lines below it.

        ``tab``: the title every paragraph begins with (in a MyST tab).
        """
        out: list[_Block | _Heading] = []
        waiting: str | None = None  # a reST admonition's title, waiting for the block it opens
        for node in nodes:
            found = list(self.node(node, top, waiting is not None))
            if waiting is not None and found and not isinstance(found[0], _Heading):
                found = list(_titled(waiting, [b for b in found if isinstance(b, _Block)]))
                waiting = None
            elif waiting is not None:
                out.append(_Block(waiting, "line"))
                waiting = None
            if len(found) == 1 and isinstance(found[0], _Block) and found[0].kind == "rest-title":
                waiting = found[0].text
                continue
            out.extend(found)
        if waiting is not None:
            out.append(_Block(waiting, "line"))
        if tab is not None:
            out = [_prefixed(tab, b) if isinstance(b, _Block) else b for b in out]
        return out

    def flat(self, nodes: Sequence[SyntaxTreeNode], tab: str | None = None) -> list[_Block]:
        """:meth:`blocks` below the top level: headings are lines."""
        return [b for b in self.blocks(nodes, tab=tab) if isinstance(b, _Block)]

    def node(self, node: SyntaxTreeNode, top: bool, titled: bool) -> Iterator[_Block | _Heading]:
        """What one block node reads as; ``titled``: a reST admonition's title waits for it (code reads as prose)."""
        kind = node.type
        if kind == "heading":
            label = _inline(node.children[0], bare=True) if node.children else ""
            if len(label.split()) > MAX_HEADING_WORDS:
                yield _Block(_inline(node.children[0]), "prose")
            elif label.strip():
                label = " ".join(label.split())
                yield _Heading(int(node.tag[1:]), label) if top else _Block(label, "line")
        elif kind == "paragraph":
            yield from _paragraph(_inline(node.children[0]) if node.children else "")
        elif kind in ("bullet_list", "ordered_list"):
            yield _Block(self.listing(node), "list")
        elif kind in ("fence", "colon_fence"):
            yield from self.fence(node)
        elif kind == "code_block":
            if titled:
                yield from self.flat(self.parse(_dedent(node.content)))
            else:
                yield _Block(_fenced("", node.content), "code")
        elif kind == "blockquote":
            yield from self.quote(node)
        elif kind == "admonition":
            yield from self.admonition(node)
        elif kind == "dl":
            yield from self.definitions(node)
        elif kind == "table":
            yield from (_Block(text, "table") for text in table_text(_rows(node)))
        elif kind == "html_block":
            for level, heading, text in html.fragment(node.content):
                if heading and top:
                    yield _Heading(level, heading)
                    text = text[len(heading) :] if text.startswith(heading) else text
                yield _Block(text.strip(), "html")
        elif kind == "footnote_block":
            for _, _, blocks in self.footnotes(node):
                yield from blocks
        # thematic breaks, MyST targets, comments and block breaks say nothing

    def listing(self, node: SyntaxTreeNode) -> str:
        """A list, one item a line with its marker (``-``, ``1.``), an item's further blocks indented under it."""
        loose = any(not p.hidden for item in node.children for p in item.children if p.type == "paragraph")
        items: list[str] = []
        for item in node.children:
            marker = f"{item.info}{item.markup}" if node.type == "ordered_list" else (item.markup or "-")
            blocks = self.flat(item.children)
            if not loose:
                blocks = [replace(b, attached=True) for b in blocks]
            lines = _join(blocks).split("\n")
            pad = " " * (len(marker) + 1)
            rest = [pad + line if line else "" for line in lines[1:]]
            items.append("\n".join([f"{marker} {lines[0]}".rstrip(), *rest]))
        return ("\n\n" if loose else "\n").join(items)

    def fence(self, node: SyntaxTreeNode) -> Iterator[_Block]:
        """A fenced block: a MyST directive that holds prose or Markdown, else code kept verbatim."""
        match = _DIRECTIVE.match(node.info.strip())
        name = match.group(1).lower() if match else ""
        if name in _PROSE_DIRECTIVES or name in _CONTAINERS or node.type == "colon_fence":
            argument = match.group(2).strip() if match else ""
            title = _title(name, argument) if name in _PROSE_DIRECTIVES else ""
            inside = self.parse(_directive_body(node.content))
            if not title:
                yield from self.flat(inside)
            else:
                yield from _titled(title, self.flat(inside, tab=title if name in _TABS else None))
            return
        yield _Block(_fenced(node.markup + node.info, node.content, node.markup), "code")

    def quote(self, node: SyntaxTreeNode) -> Iterator[_Block]:
        """A block quote, its markers gone; GitHub's ``> **Note**`` and ``> [!NOTE]`` read as admonitions."""
        children = list(node.children)
        first = children[0] if children and children[0].type == "paragraph" and children[0].children else None
        inline = [n for n in first.children[0].children if n.type != "text" or n.content] if first is not None else []
        name, rest = "", inline
        if inline and inline[0].type == "strong" and len(inline[0].children) == 1:
            word = inline[0].children[0].content.strip().rstrip(":")
            if word.isalpha():
                name, rest = word.lower(), inline[1:]
        elif inline and inline[0].type == "text" and (github := _GITHUB_ADMONITION.match(inline[0].content)):
            name = github.group(1).lower()
        title = _PROSE_DIRECTIVES.get(name, "")
        if not title:
            yield from self.flat(children)
            return
        text = "".join(_span(n) for n in rest)
        if inline[0].type == "text":
            text = _GITHUB_ADMONITION.sub("", text, count=1)
        text = re.sub(r"[ \t]*\n[ \t]*", "\n", text).lstrip(": \n").strip()
        yield from _titled(title, ([_Block(text, "prose")] if text else []) + self.flat(children[1:]))

    def admonition(self, node: SyntaxTreeNode) -> Iterator[_Block]:
        """MkDocs' ``!!! note "Title"``: its title (the word Sphinx would write for the kind, if none is given)."""
        tag = str(node.meta.get("tag", "")).lower()
        title = node.content.strip()
        if not title or title.lower() == tag:
            title = _PROSE_DIRECTIVES.get(tag) or title
        blocks = self.flat([c for c in node.children if c.type != "admonition_title"])
        yield from _titled(title, blocks) if title else blocks

    def definitions(self, node: SyntaxTreeNode) -> Iterator[_Block]:
        """A definition list: each definition's paragraphs begin with its terms (several joined by ``, ``)."""
        terms: list[str] = []
        defined = False
        for child in node.children:
            if child.type == "dt":
                if defined:
                    terms, defined = [], False
                terms.append(" ".join(_inline(child.children[0]).split()) if child.children else "")
                continue
            defined = True
            term = ", ".join(t for t in terms if t)
            blocks = self.flat(child.children)
            if not term:
                yield from blocks
                continue
            head = term if term.endswith(":") else f"{term}:"
            for n, block in enumerate(blocks):
                if block.kind == "prose":
                    yield replace(block, text=f"{head} {block.text}")
                elif n == 0:
                    yield _Block(head, "term")  # before a list or code: a line of its own, prefixed in a tab
                    yield replace(block, attached=True)
                else:
                    yield block

    def footnotes(self, node: SyntaxTreeNode) -> Iterator[tuple[str, int, list[_Block]]]:
        """Each footnote as ``[label]: text``, with its label and the line that defines it."""
        for note in node.children:
            label = str(note.meta.get("label", note.meta.get("id", "")))
            blocks = self.flat([c for c in note.children if c.type != "footnote_anchor"])
            if blocks and blocks[0].kind == "prose":
                blocks[0] = replace(blocks[0], text=f"[{label}]: {blocks[0].text}")
            line = next((c.map[0] for c in note.children if c.map), 1 << 30)
            yield label, line, blocks


def _paragraph(text: str) -> Iterator[_Block]:
    """A paragraph; one opening with reST's ``.. note::`` is an admonition (its title, then its text)."""
    first, _, rest = text.partition("\n")
    match = _REST_ADMONITION.match(first.strip())
    if match is None or not _PROSE_DIRECTIVES.get(match.group(1)):
        yield _Block(text, "prose")
        return
    name, argument = match.group(1), match.group(2).strip()
    versioned = name in _VERSIONED
    title = _title(name, argument if versioned else "")
    lines = ([] if versioned else [argument]) + rest.split("\n")
    body = "\n".join(line.strip() for line in lines if line.strip())
    yield _Block(f"{title}: {body}", "prose") if body else _Block(title, "rest-title")


def _directive_body(content: str) -> str:
    """A MyST directive's content without its options (``:class: tip`` lines, or a ``---`` YAML block)."""
    lines = content.split("\n")
    if lines and lines[0].strip() == "---":
        end = next((n for n in range(1, len(lines)) if lines[n].strip() == "---"), None)
        if end is not None:
            return "\n".join(lines[end + 1 :])
    n = 0
    while n < len(lines) and _OPTION.match(lines[n].strip()):
        n += 1
    return "\n".join(lines[n:])


def _fenced(opening: str, content: str, closing: str = "") -> str:
    """Code between fences: ``opening`` (a fence and its info string), else a fence longer than any backtick run."""
    code = content.rstrip("\n")
    fence = "`" * max(3, 1 + max((len(r) for r in re.findall(r"`+", code)), default=0))
    return f"{opening or fence}\n{code}\n{closing or fence}" if code.strip() else ""


def _dedent(text: str) -> str:
    lines = text.split("\n")
    indent = min((len(line) - len(line.lstrip()) for line in lines if line.strip()), default=0)
    return "\n".join(line[indent:] for line in lines)


def _rows(node: SyntaxTreeNode) -> list[Row]:
    """A pipe table's rows for :func:`~tgneo.ingest.readers.tables.table_text`."""
    rows: list[Row] = []
    for part in node.children:
        for tr in part.children:
            cells = [(_inline(c.children[0]) if c.children else "", False, 1) for c in tr.children]
            rows.append((part.type == "thead", cells))
    return rows


def _titled(title: str, blocks: list[_Block]) -> list[_Block]:
    """An admonition's blocks: its first paragraph begins with its title, else the title is a line of its own."""
    if not blocks:
        return [_Block(title, "line")]
    first = blocks[0]
    if first.kind in ("prose", "term"):
        if first.text.startswith(f"{title}: "):
            return blocks
        return [replace(first, text=f"{title}: {first.text}"), *blocks[1:]]
    return [_Block(title, "line", first.attached), replace(first, attached=True), *blocks[1:]]


def _prefixed(tab: str, block: _Block) -> _Block:
    """A paragraph of a tab begins with the tab's title (``Unix: …``); lists, code and tables do not."""
    if block.kind not in ("prose", "term") or block.text.startswith(f"{tab}: "):
        return block
    return replace(block, text=f"{tab}: {block.text}")


def _title(directive: str, argument: str) -> str:
    """The title Sphinx renders for a prose directive (``Note``, ``Changed in version 23.3``, ``Linux``)."""
    shown = _inline_text(argument) if argument else ""
    return " ".join(t for t in (_PROSE_DIRECTIVES[directive.lower()], shown) if t)


# -- inline -------------------------------------------------------------------------------------------------------


def _inline_text(text: str) -> str:
    """A line of Markdown (a directive's argument) as the text a reader sees."""
    tokens = _PARSER.parseInline(text)
    return _inline(SyntaxTreeNode(tokens).children[0]) if tokens else text


def _inline(node: SyntaxTreeNode, bare: bool = False) -> str:
    """An inline node's text (see the module docstring); ``bare``: code spans without their backticks (labels)."""
    text = "".join(_span(child, bare) for child in node.children)
    return re.sub(r"[ \t]*\n[ \t]*", "\n", text).strip()


def _span(node: SyntaxTreeNode, bare: bool = False) -> str:
    kind = node.type
    if kind == "text":
        return node.content
    if kind == "code_inline":
        return node.content if bare else _code(node.content)
    if kind in ("softbreak", "hardbreak"):
        return "\n"
    if kind == "myst_role":
        return _role(str(node.meta.get("name", "")), node.content, bare)
    if kind == "image":
        return node.content
    if kind == "footnote_ref":
        return f"[{node.meta.get('label', '')}]"
    if kind == "html_inline":
        tag = node.content.strip()
        if _CODE_TAGS.match(tag):
            return "" if bare else "`"
        return "\n" if _BREAK_TAG.match(tag) else ""
    return "".join(_span(child, bare) for child in node.children)  # emphasis, strong, links, strikethrough


def _code(text: str) -> str:
    """A code span of ``text``, exactly as written: one backtick each side unless it holds backticks."""
    if not text.strip():
        return text
    if "`" not in text:
        return f"`{text}`"
    fence = "`" * (1 + max(len(r) for r in re.findall(r"`+", text)))
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _role(name: str, text: str, bare: bool) -> str:
    """A MyST role: a link's text, ``PEP n``, or a code span of what it names."""
    name = name.split(":")[-1]
    shown = _ROLE_TARGET.sub("", text) or text.strip("<>")
    if name in _LINK_ROLES:
        return shown
    if name == "pep":
        return f"PEP {shown}"
    return shown if bare else _code(shown)
