"""``tgneo import``, ``tgneo export`` and ``tgneo validate``: RDF into, out of and checked against Neo4j."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import click

from tgneo.cli.common import collection_option, fails_cleanly, progress_bar, say, scope, workspace_option
from tgneo.errors import BadRequest
from tgneo.rdf.export_profiles import DEFAULT_EXPORT_PROFILE, EXPORT_PROFILES
from tgneo.rdf.formats import get_format
from tgneo.vocab import GRAPH_NAMES

if TYPE_CHECKING:
    pass


OTLP_JSON = "otlp-json"
"""``tgneo export --format``'s one format that is not RDF: the traces as OpenTelemetry spans (tgneo.otlp.export)."""


def _format_choice(*extra: str) -> click.Choice[str]:
    from tgneo.rdf.formats import format_names

    return click.Choice([*format_names(), *extra])


@contextmanager
def _input_file(file: str) -> Iterator[Path]:
    """The file to import; stdin (``-``) is spooled to a file, whose digest scopes blank nodes before it is read."""
    if file != "-":
        yield Path(file)
        return
    with tempfile.TemporaryDirectory(prefix="tgneo-stdin-") as folder:
        path = Path(folder) / "stdin"
        with open(path, "wb") as handle:
            shutil.copyfileobj(sys.stdin.buffer, handle)
        yield path


@click.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option("--format", "fmt", type=_format_choice(), help="RDF format [default: from the file extension].")
@click.option("--base", help="IRI that relative IRIs resolve against (Turtle, TriG, JSON-LD without @base).")
@workspace_option
@collection_option
@click.option(
    "--batch-size", default=5000, show_default=True, type=click.IntRange(min=1), help="Quads per transaction."
)
@fails_cleanly
def import_(file: str, fmt: str | None, base: str | None, workspace: str, collection: str, batch_size: int) -> None:
    """Load RDF (quoted triples included) into Neo4j, all or nothing: a native graph plus provenance nodes.

    \b
    The knowledge graph (the default graph) becomes typed relationships and properties:
    ex:a foaf:knows ex:b is (a)-[:foaf__knows]->(b), "1867" a property value, rdfs:label the
    node's name (the rule: docs/graph-model.md). TrustGraph's explainability and
    extraction provenance (urn:graph:retrieval, urn:graph:source) become labeled nodes. What
    the native form cannot hold exactly (quoted triples, other named graphs, a literal that
    does not fit its key) stays a reified :TgStatement, so `tgneo export --profile
    trustgraph` gives the same quads back. Either profile reads back the same way.

    \b
    The file is read once, written as it is read; a syntax error (line and column), a value
    Neo4j cannot index, or a failure while writing rolls everything back. Blank nodes belong
    to their file. FILE '-' reads stdin.
    """
    from tgneo.errors import UnsupportedFormat
    from tgneo.rdf.formats import format_names, get_format, guess_format
    from tgneo.store import Store, install_schema
    from tgneo.store.rdf_import import import_file
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
    with _input_file(file) as path, Store.from_settings() as store, progress_bar() as bar:
        install_schema(store)
        task = bar.add_task(f"importing {file}", total=None)  # the total is known once the file is read

        def report(done: int, total: int | None) -> None:
            bar.update(task, description=f"importing {file}", completed=done, total=total)

        stats = import_file(store, workspace, collection, path, rdf_format, base=base, batch_size=batch_size,
                            progress=report, source="stdin" if file == "-" else file)  # fmt: skip
    say(f"imported {stats.quads} quads into {workspace}/{collection} in {stats.batches} transaction(s)")


@contextmanager
def _output(output: str | None) -> Iterator[Path]:
    """A temporary file beside the output (or for stdout), moved into place only once export succeeded."""
    folder = os.path.dirname(os.path.abspath(output)) if output else None
    if folder is not None and not os.path.isdir(folder):
        raise BadRequest(f"cannot write {output}: no such directory {folder}")
    try:
        handle, name = tempfile.mkstemp(prefix=".tgneo-export-", dir=folder)
    except OSError as e:
        raise BadRequest(f"cannot write {output or 'a temporary file'}: {e.strerror}") from None
    os.close(handle)
    try:
        yield Path(name)
        if output:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(name, 0o666 & ~umask)  # mkstemp made it 0600; an export is an ordinary file
            os.replace(name, output)
        else:
            with open(name, "rb") as source:
                shutil.copyfileobj(source, sys.stdout.buffer)
            sys.stdout.flush()
    finally:
        if os.path.exists(name):
            os.unlink(name)


@click.command("export")
@click.argument("uri", nargs=-1)
@click.option(
    "--format", "fmt", type=_format_choice(OTLP_JSON), default="nquads", show_default=True,
    help="RDF format, or otlp-json: the traces named as OpenTelemetry spans (an OTLP/JSON ExportTraceServiceRequest).",
)  # fmt: skip
@click.option(
    "--profile", type=click.Choice(EXPORT_PROFILES), default=DEFAULT_EXPORT_PROFILE, show_default=True,
    help="prov: strict W3C PROV-O (typed literals, sessions as activities); trustgraph: exactly TrustGraph's triples.",
)  # fmt: skip
@click.option(
    "--quoted",
    type=click.Choice(["star", "triple-term", "reification"]),
    default=None,
    help="Quoted triples (the selected edges): rdf:Statement reification (RDF 1.1), RDF-star << s p o >>, or "
    "RDF 1.2 triple terms <<( s p o )>>. Default: reification for --profile prov (rdflib, pyoxigraph and the "
    "prov package read it), star for --profile trustgraph (TrustGraph's own form).",
)
@click.option(
    "--graph", "graphs", multiple=True, metavar="default|source|retrieval|IRI",
    help="Only the quads of this graph (repeatable): the knowledge graph, the source graph, the traces.",
)  # fmt: skip
@workspace_option
@collection_option
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write here, not stdout.")
@fails_cleanly
def export(
    uri: tuple[str, ...],
    fmt: str,
    profile: str,
    quoted: str | None,
    graphs: tuple[str, ...],
    workspace: str,
    collection: str,
    output: str | None,
) -> None:
    """Export traces (their root URIs given) or a whole collection as RDF, streamed from Neo4j.

    \b
    --format otlp-json writes the traces named (at least one URI) as one OTLP/JSON
    ExportTraceServiceRequest: a span per step with gen_ai.* attributes and tgneo.prov.entity
    naming its PROV entity, for Phoenix, Langfuse, Jaeger or an OpenTelemetry Collector
    (POST it to an OTLP/HTTP receiver's /v1/traces as application/json).
    """
    if fmt == OTLP_JSON:
        _export_otlp(uri, quoted, graphs, workspace, collection, output)
        return
    from tgneo.connection import connect

    with connect(workspace=workspace, collection=collection) as tg, _output(output) as path:
        with open(path, "w", encoding="utf-8", newline="\n") as handle:
            exported = tg.export_to(handle, list(uri), format=fmt, profile=profile, quoted=quoted, graphs=graphs,
                                    collection=collection)  # fmt: skip
    count, merged = exported.quads, exported.merged
    if merged:
        shown = ", ".join(sorted(_graph_name(g) for g in merged))
        what = f"the graphs {shown} are" if len(merged) > 1 else f"the graph {shown} is"
        remedies = ["use nquads, trig or json-ld to keep graphs apart"] if len(merged) > 1 or not graphs else []
        if not graphs:
            remedies.append("or --graph to pick one")
        advice = f" ({', '.join(remedies)})" if remedies else ""
        say(f"{get_format(fmt).name} has no named graphs: {what} merged into the default graph{advice}")
    if count == 0:
        say(f"nothing to export: {scope(workspace, collection)} holds no triples")
    elif output:
        say(f"exported {count} quads to {output}")
    else:
        say(f"exported {count} quads from {scope(workspace, collection)}")


def _export_otlp(
    uris: tuple[str, ...],
    quoted: str | None,
    graphs: tuple[str, ...],
    workspace: str,
    collection: str,
    output: str | None,
) -> None:
    """The traces ``uris`` as one OTLP/JSON request, on one line (what the Collector's otlpjsonfile receiver reads)."""
    import json

    from tgneo.otlp.export import otlp_json
    from tgneo.store import Store
    from tgneo.store.traces import get_trace

    if not uris:
        raise BadRequest(f"--format {OTLP_JSON} exports traces: name at least one trace URI (tgneo traces list)")
    if quoted or graphs:
        raise BadRequest(f"--quoted and --graph shape RDF; --format {OTLP_JSON} takes neither")
    with Store.from_settings() as store:
        # every step (the largest bound Cypher's list slices take): an export is never cut short
        traces = [get_trace(store, workspace, collection, u, max_steps=2**31 - 1) for u in dict.fromkeys(uris)]
    body = {"resourceSpans": [rs for t in traces for rs in otlp_json(t)["resourceSpans"]]}
    spans = sum(len(ss["spans"]) for rs in body["resourceSpans"] for ss in rs["scopeSpans"])
    with _output(output) as path:
        path.write_text(json.dumps(body, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    where = f"to {output}" if output else f"from {scope(workspace, collection)}"
    say(f"exported {spans} spans of {len(traces)} trace{'' if len(traces) == 1 else 's'} {where}")


def _graph_name(iri: str) -> str:
    """How ``--graph`` names a graph: ``source``, ``retrieval``, else its IRI."""
    return next((name for name, g in GRAPH_NAMES.items() if g == iri), f"<{iri}>")


@click.command("validate")
@click.argument("uri", required=False)
@workspace_option
@collection_option
@fails_cleanly
def validate(uri: str | None, workspace: str, collection: str) -> None:
    """Check a trace (URI given) or a collection against tgneo's SHACL shapes (strict PROV-O, TrustGraph structure).

    \b
    Validates the prov-profile export, quoted triples as rdf:Statement reification, with RDFS
    inference from tgneo/rdf/ontology.ttl, using tgneo/rdf/shapes.ttl. Prints each violation
    (node, property, message); exit status 1 when the data does not conform.
    """
    from tgneo.rdf.ontology import graph_of
    from tgneo.rdf.ontology import validate as run_shapes
    from tgneo.store import Store
    from tgneo.store.rdf_export import stream_quads
    from tgneo.store.rdf_import import recover

    with Store.from_settings() as store:
        recover(store, workspace, collection)
        data = graph_of(stream_quads(store, workspace, collection, uri, "prov"))  # the shapes are strict PROV-O
    if len(data) == 0:
        say(f"nothing to validate: {scope(workspace, collection)} holds no triples")
        return
    conforms, _, report = run_shapes(data)
    what = uri or scope(workspace, collection)
    if conforms:
        say(f"{what} conforms: {len(data)} triples checked against the PROV-O and TrustGraph shapes")
        return
    click.echo(report.rstrip())
    raise BadRequest(f"{what} does not conform to the shapes (violations listed above)")


COMMANDS = [import_, export, validate]
