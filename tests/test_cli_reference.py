"""docs/cli.md's command reference is the click tree's: ``tgneo.cli.reference`` writes it from the commands' own
help, and these tests fail when the page differs from what it writes now, or when a command, option or
environment variable of the tree is missing from the page's source or from the page MkDocs builds."""

from __future__ import annotations

import difflib
import inspect
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import click
import pytest

from tgneo.cli import cli
from tgneo.cli.reference import BARE, BEGIN, END, ReferencePageError, reference, update

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "cli.md"


def _commands(command: click.Command, path: tuple[str, ...] = ("tgneo",)) -> list[tuple[str, click.Command]]:
    """Every command of the tree with its path (``tgneo db start``), the root included."""
    found = [(" ".join(path), command)]
    if isinstance(command, click.Group):
        for name, sub in sorted(command.commands.items()):
            found += _commands(sub, (*path, name))
    return found


def _options(command: click.Command) -> list[tuple[list[str], list[str]]]:
    """What the page must show of a command: each option's names, with the environment variables it reads."""
    found = []
    for param in command.params:
        if isinstance(param, click.Option) and not param.hidden:
            variables = [param.envvar] if isinstance(param.envvar, str) else list(param.envvar or ())
            found.append(([*param.opts, *param.secondary_opts], variables))
    return found


def _unlisted(command: click.Command, rows: list[list[str]]) -> list[str]:
    """The options of ``command`` no row of ``rows`` (its table's cells) lists: its names in the first cell, its
    environment variables in the last."""
    return [
        " / ".join(names)
        for names, variables in _options(command)
        if not any(all(n in row[0] for n in names) and all(v in row[-1] for v in variables) for row in rows)
    ]


def _bare_lines(command: click.Command) -> list[str]:
    """The first line of each ``\\b`` paragraph of the command's help: what must be preformatted on the page."""
    paragraphs = re.split(r"\n\s*\n", inspect.cleandoc(command.help or ""))
    return [p.strip().split("\n")[1].strip() for p in paragraphs if p.strip().startswith(BARE) and "\n" in p.strip()]


COMMANDS = _commands(cli)


def test_the_tree_is_big_enough_for_the_checks_below_to_mean_something() -> None:
    paths = {path for path, _ in COMMANDS}
    assert {"tgneo ask", "tgneo load index", "tgneo db start", "tgneo load model", "tgneo load remove",
            "tgneo db migrate", "tgneo traces policy", "tgneo browser"} <= paths  # fmt: skip
    assert len(paths) >= 30
    assert sum(len(_options(c)) for _, c in COMMANDS) >= 100
    assert sum(len(_bare_lines(c)) for _, c in COMMANDS) >= 15


def test_the_page_is_what_the_commands_say_now() -> None:
    page = PAGE.read_text(encoding="utf-8")
    written = update(page, reference(cli))
    diff = "".join(difflib.unified_diff(page.splitlines(True), written.splitlines(True), "docs/cli.md", "now"))
    assert page == written, f"docs/cli.md is stale: run .venv/bin/python -m tgneo.cli.reference\n{diff[:6000]}"


def _source_sections() -> dict[str, str]:
    """The page's source by heading (``tgneo db start`` → its section up to the next heading)."""
    page = PAGE.read_text(encoding="utf-8")
    parts = re.split(r"^#{2,3} (.+)$", page, flags=re.M)
    return {parts[i].strip(): parts[i + 1] for i in range(1, len(parts) - 1, 2)}


def _source_rows(section: str) -> list[list[str]]:
    """The table rows of a section's source, as cells (a pipe inside a cell is escaped or HTML)."""
    return [re.split(r"(?<!\\) \| ", line.strip()[2:-2]) for line in section.splitlines() if line.startswith("| ")]


@pytest.mark.parametrize(("path", "command"), COMMANDS, ids=[p for p, _ in COMMANDS])
def test_every_command_and_option_is_in_the_page_source(path: str, command: click.Command) -> None:
    sections = _source_sections()
    assert path in sections, f"docs/cli.md has no heading '{path}'"
    assert _unlisted(command, _source_rows(sections[path])) == []


class _Sections(HTMLParser):
    """A built page by the id of the h2/h3 heading each part follows: its text, the text of its <pre> blocks, and
    its table rows as cells."""

    def __init__(self) -> None:
        super().__init__()
        self.text: dict[str, str] = {}
        self.pre: dict[str, str] = {}
        self.rows: dict[str, list[list[str]]] = {}
        self._at, self._in_pre, self._in_cell = "", 0, False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("h2", "h3") and (anchor := dict(attrs).get("id")):
            self._at = anchor
            self.text.setdefault(anchor, "")
            self.pre.setdefault(anchor, "")
            self.rows.setdefault(anchor, [])
        elif tag == "pre":
            self._in_pre += 1
        elif tag == "tr" and self._at:
            self.rows[self._at].append([])
        elif tag == "td" and self._at:
            self.rows[self._at][-1].append("")
            self._in_cell = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "pre":
            self._in_pre -= 1
        elif tag == "td":
            self._in_cell = False

    def handle_data(self, data: str) -> None:
        if self._at:
            self.text[self._at] += data
            if self._in_pre:
                self.pre[self._at] += data
            if self._in_cell:
                self.rows[self._at][-1][-1] += data


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> _Sections:
    """docs/cli.md as MkDocs builds it (not --strict: tests/test_manual.py checks the whole manual's links)."""
    site = tmp_path_factory.mktemp("site")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--site-dir", str(site)],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-4000:]
    sections = _Sections()
    sections.feed((site / "cli" / "index.html").read_text(encoding="utf-8"))
    return sections


@pytest.mark.parametrize(("path", "command"), COMMANDS, ids=[p for p, _ in COMMANDS])
def test_every_command_and_option_is_in_the_built_page_and_bare_help_is_preformatted(
    built: _Sections, path: str, command: click.Command
) -> None:
    anchor = "-".join(path.split())
    assert anchor in built.text, f"the built page has no heading #{anchor}"
    assert _unlisted(command, [row for row in built.rows[anchor] if row]) == []
    assert [line for line in _bare_lines(command) if line not in built.pre[anchor]] == []


def test_the_commands_at_a_glance_link_to_every_command(built: _Sections) -> None:
    page = PAGE.read_text(encoding="utf-8")
    glance = page.split("## Commands at a glance", 1)[1].split("\n## ", 1)[0]
    linked = re.findall(r"\]\(#([a-z0-9-]+)\)", glance)
    assert sorted(linked) == sorted("-".join(p.split()) for p, _ in COMMANDS if p != "tgneo")
    assert [anchor for anchor in linked if anchor not in built.text] == []


def _tool() -> click.Group:
    @click.group()
    def tool() -> None:
        """A tool."""

    @tool.command()
    @click.option("--depth", default=3, show_default=True, envvar="TOOL_DEPTH", help="How deep.")
    @click.option("--mode", type=click.Choice(["a", "b"]), help="Which way [default: a].")
    def dig(depth: int, mode: str | None) -> None:
        """Dig a hole in *soft* ground.

        \b
        Examples:
          tool dig --depth 5
          tool dig
        """

    return tool


def test_a_new_option_appears_with_its_default_and_variable_and_a_bare_paragraph_stays_as_written() -> None:
    text = reference(_tool(), "tool", subjects=[("Digging", ["dig"])])
    assert "| `--depth INTEGER` | How deep. | `3` | `TOOL_DEPTH` |" in text
    assert "| <code>--mode [a&#124;b]</code> | Which way. | `a` |  |" in text
    assert "```text\nExamples:\n  tool dig --depth 5\n  tool dig\n```" in text
    assert "Dig a hole in \\*soft\\* ground." in text
    assert "| [`tool dig`](#tool-dig) | Dig a hole in \\*soft\\* ground. |" in text


def test_a_command_no_subject_names_is_refused_by_name() -> None:
    with pytest.raises(ReferencePageError, match="dig"):
        reference(_tool(), "tool", subjects=[("Nothing", [])])


def test_a_page_without_the_markers_is_refused() -> None:
    with pytest.raises(ReferencePageError):
        update("# CLI\n", "## Commands at a glance\n")
    assert update(f"a\n{BEGIN}\nold\n{END}\nb\n", "new\n") == f"a\n{BEGIN}\n\nnew\n\n{END}\nb\n"
