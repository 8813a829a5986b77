"""The ``tgneo`` command: one click group, thin commands over library functions.

Each sub-module holds the commands of one subject (``db``, ``load``, ``rdf``, ``traces``, ``serve``, ``browser``) and
registers them on :data:`cli`; ``common`` holds what they share, and ``reference`` writes the manual's command
reference (docs/cli.md) from them. Run ``tgneo --help`` (and ``tgneo COMMAND --help``) for the whole tour.
"""

from __future__ import annotations

import logging
import sys

import click

from tgneo.cli.common import configure_logging
from tgneo.version import __version__


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="tgneo")
@click.option("-v", "--verbose", is_flag=True, help="Also print the log (retries, driver messages) on stderr.")
def cli(verbose: bool) -> None:
    """Explain how an AI answer was produced, back to the source documents, natively in Neo4j.

    \b
    Start here:
      tgneo db start            provision (Maven Central) and start a local Neo4j 5.26 + Browser
                                (--plugin apoc: with APOC, which LangChain's Neo4jGraph, LLM Graph
                                Builder and neo4j-graphrag's writer need; tgneo itself never calls it)
      eval "$(tgneo db env)"    point this shell (and Neo4j tools) at it
      tgneo load sample         a small corpus with provenance, a knowledge graph and search indexes
      tgneo load documents DIR  your own Markdown, HTML, PDF and text files
      tgneo ask -x "QUESTION"   an answer, every step that produced it, and the sentences' evidence
      tgneo trace show URI      a recorded trace as a tree (tgneo traces list finds them)
      tgneo serve               the HTTP/WebSocket API on http://127.0.0.1:8888

    Configuration comes from NEO4J_URI, NEO4J_USERNAME, NEO4J_PASSWORD and NEO4J_DATABASE; when
    NEO4J_URI is unset, tgneo uses the local server of `tgneo db start`. Results go to stdout,
    messages to stderr; the log is $TGNEO_HOME/logs/tgneo.log.
    """
    configure_logging(verbose)
    _graph_warnings_on_stderr(verbose)


def _graph_warnings_on_stderr(verbose: bool) -> None:
    """Print the graph profiles' warnings (logger ``tgneo.graphs``: what ``tgneo load index`` found missing) on stderr
    as ``warning: …``; they go to the log file too. With ``-v`` the log on stderr shows them already.

    A question's warnings (which route found their entities or chunks when an index is missing) are not printed
    from the log: its stream carries them (``WarningEvent``), and ``tgneo ask`` prints them from there, in-process
    and with ``--url`` alike (the record says so: ``tgneo_streamed``)."""
    logger = logging.getLogger("tgneo.graphs")
    for handler in [h for h in logger.handlers if getattr(h, "tgneo_cli", False)]:
        logger.removeHandler(handler)  # a second invocation in one process (tests) replaces, not adds
    if verbose:
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setLevel(logging.WARNING)
    handler.setFormatter(logging.Formatter("warning: %(message)s"))
    handler.addFilter(lambda record: not getattr(record, "tgneo_streamed", False))
    handler.tgneo_cli = True  # type: ignore[attr-defined]
    logger.addHandler(handler)


def _register() -> None:
    from tgneo.cli import ask, browser, collections, db, load, rdf, serve, traces

    for module in (db, serve, load, ask, rdf, traces, collections, browser):
        for command in module.COMMANDS:
            cli.add_command(command)


_register()


def main() -> None:  # pragma: no cover - console entry point alias
    cli()
