"""The ``tgneo`` command: one click group, thin commands over library functions.

Run ``tgneo --help`` (and ``tgneo COMMAND --help``) for the whole tour.
"""

from __future__ import annotations

import shlex
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from typing import Any, TypeVar

import click
from rich.console import Console

from tgneo import __version__
from tgneo.config import Settings, default_home
from tgneo.errors import TgneoError

F = TypeVar("F", bound=Callable[..., Any])
err = Console(stderr=True, highlight=False)
out = Console(highlight=False)


def fails_cleanly(fn: F) -> F:
    """Print a ``TgneoError`` as one red sentence and exit 1, instead of a traceback."""

    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except TgneoError as e:
            err.print(f"[bold red]error:[/] {e}")
            sys.exit(1)

    return wrapper  # type: ignore[return-value]


@contextmanager
def spinner(message: str) -> Iterator[Callable[[str], None]]:
    """A live status line for long work; yields a reporter that logs lines above it."""
    with err.status(message) as status:

        def report(line: str) -> None:
            err.print(f"[dim]{line}[/]")
            status.update(message)

        yield report


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="tgneo")
def cli() -> None:
    """Explain how an AI answer was produced, back to the source documents, natively in Neo4j.

    \b
    Start here:
      tgneo db start            provision (Maven Central) and start a local Neo4j 5.26 + Browser
      eval "$(tgneo db env)"    point this shell (and Neo4j tools) at it
      tgneo serve               the HTTP/WebSocket API on http://127.0.0.1:8888

    Configuration comes from NEO4J_URI, NEO4J_USERNAME, NEO4J_PASSWORD and NEO4J_DATABASE; when
    NEO4J_URI is unset, tgneo uses the local server of `tgneo db start`.
    """


# ------------------------------------------------------------------------------------------- db
def _local(
    instance: str, bolt_port: int | None = None, http_port: int | None = None, auth: bool | None = None,
    heap: str | None = None, pagecache: str | None = None, report: Callable[[str], None] | None = None,
) -> Any:  # fmt: skip
    from tgneo.provision import LocalNeo4j

    return LocalNeo4j(
        default_home(), instance, bolt_port=bolt_port, http_port=http_port, auth=auth, heap=heap,
        pagecache=pagecache, report=report or (lambda line: err.print(f"[dim]{line}[/]")),
    )  # fmt: skip


instance_option = click.option(
    "--instance",
    default="default",
    show_default=True,
    envvar="TGNEO_INSTANCE",
    help="Name of the local server (several can run side by side on different ports).",
)


@cli.group()
def db() -> None:
    """A local Neo4j Community 5.26 (with Neo4j Browser), provisioned from Maven Central.

    \b
    The jars are resolved once with Maven into $TGNEO_HOME (default ~/.cache/tgneo); each
    instance keeps its conf/, data/, logs/ and a generated password there. Needs Java 17 and
    Maven (Debian: apt-get install openjdk-17-jre-headless maven); no Docker, no other download.
    """


@db.command("start")
@instance_option
@click.option("--bolt-port", type=int, envvar="TGNEO_BOLT_PORT", help="Bolt port [default: 7687].")
@click.option("--http-port", type=int, envvar="TGNEO_HTTP_PORT", help="HTTP/Browser port [default: 7474].")
@click.option("--auth/--no-auth", default=None, help="Authentication with a generated password (default on).")
@click.option("--heap", envvar="TGNEO_NEO4J_HEAP", help="JVM heap, e.g. 2g [default: 2g].")
@click.option("--pagecache", envvar="TGNEO_NEO4J_PAGECACHE", help="Page cache, e.g. 2g [default: 2g].")
@click.option("--timeout", default=180.0, show_default=True, help="Seconds to wait for Bolt.")
@fails_cleanly
def db_start(
    instance: str, bolt_port: int | None, http_port: int | None, auth: bool | None, heap: str | None,
    pagecache: str | None, timeout: float,
) -> None:  # fmt: skip
    """Provision (first time) and start the server, wait until Bolt answers, print its URI.

    Idempotent: a running server is reused, a stale pid file is cleaned up.
    """
    began = time.monotonic()
    with spinner("starting Neo4j…") as report:
        local = _local(instance, bolt_port, http_port, auth, heap, pagecache, report)
        status = local.start(timeout=timeout)
    i = status.instance
    err.print(f"[green]Neo4j is up[/] (pid {status.pid}, {time.monotonic() - began:.1f}s)")
    err.print(f"  Browser  {i.browser_url}")
    err.print(f"  user     neo4j / password in {i.password_file}" if i.auth else "  auth     off")
    err.print('  env      eval "$(tgneo db env)"')
    out.print(i.bolt_uri)


@db.command("stop")
@instance_option
@fails_cleanly
def db_stop(instance: str) -> None:
    """Stop the server cleanly (a no-op when it is not running)."""
    stopped = _local(instance).stop()
    err.print("Neo4j stopped" if stopped else "Neo4j was not running")


@db.command("status")
@instance_option
@fails_cleanly
def db_status(instance: str) -> None:
    """Say what runs where (exit 3 when the server is not running)."""
    from tgneo.provision import NEO4J_VERSION

    status = _local(instance).status()
    i = status.instance
    out.print(f"instance    {i.name}  ({i.directory})")
    out.print(f"neo4j       {NEO4J_VERSION} community, jars {'provisioned' if status.provisioned else 'not yet'}")
    if not status.running:
        out.print("state       stopped")
        sys.exit(3)
    out.print(f"state       running (pid {status.pid})")
    out.print(f"bolt        {i.bolt_uri}")
    out.print(f"browser     {i.browser_url}")
    out.print(f"auth        {'on (user neo4j, password in ' + str(i.password_file) + ')' if i.auth else 'off'}")


@db.command("env")
@instance_option
@fails_cleanly
def db_env(instance: str) -> None:
    """Print `export NEO4J_URI=… NEO4J_USERNAME=… NEO4J_PASSWORD=…` for `eval "$(tgneo db env)"`."""
    status = _local(instance).status()
    if not status.running:
        err.print(f"[yellow]note:[/] instance {instance!r} is not running (tgneo db start)")
    pairs = " ".join(f"{k}={shlex.quote(v)}" for k, v in status.env().items())
    out.print(f"export {pairs}", soft_wrap=True)


# ------------------------------------------------------------------------------------------ schema
@cli.command("init-schema")
@fails_cleanly
def init_schema() -> None:
    """Create tgneo's constraints and indexes in Neo4j (idempotent: safe to run any time)."""
    from tgneo.store import Store, install_schema

    with Store.from_settings() as store:
        statements = install_schema(store)
        err.print(f"schema ready on {store.uri}: {len(statements)} constraints and indexes")


# ------------------------------------------------------------------------------------------ rdf
workspace_option = click.option(
    "--workspace", default="default", show_default=True, envvar="TGNEO_WORKSPACE", help="Workspace (isolation key)."
)
collection_option = click.option(
    "--collection", default="default", show_default=True, envvar="TGNEO_COLLECTION", help="Collection."
)


def _format_choice() -> click.Choice[str]:
    from tgneo.rdf.formats import format_names

    return click.Choice(format_names())


@cli.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option("--format", "fmt", type=_format_choice(), help="RDF format [default: from the file extension].")
@workspace_option
@collection_option
@click.option("--batch-size", default=2000, show_default=True, help="Quads per transaction.")
@fails_cleanly
def import_(file: str, fmt: str | None, workspace: str, collection: str, batch_size: int) -> None:
    """Load RDF (quoted triples included) into Neo4j: provenance becomes nodes, facts statements.

    \b
    Reads TrustGraph's explainability and extraction provenance (urn:graph:retrieval,
    urn:graph:source) as labeled nodes, and any other triple as a reified :Statement, so
    `tgneo export --profile trustgraph` gives the same quads back.
    """
    from rich.progress import Progress

    from tgneo.errors import UnsupportedFormat
    from tgneo.rdf.formats import format_names, get_format, guess_format
    from tgneo.rdf.star import parse
    from tgneo.store import Store, install_schema
    from tgneo.store.rdfio import import_quads

    try:
        rdf_format = get_format(fmt) if fmt else guess_format(file)
    except UnsupportedFormat as e:
        raise UnsupportedFormat(f"{e}; or pass --format {'|'.join(format_names())}") from None
    data = sys.stdin.buffer.read() if file == "-" else open(file, "rb").read()  # noqa: SIM115
    quads = parse(data, rdf_format)
    with Store.from_settings() as store, Progress(console=err, transient=True) as bar:
        install_schema(store)
        task = bar.add_task(f"importing {len(quads)} quads", total=len(quads))
        stats = import_quads(store, workspace, collection, quads, batch_size, progress=lambda n: bar.advance(task, n))
    err.print(f"imported {stats.quads} quads into {workspace}/{collection} in {stats.batches} transaction(s)")


@cli.command("export")
@click.argument("uri", required=False)
@click.option("--format", "fmt", type=_format_choice(), default="nquads", show_default=True, help="RDF format.")
@click.option(
    "--profile", type=click.Choice(["trustgraph", "prov"]), default="trustgraph", show_default=True,
    help="trustgraph: exactly TrustGraph's triples (plain literals); prov: typed literals (xsd:dateTime, …).",
)  # fmt: skip
@workspace_option
@collection_option
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), help="Write here, not stdout.")
@fails_cleanly
def export(uri: str | None, fmt: str, profile: str, workspace: str, collection: str, output: str | None) -> None:
    """Export a trace (URI given) or a whole collection as RDF, with quoted triples for edges."""
    from tgneo.rdf.star import serialize
    from tgneo.store import Store
    from tgneo.store.rdfio import export_quads

    with Store.from_settings() as store:
        quads = export_quads(store, workspace, collection, uri, profile)  # type: ignore[arg-type]
    text = serialize(quads, fmt)
    if output:
        with open(output, "w", encoding="utf-8") as handle:
            handle.write(text)
        err.print(f"wrote {len(quads)} quads to {output}")
    else:
        sys.stdout.write(text)


@cli.group()
def traces() -> None:
    """Find traces (questions and their steps) stored in Neo4j."""


@traces.command("list")
@workspace_option
@collection_option
@click.option("--type", "type_", type=click.Choice(["graphrag", "docrag", "agent"]), help="Only this engine.")
@click.option("--limit", default=20, show_default=True, help="How many, newest first.")
@click.option("--cursor", help="Continue after a previous page (printed at its end).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@fails_cleanly
def traces_list(
    workspace: str, collection: str, type_: str | None, limit: int, cursor: str | None, as_json: bool
) -> None:
    """List trace roots, newest first."""
    import json

    from rich.table import Table

    from tgneo.store import Store
    from tgneo.store.traces import list_traces

    with Store.from_settings() as store:
        page = list_traces(store, workspace, collection, type=type_, limit=limit, cursor=cursor)
    if as_json:
        out.print_json(json.dumps({"traces": page.traces, "next_cursor": page.next_cursor}))
        return
    table = Table(box=None)
    for column in ("started", "type", "question", "uri"):
        table.add_column(column, overflow="fold")
    for t in page.traces:
        table.add_row(str(t["startedAtTime"]), str(t["type"]), str(t["query"]), t["uri"])
    out.print(table)
    if page.next_cursor:
        err.print(f"more: --cursor {page.next_cursor}")


@cli.group()
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
    import json

    from tgneo.store import Store
    from tgneo.store.traces import get_trace
    from tgneo.tracetree import render_trace

    with Store.from_settings() as store:
        data = get_trace(store, workspace, collection, uri)
    if as_json:
        out.print_json(json.dumps(data))
    else:
        out.print(render_trace(data))


# ------------------------------------------------------------------------------------------ serve
@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to bind.")
@click.option("--port", default=8888, show_default=True, help="Port (8888 is the TrustGraph client's default).")
@click.option("--threads", default=32, show_default=True, help="Worker threads (one per open stream).")
@fails_cleanly
def serve(host: str, port: int, threads: int) -> None:
    """Serve the HTTP and WebSocket API on Gunicorn (threaded worker).

    Without TGNEO_TOKENS the server trusts every caller, so it binds to loopback only.
    """
    from tgneo.errors import BadRequest
    from tgneo.store import Store
    from tgneo.web import create_app
    from tgneo.web.serve import serve as run

    settings = Settings.from_env()
    if not settings.tokens and host not in ("127.0.0.1", "localhost", "::1"):
        raise BadRequest(f"refusing to bind {host} without TGNEO_TOKENS: unauthenticated servers stay on loopback")
    probe = Store.from_settings(settings)
    err.print(f"Neo4j    {probe.uri} (database {settings.neo4j_database})")
    probe.close()
    err.print(f"API      http://{host}:{port}/   (health: /healthz, readiness: /readyz)")
    run(lambda: create_app(settings=settings), host=host, port=port, threads=threads)


def main() -> None:  # pragma: no cover - console entry point alias
    cli()


if __name__ == "__main__":  # pragma: no cover
    main()
