"""``tgneo traces list`` and ``tgneo trace show``: find traces and look at one."""

from __future__ import annotations

import json

import click

from tgneo.cli.common import collection_option, fails_cleanly, out, say, scope, workspace_option
from tgneo.kinds import SessionKind


@click.group()
def traces() -> None:
    """Find traces (questions and their steps) stored in Neo4j."""


@traces.command("list")
@workspace_option
@collection_option
@click.option("--type", "type_", type=click.Choice(SessionKind.names()), help="Only this engine's traces.")
@click.option("--limit", default=20, show_default=True, type=click.IntRange(1, 1000), help="How many, newest first.")
@click.option("--cursor", help="Continue after a previous page (printed at its end).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@fails_cleanly
def traces_list(
    workspace: str, collection: str, type_: str | None, limit: int, cursor: str | None, as_json: bool
) -> None:
    """List trace roots, newest first, with how many steps each has."""
    from rich.table import Table

    from tgneo.store import Store
    from tgneo.store.traces import list_traces

    with Store.from_settings() as store:
        page = list_traces(store, workspace, collection, type=type_, limit=limit, cursor=cursor)
    if as_json:
        out.print_json(json.dumps({"traces": page.traces, "next_cursor": page.next_cursor}))
    elif page.traces:
        table = Table(box=None)
        for column in ("started", "type", "steps", "question", "uri"):
            table.add_column(column, overflow="fold")
        for t in page.traces:
            table.add_row(str(t["startedAtTime"]), str(t["type"]), str(t["steps"]), str(t["query"]), t["uri"])
        out.print(table)
    if not page.traces:
        what = f"{type_} traces" if type_ else "traces"
        say(f"no {what} in {scope(workspace, collection)}" + (" after that cursor" if cursor else ""))
    elif page.next_cursor:
        say(f"more: --cursor {page.next_cursor}")


@click.group()
def trace() -> None:
    """Look at one trace: its steps, the edges it selected and where they came from."""


@trace.command("show")
@click.argument("uri")
@workspace_option
@collection_option
@click.option("--json", "as_json", is_flag=True, help="Print the whole trace as JSON.")
@fails_cleanly
def trace_show(uri: str, workspace: str, collection: str, as_json: bool) -> None:
    """Show a trace as a tree: steps, selected edges with their sources, tool calls, tokens."""
    from tgneo.store import Store
    from tgneo.store.traces import get_trace
    from tgneo.tracetree import render_trace

    with Store.from_settings() as store:
        data = get_trace(store, workspace, collection, uri)
    if as_json:
        out.print_json(json.dumps(data))
    else:
        out.print(render_trace(data))
    if data["truncated"]:
        say(f"[yellow]note:[/] showing the first {len(data['steps'])} of {data['total_steps']} steps")


COMMANDS = [traces, trace]


@trace.command("diff")
@click.argument("uri_a")
@click.argument("uri_b")
@workspace_option
@collection_option
@click.option("--collection-b", help="The collection of URI_B, when it is not URI_A's (same workspace).")
@click.option("--json", "as_json", is_flag=True, help="Print the comparison as JSON.")
@fails_cleanly
def trace_diff(
    uri_a: str, uri_b: str, workspace: str, collection: str, collection_b: str | None, as_json: bool
) -> None:
    """What changed between two answers: concepts, explored entities, selected edges and chunks (with
    scores and reasoning), tool calls and their results, answer sentences and their citations, tokens,
    latency and models.

    \b
    Items are matched by what they are (an edge by its triple, a chunk by its IRI, a sentence by its
    text), so two runs of one question compare even though every run has new URIs.
    + only in B, - only in A, ~ in both but changed.
      tgneo trace diff urn:trustgraph:question:A urn:trustgraph:question:B
      tgneo trace diff A B --collection before --collection-b after --json
    """
    from tgneo.store import Store
    from tgneo.store.traces import get_trace
    from tgneo.tracediff import diff, render

    with Store.from_settings() as store:
        a = get_trace(store, workspace, collection, uri_a)
        b = get_trace(store, workspace, collection_b or collection, uri_b)
    result = diff(a, b)
    if as_json:
        out.print_json(json.dumps(result))
    else:
        out.print(render(result), markup=False, highlight=False)
