"""The command reference of the manual (docs/cli.md), written from the click tree itself, so it cannot go stale.

A hand-kept list of commands fell behind as commands and options were added; this one is the commands' own help,
laid out for reading: the commands grouped by subject (:data:`SUBJECTS`), each with its usage, its help (a ``\\b``
paragraph, which ``--help`` prints as written, as preformatted text) and a table of its options with their
defaults and environment variables. It goes between two markers of the page (:data:`BEGIN`, :data:`END`); the
prose around them is written by hand. ``tests/test_cli_reference.py`` fails when the page differs from what this
module writes, or when a command or option of the tree is missing from the page or from its HTML.

    .venv/bin/python -m tgneo.cli.reference            rewrite docs/cli.md's reference
    .venv/bin/python -m tgneo.cli.reference --check    write nothing; exit 1 with a diff when the page differs

Not mkdocs-click: it drops the ``\\b`` markers and renders what they keep as Markdown, which joins the examples
into one paragraph, shows no environment variable and knows no subjects.
"""

from __future__ import annotations

import argparse
import difflib
import html
import inspect
import re
import sys
import textwrap
from collections.abc import Iterator, Sequence
from pathlib import Path

import click

from tgneo.errors import TgneoError

SUBJECTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("A local Neo4j and tgneo's schema", ("db", "init-schema")),
    ("Loading documents", ("load",)),
    ("Asking questions", ("ask",)),
    ("Finding and reading traces", ("traces", "trace")),
    ("Collections", ("collections",)),
    ("RDF in and out", ("import", "export", "validate")),
    ("Serving and exploring", ("serve", "browser")),
)
"""The reference's sections, in reading order: a heading and the top-level commands it holds (with their
sub-commands). A top-level command no subject names is an error, not a section of its own."""
BEGIN = "<!-- cli-reference: begin (written by `python -m tgneo.cli.reference` from the commands' help) -->"
END = "<!-- cli-reference: end -->"
PAGE = Path("docs") / "cli.md"
"""The page, from the checkout's root."""
BARE = "\b"
"""What opens a paragraph click prints as written (no rewrapping)."""
_CODE = re.compile(r"(`+)(.+?)\1")
_OPTION = re.compile(r"(?<![\w`/-])--[a-z][a-z0-9-]*(?:/--[a-z][a-z0-9-]*)*")
_VARIABLE = re.compile(r"\$?\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b(?:/[\w-]+(?:\.[\w-]+)*)*(?:=[\w-]+)?")
_WRITTEN_DEFAULT = re.compile(r"\s*\[default: ([^\]]+)\](\.?)$")
_BLOCK_START = re.compile(r"^(?:[#>+-]|\d+[.)])")


class ReferencePageError(TgneoError):
    """The page lacks the reference's markers, or the tree has a command no subject names."""


def reference(group: click.Group, prog: str = "tgneo", subjects: Sequence[tuple[str, Sequence[str]]] = SUBJECTS) -> str:
    """The reference of ``group`` as Markdown: the commands at a glance, ``prog`` itself, then each subject.

    Raises:
        ReferencePageError: a top-level command is in no subject, or a subject names a command the tree lacks.
    """
    root = click.Context(group, info_name=prog)
    named = [name for _, names in subjects for name in names]
    visible = [name for name, command in sorted(group.commands.items()) if not command.hidden]
    if unplaced := [name for name in visible if name not in named]:
        raise ReferencePageError(f"no subject of tgneo.cli.reference.SUBJECTS names {', '.join(unplaced)}")
    if unknown := [name for name in named if name not in group.commands]:
        raise ReferencePageError(f"tgneo.cli.reference.SUBJECTS names {', '.join(unknown)}, which the CLI lacks")
    sections = [(title, [_context(group.commands[name], name, root) for name in names]) for title, names in subjects]
    lines = ["## Commands at a glance", "", "| command | what it does |", "|---|---|"]
    for _, tops in sections:
        for ctx in (c for top in tops for c in _tree(top)):
            lines.append(f"| [`{ctx.command_path}`](#{_anchor(ctx)}) | {_cell(_prose(_summary(ctx.command)))} |")
    lines += ["", *_command(root, level=2)]
    for title, tops in sections:
        lines += [f"## {title}", ""]
        for ctx in (c for top in tops for c in _tree(top)):
            lines += _command(ctx, level=3)
    return "\n".join(lines).rstrip("\n") + "\n"


def update(page: str, text: str) -> str:
    """``page`` with what stands between its markers replaced by ``text``.

    Raises:
        ReferencePageError: the page lacks a marker, or has them out of order.
    """
    start, end = page.find(BEGIN), page.find(END)
    if start < 0 or end < start:
        raise ReferencePageError(f"the page needs the lines {BEGIN!r} and then {END!r}")
    return f"{page[: start + len(BEGIN)]}\n\n{text}\n{page[end:]}"


def _context(command: click.Command, name: str, parent: click.Context) -> click.Context:
    return click.Context(command, info_name=name, parent=parent)


def _tree(ctx: click.Context) -> Iterator[click.Context]:
    """``ctx`` and the contexts of its sub-commands, depth first, by name (as ``--help`` lists them)."""
    if ctx.command.hidden:
        return
    yield ctx
    if isinstance(ctx.command, click.Group):
        for name, command in sorted(ctx.command.commands.items()):
            yield from _tree(_context(command, name, ctx))


def _anchor(ctx: click.Context) -> str:
    """The anchor MkDocs gives the command's heading (its path, words joined by ``-``)."""
    return "-".join(ctx.command_path.lower().split())


def _paragraphs(command: click.Command) -> list[str]:
    """The command's help as click reads it: paragraphs between blank lines, dedented."""
    return [p for p in re.split(r"\n\s*\n", inspect.cleandoc(command.help or "")) if p.strip()]


def _summary(command: click.Command) -> str:
    """The first paragraph of the help, on one line."""
    first = next(iter(_paragraphs(command)), "")
    return " ".join(first.replace(BARE, "").split())


def _command(ctx: click.Context, level: int) -> Iterator[str]:
    """One command's section: heading, usage, help, options."""
    yield f"{'#' * level} {ctx.command_path}"
    yield ""
    yield "```text"
    yield " ".join([ctx.command_path, *ctx.command.collect_usage_pieces(ctx)])
    yield "```"
    yield ""
    for paragraph in _paragraphs(ctx.command):
        if paragraph.lstrip(" ").startswith(BARE):
            verbatim = textwrap.dedent(paragraph.lstrip(" ")[len(BARE) :].strip("\n"))
            yield from ("```text", *verbatim.splitlines(), "```", "")
        else:
            yield _prose(" ".join(paragraph.split()))
            yield ""
    options = [p for p in ctx.command.params if isinstance(p, click.Option) and not p.hidden]
    if options:
        yield "| option | what it does | default | environment |"
        yield "|---|---|---|---|"
        for option in options:
            yield _row(option, ctx)
        yield ""


def _row(option: click.Option, ctx: click.Context) -> str:
    """An option's row: its names as ``--help`` shows them, its help, its default, its environment variables.

    The default is click's own (what ``show_default`` prints), else the ``[default: …]`` the help text ends with,
    so every default stands in the same column."""
    record = option.get_help_record(ctx)
    names = record[0] if record else " / ".join(option.opts)
    extra = option.get_help_extra(ctx)
    meaning = " ".join((option.help or "").split())
    default = f"`{extra['default']}`" if "default" in extra else ""
    if written := _WRITTEN_DEFAULT.search(meaning):
        meaning = meaning[: written.start()] + written.group(2)
        if not default:
            value = written.group(1).strip()
            default = f"`{value}`" if " " not in value else _prose(value)
    if "range" in extra:
        meaning += f" Range: {extra['range']}."
    if extra.get("required"):
        meaning += " Required."
    envvar = option.envvar
    variables = [envvar] if isinstance(envvar, str) else list(envvar or ())
    environment = ", ".join(f"`{v}`" for v in variables)
    return f"| {_cell(f'`{names}`')} | {_cell(_prose(meaning))} | {_cell(default)} | {environment} |"


def _cell(text: str) -> str:
    """``text`` inside a table cell: its pipes are not column breaks. Outside code a pipe is escaped; a code span
    holding one becomes HTML (MkDocs shows an escaped pipe inside code with its backslash, GitHub needs the escape),
    so the cell reads the same on both."""
    pieces, last = [], 0
    for match in _CODE.finditer(text):
        pieces.append(text[last : match.start()].replace("|", "\\|"))
        code = match.group(2)
        pieces.append(f"<code>{html.escape(code).replace('|', '&#124;')}</code>" if "|" in code else match.group(0))
        last = match.end()
    pieces.append(text[last:].replace("|", "\\|"))
    return "".join(pieces)


def _prose(text: str) -> str:
    """One line of help as Markdown that shows it as written: code spans kept, option names and environment
    variables made code, and everything else Markdown would read as markup escaped."""
    pieces, last = [], 0
    for match in _CODE.finditer(text):
        pieces.append(_plain(text[last : match.start()]))
        pieces.append(match.group(0))
        last = match.end()
    pieces.append(_plain(text[last:]))
    line = "".join(pieces)
    return f"\\{line}" if _BLOCK_START.match(line) else line


def _plain(text: str) -> str:
    """Text outside code spans: names made code, markup characters escaped."""
    out, last = [], 0
    for match in re.finditer(f"{_OPTION.pattern}|{_VARIABLE.pattern}", text):
        out.append(_escaped(text[last : match.start()]))
        out.append(f"`{match.group(0)}`")
        last = match.end()
    out.append(_escaped(text[last:]))
    return "".join(out)


def _escaped(text: str) -> str:
    text = re.sub(r"([\\*\[\]]|(?<!\w)_|_(?!\w))", r"\\\1", text)
    return re.sub(r"<(?=[A-Za-z/!?])", "&lt;", text)


def main(argv: Sequence[str] | None = None) -> int:
    """Rewrite the page's reference, or with ``--check`` say (with a diff) whether it differs."""
    parser = argparse.ArgumentParser(
        prog="python -m tgneo.cli.reference", description="Write docs/cli.md's command reference from the click tree."
    )
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 with a diff when it differs")
    parser.add_argument("page", nargs="?", type=Path, default=PAGE, help=f"the page (default: {PAGE})")
    args = parser.parse_args(argv)
    from tgneo.cli import cli

    before = args.page.read_text(encoding="utf-8")
    after = update(before, reference(cli))
    if after == before:
        return 0
    if args.check:
        diff = difflib.unified_diff(before.splitlines(True), after.splitlines(True), str(args.page), "generated")
        sys.stdout.writelines(diff)
        print(f"{args.page} differs from the CLI: run python -m tgneo.cli.reference", file=sys.stderr)
        return 1
    args.page.write_text(after, encoding="utf-8")
    print(f"wrote {args.page}", file=sys.stderr)
    return 0


if __name__ == "__main__":  # pragma: no cover - the command line
    sys.exit(main())
