"""Markdown (CommonMark, and the MyST dialect Sphinx projects write): one section per heading.

What a section holds is the prose a reader sees, kept so that identifiers survive:

* **headings** are ATX (``## Early life``) or setext (a line underlined with ``===`` or ``---``),
  never inside a code block; an ATX "heading" of more than :data:`MAX_HEADING_WORDS` words is prose
  whose line breaks were lost (a whole document on one line), and reads as prose;
* **code spans stay code spans** (```pip cache dir```, with their backticks), untouched by the other
  inline rules, so that ``PIP_<UPPER_LONG_NAME>`` or ``urn:graph:retrieval`` reaches the extractor
  whole; links and images become their text, emphasis marks and inline HTML tags go;
* **fenced code blocks** are kept verbatim with their fences (the extractor tells code from prose by
  them), and an **indented code block** (four spaces or a tab, after a blank line, not in a list) is
  fenced the same way; a block right after a line ending in a colon (``… use the following command:``) follows it
  on the next line, the blank line between dropped, so that no chunk is cut between the two and
  :func:`tgneo.nlp.segment.units` joins them into one unit;
* **admonitions** stay in their section as one statement: MyST directives that hold prose
  (``{note}``, ``{warning}``, ``{tab} Linux``, ``{admonition} Example``, ``{versionchanged} 23.3`` …)
  are read as prose whose first line begins with the title Sphinx would render, then ``": "``
  (``Note: Only ASCII…``, ``Changed in version 23.3: A new cache format…``); a title that opens
  code, or nothing, stays a line of its own (``Linux`` then the block it labels); in a tab
  (``{tab} Unix``, ``{tab-item}``) *every* paragraph begins so (``Unix: User: …``), since the same
  paragraphs recur in each tab and only the title tells them apart. reST's
  ``.. note::`` and GitHub's ``> **Note**`` / ``> [!NOTE]`` read the same way. MyST roles become
  their text (``{ref}`` links) or a code span (``{any}`--require-hashes```, ``{file}``, ``{pypi}``…);
* **lists** keep their markers (one item a line), **tables** keep one row a line with cells joined by
  ``|`` (the separator row dropped), a **definition list** reads ``Term: definition`` on one line,
  block quote markers go, and MyST targets (``(config-file)=``) and link definitions
  (``[name]: https://…``) are dropped.

Text before the first heading is a section of its own. The first level-1 heading (else the first
heading) is the title.
"""

from __future__ import annotations

import re

from tgneo.ingest.readers.base import Decoded, Part, clean, decode_text

MIME = "text/markdown"
MAX_HEADING_WORDS = 16
"""An ATX line with more words than this is prose that lost its line breaks, not a heading."""

_ATX = re.compile(r"^ {0,3}(#{1,6})(?:\s+(.*?))?\s*#*\s*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)\s*$")
_FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*(\{([\w-]+)\}\s*(.*?)|.*?)\s*$")
_PROSE_DIRECTIVES = {
    "note": "Note", "warning": "Warning", "caution": "Caution", "tip": "Tip", "hint": "Hint",
    "important": "Important", "attention": "Attention", "danger": "Danger", "error": "Error",
    "seealso": "See also", "admonition": "", "tab": "", "tab-item": "", "dropdown": "", "topic": "", "sidebar": "",
    "versionadded": "New in version", "versionchanged": "Changed in version", "deprecated": "Deprecated since version",
}  # fmt: skip
"""MyST directives whose body is prose, and the title line Sphinx renders for each (its argument after)."""
_TARGET = re.compile(r"^\s*\([^()]+\)=\s*$")
_LINK_DEFINITION = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(\S+)?\s*$")
_TABLE_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1")
_ROLE = re.compile(r"\{([\w:-]+)\}(`+)(.+?)\2")
_ROLE_TARGET = re.compile(r"\s*<[^<>]+>\s*$")
_LINK_ROLES = frozenset({"ref", "doc", "term", "numref", "abbr", "sup", "sub", "guilabel", "menuselection"})
_HTML_TAG = re.compile(
    r"</?(?:a|abbr|b|br|code|del|details|div|em|i|img|ins|kbd|mark|p|pre|s|small|span|strong|sub|summary|sup|"
    r"table|tbody|td|th|thead|tr|u)\b[^<>]*>",
    re.IGNORECASE,
)
_INLINE = (
    (re.compile(r"!\[([^\]]*)\]\([^)]*\)"), r"\1"),  # images → alt text
    (re.compile(r"\[([^\]]+)\]\([^)]*\)"), r"\1"),  # links → their text
    (re.compile(r"\[([^\]]+)\]\[[^\]]*\]"), r"\1"),  # reference links
    (re.compile(r"\[\^([^\]]+)\]"), r"[\1]"),  # footnote references
    (re.compile(r"(?<![\w\]])\[([^\]\n]+)\](?![(\[:])"), r"\1"),  # shortcut reference links
    (_HTML_TAG, ""),
    (re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1"), r"\2"),  # strong
    (re.compile(r"(?<![\w*])([*_])(?=\S)(.+?)(?<=\S)\1(?![\w*])"), r"\2"),  # emphasis
)
_LIST_ITEM = re.compile(r"^\s*([-*+]|\d+[.)])\s")
_QUOTE = re.compile(r"^(\s*)(?:>\s?)+")
_DEFINITION = re.compile(r"^\s*:\s{1,4}(?=\S)")
_TABS = frozenset({"tab", "tab-item"})
"""Directives whose title says what each paragraph in them is about (``Linux``, ``Windows``)."""
_REST_ADMONITION = re.compile(r"^\s*\.\.\s+([a-z]+)::\s*(.*?)\s*$")
_QUOTED_ADMONITION = re.compile(r"^\s*>\s*(?:\*\*(\w+)\*\*:?|\[!(\w+)\])\s*(.*?)\s*$")


def _role(match: re.Match[str]) -> str:
    """A MyST role: a link's text, ``PEP n``, or a code span of what it names."""
    name, text = match.group(1).split(":")[-1], match.group(3)
    shown = _ROLE_TARGET.sub("", text) or text.strip("<>")
    if name in _LINK_ROLES:
        return shown
    if name == "pep":
        return f"PEP {shown}"
    return f"`{shown}`"


def plain(line: str) -> str:
    """One line of Markdown as the text a reader sees, code spans kept whole (see the module docstring)."""
    line = _QUOTE.sub(r"\1", line)
    line = _DEFINITION.sub("", line)
    line = _ROLE.sub(_role, line)
    out: list[str] = []
    last = 0
    for span in _CODE_SPAN.finditer(line):
        out.append(_inline(line[last : span.start()]))
        out.append(span.group(0))
        last = span.end()
    out.append(_inline(line[last:]))
    return "".join(out)


def _inline(text: str) -> str:
    for pattern, repl in _INLINE:
        text = pattern.sub(repl, text)
    return text


def _table_row(line: str) -> str | None:
    """A table row as its cells joined by `` | ``; ``None`` when ``line`` is no table row."""
    stripped = line.strip()
    if not (stripped.startswith("|") and stripped.endswith("|") and len(stripped) > 1):
        return None
    cells = [plain(cell.strip()) for cell in re.split(r"(?<!\\)\|", stripped[1:-1])]
    return " | ".join(cell for cell in cells if cell)


class _Fences:
    """The open fenced blocks at a line: code blocks (kept verbatim) and prose directives (read as Markdown)."""

    def __init__(self) -> None:
        self.stack: list[tuple[str, bool]] = []  # (fence, holds prose)
        self.tabs: list[tuple[int, str]] = []  # the open tabs: (depth in the stack, title)

    @property
    def in_code(self) -> bool:
        return any(not prose for _, prose in self.stack)

    @property
    def tab(self) -> str | None:
        """The title of the innermost open tab (``Linux``): every paragraph in it is about what it names."""
        return self.tabs[-1][1] if self.tabs else None

    def line(self, line: str) -> tuple[bool, str | None, bool]:
        """Whether ``line`` opens or closes a fence, the text it stands for (``None``: nothing), and
        whether that text is a prose directive's title."""
        match = _FENCE.match(line)
        if match is None:
            return False, None, False
        fence = match.group(2)
        if self.stack and fence[0] == self.stack[-1][0][0] and len(fence) >= len(self.stack[-1][0]):
            if not match.group(3).strip() or self.in_code:  # a closing fence (nothing after it)
                _, prose = self.stack.pop()
                if self.tabs and self.tabs[-1][0] == len(self.stack):
                    self.tabs.pop()
                return True, None if prose else line.strip(), False
        if self.in_code:
            return False, None, False  # a fence-like line inside code is code
        directive, argument = match.group(4), (match.group(5) or "").strip()
        if directive is not None and directive.lower() in _PROSE_DIRECTIVES:
            if directive.lower() in _TABS and argument:
                self.tabs.append((len(self.stack), _title(directive, argument)))
            self.stack.append((fence, True))
            return True, _title(directive, argument), True
        self.stack.append((fence, False))
        return True, line.strip(), False


def _title(directive: str, argument: str) -> str:
    """The title Sphinx renders for a prose directive (``Note``, ``Changed in version 23.3``, ``Linux``)."""
    return " ".join(t for t in (_PROSE_DIRECTIVES[directive.lower()], plain(argument)) if t)


def read(data: bytes) -> Decoded:
    """Sections of a Markdown file (see the module docstring)."""
    lines = decode_text(data).split("\n")
    sections: list[tuple[int, str | None, list[str]]] = [(0, None, [])]
    fences = _Fences()
    title: str | None = None  # an admonition's title, waiting for the prose it opens
    i = 0
    while i < len(lines):
        line = lines[i]
        body = sections[-1][2]
        is_fence, shown, is_title = fences.line(line)
        if title is not None:
            if not line.strip() and not is_fence:
                i += 1  # blank lines between a title and its text
                continue
            prose = _QUOTE.sub(r"\1", line).strip()
            if is_fence or _heading(lines, i) is not None or _LIST_ITEM.match(prose) or prose.startswith("|"):
                body.append(title)  # a title before code (or nothing) labels it, on a line of its own
            else:
                line = f"{title}: {prose}"
            title = None
        if is_fence:
            if is_title:
                title = shown
            elif shown:
                if shown.startswith(("`", "~")) and len(body) > 1 and not body[-1].strip() and body[-2].endswith(":"):
                    body.pop()  # code after "…the following command:" follows it on the next line
                body.append(shown)
            i += 1
            continue
        if fences.in_code:
            sections[-1][2].append(line)
            i += 1
            continue
        code = _indented_code(lines, i, body)
        if code:
            if len(body) > 1 and not body[-1].strip() and body[-2].endswith(":"):
                body.pop()  # as for a fenced block: code after a colon follows its sentence
            body.extend(["```", *(c[4:] if c.startswith("    ") else c.lstrip("\t") for c in code), "```"])
            i += len(code)
            continue
        heading = _heading(lines, i)
        if heading is not None:
            level, text, used = heading
            sections.append((level, text, [text]))
            i += used
            continue
        i += 1
        if _TARGET.match(line) or _LINK_DEFINITION.match(line) or _TABLE_SEPARATOR.match(line):
            continue
        admonition = _REST_ADMONITION.match(line) or _QUOTED_ADMONITION.match(line)
        if admonition is not None:
            name, rest = (
                (admonition.group(1) or admonition.group(2) or "").lower(),
                admonition.group(admonition.re.groups),
            )
            if _PROSE_DIRECTIVES.get(name):
                versioned = name.startswith("version") or name == "deprecated"
                title = _title(name, rest if versioned else "")
                if rest and not versioned:
                    sections[-1][2].append(f"{title}: {plain(rest)}")
                    title = None
                continue
        atx = _ATX.match(line)
        if atx and atx.group(2):  # too long for a heading: prose that lost its line breaks
            line = atx.group(2)
        row = _table_row(line)
        body = sections[-1][2]
        if row is None and _DEFINITION.match(line) and body and _is_term(body[-1]):
            body[-1] = f"{body[-1].strip()}: {plain(line).strip()}"  # a definition list: "Term: definition"
            continue
        tab = fences.tab
        opens = row is None and line.strip() and (not body or not body[-1].strip()) and not _LIST_ITEM.match(line)
        if tab and opens and not line.startswith(f"{tab}: "):
            line = f"{tab}: {line.strip()}"  # each paragraph of a tab is about what its title names
        body.append(row if row is not None else plain(line))
    parts: list[Part] = []
    for _, label, body in sections:
        text = clean("\n".join(body))
        if text and text != label:
            parts.append(Part(text, label or f"Section {len(parts) + 1}", len(parts) + 1))
    headings = [(level, label) for level, label, _ in sections if label]
    title = next((label for level, label in headings if level == 1), headings[0][1] if headings else None)
    return Decoded("markdown", MIME, False, tuple(parts), title=title)


def _indented_code(lines: list[str], i: int, body: list[str]) -> list[str]:
    """The lines of an indented code block starting at line ``i`` (none: it starts no such block).

    A block is lines indented by four spaces or a tab after a blank line, when the prose before is
    not a list (whose continuation lines are indented too); it ends before a line indented less.
    """
    line = lines[i]
    if not line.startswith(("    ", "\t")) or not line.strip() or (body and body[-1].strip()):
        return []
    before = next((b for b in reversed(body) if b.strip()), "")
    if _LIST_ITEM.match(before) or before.startswith((" ", "\t")):
        return []
    end = i
    while end < len(lines) and (lines[end].startswith(("    ", "\t")) or not lines[end].strip()):
        end += 1
    while end > i and not lines[end - 1].strip():
        end -= 1
    return lines[i:end]


def _is_term(line: str) -> bool:
    """A line that can be a definition list's term: short, one line, no closing punctuation."""
    stripped = line.strip()
    return bool(stripped) and len(stripped.split()) <= 6 and stripped[-1] not in ".!?:;,"


def _heading(lines: list[str], i: int) -> tuple[int, str, int] | None:
    """``(level, text, lines used)`` when a heading starts at line ``i``."""
    atx = _ATX.match(lines[i])
    if atx and atx.group(2) and len(atx.group(2).split()) <= MAX_HEADING_WORDS:
        return len(atx.group(1)), _bare(plain(atx.group(2))), 1
    line = lines[i]
    if (
        line.strip() and i + 1 < len(lines) and _SETEXT.match(lines[i + 1]) and not _FENCE.match(line)
        and len(line.split()) <= MAX_HEADING_WORDS and _table_row(line) is None and not _LIST_ITEM.match(line)
    ):  # fmt: skip
        return (1 if lines[i + 1].strip()[0] == "=" else 2), _bare(plain(line.strip())), 2
    return None


def _bare(heading: str) -> str:
    """A heading as a label: the text of its code spans without their backticks (``pip cache dir``)."""
    return _CODE_SPAN.sub(lambda m: m.group(2), heading)
