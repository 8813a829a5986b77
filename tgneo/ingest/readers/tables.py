"""How a table reads as prose: one statement a row, each cell named by its column's header.

Shared by the HTML reader (``<table>``) and the Markdown reader (pipe tables), so that a table says
the same thing whichever format it came in, and no row reaches the extractor as ``a | run | of |
pipes``. A table with a header of two columns or more reads one paragraph a body row, a statement
ending with a full stop: ``Header1: cell1; Header2: cell2.`` (a cell's own closing full stop dropped
but at the end), or ``cell1 — Header2: cell2.`` when the first column names the row (its cells are
header cells, or its header is empty or a naming word such as *Name*, *Option*, *Operator*). Lines
within a cell are joined by ``, ``.

A table without a column header whose rows each open with a header cell (or a label ending with a colon) is a
reference card — Apache's directive tables (``<th>Default:</th><td><code>DeflateBufferSize 8096</code></td>``),
a man page's *Syntax* / *Default* / *Context* rows — and reads one statement a row, the row's header then its
cells: ``Default: `DeflateBufferSize 8096`.`` Any other table without a header, or whose cells hold code blocks
or tables, reads one line a cell.
"""

from __future__ import annotations

import re

__all__ = ["Cell", "Row", "table_text"]

Cell = tuple[str, bool, int]
"""A cell: its text (code as code spans, lines as written), whether it is a header cell, its column span."""
Row = tuple[bool, list[Cell]]
"""A row: whether it is in the table's head, and its cells."""

NAMING = frozenset(
    """name option parameter setting command function operator key variable field column term flag property
    attribute element method value mode keyword macro pragma directive code""".split()
)
"""A first column whose header's last word is one of these names its rows."""


def cell_text(text: str, joiner: str = ", ") -> str:
    """A cell's lines as one line: joined by ``joiner`` (by a space after closing punctuation)."""
    out = ""
    for line in (" ".join(line.split()) for line in text.split("\n")):
        if line:
            out = line if not out else out + (" " if out[-1] in ".,;:!?" else joiner) + line
    return out


def table_text(rows: list[Row], structured: bool = True) -> list[str]:
    """A table's paragraphs (see the module docstring); ``structured``: no table in its cells."""
    if not rows:
        return []
    structured = structured and not any("```" in text for _, cells in rows for text, _, _ in cells)
    head = [cells for is_head, cells in rows if is_head]
    body = [cells for is_head, cells in rows if not is_head]
    if not head and all(th for _, th, _ in rows[0][1]):
        head, body = [rows[0][1]], [cells for _, cells in rows[1:]]
    headers: list[str] = []
    for text, _, span in head[-1] if head else []:
        headers.extend([cell_text(text, " ")] * span)
    if not structured or len({h for h in headers if h}) < 2 or not body:
        card = _card(rows) if structured and not head else None
        if card:
            return card
        lines = [text.strip() for _, cells in rows for text, _, _ in cells]
        return ["\n".join(line for line in lines if line)]
    first = headers[0].split()[-1].lower().rstrip("s") if headers[0] else ""
    out: list[str] = []
    for cells in body:
        named = cells[0][1] or not headers[0] or first in NAMING
        pairs: list[str] = []
        column = 0
        for n, (text, _, span) in enumerate(cells):
            value = cell_text(text)
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
    return out


MAX_LABEL_WORDS = 4
"""The longest row header a reference card's row opens with (``Default``, ``Status``, ``Compatibility``)."""


def _card(rows: list[Row]) -> list[str] | None:
    """A reference card's statements (see the module docstring), or ``None`` when the table is not one: every row
    a short header cell (``<th>``, or a label ending with a colon) and at least one cell after it."""
    out: list[str] = []
    for _, cells in rows:
        label = cell_text(cells[0][0], " ") if cells else ""
        values = [value for text, _, _ in cells[1:] if (value := cell_text(text))]
        if not (cells[0][1] or label.endswith(":")) or not values or not 0 < len(label.split()) <= MAX_LABEL_WORDS:
            return None
        pairs = [re.sub(r"(?<=[\w)`'\"])\.$", "", v) for v in values[:-1]] + values[-1:]
        row = f"{label.rstrip(':').strip()}: {'; '.join(pairs)}"
        out.append(row if row[-1] in ".!?" else row + ".")
    return out or None
