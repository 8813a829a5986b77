"""The one sentence segmenter: a text's sentence-like units, each with where it is in the text.

A chunk's text is prose, list items, table rows, headings and code blocks (the readers keep code
fences and list markers, see :mod:`tgneo.ingest.readers.markdown`). :func:`units` cuts it into:

* ``sentence`` — paragraph text (its lines joined) cut after ``.``, ``!`` or ``?``: before a capital,
  digit, quote or code span; before a lower-case word too (``… the cache. pip will …``) when the word
  ending there is a real word of four letters or more — never after an abbreviation (``e.g.``,
  ``etc.``, ``Dr.``), an initial (``M.``), inside an identifier (``origin.json``, ``v24.2``) or inside
  a code span (```os.path. join```: inline code never ends a sentence). A paragraph that opens
  with a term holding code, then ``": "`` — the way the readers write a definition (``<dt>`` then
  ``<dd>``: ``work_mem (integer): Sets …`` with the code marked) — is a definition: each of its
  further sentences is led by that term (``… (integer): The default value is four megabytes.``), so
  evidence and answers quoting one name what it defines; its span is still the sentence's own;
* ``item`` — a list item (its marker dropped), cut into sentences the same way;
* ``row`` — a row of a pipe table the readers did not read (plain text, a table Markdown does not parse): after
  a header row and its ``|---|---|`` line, a statement naming each cell by its column's header (``Name:
  explain_graph; Type: str | None.``, pipes inside code spans or escaped kept in their cell, empty cells left
  out), as :mod:`tgneo.ingest.readers.tables` reads the tables it parses; a row of a table without that header,
  its non-empty cells (``a | b | c``), which the offline answers never quote (:func:`reads_as_text`);
* ``code`` — a short code block (at most three short lines: a path, a command, a setting), read as one
  unit after the short heading-like line that labels it (``Linux: ~/.cache/pip``); of a longer block,
  only its shell command lines (``$ pip install …``), each a unit. Other code is not prose;
* a code block **introduced by a sentence or list item ending in a colon** (``To check that, use the
  following command:`` and then a fenced block, nothing but blank lines between) is not a unit of its
  own: it joins that sentence, whose unit then reaches to the end of the code it holds — the whole
  block when it is short, else its first lines (at most :data:`JOINED_CODE_LINES` lines and
  :data:`JOINED_CODE_CHARS` characters; the shell commands after them are still units of their own).
  Its text is the sentence, then the code's lines, white space collapsed (``… following command: pip
  cache dir``); the fence lines between are not part of it. Code reaches the segmenter fenced: the
  Markdown reader keeps fences, the HTML reader fences ``<pre>``;
* ``heading`` — a line on its own that names what follows (a Markdown heading, or a short line
  without closing punctuation between paragraphs): kept so a caller can see the structure, but not a
  sentence (:func:`sentences` leaves headings out).

Every unit's :attr:`Unit.start` and :attr:`Unit.end` are character offsets into the text given, so a
fact's evidence can be stored as a span of its chunk; :attr:`Unit.text` has its white space collapsed
(and a sentence that introduces code holds its code's lines, not the fence lines around them).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

__all__ = ["Unit", "reads_as_text", "sentences", "units"]

MAX_HEADING_WORDS = 8
"""A line on its own with more words than this (or with closing punctuation) is prose, not a heading."""
MAX_LABEL_WORDS = 6
"""The longest heading-like line that labels the short code block after it."""
SHORT_CODE_LINES = 3
SHORT_CODE_CHARS = 120
MAX_COMMANDS = 20
"""Shell command lines read from one long code block, at the most."""
MAX_TERM_WORDS = 8
"""The longest term (with code in it) that a definition paragraph opens with: ``term: definition``."""
JOINED_CODE_LINES = 3
JOINED_CODE_CHARS = 200
"""Of a long code block introduced by a colon, the first lines its sentence holds: at most this many
lines and characters (the first line always)."""

_ABBREVIATIONS = frozenset(
    "mr mrs ms dr prof st mt jr sr vs etc eg ie no nos fig figs approx ca cf al resp esp incl viz".split()
)
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
_ITEM = re.compile(r"^(\s*)([-*+•]|\d{1,3}[.)])\s+(?=\S)")
_MD_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$")
_ROW = re.compile(r"^\s*\|.*\|\s*$|^[^|\n]*\S\s\|\s\S[^\n]*\s\|\s\S")
_BOUNDARY = re.compile(r"[.!?][\"'”’)\]]*\s+(?=([\"'“‘(\[`]?)(\S))")
_CODE_SPAN = re.compile(r"(`+)[^`]+?\1")


@dataclass(frozen=True)
class Unit:
    """One sentence-like unit of a text: its text (white space collapsed), its span, and its kind."""

    text: str
    start: int
    end: int
    kind: str


def _collapse(text: str) -> str:
    return " ".join(text.split())


_IDENTIFIER_START = re.compile(r"[a-z][a-z0-9]*(?:[_-][a-z0-9]+)+\b|[a-z]\w*\(\)|[a-z]+[A-Z]\w*")
"""A lower-case identifier (``uri_map``, ``tg-show-explain-trace``, ``get_labelgraph()``, ``getLabel``): after a
full stop it begins a sentence, as a capital would."""


def _is_boundary(block: str, dot: int, following: str) -> bool:
    """Whether the ``.``/``!``/``?`` at ``block[dot]`` ends a sentence, given the next word's first character."""
    if block[dot] in "!?":
        return True
    before = re.search(r"([\w.'’-]*)$", block[:dot])
    word = before.group(1) if before else ""
    bare = word.replace(".", "").lower()
    if bare in _ABBREVIATIONS or (len(word) == 1 and word.isalpha()) or re.fullmatch(r"(?:\w\.)+\w", word):
        return False  # ``e.g.``, ``Dr.``, ``M.``, ``U.S.``
    if following.isupper() or following.isdigit() or following in "\"'“‘([`":
        return True
    if following.islower() and (word.isalpha() or block[:dot].endswith("`")):
        after = re.match(r"[.!?][\"'”’)\]]*\s+(\S+)", block[dot:])
        if after is not None and _IDENTIFIER_START.match(after.group(1)):
            return True  # ``… found on `PATH`. uri_map maps …``: an identifier keeps its case at a sentence's start
    return following.islower() and word.isalpha() and len(word) >= 4


def _split(block: str, offset: int, kind: str) -> Iterator[Unit]:
    """The sentences of one paragraph or list item (``block`` starts at ``offset`` in the text)."""
    start = 0
    code = [span.span() for span in _CODE_SPAN.finditer(block)]
    for match in _BOUNDARY.finditer(block):
        if any(a < match.start() < b for a, b in code):
            continue  # inline code never ends a sentence
        if not _is_boundary(block, match.start(), match.group(1) or match.group(2)):  # an opener, else the letter
            continue
        end = match.end() - len(match.group(0)) + len(match.group(0).rstrip())
        text = _collapse(block[start:end])
        if text:
            yield Unit(text, offset + start, offset + end, kind)
        start = match.end()
    text = _collapse(block[start:])
    if text:
        end = len(block.rstrip())
        yield Unit(text, offset + start + (len(block[start:]) - len(block[start:].lstrip())), offset + end, kind)


def _heading_text(line: str) -> str | None:
    """The heading a line on its own is, if it is one (see :data:`MAX_HEADING_WORDS`)."""
    md = _MD_HEADING.match(line)
    if md is not None:
        return md.group(1) if len(md.group(1).split()) <= 16 else None
    stripped = line.strip()
    if not stripped or stripped[-1] in ".!?:;,\"')”’" or len(stripped.split()) > MAX_HEADING_WORDS:
        return None
    return stripped


def units(text: str) -> list[Unit]:
    """The units of ``text`` in order (see the module docstring)."""
    lines: list[tuple[int, str]] = []
    position = 0
    for line in text.split("\n"):
        lines.append((position, line))
        position += len(line) + 1
    out: list[Unit] = []
    block: list[tuple[int, str]] = []
    block_kind = "sentence"

    def flush() -> None:
        nonlocal block, block_kind
        if block:
            found = list(_block_units(block, block_kind, text))
            out.extend(_termed(found) if block_kind == "sentence" else found)
        block, block_kind = [], "sentence"

    i = 0
    while i < len(lines):
        start, line = lines[i]
        if not line.strip():
            flush()
            i += 1
            continue
        fence = _FENCE.match(line)
        if fence is not None:
            flush()
            j = i + 1
            while j < len(lines) and not lines[j][1].strip().startswith(fence.group(1)[0] * len(fence.group(1))):
                j += 1
            code = lines[i + 1 : j]
            before = out[-1] if out else None
            if before is not None and _introduces(before, text[before.end : start]):
                out[-1], rest = _joined(before, code)
                out.extend(_commands(rest))
            else:
                out.extend(_code_units(code, before))
            i = j + 1
            continue
        item = _ITEM.match(line)
        if item is not None:
            flush()
            block, block_kind = [(start + item.end(), line[item.end() :])], "item"
            i += 1
            continue
        if _ROW.match(line) and block_kind != "item":
            flush()
            j = i
            while j < len(lines) and _ROW.match(lines[j][1]):
                j += 1
            out.extend(_rows(lines[i:j]))
            i = j
            continue
        md = _MD_HEADING.match(line)
        if md is not None and len(md.group(1).split()) <= 16:
            flush()
            out.append(Unit(_collapse(md.group(1)), start, start + len(line.rstrip()), "heading"))
            i += 1
            continue
        block.append((start, line))
        i += 1
    flush()
    return out


_DELIMITER = re.compile(r"^\s*:?-{2,}:?\s*$")


def _cells(line: str) -> list[str]:
    """A pipe table row's cells: split at pipes outside code spans and not escaped (``\\|``)."""
    body = line.strip()
    body = body[1:] if body.startswith("|") else body
    body = body[:-1] if body.endswith("|") and not body.endswith("\\|") else body
    cells, current, code = [], "", 0
    i = 0
    while i < len(body):
        if body[i] == "`":
            run = len(body[i:]) - len(body[i:].lstrip("`"))
            code = 0 if code == run else (run if not code else code)
            current += body[i : i + run]
            i += run
            continue
        if body.startswith("\\|", i):
            current += "|"
            i += 2
            continue
        if body[i] == "|" and not code:
            cells.append(current.strip())
            current = ""
        else:
            current += body[i]
        i += 1
    return [*cells, current.strip()]


def _rows(lines: list[tuple[int, str]]) -> Iterator[Unit]:
    """The units of consecutive pipe table lines (see the module docstring)."""
    header = _cells(lines[0][1]) if len(lines) > 1 and all(_DELIMITER.match(c) for c in _cells(lines[1][1])) else None
    for n, (start, line) in enumerate(lines):
        cells = _cells(line)
        if header is not None and n < 2:
            continue
        if header is not None:
            pairs = [f"{h}: {c}" if h and h != c else c for h, c in zip(header, cells, strict=False) if c]
            pairs += [c for c in cells[len(header) :] if c]
            text = "; ".join(re.sub(r"(?<=[\w)`'\"])\.$", "", p) for p in pairs[:-1]) + ("; " if len(pairs) > 1 else "")
            text = (text + pairs[-1]) if pairs else ""
            text = text if not text or text[-1] in ".!?" else text + "."
        else:
            text = " | ".join(c for c in cells if c)
        if text:
            indent = len(line) - len(line.lstrip())
            yield Unit(_collapse(text), start + indent, start + len(line.rstrip()), "row")


def reads_as_text(sentence: str) -> bool:
    """Whether ``sentence`` reads as text, not as a run of table cells (``a | b | c``, ``x | | y``): pipes outside
    code spans that split it into three or more cells, or leave a cell empty."""
    bare = _CODE_SPAN.sub("`code`", sentence)
    return bare.count(" | ") < 2 and not re.search(r"\|\s*\|", bare)


def _block_units(block: list[tuple[int, str]], kind: str, text: str) -> Iterator[Unit]:
    """A paragraph's (or list item's) units: heading lines set apart, the rest cut into sentences."""
    pending: list[tuple[int, str]] = []
    previous: str | None = None
    for n, (start, line) in enumerate(block):
        heading = _heading_text(line) if kind == "sentence" else None
        ends_sentence = previous is None or previous.rstrip()[-1:] in ".!?:"
        if heading is not None and ends_sentence and (n + 1 < len(block) or len(block) == 1):
            if pending:
                yield from _pieces(pending, kind, text)
                pending = []
            yield Unit(_collapse(line), start + len(line) - len(line.lstrip()), start + len(line.rstrip()), "heading")
        else:
            pending.append((start, line))
        previous = line
    if pending:
        yield from _pieces(pending, kind, text)


def _pieces(lines: list[tuple[int, str]], kind: str, text: str) -> Iterator[Unit]:
    start = lines[0][0]
    last_start, last_line = lines[-1]
    yield from _split(text[start : last_start + len(last_line)], start, kind)


def _code_units(code: list[tuple[int, str]], before: Unit | None) -> Iterator[Unit]:
    """A short block as one unit (labelled by a heading-like line just before it); else its commands."""
    lines = [(start, line) for start, line in code if line.strip()]
    if not lines:
        return
    if len(lines) <= SHORT_CODE_LINES and all(len(line.strip()) <= SHORT_CODE_CHARS for _, line in lines):
        body = "; ".join(line.strip() for _, line in lines)
        label = before.text if before is not None and before.kind == "heading" else None
        if label is not None and len(label.split()) <= MAX_LABEL_WORDS:
            body = f"{label.rstrip(':')}: {body}"
        yield Unit(body, lines[0][0], lines[-1][0] + len(lines[-1][1]), "code")
        return
    yield from _commands(lines)


def _commands(lines: list[tuple[int, str]]) -> Iterator[Unit]:
    """The shell command lines (``$ pip install …``) of a long code block, each a unit."""
    commands = 0
    for start, line in lines:
        stripped = line.strip()
        if stripped.startswith("$ ") and commands < MAX_COMMANDS:
            commands += 1
            offset = start + line.index("$") + 2
            yield Unit(_collapse(stripped[2:]), offset, start + len(line.rstrip()), "code")


def _termed(found: list[Unit]) -> list[Unit]:
    """A definition's sentences, each led by its term (see the module docstring)."""
    first = next((u for u in found if u.kind == "sentence"), None)
    at = first.text.find(": ") if first is not None else -1
    term = first.text[:at] if first is not None and at > 0 else ""
    bare = _CODE_SPAN.sub("", term)
    if "`" not in term or len(term.split()) > MAX_TERM_WORDS or re.search(r"[.!?;:]", bare):
        return found
    return [
        Unit(f"{term}: {u.text}", u.start, u.end, u.kind)
        if u is not first and u.kind == "sentence" and not u.text.startswith(term)
        else u
        for u in found
    ]


def _introduces(unit: Unit, between: str) -> bool:
    """Whether ``unit`` introduces the code block after it: a sentence or item ending in a colon, right before it."""
    return unit.kind in ("sentence", "item") and unit.text.endswith(":") and not between.strip()


def _joined(sentence: Unit, code: list[tuple[int, str]]) -> tuple[Unit, list[tuple[int, str]]]:
    """``sentence`` holding the code it introduces (see the module docstring), and the code lines it leaves."""
    lines = [(start, line) for start, line in code if line.strip()]
    if not lines:
        return sentence, []
    short = len(lines) <= SHORT_CODE_LINES and all(len(line.strip()) <= SHORT_CODE_CHARS for _, line in lines)
    taken = len(lines) if short else 1
    while taken < min(len(lines), JOINED_CODE_LINES):
        if sum(len(line.strip()) for _, line in lines[: taken + 1]) > JOINED_CODE_CHARS:
            break
        taken += 1
    held = " ".join(line for _, line in lines[:taken])
    last_start, last_line = lines[taken - 1]
    end = last_start + len(last_line.rstrip())
    return Unit(_collapse(f"{sentence.text} {held}"), sentence.start, end, sentence.kind), lines[taken:]


def sentences(text: str) -> list[str]:
    """The texts of :func:`units` that say something: everything but headings."""
    return [unit.text for unit in units(text) if unit.kind != "heading"]
