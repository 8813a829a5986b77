"""Write the sample corpus's PDF (tgneo/ingest/sample/nobel-prizes.pdf) from its text source.

Usage: python scripts/make_sample_pdf.py [--check]

The source is scripts/sample/nobel-prizes.txt: pages separated by form feeds, paragraphs by blank
lines, and a page's first line is its heading. The PDF is written by the small writer below
(PDF 1.4, the standard Helvetica fonts, WinAnsi encoding, no compression, no timestamps), so the
same text always gives the same bytes: ``--check`` exits 1 when the committed PDF differs from what
the source gives (the test suite runs it). The sample loader then reads the PDF back with pypdf,
like any other PDF.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "scripts" / "sample" / "nobel-prizes.txt"
TARGET = ROOT / "tgneo" / "ingest" / "sample" / "nobel-prizes.pdf"
TITLE = "The Nobel Prizes in physics and chemistry"
AUTHOR = "tgneo sample corpus"

PAGE_WIDTH, PAGE_HEIGHT, MARGIN = 595, 842, 72
BODY_SIZE, HEADING_SIZE, LEADING = 11, 14, 15
WRAP = 88  # characters per line of 11 pt Helvetica across 451 pt


def _literal(text: str) -> bytes:
    """A PDF string literal in WinAnsi (cp1252) encoding."""
    raw = text.encode("cp1252")
    return b"(" + raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"


def _page_content(page: str) -> bytes:
    """The content stream of one page: its heading in bold, then its paragraphs, wrapped."""
    heading, _, body = page.strip("\n").partition("\n")
    ops = [b"BT", f"/F2 {HEADING_SIZE} Tf {LEADING} TL {MARGIN} {PAGE_HEIGHT - MARGIN} Td".encode()]
    ops += [_literal(heading) + b" Tj", b"T*", b"T*", f"/F1 {BODY_SIZE} Tf".encode()]
    for paragraph in body.strip().split("\n\n"):
        lines = paragraph.split("\n")
        if len(lines) == 1 and len(lines[0].split()) <= 8 and not lines[0].endswith("."):
            ops += [b"T*", f"/F2 {BODY_SIZE + 1} Tf".encode(), _literal(lines[0]) + b" Tj", b"T*", b"T*"]
            ops.append(f"/F1 {BODY_SIZE} Tf".encode())
            continue
        for line in textwrap.wrap(" ".join(lines), WRAP):
            ops += [_literal(line) + b" Tj", b"T*"]
        ops.append(b"T*")
    ops.append(b"ET")
    return b"\n".join(ops)


def build(text: str) -> bytes:
    """The PDF bytes for ``text`` (pages separated by form feeds)."""
    pages = [p for p in text.split("\f") if p.strip()]
    objects: list[bytes] = []  # object n is objects[n - 1]

    def add(body: bytes) -> int:
        objects.append(body)
        return len(objects)

    catalog = add(b"")  # filled in once the page tree's number is known
    info = add(b"<< /Title " + _literal(TITLE) + b" /Author " + _literal(AUTHOR) + b" /Producer (tgneo) >>")
    regular = add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    bold = add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>")
    tree = add(b"")
    kids = []
    for page in pages:
        content = _page_content(page)
        stream = add(b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream")
        kids.append(
            add(
                b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 %d %d] " % (tree, PAGE_WIDTH, PAGE_HEIGHT)
                + b"/Resources << /Font << /F1 %d 0 R /F2 %d 0 R >> >> /Contents %d 0 R >>" % (regular, bold, stream)
            )
        )
    objects[catalog - 1] = b"<< /Type /Catalog /Pages %d 0 R >>" % tree
    refs = b" ".join(b"%d 0 R" % k for k in kids)
    objects[tree - 1] = b"<< /Type /Pages /Kids [" + refs + b"] /Count %d >>" % len(kids)

    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root %d 0 R /Info %d 0 R >>\n" % (len(objects) + 1, catalog, info)
    out += b"startxref\n%d\n%%%%EOF\n" % xref
    return bytes(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when the committed PDF is out of date")
    args = parser.parse_args()
    pdf = build(SOURCE.read_text(encoding="utf-8"))
    if args.check:
        if not TARGET.exists() or TARGET.read_bytes() != pdf:
            print(f"{TARGET.relative_to(ROOT)} is out of date: run python scripts/make_sample_pdf.py", file=sys.stderr)
            return 1
        return 0
    TARGET.write_bytes(pdf)
    print(f"wrote {TARGET.relative_to(ROOT)} ({len(pdf)} bytes, {pdf.count(b'/Type /Page ')} pages)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
