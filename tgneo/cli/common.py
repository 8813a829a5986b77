"""What every ``tgneo`` command shares: output that survives a pipe, clean errors, logs, options.

Output rules, for people and for scripts alike:

* stdout carries the result (a table, a tree, RDF, JSON); stderr carries what happened (``imported
  N quads``, warnings, errors). A command that finds nothing says so on stderr.
* On a terminal, rich lays things out to the terminal's width. Piped (``| cat``, ``> file``), nothing
  is wrapped, cut or padded to 80 columns: every URI and cursor stays on one line, whole.
* An error is one line, ``error: …``, and exit status 1, never a traceback. What the Neo4j driver
  and tgneo's retries have to say goes to the log file (``$TGNEO_HOME/logs/tgneo.log``), and to
  stderr as well with ``tgneo -v``.
"""

from __future__ import annotations

import logging
import logging.handlers
import shlex
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from typing import TYPE_CHECKING, Any, TypeVar

import click
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from tgneo.config import default_home
from tgneo.downloads import report_on
from tgneo.errors import TgneoError
from tgneo.scope import DEFAULT_SCOPE, check_name

if TYPE_CHECKING:
    from tgneo.graph_profiles import GraphProfile

F = TypeVar("F", bound=Callable[..., Any])
_UNWRAPPED = 1_000_000
"""The width of a console that is not a terminal: wide enough that rich never wraps or cuts."""


def make_console(stderr: bool = False) -> Console:
    """A console laid out for a terminal, or unwrapped when its stream is piped or redirected.

    Emoji codes are off: a user's text (a URI holding ``:smile:``, a pasted list with ``:question:``) is
    printed as typed, never as a picture. Markup in user text is escaped where it is printed.
    """
    console = Console(stderr=stderr, highlight=False, emoji=False)
    if console.is_terminal:
        return console
    return Console(stderr=stderr, highlight=False, emoji=False, width=_UNWRAPPED, soft_wrap=True)


out = make_console()
err = make_console(stderr=True)
report_on(err)  # a download's progress bar (the embedder's weights, on first use) joins the command's own


def say(message: str) -> None:
    """One line on stderr (rich markup allowed): what a command did, or that it found nothing."""
    err.print(message, soft_wrap=True)


def fails_cleanly(fn: F) -> F:
    """Print a ``TgneoError`` as one line, ``error: …``, and exit 1, instead of a traceback."""

    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except TgneoError as e:
            logging.getLogger("tgneo.cli").info("%s failed", fn.__name__, exc_info=True)
            say(f"[bold red]error:[/] {escape(' '.join(str(e).split()))}")
            sys.exit(1)

    return wrapper  # type: ignore[return-value]


@contextmanager
def spinner(message: str) -> Iterator[Callable[[str], None]]:
    """A live status line for long work; yields a reporter that logs lines above it."""
    with err.status(message) as status:

        def report(line: str) -> None:
            err.print(f"[dim]{escape(line)}[/]", soft_wrap=True)
            status.update(message)

        yield report


def progress_bar() -> Progress:
    """A progress bar on stderr; silent when stderr is not a terminal (no stray blank lines in logs)."""
    return Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=err, transient=True, disable=not err.is_terminal,
    )  # fmt: skip


def configure_logging(verbose: bool) -> None:
    """Log to ``$TGNEO_HOME/logs/tgneo.log`` (and to stderr with ``-v``); never print driver chatter."""
    root = logging.getLogger()
    root.setLevel(logging.INFO)
    for handler in [h for h in root.handlers if getattr(h, "tgneo_cli", False)]:
        root.removeHandler(handler)  # a second invocation in one process (tests) replaces, not adds
        handler.close()
    fmt = logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        folder = default_home() / "logs"
        folder.mkdir(parents=True, exist_ok=True)
        file_handler: logging.Handler = logging.handlers.RotatingFileHandler(
            folder / "tgneo.log", maxBytes=5_000_000, backupCount=2, encoding="utf-8"
        )
    except OSError:
        file_handler = logging.NullHandler()  # a read-only home must not stop a command
    handlers = [file_handler, logging.StreamHandler(sys.stderr)] if verbose else [file_handler]
    for handler in handlers:
        handler.setFormatter(fmt)
        handler.tgneo_cli = True  # type: ignore[attr-defined]
        root.addHandler(handler)


def _scope_name(context: click.Context, parameter: click.Parameter, value: str | None) -> str | None:
    """A --workspace or --collection value, refused as a usage error by the rule every road shares."""
    if value is None:
        return None
    try:
        return check_name(value, f"--{parameter.name}")
    except TgneoError as e:
        raise click.BadParameter(str(e).split(": ", 1)[-1], context, parameter) from e


workspace_option = click.option(
    "--workspace", default=DEFAULT_SCOPE, show_default=True, envvar="TGNEO_WORKSPACE", callback=_scope_name,
    help="Workspace (isolation key).",
)  # fmt: skip
found_collection_option = click.option(
    "--collection", envvar="TGNEO_COLLECTION", callback=_scope_name,
    help="The collection it was recorded in [default: the one of the workspace that holds it].",
)  # fmt: skip
"""For a command that names a trace: without it, the trace is looked up in every collection of the workspace."""
collection_option = click.option(
    "--collection", default=DEFAULT_SCOPE, show_default=True, envvar="TGNEO_COLLECTION", callback=_scope_name,
    help="Collection.",
)  # fmt: skip


def _graph_profile(ctx: click.Context, param: click.Parameter, value: str | None) -> GraphProfile | None:
    if value is None:
        return None
    from tgneo.graph_profiles import ProfileError, load_profile

    try:
        profile = load_profile(value)
    except ProfileError as e:
        raise click.BadParameter(str(e)) from None
    ctx.meta[_GIVEN_GRAPH] = value
    return profile


_GIVEN_GRAPH = "tgneo.graph"
"""Where ``--graph``'s callback keeps the value as typed: a profile file's path, which hints must print (the name
inside the file is not something ``--graph`` accepts)."""


def graph_arg(graph: GraphProfile) -> str:
    """``--graph X`` for a printed hint: X as the user gave it to this command (a built-in name, or a profile
    file's path), quoted for a shell; the profile's name when no ``--graph`` was parsed here."""
    context = click.get_current_context(silent=True)
    given = context.meta.get(_GIVEN_GRAPH) if context is not None else None
    return f"--graph {shlex.quote(given if isinstance(given, str) else graph.name)}"


def scope_args(workspace: str, collection: str) -> str:
    """The ``--workspace``/``--collection`` options a printed hint needs to find what this command wrote: those
    that are not the defaults (a value from ``TGNEO_WORKSPACE``/``TGNEO_COLLECTION`` too, since the shell a user
    pastes the hint into may not have them), quoted for a shell, each after a space."""
    given = (("--workspace", workspace), ("--collection", collection))
    return "".join(f" {option} {shlex.quote(value)}" for option, value in given if value != DEFAULT_SCOPE)


graph_option = click.option(
    "--graph", "graph", metavar="PROFILE", callback=_graph_profile,
    help="Answer over the knowledge graph another tool wrote: neo4j-graphrag, llm-graph-builder, langchain, or a "
    "profile file (*.toml) naming its labels, relationship types, properties and indexes. Read only: the trace is "
    "recorded in --workspace/--collection.",
)  # fmt: skip


def scope(workspace: str, collection: str) -> str:
    """How messages name where something was looked for: ``workspace 'w', collection 'c'``."""
    return f"workspace {workspace!r}, collection {collection!r}"
