"""``tgneo db``: a local Neo4j 5.26 (+ Browser) provisioned from Maven Central."""

from __future__ import annotations

import json
import shlex
import sys
import time
from collections.abc import Callable
from typing import Any

import click
from rich.markup import escape

from tgneo.cli.common import err, fails_cleanly, out, progress_bar, spinner
from tgneo.config import default_home
from tgneo.provision.plugins import ENV_VAR, PLUGINS
from tgneo.provision.server import DEFAULT_INSTANCE


def _local(
    instance: str, bolt_port: int | None = None, http_port: int | None = None, auth: bool | None = None,
    heap: str | None = None, pagecache: str | None = None, report: Callable[[str], None] | None = None,
    plugins: tuple[str, ...] = (), without_plugins: tuple[str, ...] = (),
) -> Any:  # fmt: skip
    from tgneo.provision import LocalNeo4j

    return LocalNeo4j(
        default_home(), instance, bolt_port=bolt_port, http_port=http_port, auth=auth, heap=heap,
        pagecache=pagecache, plugins=plugins, without_plugins=without_plugins,
        report=report or (lambda line: err.print(f"[dim]{escape(line)}[/]", soft_wrap=True)),
    )  # fmt: skip


instance_option = click.option(
    "--instance",
    default=DEFAULT_INSTANCE,
    show_default=True,
    envvar="TGNEO_INSTANCE",
    help="Name of the local server (several can run side by side on different ports).",
)


@click.group()
def db() -> None:
    """A local Neo4j Community 5.26 (with Neo4j Browser), provisioned from Maven Central.

    \b
    The jars are resolved once with Maven into $TGNEO_HOME (default ~/.cache/tgneo); each
    instance keeps its conf/, data/, logs/ and a generated password there. Needs Java 17 and
    Maven (Debian: apt-get install openjdk-17-jre-headless maven); no Docker, no other download.
    `tgneo db start --plugin apoc` adds APOC for your own tools (tgneo itself never calls it); the
    instance keeps it until `tgneo db start --no-plugin apoc`.
    """


@db.command("start")
@instance_option
@click.option("--bolt-port", type=int, envvar="TGNEO_BOLT_PORT", help="Bolt port [default: 7687].")
@click.option("--http-port", type=int, envvar="TGNEO_HTTP_PORT", help="HTTP/Browser port [default: 7474].")
@click.option("--auth/--no-auth", default=None, help="Authentication with a generated password (default on).")
@click.option("--heap", envvar="TGNEO_NEO4J_HEAP", help="JVM heap, e.g. 2g [default: 2g].")
@click.option("--pagecache", envvar="TGNEO_NEO4J_PAGECACHE", help="Page cache, e.g. 2g [default: 2g].")
@click.option("--timeout", default=180.0, show_default=True, help="Seconds to wait for Bolt.")
@click.option(
    "--plugin", "plugins", multiple=True, metavar="NAME",
    help=f"Add a server plugin for your own tools, from Maven Central; the instance keeps it (repeatable; known: "
    f"{', '.join(PLUGINS)}). {ENV_VAR}=apoc (comma-separated) does the same. [default: none]",
)  # fmt: skip
@click.option(
    "--no-plugin", "without", multiple=True, metavar="NAME",
    help="Remove a plugin the instance keeps (repeatable); it stays off until --plugin adds it again.",
)  # fmt: skip
@fails_cleanly
def db_start(
    instance: str, bolt_port: int | None, http_port: int | None, auth: bool | None, heap: str | None,
    pagecache: str | None, timeout: float, plugins: tuple[str, ...], without: tuple[str, ...],
) -> None:  # fmt: skip
    """Provision (first time) and start the server, wait until Bolt answers, print its URI.

    Idempotent: a running server is reused (restarted only to add or remove a plugin), a stale pid
    file is cleaned up.

    \b
    --plugin apoc puts APOC Core (matched to the server: 5.26) into the instance's plugins/ and lets
    apoc.* out of the procedure sandbox (dbms.security.procedures.unrestricted and .allowlist =
    apoc.*). Why: LangChain's Neo4jGraph(), LLM Graph Builder and neo4j-graphrag's Neo4jWriter
    need APOC and fail without it. tgneo itself never calls APOC: its own queries are plugin-free.
    An instance keeps the plugins it was given (in its instance.json) until you remove one:

    \b
    - a plain start (after tgneo db stop, or of a running instance) keeps them all;
    - --plugin NAME adds one, --no-plugin NAME removes one, from this start on;
    - plugins load only when the server starts, so a running instance whose plugins change is
      restarted (a notice says so; its ports, password and data stay).
    To remove a plugin: tgneo db start --no-plugin NAME. This command and `tgneo db status` say
    which plugins are on.
    """
    from tgneo.provision.plugins import describe, parse_plugins, requested_plugins

    removed = parse_plugins(without)  # an unknown name is refused before anything is started or resolved
    added = requested_plugins(plugins, without=removed)
    began = time.monotonic()
    with spinner("starting Neo4j…") as report:
        local = _local(instance, bolt_port, http_port, auth, heap, pagecache, report, added, removed)
        status = local.start(timeout=timeout)
    i = status.instance
    named = "" if instance == DEFAULT_INSTANCE else f" --instance {shlex.quote(instance)}"  # as a new shell needs it
    err.print(f"[green]Neo4j is up[/] (pid {status.pid}, {time.monotonic() - began:.1f}s)")
    err.print(f"  Browser  {i.browser_url}")
    one = i.plugins[0] if len(i.plugins) == 1 else "NAME"
    kept = f" (kept until tgneo db start{named} --no-plugin {one})" if i.plugins else ""
    err.print(f"  plugins  {escape(describe(i.plugins) + kept)}")
    err.print(f"  user     neo4j / password in {i.password_file}" if i.auth else "  auth     off")
    err.print(f'  env      eval "$(tgneo db env{escape(named)})"')
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
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (for scripts: bolt, browser, running …).")
@fails_cleanly
def db_status(instance: str, as_json: bool) -> None:
    """Say what runs where (exit 3 when the server is not running)."""
    from tgneo.provision import NEO4J_VERSION
    from tgneo.provision.plugins import describe

    status = _local(instance).status()
    i = status.instance
    if as_json:
        out.print_json(json.dumps({
            "instance": i.name, "directory": str(i.directory), "neo4j": NEO4J_VERSION,
            "provisioned": status.provisioned, "running": status.running, "pid": status.pid,
            "bolt": i.bolt_uri, "browser": i.browser_url, "auth": i.auth, "plugins": list(i.plugins),
        }))  # fmt: skip
        if not status.running:
            sys.exit(3)
        return
    out.print(f"instance    {i.name}  ({i.directory})")
    out.print(f"neo4j       {NEO4J_VERSION} community, jars {'provisioned' if status.provisioned else 'not yet'}")
    if not status.running:
        out.print("state       stopped")
        sys.exit(3)
    out.print(f"state       running (pid {status.pid})")
    out.print(f"bolt        {i.bolt_uri}")
    out.print(f"browser     {i.browser_url}")
    out.print(f"auth        {'on (user neo4j, password in ' + str(i.password_file) + ')' if i.auth else 'off'}")
    out.print(f"plugins     {escape(describe(i.plugins))}")


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


@db.command("migrate")
@click.option("--quiet", is_flag=True, help="Say nothing when there is nothing to migrate (scripts run it every time).")
@fails_cleanly
def db_migrate(quiet: bool) -> None:
    """Move a database written by an earlier tgneo to the current graph model, in place.

    \b
    Graph model 1 kept every triple as a :Statement node between :Resource nodes, under labels other
    tools use (Document, Chunk, Resource). Model 2 keeps the knowledge graph as typed relationships and
    property values (MATCH (a)-[:DISCOVERED]->(b) reads it), a reified edge only where provenance
    quotes one, and tgneo's own Tg… labels. Until a database is migrated, every other command refuses
    it. The migration runs in batches, each its own transaction, and can be killed and run again at
    any point; it reads NEO4J_* (or the local server) like every command. Back the database up first
    if you may want model 1 back: the migration does not keep it.
    """
    from tgneo.store import Store
    from tgneo.store.migrate import migrate

    with Store.from_settings(check_model=False) as store, progress_bar() as bar:
        tasks: dict[str, Any] = {}

        def note(step: str, done: int, total: int | None) -> None:
            if step not in tasks:
                tasks[step] = bar.add_task(f"migrating: {step}", total=total)
            bar.advance(tasks[step], done)

        report = migrate(store, note)
    if report.already_current:
        if not quiet:
            err.print("the database already holds the current graph model; nothing to migrate")
        return
    err.print(
        f"migrated: {report.relabelled} nodes relabelled, {report.facts} facts made native "
        f"({report.statements_deleted} statement nodes no longer needed, {report.statements_kept} kept as quoted "
        f"edges), {len(report.dropped)} old indexes and constraints replaced"
    )


COMMANDS = [db]
