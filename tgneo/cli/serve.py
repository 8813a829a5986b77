"""``tgneo serve`` and ``tgneo init-schema``: the server and the schema it needs."""

from __future__ import annotations

import click

from tgneo.cli.common import fails_cleanly, say
from tgneo.config import Settings


@click.command("init-schema")
@fails_cleanly
def init_schema() -> None:
    """Create tgneo's constraints and indexes in Neo4j (idempotent: safe to run any time)."""
    from tgneo.store import Store, install_schema

    with Store.from_settings() as store:
        statements = install_schema(store)
        say(f"schema ready on {store.uri}: {len(statements)} constraints and indexes")


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to bind.")
@click.option("--port", default=8888, show_default=True, help="Port (8888 is the TrustGraph client's default).")
@click.option("--threads", default=32, show_default=True, help="Threads per worker (one per open stream or socket).")
@click.option("--workers", type=click.IntRange(1, 16), help="Worker processes  [default: one per core, at most 4]")
@click.option("--prune-every", metavar="AGE", help="Apply the stored retention policies this often (1h, 1d; "
              "tgneo traces policy sets them)  [default: TGNEO_PRUNE_EVERY, else never]")  # fmt: skip
@click.option(
    "--graph",
    "graphs",
    multiple=True,
    metavar="COLLECTION=PROFILE",
    help="Questions to COLLECTION answer over the graph another tool wrote (neo4j-graphrag, "
    "llm-graph-builder, langchain or a profile file), also from TrustGraph's CLI  [default: TGNEO_GRAPHS]",
)
@fails_cleanly
def serve(
    host: str, port: int, threads: int, workers: int | None, prune_every: str | None, graphs: tuple[str, ...]
) -> None:
    """Serve the HTTP and WebSocket API on Gunicorn (threaded worker).

    Without TGNEO_TOKENS the server trusts every caller, so it binds to loopback only. SIGTERM
    stops it gracefully; access logs are JSON lines on stderr. With --prune-every the server prunes
    every collection that has a stored retention policy on that schedule (held traces are kept,
    each prune is in the audit log).
    """
    from tgneo.errors import BadRequest, StoreUnavailable
    from tgneo.graph_profiles import parse_graphs
    from tgneo.service.access import parse_tokens
    from tgneo.service.runtime import Runtime
    from tgneo.store import Store
    from tgneo.store.retention import parse_age
    from tgneo.web import create_app
    from tgneo.web.serve import default_workers
    from tgneo.web.serve import serve as run

    settings = Settings.from_env(prune_every=prune_every, graphs=",".join(graphs) or None)
    parse_tokens(settings.tokens)  # a malformed TGNEO_TOKENS fails here, with one line
    mapped = parse_graphs(settings.graphs)  # so does a malformed TGNEO_GRAPHS or a profile file that cannot be read
    if settings.prune_every:
        parse_age(settings.prune_every)  # a bad schedule fails here, before the server starts
    if not settings.tokens and host not in ("127.0.0.1", "localhost", "::1"):
        raise BadRequest(f"refusing to bind {host} without TGNEO_TOKENS: unauthenticated servers stay on loopback")
    probe = Store.from_settings(settings)
    say(f"Neo4j    {probe.uri} (database {settings.neo4j_database})")
    try:  # before the first request: an exporter's first batch must not wait for indexes to come online
        Runtime(probe, settings).ensure_schema()
    except StoreUnavailable as e:  # the server still starts (/readyz says why); the first request installs it
        say(f"schema   not installed yet: {e}")
    finally:
        probe.close()
    say(f"API      http://{host}:{port}/   (health: /healthz, readiness: /readyz)")
    for collection, profile in mapped.items():
        say(f"graph    collection {collection} answers over the {profile.name} graph (read only)")
    if settings.prune_every:
        say(f"prune    every {settings.prune_every}, by the stored retention policies (tgneo traces policy)")
    run(lambda: create_app(settings=settings), host=host, port=port, threads=threads,
        workers=workers or default_workers())  # fmt: skip


COMMANDS = [init_schema, serve]
