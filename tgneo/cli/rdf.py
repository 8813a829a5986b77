"""``tgneo import`` and ``tgneo export``: RDF (quoted triples included) into and out of Neo4j."""

from __future__ import annotations

import sys

import click

from tgneo.cli.common import collection_option, fails_cleanly, progress_bar, say, scope, workspace_option
from tgneo.errors import BadRequest
from tgneo.graphmodel import PROFILES


def _format_choice() -> click.Choice[str]:
    from tgneo.rdf.formats import format_names

    return click.Choice(format_names())


@click.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option("--format", "fmt", type=_format_choice(), help="RDF format [default: from the file extension].")
@click.option("--base", help="IRI that relative IRIs resolve against (Turtle, TriG, JSON-LD without @base).")
@workspace_option
@collection_option
@click.option(
    "--batch-size", default=2000, show_default=True, type=click.IntRange(min=1), help="Quads per transaction."
)
@fails_cleanly
def import_(file: str, fmt: str | None, base: str | None, workspace: str, collection: str, batch_size: int) -> None:
    """Load RDF (quoted triples included) into Neo4j: provenance becomes nodes, facts statements.

    \b
    Reads TrustGraph's explainability and extraction provenance (urn:graph:retrieval,
    urn:graph:source) as labeled nodes, and any other triple as a reified :Statement, so
    `tgneo export --profile trustgraph` gives the same quads back. FILE '-' reads stdin.
    """
    from tgneo.errors import UnsupportedFormat
    from tgneo.rdf.formats import format_names, get_format, guess_format
    from tgneo.rdf.star import parse
    from tgneo.store import Store, install_schema
    from tgneo.store.rdfio import import_quads
    from tgneo.uris import validate_iri

    if base is not None:
        try:
            validate_iri(base, "--base")
        except BadRequest as e:
            raise click.BadParameter(str(e), param_hint="--base") from None
    try:
        rdf_format = get_format(fmt) if fmt else guess_format(file)
    except UnsupportedFormat as e:
        raise UnsupportedFormat(f"{e}; or pass --format {'|'.join(format_names())}") from None
    data = sys.stdin.buffer.read() if file == "-" else open(file, "rb").read()  # noqa: SIM115
    quads = parse(data, rdf_format, base=base)
    with Store.from_settings() as store, progress_bar() as bar:
        install_schema(store)
        task = bar.add_task(f"importing {len(quads)} quads", total=len(quads))
        stats = import_quads(store, workspace, collection, quads, batch_size, progress=lambda n: bar.advance(task, n))
    if stats.quads == 0:
        say(f"nothing imported: {file} holds no triples")
    else:
        say(f"imported {stats.quads} quads into {workspace}/{collection} in {stats.batches} transaction(s)")


@click.command("export")
@click.argument("uri", required=False)
@click.option("--format", "fmt", type=_format_choice(), default="nquads", show_default=True, help="RDF format.")
@click.option(
    "--profile", type=click.Choice(PROFILES), default="trustgraph", show_default=True,
    help="trustgraph: exactly TrustGraph's triples (plain literals); prov: typed literals (xsd:dateTime, …).",
)  # fmt: skip
@workspace_option
@collection_option
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write here, not stdout.")
@fails_cleanly
def export(uri: str | None, fmt: str, profile: str, workspace: str, collection: str, output: str | None) -> None:
    """Export a trace (URI given) or a whole collection as RDF, with quoted triples for edges."""
    from tgneo.rdf.star import serialize
    from tgneo.store import Store
    from tgneo.store.rdfio import export_quads

    with Store.from_settings() as store:
        quads = export_quads(store, workspace, collection, uri, profile)  # type: ignore[arg-type]
    if not quads:
        say(f"nothing to export: {scope(workspace, collection)} holds no triples")
        return
    text = serialize(quads, fmt)
    if output:
        try:
            with open(output, "w", encoding="utf-8") as handle:
                handle.write(text)
        except OSError as e:
            raise BadRequest(f"cannot write {output}: {e.strerror}") from None
        say(f"exported {len(quads)} quads to {output}")
    else:
        sys.stdout.write(text)
        say(f"exported {len(quads)} quads from {scope(workspace, collection)}")


COMMANDS = [import_, export]
