"""Readers: each format cut into pages or sections of plain text; what cannot be read is named, with why."""

from __future__ import annotations

import re
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
    assert text == "Run\n\nTo see it, run:\n```\npip cache dir\n```\n\n- an item\n\n  its second paragraph"
    # an item's second paragraph is no code block: it stays prose, indented under its item's marker


# Markdown on pip 24.2's topic guides (scripts/bench/quality/SOURCE.md): real MyST nobody here wrote.
PIP = ROOT / "scripts" / "bench" / "quality" / "pip-24.2-topics"


def pip_part(name: str, label: str) -> str:
    doc = decode(name, (PIP / name).read_bytes())
    return next(p.text for p in doc.parts if p.label == label)


def test_a_myst_definition_list_in_a_tab_begins_each_paragraph_with_the_tab_and_the_term() -> None:
    text = pip_part("configuration.md", "Location")
    assert "\n\nUnix: User: `$HOME/.config/pip/pip.conf`, which respects the `XDG_CONFIG_HOME` environment" in text
    assert (  # the definition's second paragraph names its term too, not only its tab
        '\n\nUnix: User: The legacy "per-user" configuration file is also loaded, if it exists: `$HOME/.pip/pip.conf`.'
    ) in text
    assert "\n\nWindows: Global:\n* On Windows 7 and later: `C:\\\\ProgramData\\\\pip\\\\pip.ini`\n" in text  # a list


def test_a_pipe_table_reads_one_statement_a_row_with_its_headers_as_the_html_reader_writes_it() -> None:
    text = pip_part("dependency-resolution.md", "Understanding your error message")
    assert (
        "\n\n`~=` — Description: Any compatible1 version; Example: `~=3.1`: any version compatible1 with `3.1`.\n\n"
    ) in text  # "Operator" names the row, as a <th>Operator</th> column does in HTML
    assert " | " not in text and "Operator" not in text and "---" not in text
    page = b"<table><tr><th>Operator</th><th>Description</th></tr><tr><td><code>~=</code></td><td>Any.</td></tr>"
    markdown = b"| Operator | Description |\n| --- | --- |\n| `~=` | Any. |\n"
    assert decode("a.html", page).parts[0].text == decode("a.md", markdown).parts[0].text == "`~=` — Description: Any."


def test_code_spans_stay_code_spans_exactly_as_written_as_the_html_reader_writes_inline_code() -> None:
    md = decode("a.md", b"Run `tg-show-explain-trace` on ``uri_map`` with {any}`--require-hashes`.")
    page = decode("a.html", b"<p>Run <code>tg-show-explain-trace</code> on <code>uri_map</code> with <kbd>--require-"
                  b"hashes</kbd>.</p>")  # fmt: skip
    assert md.parts[0].text == page.parts[0].text == "Run `tg-show-explain-trace` on `uri_map` with `--require-hashes`."
    assert decode("a.md", b"Quote it as `` a`b ``.").parts[0].text == "Quote it as ``a`b``."  # a span holding a `
    text = pip_part("configuration.md", "Environment Variables")
    assert "format `PIP_<UPPER_LONG_NAME>` ." in text and "(`-`)" in text and "(`_`)" in text
    assert "- `package_tea` version `4.3.0` depends on version `2.3.1` of\n  `package_water`" in pip_part(
        "dependency-resolution.md", "Understanding your error message"
    )  # MyST's double backticks are one code span like any other


def test_every_code_span_of_the_pip_guides_reaches_the_text_unchanged() -> None:
    link_roles = ("{ref}", "{doc}", "{pep}", "{sup}", "{abbr}")
    for path in sorted(PIP.glob("*.md")):
        source = path.read_text(encoding="utf-8")
        text = "\n".join(p.text for p in decode(path.name, path.read_bytes()).parts)
        for match in re.finditer(r"(\{[\w:-]+\})?(?<!`)`([^`\n]+)`(?!`)", source):
            if match.group(1) not in link_roles:  # a role's explicit target (<--only-binary>) is not shown
                code = re.sub(r"\s*<[^<>]+>$", "", match.group(2)) if match.group(1) else match.group(2)
                assert code.strip() in text, (path.name, match.group(0))


def test_headings_cut_sections_labelled_by_their_text_and_code_in_a_list_item_closes_where_it_ends() -> None:
    doc = decode("configuration.md", (PIP / "configuration.md").read_bytes())
    labels = [p.label for p in doc.parts]
    assert doc.title == "Configuration" and "PIP_CONFIG_FILE" in labels  # ### `PIP_CONFIG_FILE`: the code's text
    assert labels[-1] == "Precedence / Override order"  # after a list item holding fenced code and a {note}
    assert pip_part("configuration.md", "Environment Variables").endswith(
        "Note: Environment variables set to an empty string (like with `export X=` on Unix) will not be treated as "
        "false.\nUse `no`, `false` or `0` instead."
    )
    setext = decode("a.md", b"Title\n=====\n\nText.\n\nPart\n----\n\n```\n# not a heading\n```\n")
    assert [(p.label, p.text) for p in setext.parts] == [
        ("Title", "Title\n\nText."), ("Part", "Part\n\n```\n# not a heading\n```"),
    ]  # fmt: skip


def test_front_matter_names_the_title_and_author_and_is_no_text() -> None:
    data = b'---\ntitle: "Secure installs, explained"\nauthor: The pip developers\ntags: [pip]\n---\n\n'
    doc = decode("secure-installs.md", data + (PIP / "secure-installs.md").read_bytes())
    assert (doc.title, doc.creator) == ("Secure installs, explained", "The pip developers")
    assert doc.parts[0].label == "Secure installs" and "tags:" not in doc.parts[0].text


def test_link_definitions_are_read_inside_directives_and_footnotes_stay_in_their_section() -> None:
    assert "\nThe former two use the Git Protocol, which lacks authentication" in pip_part("vcs-support.md", "Git")
    text = pip_part("local-project-installs.md", "Local project installs")
    assert "on your computer [1] that you wish to install." in text
    assert text.endswith("[1]: Specifically, the current machine's filesystem.")
    assert "https://" not in pip_part("https-certificates.md", "HTTPS Certificates")  # a definition is no text


def test_html_blocks_in_markdown_are_read_as_the_html_reader_reads_a_page() -> None:
    doc = decode(
        "readme.md",
        b'<h1 align="center">tgneo</h1>\n\n<!-- badges -->\n\nIntro with <kbd>Ctrl</kbd>+<code>C</code>.<br>\n\n'
        b"<details><summary>Options</summary>\n\n"
        b"<table><tr><th>Option</th><th>Meaning</th></tr><tr><td><code>--no-cache-dir</code></td><td>No cache."
        b"</td></tr></table>\n\n</details>\n",
    )
    assert doc.title == "tgneo" and [p.label for p in doc.parts] == ["tgneo"]
    assert doc.parts[0].text == "tgneo\n\nIntro with `Ctrl`+`C`.\n\nOptions\n\n`--no-cache-dir` — Meaning: No cache."


def test_colon_fences_mkdocs_admonitions_and_directive_options_read_as_other_admonitions() -> None:
    doc = decode(
        "a.md",
        b"# A\n\n:::{warning}\n:class: margin\nDo not share the cache.\n:::\n\n!!! tip\n    Use `pip cache dir`.\n\n"
        b'!!! note "Hash algorithms"\n    Use `sha256`.\n\n'
        b"````{tab-set}\n```{tab-item} Linux\n~/.cache/pip\n```\n````\n",
    )
    assert doc.parts[0].text == (
        "A\n\nWarning: Do not share the cache.\n\nTip: Use `pip cache dir`.\n\nHash algorithms: Use `sha256`.\n\n"
        "Linux: ~/.cache/pip"
    )


# -- quotes that read as text (issue 48, item 5) --------------------------------------------------------------------

DIRECTIVE_CARD = b"""<html><head><title>mod_deflate</title></head><body>
<h2><a id="deflatebuffersize">DeflateBufferSize</a> <a id="DeflateBufferSize">Directive</a></h2>
<table class="directive">
<tr><th><a href="directive-dict.html#Description">Description:</a></th><td>Fragment size to be compressed at one time
 by zlib</td></tr>
<tr><th><a href="directive-dict.html#Syntax">Syntax:</a></th>
<td><code>DeflateBufferSize <var>value</var></code></td></tr>
<tr><th><a href="directive-dict.html#Default">Default:</a></th><td><code>DeflateBufferSize 8096</code></td></tr>
<tr><th><a href="directive-dict.html#Context">Context:</a></th><td>server config, virtual host</td></tr>
<tr><th><a href="directive-dict.html#Status">Status:</a></th><td>Extension</td></tr>
<tr><th><a href="directive-dict.html#Module">Module:</a></th><td>mod_deflate</td></tr>
</table>
<p>The <code class="directive">DeflateBufferSize</code> directive specifies the size in bytes of the fragments that
zlib should compress at one time.</p></body></html>"""


def test_a_reference_card_s_rows_read_as_statements_that_can_be_quoted() -> None:
    text = decode("mod_deflate.html", DIRECTIVE_CARD).parts[0].text
    said = [unit.text for unit in units(text) if unit.kind == "sentence"]
    assert said[:6] == [
        "Description: Fragment size to be compressed at one time by zlib.",
        "Syntax: `DeflateBufferSize value`.",
        "Default: `DeflateBufferSize 8096`.",
        "Context: server config, virtual host.",
        "Status: Extension.",
        "Module: mod_deflate.",
    ]


def test_a_pipe_table_no_reader_parsed_reads_as_statements_never_as_a_run_of_pipes() -> None:
    text = (  # plain text: no reader makes a table of it; pipes in code spans and escaped pipes stay in their cell
        "Message fields\n\n"
        "| Field | Type | Description |\n"
        "|---|---|---|\n"
        "| `explain_graph` | `str | None` | Named graph (e.g., `urn:graph:retrieval`) |\n"
        "| `explain_triples` | `list` | |\n"
        "| `end_of_session` | `bool` | Whether the session ends here \\| or goes on. |\n"
    )
    rows = [unit.text for unit in units(decode("fields.txt", text.encode()).parts[0].text) if unit.kind == "row"]
    assert rows == [
        "Field: `explain_graph`; Type: `str | None`; Description: Named graph (e.g., `urn:graph:retrieval`).",
        "Field: `explain_triples`; Type: `list`.",
        "Field: `end_of_session`; Type: `bool`; Description: Whether the session ends here | or goes on.",
    ]
