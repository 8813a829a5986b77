"""Readers: each format cut into pages or sections of plain text; what cannot be read is named, with why."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tgneo.errors import DocumentError
from tgneo.ingest.readers import decode, reader_for
from tgneo.ingest.sample import FILES, sources
from tgneo.nlp.segment import units

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


# Reference pages in the shapes DocBook (PostgreSQL's manual) and Sphinx/MyST generate: small fixtures written here.
DOCBOOK = b"""<html><head><title>Resource Consumption</title></head><body>
<div class="navheader"><table summary="Navigation header"><tr><th colspan="3">Resource Consumption</th></tr>
<tr><td><a href="p.html">Prev</a></td><td>Up</td><td>Next</td></tr></table></div>
<div class="sect1"><h2 class="title">Memory <a href="#M" class="id_link">#</a></h2>
<div class="variablelist"><dl class="variablelist">
<dt id="GUC-WORK-MEM"><span class="term"><code class="varname">work_mem</code> (<code class="type">integer</code>)
 <a id="id-1" class="indexterm"></a></span> <a href="#GUC-WORK-MEM" class="id_link">#</a></dt>
<dd><p>Sets the base maximum amount of memory to be used by a query operation.</p>
<p>The default value is four megabytes (<code class="literal">4MB</code>).</p></dd>
<dt><span class="term"><code class="option">-a</code></span></dt>
<dt><span class="term"><code class="option">--all</code></span></dt>
<dd><p>Vacuum all databases.</p></dd>
</dl></div>
<div class="note"><h3 class="title">Note</h3><p>Only superusers can change this setting.</p></div>
<p>To see the value, use the following command:</p>
<pre class="programlisting">SHOW work_mem;</pre>
<div class="informaltable"><table class="informaltable" border="1"><thead><tr><th>Name</th><th>Description</th></tr>
</thead><tbody><tr><td><code class="literal">on</code></td><td>Enables the setting</td></tr></tbody></table></div>
<table><tr><th>Level</th><th>Effect</th><th>Since</th></tr>
<tr><td>low</td><td>Fewer checks.</td><td>9.6</td></tr></table>
</div></body></html>"""


def docbook_text() -> str:
    doc = decode("config.html", DOCBOOK)
    assert [p.label for p in doc.parts] == ["Memory"]
    return doc.parts[0].text


def test_a_definition_is_one_paragraph_whose_lines_each_begin_with_its_term() -> None:
    assert (
        "\n\n`work_mem` (`integer`): Sets the base maximum amount of memory to be used by a query operation.\n"
        "`work_mem` (`integer`): The default value is four megabytes (`4MB`).\n\n"
    ) in docbook_text()  # a chunk that starts at the <dd>'s second <p> still names what it defines


def test_several_terms_share_the_definition_they_head() -> None:
    assert "\n\n`-a`, `--all`: Vacuum all databases.\n\n" in docbook_text()


def test_code_after_a_colon_follows_its_sentence_on_the_next_line_fenced() -> None:
    assert "use the following command:\n```\nSHOW work_mem;\n```\n" in docbook_text()


def test_a_table_row_reads_as_one_statement_with_its_headers() -> None:
    text = docbook_text()
    assert "\n\n`on` — Description: Enables the setting.\n\n" in text  # the first column names the row
    assert text.endswith("\n\nLevel: low; Effect: Fewer checks; Since: 9.6.")  # one line a row, one full stop


def test_an_admonition_is_a_statement_of_its_section_and_its_title_no_heading() -> None:
    text = docbook_text()
    assert "\n\nNote: Only superusers can change this setting.\n\n" in text
    assert "Prev" not in text and "#" not in text  # navigation and the links after headings and terms are left out


def test_myst_admonitions_and_code_after_a_colon_read_like_docbook_s() -> None:
    doc = decode(
        "caching.md",
        b"# Caching\n\n```{note}\nOnly ASCII is allowed in `.netrc`.\n```\n\n"
        b"```{versionchanged} 23.3\nA new cache format is used.\n```\n\n"
        b".. warning:: Do not share the cache.\n\n> **Note**\n> Quoted note.\n\n"
        b"To see it, use the following command:\n\n```{pip-cli}\n$ pip cache dir\n```\n\ntimeout\n: Seconds to wait.\n",
    )
    assert [p.label for p in doc.parts] == ["Caching"]
    assert doc.parts[0].text == (
        "Caching\n\nNote: Only ASCII is allowed in `.netrc`.\n\n"
        "Changed in version 23.3: A new cache format is used.\n\n"
        "Warning: Do not share the cache.\n\nNote: Quoted note.\n\n"
        "To see it, use the following command:\n```{pip-cli}\n$ pip cache dir\n```\n\ntimeout: Seconds to wait."
    )


def test_every_paragraph_of_a_myst_tab_begins_with_the_tab_s_title() -> None:
    doc = decode(
        "config.md",
        b"# Location\n\n````{tab} Unix\nUser: `$HOME/.config/pip/pip.conf`.\n\nSite: `$VIRTUAL_ENV/pip.conf`\n````\n\n"
        b"````{tab} Linux\n```\n~/.cache/pip\n```\n\npip respects `XDG_CACHE_HOME`.\n````\n",
    )
    assert doc.parts[0].text == (
        "Location\n\nUnix: User: `$HOME/.config/pip/pip.conf`.\n\nUnix: Site: `$VIRTUAL_ENV/pip.conf`\n\n"
        "Linux\n```\n~/.cache/pip\n```\n\nLinux: pip respects `XDG_CACHE_HOME`."
    )  # a title before code stays the line that labels it


def test_every_unit_of_a_docbook_page_points_at_its_own_text() -> None:
    text = docbook_text()
    found = units(text)
    assert "`work_mem` (`integer`): Sets the base maximum amount of memory to be used by a query operation." in [
        u.text for u in found
    ]
    assert "To see the value, use the following command: SHOW work_mem;" in [u.text for u in found]
    for unit in found:
        span = text[unit.start : unit.end]
        shown = " ".join(line for line in span.split("\n") if not line.startswith("```"))  # the fences around code
        termed = "`work_mem` (`integer`): " + " ".join(span.split())  # a definition's later sentence: led by its term
        assert unit.text.split() in (span.split(), shown.split(), termed.split()), unit


def test_an_indented_markdown_code_block_is_fenced_and_follows_the_sentence_that_introduces_it() -> None:
    doc = decode("run.md", b"# Run\n\nTo see it, run:\n\n    pip cache dir\n\n- an item\n\n    its second paragraph\n")
    text = doc.parts[0].text
    assert text == "Run\n\nTo see it, run:\n```\npip cache dir\n```\n\n- an item\n\n    its second paragraph"
