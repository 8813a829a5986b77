"""Turtle-star and TriG-star bytes rewritten, on the fly, into the RDF 1.2 triple terms pyoxigraph's parser reads.

RDF-star's quoted triple ``<< s p o >>`` is, in RDF 1.2, written ``<<( s p o )>>`` (``<< … >>`` there means a
*reifier*, a different thing). This is the one-pass lexer that rewrites the one into the other without holding the
file in memory; :mod:`tgneo.rdf.reader` decides when to use it and turns pyoxigraph's errors back into the user's
line and column with :meth:`StarToTripleTerms.original_column`.
"""

from __future__ import annotations

import io
from collections import deque
from typing import Any, BinaryIO

from tgneo.errors import RDFSyntaxError
from tgneo.rdf.terms import MAX_NESTING


class StarToTripleTerms(io.RawIOBase):
    """Bytes of a Turtle-star/TriG-star file, rewritten on the fly for pyoxigraph's RDF 1.2 parser.

    ``<< s p o >>`` becomes ``<<( s p o )>>``; strings, IRIs and comments pass untouched. The columns
    where characters were inserted are kept
    for the most recent lines, so that a parse error is reported at the user's column.
    """

    _RECENT_LINES = 4096

    def __init__(self, handle: BinaryIO, syntax: str) -> None:
        super().__init__()
        self.handle = handle
        self.syntax = syntax
        self.buffer = b""
        self.line_no = 0
        self.long: str | None = None  # the delimiter of a long string still open at the end of a line
        self.stack: list[str] = []  # "star" or "term" for each open << / <<(
        self.shifts: dict[int, list[tuple[int, int]]] = {}
        self.recent: deque[int] = deque()
        self.subject_quoted = False

    def readable(self) -> bool:
        return True

    def readinto(self, target: Any) -> int:
        while not self.buffer:
            raw = self.handle.readline()
            if not raw:
                return 0
            self.line_no += 1
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as e:
                raise RDFSyntaxError(self.syntax, self.line_no, f"not UTF-8 ({e.reason})", column=e.start + 1) from e
            if self.line_no == 1:
                text = text.removeprefix("\ufeff")
            self.buffer = self._rewrite(text).encode("utf-8")
        n = min(len(target), len(self.buffer))
        target[:n] = self.buffer[:n]
        self.buffer = self.buffer[n:]
        return n

    def original_column(self, line: int, column: int) -> int:
        """The user's column for a column pyoxigraph reports in the rewritten line."""
        return column - sum(added for at, added in self.shifts.get(line, ()) if at < column)

    def _insert(self, out: list[str], column: int, text: str) -> None:
        out.append(text)
        if self.line_no not in self.shifts:
            self.shifts[self.line_no] = []
            self.recent.append(self.line_no)
            if len(self.recent) > self._RECENT_LINES:
                self.shifts.pop(self.recent.popleft(), None)
        self.shifts[self.line_no].append((column + sum(a for _, a in self.shifts[self.line_no]), len(text)))

    def _rewrite(self, line: str) -> str:  # noqa: C901 - one small state machine reads best in one place
        out: list[str] = []
        i, n = 0, len(line)
        while i < n:
            if self.long is not None:
                end = _close_long(line, i, self.long)
                if end < 0:
                    out.append(line[i:])
                    return "".join(out)
                out.append(line[i:end])
                i, self.long = end, None
                continue
            c = line[i]
            if c == "#":
                out.append(line[i:])
                break
            if c in "\"'":
                if line.startswith(c * 3, i):
                    out.append(c * 3)
                    i += 3
                    self.long = c * 3
                    continue
                end = _close_short(line, i)
                out.append(line[i:end])
                i = end
                continue
            if line.startswith("<<(", i):
                self.stack.append("term")
                self._check_depth(i)
                out.append("<<(")
                i += 3
                continue
            if line.startswith("<<", i):
                self.stack.append("star")
                self._check_depth(i)
                out.append("<<")
                self._insert(out, i + 2, "(")
                i += 2
                continue
            if c == "<":
                end = line.find(">", i)
                end = n if end < 0 else end + 1
                out.append(line[i:end])
                i = end
                continue
            if line.startswith(")>>", i) and self.stack and self.stack[-1] == "term":
                self.stack.pop()
                out.append(")>>")
                i += 3
                continue
            if line.startswith(">>", i) and self.stack and self.stack[-1] == "star":
                self.stack.pop()
                self._insert(out, i, ")")
                out.append(">>")
                i += 2
                continue
            out.append(c)
            i += 1
        return "".join(out)

    def _check_depth(self, index: int) -> None:
        if len(self.stack) > MAX_NESTING:
            raise RDFSyntaxError(
                self.syntax, self.line_no, f"quoted triples nest deeper than {MAX_NESTING} levels", column=index + 1
            )


def _close_short(line: str, start: int) -> int:
    """Index just past the short string opening at ``start`` (or the end of the line if unterminated)."""
    quote, i = line[start], start + 1
    while i < len(line):
        if line[i] == "\\":
            i += 2
            continue
        if line[i] == quote:
            return i + 1
        i += 1
    return len(line)


def _close_long(line: str, start: int, delimiter: str) -> int:
    """Index just past ``delimiter`` closing a long string, or -1 if the string goes on past this line."""
    i = start
    while i < len(line):
        if line[i] == "\\":
            i += 2
            continue
        if line.startswith(delimiter, i):
            return i + 3
        i += 1
    return -1
