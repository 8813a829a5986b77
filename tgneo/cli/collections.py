"""``tgneo collections``: which collections a workspace has and what each holds; ``collections drop``."""

from __future__ import annotations

import json

import click

from tgneo.cli.common import fails_cleanly, out, progress_bar, say, scope, workspace_option


@click.group(invoke_without_command=True)
@workspace_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@click.pass_context
@fails_cleanly
def collections(ctx: click.Context, workspace: str, as_json: bool) -> None:
    """List the collections of a workspace with what each holds (documents, chunks, statements, questions).

    \b
    A collection exists while something carries its name: loading documents or importing RDF into a
    new name creates it; `tgneo collections drop NAME` removes it. Asking a collection that holds no
    documents and no knowledge graph is refused (nothing is recorded), so a typo never becomes one.

    \b
    Examples:
      tgneo collections
      tgneo collections --workspace acme --json
      tgneo collections drop scratch --yes
    """
    if ctx.invoked_subcommand is not None:
        return
    from rich.table import Table

    from tgneo.store import Store
    from tgneo.store.collections import list_collections

    with Store.from_settings() as store:
        found = list_collections(store, workspace)
    if as_json:
        out.print_json(json.dumps({"workspace": workspace, "collections": [vars(c) for c in found]}))
        return
    if not found:
        say(f"workspace {workspace!r} has no collections yet: load some with `tgneo load documents PATH`")
        return
    table = Table(box=None)
    for column in ("collection", "documents", "chunks", "statements", "questions", "nodes"):
        table.add_column(column, justify="left" if column == "collection" else "right")
    for c in found:
        table.add_row(c.collection, *(str(n) for n in (c.documents, c.chunks, c.statements, c.questions, c.resources)))
    out.print(table)


@collections.command("drop")
@click.argument("name")
@workspace_option
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@fails_cleanly
def drop(name: str, workspace: str, yes: bool) -> None:
    """Delete the collection NAME: its documents, knowledge graph, traces and import journals.

    Other collections, and other workspaces, are untouched: every node is keyed by both names.
    Deletion runs in batches (a progress bar shows them), so a large collection never becomes one
    huge transaction; if it is interrupted, run it again to finish.
    """
    from tgneo.errors import NotFound
    from tgneo.store import Store
    from tgneo.store.collections import drop_collection, list_collections

    with Store.from_settings() as store:
        held = {c.collection: c for c in list_collections(store, workspace)}
        if name not in held:
            known = ", ".join(held) or "none"
            raise NotFound(f"no collection {name!r} in workspace {workspace!r} (collections: {known})")
        c = held[name]
        what = f"{c.documents} documents, {c.statements} statements, {c.questions} questions, {c.resources} nodes"
        if not yes:
            click.confirm(f"Delete {scope(workspace, name)} ({what})?", abort=True, err=True)
        with progress_bar() as bar:
            task = bar.add_task(f"dropping {name}", total=None)
            deleted = drop_collection(store, workspace, name, lambda n: bar.advance(task, n))
    say(f"dropped {scope(workspace, name)}: {deleted} nodes deleted")


COMMANDS = [collections]
