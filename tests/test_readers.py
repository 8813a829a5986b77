"""Readers: each format cut into pages or sections of plain text; what cannot be read is named, with why."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tgneo.errors import DocumentError
from tgneo.ingest.readers import decode, reader_for
from tgneo.ingest.sample import FILES, sources

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_PDF = ROOT / "tgneo" / "ingest" / "sample" / "nobel-prizes.pdf"


def test_markdown_is_cut_at_headings_with_inline_markup_reduced_to_text() -> None:
    doc = decode("a.md", b"# Curie\n\nShe **won** a [prize](http://x).\n\n## Life\n\nText.\n\n```\n# code\n```\n")
    assert doc.title == "Curie" and not doc.paged
    assert [(p.label, p.text) for p in doc.parts] == [
        ("Curie", "Curie\n\nShe won a prize."), ("Life", "Life\n\nText.\n\n```\n# code\n```"),
    ]  # fmt: skip


def test_html_is_cut_at_headings_without_scripts_styles_or_head() -> None:
    doc = decode(
        "a.html",
        b"<html><head><title>Elements</title><meta name='author' content='Ann'><style>p{}</style></head>"
        b"<body><p>Intro &amp; more</p><script>x()</script><h2>Radium</h2><p>Radium <b>glows</b>.</p></body></html>",
    )
    assert (doc.title, doc.creator) == ("Elements", "Ann")
    parts = [(p.label, p.text) for p in doc.parts]
    assert parts == [("Section 1", "Intro & more"), ("Radium", "Radium\n\nRadium glows.")]


def test_plain_text_is_cut_at_title_lines_and_the_first_is_the_title() -> None:
    doc = decode("a.txt", b"Warsaw\n\nWarsaw is a city.\n\nRivers\n\nThe Vistula flows.\n")
    assert doc.title == "Warsaw"
    assert [(p.label, p.text) for p in doc.parts] == [("Warsaw", "Warsaw\n\nWarsaw is a city."),
                                                       ("Rivers", "Rivers\n\nThe Vistula flows.")]  # fmt: skip


def test_a_pdf_is_cut_into_numbered_pages_with_its_metadata() -> None:
    doc = decode("nobel-prizes.pdf", SAMPLE_PDF.read_bytes())
    assert doc.paged and doc.page_count == 3 and [p.number for p in doc.parts] == [1, 2, 3]
    assert doc.title == "The Nobel Prizes in physics and chemistry"
    assert "awarded to Henri Becquerel" in doc.parts[1].text


@pytest.mark.parametrize(
    ("name", "data", "problem"),
    [
        ("broken.pdf", b"%PDF-1.4\n1 0 obj << /Type /Catalog", "broken.pdf: is not a readable PDF"),
        ("truncated.pdf", SAMPLE_PDF.read_bytes()[:400], "truncated.pdf: "),
        ("garbage.pdf", bytes(range(256)) * 4, "garbage.pdf: is not a PDF"),
        ("binary.txt", b"\x89PNG\r\n\x1a\n\x00\x00", "binary.txt: is not UTF-8 text"),
        ("nul.md", b"text\x00more", "nul.md: holds binary data"),
        ("empty.html", b"<html><body>  </body></html>", "empty.html: holds no text"),
        ("image.png", b"\x89PNG", "image.png: unsupported file type"),
    ],
)
def test_what_cannot_be_read_is_named_with_the_reason(name: str, data: bytes, problem: str) -> None:
    with pytest.raises(DocumentError, match="^" + problem.replace(".", r"\.")):
        decode(name, data)


def test_formats_are_chosen_by_extension_else_mime_type() -> None:
    found = [reader_for(name) for name in ("a.PDF", "b.markdown", "c.htm", "d.txt", "notes.csv")]
    assert [f.name if f else None for f in found] == ["pdf", "markdown", "html", "text", None]


def test_every_sample_document_decodes_into_several_parts() -> None:
    for source in sources():
        assert len(decode(source.name, source.read()).parts) >= 3, source.name
    assert {Path(name).suffix for name in FILES} == {".md", ".html", ".pdf", ".txt"}


def test_the_sample_pdf_is_what_its_text_source_generates() -> None:
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "make_sample_pdf.py"), "--check"],
                            capture_output=True, text=True, check=False)  # fmt: skip
    assert result.returncode == 0, result.stderr
