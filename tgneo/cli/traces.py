"""``tgneo traces list|prune|policy|hold|release|check`` and ``tgneo trace show|diff``: find, expire, check, look."""

from __future__ import annotations

import json
from collections.abc import Callable

import click

from tgneo.cli.common import (
    collection_option,
    fails_cleanly,
    found_collection_option,
    out,
    say,
    scope,
    workspace_option,
)
from tgneo.kinds import SessionKind
from tgneo.scope import DEFAULT_SCOPE


@click.group()
def traces() -> None:
    """Find traces (questions and their steps) stored in Neo4j."""


@traces.command("list")
@workspace_option
@collection_option
@click.option("--type", "type_", type=click.Choice(SessionKind.names()), help="Only this engine's traces.")
@click.option("--limit", default=20, show_default=True, type=click.IntRange(1, 1000), help="How many, newest first.")
@click.option("--cursor", help="Continue after a previous page (printed at its end).")
@click.option("--stale", is_flag=True, help="Only answers whose source documents were replaced or removed since.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@fails_cleanly
def traces_list(
    workspace: str, collection: str, type_: str | None, limit: int, cursor: str | None, stale: bool, as_json: bool
) -> None:
    """List trace roots, newest first, with how many steps each has.

    \b
    The state column says "stale" when a document the answer used was replaced or removed after it
    was given (tgneo trace show URI says which, and which edges and chunks), and "held" when a legal
    hold keeps it from retention.
      tgneo traces list --stale --json
    """
    from rich.table import Table

    from tgneo.store import Store
    from tgneo.store.traces import list_traces

    with Store.from_settings() as store:
        page = list_traces(store, workspace, collection, type=type_, limit=limit, cursor=cursor, stale=stale)
    if as_json:
        out.print_json(json.dumps({"traces": page.traces, "next_cursor": page.next_cursor}))
    elif page.traces:
        table = Table(box=None)
        for column in ("started", "type", "steps", "state", "question", "uri"):
            table.add_column(column, overflow="fold")
        for t in page.traces:
            state = " ".join(word for word, on in (("stale", t["stale_at"]), ("held", t["held"])) if on)
            table.add_row(str(t["startedAtTime"]), str(t["type"]), str(t["steps"]), state, str(t["query"]), t["uri"])
        out.print(table)
    if not page.traces:
        what = f"{'stale ' * stale}{type_ + ' ' if type_ else ''}traces"
        say(f"no {what} in {scope(workspace, collection)}" + (" after that cursor" if cursor else ""))
    elif page.next_cursor:
        say(f"more: --cursor {page.next_cursor}")


def _operator() -> str:
    """Who the audit log names for a CLI command: the operating-system user."""
    import getpass

    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "unknown"


def _policy_options(command: Callable[..., None]) -> Callable[..., None]:
    """--older-than and --keep, the two limits of a retention policy (``store.retention.Policy``)."""
    older = click.option("--older-than", "older_than", metavar="AGE",
                         help="Traces older than this go: 45s, 90m, 12h, 30d, 2w.")  # fmt: skip
    keep = click.option("--keep", type=click.IntRange(min=0), metavar="N", help="Keep only the newest N traces.")
    return older(keep(command))


@traces.command("prune")
@workspace_option
@collection_option
@_policy_options
@click.option("--yes", is_flag=True, help="Delete them. Without it, only say what would be deleted.")
@fails_cleanly
def traces_prune(workspace: str, collection: str, older_than: str | None, keep: int | None, yes: bool) -> None:
    """Delete old traces by a retention policy: a dry run unless --yes.

    \b
    A trace goes when it is older than --older-than or beyond the newest --keep (give one or both,
    or neither to use the collection's stored policy, tgneo traces policy); a held trace (tgneo
    traces hold) never does. Its steps, selections, thoughts, answer sentences
    and texts are deleted in small transactions; the knowledge graph and the source documents stay.
    Each prune is recorded in $TGNEO_HOME/logs/audit.jsonl.
      tgneo traces prune --older-than 30d                # what would go
      tgneo traces prune --older-than 30d --keep 1000 --yes
    """
    from tgneo.cli.common import progress_bar
    from tgneo.store import Store
    from tgneo.store.retention import Policy, candidates, parse_age, prune, stored_policies

    policy = Policy(parse_age(older_than) if older_than else None, keep) if older_than or keep is not None else None
    with Store.from_settings() as store:
        if policy is None:
            stored = stored_policies(store, workspace, collection)
            if not stored:
                raise click.UsageError(
                    f"{scope(workspace, collection)} has no stored retention policy: give --older-than AGE, "
                    "--keep N, or both (or store one: tgneo traces policy)"
                )
            policy = stored[0].policy
        if not yes:
            found = candidates(store, workspace, collection, policy)
            for c in found:
                out.print(f"{c.started}  {c.steps:>4} steps  {c.uri}", markup=False, highlight=False)
            steps = sum(c.steps for c in found)
            advice = "; add --yes to delete them" if found else ""
            say(f"would delete {len(found)} trace(s), {steps} step(s), {policy.describe()} in "
                f"{scope(workspace, collection)}; held traces are kept{advice}")  # fmt: skip
            return
        with progress_bar() as bar:
            task = bar.add_task("pruning traces", total=None)
            report = prune(store, workspace, collection, policy, who=_operator(),
                           progress=lambda done, total: bar.update(task, completed=done, total=total))  # fmt: skip
    kept = f"; {len(report.held)} held since the prune began, kept" if report.held else ""
    swept = f" (and {report.swept} retracted statement(s) or resource(s) only they kept)" if report.swept else ""
    say(f"deleted {report.traces} trace(s), {report.nodes} node(s){swept}, {policy.describe()}{kept}")


@traces.command("policy")
@workspace_option
@collection_option
@_policy_options
@click.option("--clear", is_flag=True, help="Remove the stored policy (traces are then kept for good).")
@fails_cleanly
def traces_policy(workspace: str, collection: str, older_than: str | None, keep: int | None, clear: bool) -> None:
    """Show, store or clear a collection's retention policy.

    \b
    A stored policy is what `tgneo traces prune` applies when given no limits, and what
    `tgneo serve --prune-every 1h` applies to every collection that has one. Setting it deletes
    nothing by itself. Each change is recorded in the audit log.
      tgneo traces policy                                  # show it
      tgneo traces policy --older-than 90d --keep 10000    # store it
      tgneo traces policy --clear
    """
    from tgneo.store import Store
    from tgneo.store.retention import Policy, parse_age, set_policy, stored_policies

    if clear and (older_than or keep is not None):
        raise click.UsageError("--clear takes no --older-than or --keep")
    with Store.from_settings() as store:
        if clear:
            set_policy(store, workspace, collection, None, who=_operator())
            say(f"cleared the retention policy of {scope(workspace, collection)}")
            return
        if older_than or keep is not None:
            policy = Policy(parse_age(older_than) if older_than else None, keep)
            set_policy(store, workspace, collection, policy, who=_operator())
        stored = stored_policies(store, workspace, collection)
    if not stored:
        say(f"{scope(workspace, collection)} has no retention policy: its traces are kept until pruned by hand")
        return
    s = stored[0]
    out.print(f"delete traces {s.policy.describe()}  (set {s.set_at} by {s.set_by})", markup=False, highlight=False)


def _hold_command(on: bool) -> click.Command:
    verb = "hold" if on else "release"

    @click.argument("uris", nargs=-1, required=True, metavar="URI...")
    @workspace_option
    @collection_option
    @fails_cleanly
    def command(uris: tuple[str, ...], workspace: str, collection: str) -> None:
        from tgneo.errors import NotFound
        from tgneo.store import Store
        from tgneo.store.retention import hold, release

        with Store.from_settings() as store:
            results = (hold if on else release)(store, workspace, collection, list(uris), who=_operator())
        for r in results:
            if not r.found:
                say(f"[yellow]no trace {r.uri} in {scope(workspace, collection)}[/]")
            elif on and r.pruning:
                say(f"[yellow]{r.uri} is being pruned; it cannot be held[/]")
            else:
                out.print(f"{'held' if r.held else 'released'}  {r.uri}", markup=False, highlight=False)
        if not any(r.found for r in results):
            raise NotFound(f"none of the {len(results)} trace(s) is in {scope(workspace, collection)}")

    command.__doc__ = (
        "Put a legal hold on traces: tgneo traces prune never deletes them." if on
        else "Lift the legal hold of traces, so that retention applies to them again."
    )  # fmt: skip
    return traces.command(verb)(command)


traces_hold = _hold_command(True)
traces_release = _hold_command(False)


@traces.command("check")
@workspace_option
@click.option("--sweep", is_flag=True, help="Delete the garbage found (never a half-written step: that is reported).")
@fails_cleanly
def traces_check(workspace: str, sweep: bool) -> None:
    """Check a workspace's health: half-written steps, and garbage nothing keeps alive.

    \b
    Half-written: a step with no trace, a selection without its statement or chunk (a crash cannot
    leave these, since every step is one transaction; if one shows, report it). Garbage: a statement
    retracted from the graph that no trace quotes any more, a forgotten chunk or removed document
    no trace names. Pruning sweeps what the traces it deletes kept; a prune cut off halfway, or a
    store pruned by an older tgneo, leaves some. Exits 1 while anything is found, so a cron job
    can alert on it. A collection with an unfinished import is skipped.
      tgneo traces check
      tgneo traces check --sweep
    """
    from tgneo.cli.common import progress_bar
    from tgneo.store import Store
    from tgneo.store.health import half_written, residue, sweep_residue

    with Store.from_settings() as store:
        problems = half_written(store, workspace)
        if sweep:
            with progress_bar() as bar:
                task = bar.add_task("sweeping garbage", total=None)
                swept = sweep_residue(store, workspace, who=_operator(),
                                      progress=lambda n: bar.update(task, completed=n))  # fmt: skip
            say(f"deleted {swept} statement(s) and resource(s) nothing kept alive")
        left = residue(store, workspace)
    for p in problems:
        out.print(f"half-written  {p.problem}  {p.uri}", markup=False, highlight=False)
    for r in left:
        out.print(f"garbage  {r.collection}  {r.kind}  {r.key}", markup=False, highlight=False)
    if problems or left:
        advice = "; tgneo traces check --sweep deletes the garbage" if left else ""
        say(f"[yellow]workspace {workspace!r}: {len(problems)} half-written node(s), {len(left)} garbage "
            f"node(s){advice}[/]")  # fmt: skip
        raise click.exceptions.Exit(1)
    say(f"workspace {workspace!r} is healthy: nothing half-written, no garbage")


@click.group()
def trace() -> None:
    """Look at one trace: its steps, the edges it selected and where they came from."""


@trace.command("show")
@click.argument("uri")
@workspace_option
@found_collection_option
@click.option("--json", "as_json", is_flag=True, help="Print the whole trace as JSON.")
@fails_cleanly
def trace_show(uri: str, workspace: str, collection: str | None, as_json: bool) -> None:
    """Show a trace as a tree: steps, selected edges with their sources, tool calls, tokens.

    Without --collection the trace is looked up in every collection of the workspace (its URI carries its
    session's UUID, so one holds it); the collection it was found in is named on stderr.
    """
    from tgneo.connection import connect
    from tgneo.tracetree import render_trace

    with connect(workspace=workspace) as tg:
        found = tg.trace(uri, collection)
    if collection is None and found.collection != DEFAULT_SCOPE:
        say(f"[dim]in {scope(workspace, found.collection)}[/]")
    if as_json:
        out.print_json(json.dumps(found.to_dict()))
    else:
        out.print(render_trace(found.to_dict()))
    if found.truncated:
        say(f"[yellow]note:[/] showing the first {len(found.steps)} of {found.total_steps} steps")


@trace.command("verify")
@click.argument("uri")
@workspace_option
@found_collection_option
@click.option("--budget", type=click.IntRange(2, 64), default=6, show_default=True, metavar="N",
              help="At most N re-runs of the answering stage.")  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="Print the check's summary as JSON.")
@fails_cleanly
def trace_verify(uri: str, workspace: str, collection: str | None, budget: int, as_json: bool) -> None:
    """Check a stored answer: does it depend on the evidence it cites?

    \b
    The answering stage of the trace is run again on the configured provider (TGNEO_LLM): without
    the evidence the answer's sentences cite, with that evidence alone, and without each item in
    turn (the most cited first, within --budget). The verdict — supported, partly (a sentence
    stands without its evidence: named), unsupported (the answer does not depend on its
    evidence) — and each item's necessity are recorded in the trace as a Verification step and
    printed. Any trace can be checked: tgneo's engines', the LangChain handler's,
    ExplainedGraphRAG's, one recorded by hand or from OpenTelemetry spans.
      tgneo trace verify urn:trustgraph:question:5c9bd80d-…
    """
    from tgneo.cli.ask import verified
    from tgneo.connection import connect
    from tgneo.stream.wire import encode_verification

    with connect(workspace=workspace) as tg:
        summary = tg.verify(uri, collection, budget=budget)
        sentences = {} if as_json else tg.trace(uri, collection).sentences
    if as_json:
        out.print_json(json.dumps({"verification": encode_verification(summary)}))
    else:
        verified(summary, sentences)
        say(f"recorded: {summary.uri}")


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
