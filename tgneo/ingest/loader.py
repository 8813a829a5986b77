"""The ingest pipeline: documents → pages/sections → chunks → extracted facts → Neo4j, one document at a time.

For each document: read its bytes, decode them (:mod:`tgneo.ingest.readers`), cut it into chunks
with deterministic URIs (:mod:`tgneo.ingest.layout`), and compare with what the collection holds:

* the same derivation is stored already → *unchanged*, nothing is extracted or written;
* nothing is stored → *new*; another derivation is stored (the content, the chunk settings or the
  extraction model changed) → *replaced*: the old one is removed in the transaction that writes the
  new one (``cypher/forget_document.cypher`` says exactly what goes), and the traces whose selected
  edges or chunks came from the old one are marked stale in that transaction.

Otherwise each chunk goes to the LLM (``Task("extraction", {"text": chunk})``); the answer is parsed
(:func:`tgneo.ingest.facts.parse_extraction`); chunk texts and entity names are embedded; and the
whole document — provenance, statements, librarian texts, vectors — is written in one transaction
(:func:`tgneo.store.documents.write_document`).

A document that cannot be read, or one of whose chunks the model answers with something that is not
a JSON array of facts even when asked a second time, is *skipped*: named with the reason (file, and
page or section and chunk), nothing of it written, and the rest loads. Loading it again retries it.
Neo4j being unreachable stops the whole load (every document would fail the same way).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from tgneo.errors import DocumentError, RecordingFailed
from tgneo.graphmodel.compiler import compile_quads
from tgneo.ingest.chunking import ChunkSettings
from tgneo.ingest.facts import Extraction, Fact, parse_extraction
from tgneo.ingest.graph import ChunkFacts, DocumentGraph, document_graph
from tgneo.ingest.index import embed_unindexed
from tgneo.ingest.layout import ChunkLayout, Layout, PartLayout, lay_out
from tgneo.ingest.readers import decode
from tgneo.ingest.sources import Source
from tgneo.llm.base import LLM, Completion, LLMError, Task
from tgneo.llm.embed import embed_texts
from tgneo.scope import check_scope
from tgneo.store.documents import stored_document, write_document
from tgneo.store.driver import Store
from tgneo.store.embeddings import ChunkVector, EntityVector, check_model
from tgneo.store.schema import install_search_schema
from tgneo.timestamps import now_iso_z
from tgneo.version import __version__

__all__ = ["Hooks", "LoadReport", "ReadDocument", "extract", "load_documents", "read_documents"]

log = logging.getLogger("tgneo.ingest")


@dataclass
class LoadReport:
    """What a load did. ``statements`` and ``entities`` count distinct ones across the documents loaded."""

    loaded: int = 0
    replaced: int = 0
    unchanged: int = 0
    pages: int = 0
    sections: int = 0
    chunks: int = 0
    statement_ids: set[str] = field(default_factory=set)
    entity_uris: set[str] = field(default_factory=set)
    dropped_facts: int = 0
    retracted: int = 0
    stale: int = 0
    skipped: list[tuple[str, str]] = field(default_factory=list)

    @property
    def statements(self) -> int:
        return len(self.statement_ids)

    @property
    def entities(self) -> int:
        return len(self.entity_uris)

    def summary(self) -> str:
        """One line: documents, pages, chunks, statements, entities, skipped."""
        docs = f"{self.loaded} document{'s' * (self.loaded != 1)} loaded"
        if self.replaced:
            docs += f" ({self.replaced} replaced an earlier version)"
        parts = [f"{self.pages} pages"] if self.pages or not self.sections else []
        parts += [f"{self.sections} sections"] if self.sections else []
        line = (
            f"{docs}, {self.unchanged} unchanged, {len(self.skipped)} skipped: {', '.join(parts)}, "
            f"{self.chunks} chunks, {self.statements} statements, {self.entities} entities"
        )
        if self.stale:
            line += f"; {self.stale} earlier answer{'s' * (self.stale != 1)} marked stale"
        return line


@dataclass
class Hooks:
    """Progress callbacks (the CLI draws bars with them): a document starts, a chunk is extracted, it ends."""

    document: Callable[[str, int], None] = lambda name, chunks: None
    chunk: Callable[[], None] = lambda: None
    done: Callable[[str, str], None] = lambda name, outcome: None


class _Pipeline:
    def __init__(self, store: Store, llm: LLM, workspace: str, collection: str, settings: ChunkSettings,
                 hooks: Hooks) -> None:  # fmt: skip
        self.store, self.llm, self.hooks, self.settings = store, llm, hooks, settings
        self.workspace, self.collection = workspace, collection
        self.extractor = f"tgneo {__version__} / {llm.model}"

    def one(self, source: Source, report: LoadReport) -> None:
        data = source.read()
        decoded = decode(source.name, data)
        decoded_at = now_iso_z()
        layout = lay_out(source, data, decoded, self.settings, self.extractor)
        stored = stored_document(self.store, self.workspace, self.collection, layout.document_uri)
        if stored.stored and stored.parts == {p.uri for p in layout.parts}:
            report.unchanged += 1
            self.hooks.done(source.name, "unchanged")
            return
        self.hooks.document(source.name, layout.chunk_count)
        extractions, dropped = self._extract(layout)
        graph = document_graph(layout, extractions, version=__version__, decoded_at=decoded_at)
        chunks, entities = self._embed(graph)
        written = write_document(
            self.store, self.workspace, self.collection, layout.document_uri,
            compile_quads(graph.quads, graph.contents), model=self.llm.embedding_model, chunks=chunks,
            entities=entities,
        )  # fmt: skip
        report.loaded += 1
        report.replaced += int(stored.stored)
        report.retracted += written.retracted
        report.stale += written.stale_traces
        report.dropped_facts += dropped
        if decoded.paged:
            report.pages += len(layout.parts)
        else:
            report.sections += len(layout.parts)
        report.chunks += layout.chunk_count
        report.statement_ids |= graph.statement_ids
        report.entity_uris |= set(graph.entities)
        self.hooks.done(source.name, "replaced" if stored.stored else "loaded")

    def _extract(self, layout: Layout) -> tuple[dict[str, ChunkFacts], int]:
        return extract(self.llm, layout, self.hooks)

    def _embed(self, graph: DocumentGraph) -> tuple[list[ChunkVector], list[EntityVector]]:
        chunk_vectors = embed_texts(self.llm, [text for _, text in graph.chunks])
        names = sorted(graph.entities.items())
        name_vectors = embed_texts(self.llm, [name for _, name in names])
        return (
            [ChunkVector(uri, v) for (uri, _), v in zip(graph.chunks, chunk_vectors, strict=True)],
            [EntityVector(uri, name, v) for (uri, name), v in zip(names, name_vectors, strict=True)],
        )


def extract(llm: LLM, layout: Layout, hooks: Hooks | None = None) -> tuple[dict[str, ChunkFacts], int]:
    """The facts ``llm`` extracts from each chunk of ``layout`` (by chunk URI), and how many items it dropped.

    Raises:
        DocumentError: a chunk answered out of format twice.
    """
    found: dict[str, ChunkFacts] = {}
    dropped = 0
    for part, chunk in layout.chunks():
        started = now_iso_z()
        completion, extraction = _ask(llm, layout, part, chunk)
        found[chunk.uri] = ChunkFacts(extraction.facts, completion.model, started)
        dropped += extraction.dropped
        if hooks is not None:
            hooks.chunk()
    if dropped:
        log.warning("%s: %d extracted item(s) without a usable subject, relation and object were dropped",
                    layout.source.name, dropped)  # fmt: skip
    return found, dropped


def _ask(llm: LLM, layout: Layout, part: PartLayout, chunk: ChunkLayout) -> tuple[Completion, Extraction]:
    """Extract from one chunk; a model that answers out of format is asked once more."""
    task = Task("extraction", {"text": chunk.text})
    for attempt in (1, 2):
        try:
            completion = llm.complete(task)
            return completion, parse_extraction(completion.text)
        except LLMError as e:
            where = f"{layout.source.name}: {part.part.label}, chunk {chunk.index + 1}"
            if attempt == 2:
                raise DocumentError(f"{where}: extraction failed: {e}") from None
            log.warning("%s: extraction failed, asking again: %s", where, e)
    raise AssertionError("unreachable")  # pragma: no cover


@dataclass(frozen=True)
class ReadDocument:
    """A document as the pipeline reads it, with nothing written: its title, and each chunk with its facts.

    What another tool's writer is fed to build the same knowledge graph its own way (the graph-profile
    tests and the quality bench's ``--graph``).
    """

    source: Source
    title: str
    chunks: tuple[tuple[ChunkLayout, tuple[Fact, ...]], ...]


def read_documents(
    llm: LLM, sources: Iterable[Source], settings: ChunkSettings | None = None
) -> Iterator[ReadDocument]:
    """Decode, chunk and extract ``sources`` as :func:`load_documents` does, writing nothing."""
    for source in sources:
        data = source.read()
        decoded = decode(source.name, data)
        layout = lay_out(source, data, decoded, settings or ChunkSettings(), f"tgneo {__version__} / {llm.model}")
        found, _ = extract(llm, layout)
        chunks = tuple((chunk, found[chunk.uri].facts) for _, chunk in layout.chunks())
        yield ReadDocument(source, decoded.title or source.name, chunks)


def load_documents(
    store: Store,
    llm: LLM,
    workspace: str,
    collection: str,
    sources: Iterable[Source],
    settings: ChunkSettings | None = None,
    hooks: Hooks | None = None,
) -> LoadReport:
    """Load ``sources`` into ``workspace``/``collection`` (see the module docstring).

    Raises:
        EmbeddingMismatch: the collection (or the vector index) holds vectors of another embedding model.
        StoreUnavailable: Neo4j cannot be reached.
    """
    check_scope(workspace, collection)
    install_search_schema(store, llm.dimensions)
    check_model(store, workspace, collection, llm.embedding_model)
    pipeline = _Pipeline(store, llm, workspace, collection, settings or ChunkSettings(), hooks or Hooks())
    report = LoadReport()
    for source in sources:
        try:
            pipeline.one(source, report)
        except (DocumentError, LLMError, RecordingFailed) as e:
            message = str(e) if str(e).startswith(source.name) else f"{source.name}: {e}"
            report.skipped.append((source.name, message))
            pipeline.hooks.done(source.name, "skipped")
            log.warning("skipped %s", message)
    if report.replaced:  # names a replaced version took away; the schema and the model were checked above
        embed_unindexed(store, llm, workspace, collection)
    return report
