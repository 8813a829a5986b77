"""Every command's --help works and teaches something."""

from __future__ import annotations

import click
import pytest
from click.testing import CliRunner

from tgneo.cli import cli


def _commands(group: click.Group, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found: list[tuple[str, ...]] = [prefix]
    for name, command in sorted(group.commands.items()):
        if isinstance(command, click.Group):
            found += _commands(command, (*prefix, name))
        else:
            found.append((*prefix, name))
    return found


@pytest.mark.parametrize("path", _commands(cli), ids=lambda p: " ".join(("tgneo", *p)))
def test_every_command_has_help(path: tuple[str, ...]) -> None:
    result = CliRunner().invoke(cli, [*path, "--help"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Usage: ")
    description = result.output.split("\n\n", 2)[1].strip()
    assert len(description) > 20, f"{' '.join(path)} has no real help text"


def test_the_command_tree_covers_db_and_serve() -> None:
    expected = {("db", "start"), ("db", "stop"), ("db", "status"), ("db", "env"), ("serve",), ("init-schema",)}
    assert expected <= set(_commands(cli))


def test_start_here_names_asking_and_loading_your_own_documents() -> None:
    start = CliRunner().invoke(cli, ["--help"]).output.split("Start here:")[1].split("\n\n")[0]
    for line in ("tgneo load documents", "tgneo ask -x", "tgneo trace show"):
        assert line in start, start
