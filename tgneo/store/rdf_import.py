"""RDF files into Neo4j, streamed: the storage half of ``tgneo import`` and ``POST /api/v1/rdf``.

**Import** (:func:`import_file`) reads the file once and never holds it. Under a journal
(``store.imports``), every quad is parsed (``rdf.reader``), folded back from the ``prov`` profile
(``rdf.export_profiles.fold``) and checked against Neo4j's index limits as it is read:

* *plain* knowledge-graph triples (``graphmodel.compiler.NativeRows``: most of any large file) are written,
  as typed relationships and property values, in batches while the rest of the file is still being
  read, through ``write_path.write_native``;
* every other quad (provenance entities, quoted triples, other named graphs) is spilled, one canonical
  line each, into an external sort, so that each entity's quads come together; once the file is read
  they are written in batches of whole subjects through ``write_path.write_batch``;
* annotations of a provenance relationship (``<< sg tg:contains << s p o >> >> tg:sourceText "…"``: a
  contained fact's evidence) are spilled apart and written last, once the relationship they annotate is
  stored, so they become its properties.

A syntax error, a value Neo4j would refuse, or any failure while writing rolls the whole import
back, and the error names line and column; if Neo4j itself is gone, the next import or export into
the collection finishes the rollback (:func:`recover`). Reading overlaps writing, so the file is
read once instead of checked whole first, as it was until the write path was measured: the second
read cost as much as the writes it waited for.

Quoted triples written as standard reification by ``tgneo export --quoted reification``
(``urn:tgneo:triple:…`` IRIs) are read back as the quoted triples they stand for; that map is the
one thing held in memory, one entry per such triple.

The way out is :mod:`tgneo.store.rdf_export`.
"""

from __future__ import annotations

import gc
import os
import tempfile
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rdflib.term import URIRef

from tgneo.errors import BadRequest, EmptyImport, MappingError, TgneoError, ValueTooLarge
from tgneo.graphmodel.compiler import NativeRows, compile_quads, is_annotation
from tgneo.graphmodel.limits import INDEX_KEY_BYTES, fits_index, index_chars, too_large
from tgneo.mapping import LINK_PROPERTY
from tgneo.rdf.export_profiles import fold
from tgneo.rdf.extsort import sorted_unique
from tgneo.rdf.formats import Format, get_format
from tgneo.rdf.lines import LineReader
from tgneo.rdf.ntriples import edge_id, nquads_line
from tgneo.rdf.reader import file_digest, locate, read_plain
from tgneo.rdf.terms import Object, PlainTriple, Quad, QuotedTriple, Subject
from tgneo.rdf.writer import REIFIED_PREFIX
from tgneo.scope import check_scope
from tgneo.store import imports
from tgneo.store.driver import Store
from tgneo.store.write_path import write_batch, write_native
from tgneo.vocab import PROV, RDF

Progress = Callable[[int], None]
_REIFICATION = {RDF.subject: "s", RDF.predicate: "p", RDF.object: "o"}
_REIFIED_TYPES = frozenset({RDF.Statement, PROV.Entity})
"""A reified edge's types: ``rdf:Statement``, and ``prov:Entity`` in the ``prov`` profile's export."""


@dataclass(frozen=True)
class ImportStats:
    """What an import wrote."""

    quads: int
    batches: int


class ImportJob:
    """One file being imported: its quads as they will be stored, read once (see the module docstring)."""

    def __init__(self, path: Path, fmt: Format, base: str | None, workspace: str, collection: str) -> None:
        self.path, self.fmt, self.base = path, fmt, base
        self.workspace, self.collection = workspace, collection
        self.digest = file_digest(path)
        self.reified: dict[str, QuotedTriple] = {}
        self.quads_read = 0

    def read(self, size: int, plain: Callable[[NativeRows], None]) -> tuple[Iterator[str], Iterator[str]]:
        """The one pass over the file (see the module docstring).

        Plain triples are handed to ``plain`` in batches of ``size`` as they are read; every other quad
        goes, one canonical line each, into an external sort, whose lines this returns once the whole
        file is read (so that each provenance subject's quads come together), and the annotations of
        provenance relationships into a second one, to be written last. Every term is checked against
        Neo4j's index limits on the way.
        """
        parts: dict[str, dict[str, Any]] = {}
        rows = NativeRows()
        notes: list[str] = []

        def others() -> Iterator[str]:
            chars = index_chars(self.workspace, self.collection)
            for item in read_plain(self.path, self.fmt, base=self.base, scope=self.digest):
                if isinstance(item, PlainTriple):
                    if not item.s.startswith(REIFIED_PREFIX) and not item.o.startswith(REIFIED_PREFIX) and \
                            fits_index(item, chars):  # fmt: skip
                        self.quads_read += 1
                        rows.add_plain(item)
                        if rows.quads >= size:
                            plain(rows)
                            rows.clear()
                        continue
                    quad = item.quad()
                else:
                    folded = fold(item)
                    if folded is None:
                        continue
                    quad = folded
                if self._reification(quad, parts):
                    continue
                big = too_large(quad, self.workspace, self.collection)
                if big is not None:
                    self._refuse(big)
                self.quads_read += 1
                if NativeRows.accepts(quad) and not _names_reified(quad):
                    rows.add(quad)
                    if rows.quads >= size:
                        plain(rows)
                        rows.clear()
                elif is_annotation(quad) or _annotates_reified(quad):
                    notes.append(nquads_line(quad))
                else:
                    yield nquads_line(quad)
            if rows.quads:
                plain(rows)
                rows.clear()

        lines = sorted_unique(others())
        first = next(lines, None)  # reads the whole file: the sort needs every line
        self.reified = _resolve(parts)
        rest = lines if first is None else _chain(first, lines)
        return rest, sorted_unique(iter(notes))

    def _reification(self, quad: Quad, parts: dict[str, dict[str, Any]]) -> bool:
        if not (isinstance(quad.s, URIRef) and str(quad.s).startswith(REIFIED_PREFIX)):
            return False
        key = str(quad.s)
        if quad.p == RDF.type and quad.o in _REIFIED_TYPES:
            parts.setdefault(key, {})
            return True
        role = _REIFICATION.get(quad.p)
        if role is None:
            return False
        parts.setdefault(key, {})[role] = quad.o
        return True

    def _refuse(self, value: str) -> None:
        where = locate(self.path, value[-60:])
        at = f"line {where[0]}, column {where[1]}: " if where else ""
        raise ValueTooLarge(
            f"{self.fmt.name} {at}a term of {len(value.encode())} bytes ({value[:60]}…) is longer than Neo4j can "
            f"index with its workspace and collection (at most {INDEX_KEY_BYTES} bytes); nothing was imported"
        )

    def batches(self, lines: Iterator[str], size: int) -> Iterator[list[Quad]]:
        """The sorted quads that are not plain triples, in batches of whole subjects."""
        batch: list[Quad] = []
        reader = LineReader("nquads", True)
        subject: object = None
        for number, line in enumerate(lines, start=1):
            quad = reader.line(number, line.rstrip("\n"))
            if quad is None:
                continue
            if len(batch) >= size and quad.s != subject:
                yield batch
                batch = []
            batch.append(self._substitute(quad))
            subject = quad.s
        if batch:
            yield batch

    def _substitute(self, quad: Quad) -> Quad:
        if not self.reified:
            return quad
        return Quad(self._term(quad.s), quad.p, self._term(quad.o), quad.g)  # type: ignore[arg-type]

    def _term(self, term: Subject | Object) -> Subject | Object:
        if isinstance(term, URIRef) and str(term) in self.reified:
            return self.reified[str(term)]
        if isinstance(term, QuotedTriple):
            return QuotedTriple(self._term(term.s), term.p, self._term(term.o))  # type: ignore[arg-type]
        return term


def _annotates_reified(quad: Quad) -> bool:
    """Whether ``quad`` may annotate a provenance relationship once its ``urn:tgneo:triple:…`` subject is read
    back as the quoted triple it stands for (the ``prov`` profile's reification of an annotation)."""
    return (
        isinstance(quad.s, URIRef)
        and str(quad.s).startswith(REIFIED_PREFIX)
        and any(p == quad.p for _, p in LINK_PROPERTY)
    )


def _names_reified(quad: Quad) -> bool:
    """Whether a term of ``quad`` is a ``urn:tgneo:triple:…`` IRI, to be read as the triple it stands for."""
    return any(isinstance(t, URIRef) and t.startswith(REIFIED_PREFIX) for t in (quad.s, quad.o))


def _chain(first: str, rest: Iterator[str]) -> Iterator[str]:
    yield first
    yield from rest


def _resolve(parts: dict[str, dict[str, Any]]) -> dict[str, QuotedTriple]:
    """The quoted triple each ``urn:tgneo:triple:…`` IRI stands for, checked against its edge id."""
    done: dict[str, QuotedTriple] = {}

    def term(value: Any, trail: tuple[str, ...]) -> Any:
        if isinstance(value, URIRef) and str(value) in parts:
            return triple(str(value), trail)
        return value

    def triple(key: str, trail: tuple[str, ...]) -> QuotedTriple:
        if key in done:
            return done[key]
        if key in trail:
            raise MappingError(f"reified triple <{key}> refers to itself")
        found = parts[key]
        if set(found) != {"s", "p", "o"}:
            raise MappingError(f"reified triple <{key}> needs exactly rdf:subject, rdf:predicate and rdf:object")
        t = QuotedTriple(term(found["s"], (*trail, key)), found["p"], term(found["o"], (*trail, key)))
        if REIFIED_PREFIX + edge_id(t.s, t.p, t.o) != key:
            raise MappingError(f"reified triple <{key}> does not describe the triple its IRI names")
        done[key] = t
        return t

    for key in parts:
        triple(key, ())
    return done


def import_file(
    store: Store,
    workspace: str,
    collection: str,
    path: str | os.PathLike[str],
    fmt: Format,
    *,
    base: str | None = None,
    batch_size: int = 10_000,
    writers: int = 2,
    progress: Callable[[int, int | None], None] | None = None,
    source: str | None = None,
) -> ImportStats:
    """Import a file all or nothing (see the module docstring).

    Args:
        source: what the import journal names as its source (default: the path), e.g. ``stdin`` for a spooled copy.
        batch_size: quads per transaction (``tgneo import`` sends 5,000, the size the bench figures were taken at).
        writers: batches written at once, each in its own transaction (Neo4j runs a transaction on
            one core; rows are sorted so concurrent batches lock in one order, and the store retries
            the rare deadlock). While they are written the file is read on.
        progress: called with ``(quads written so far, total)`` after each batch; the total is
            ``None`` until the whole file has been read.

    Raises:
        RDFSyntaxError: the file does not parse (line, column); nothing is left written.
        ValueTooLarge: a term Neo4j could not index (line, column); nothing is left written.
        EmptyImport: the file holds no triples; nothing written.
        StoreError: writing failed; the import was rolled back (or will be, by the next recovery).
    """
    check_scope(workspace, collection)
    if batch_size < 1:
        raise BadRequest(f"batch size must be at least 1, not {batch_size}")
    job = ImportJob(Path(path), fmt, base, workspace, collection)
    recover(store, workspace, collection)
    import_id = imports.begin(store, workspace, collection, job.digest, source or os.fspath(path))
    try:
        with _no_cycle_collection(), _Writers(store, workspace, collection, import_id, writers, progress) as out:
            rest, notes = job.read(batch_size, out.plain)
            out.drain()  # every plain fact is written before the entities that may point at them
            if job.quads_read == 0:
                raise EmptyImport(f"the {fmt.name} document holds no triples; nothing imported")
            out.total = job.quads_read
            for batch in job.batches(rest, batch_size):
                out.quads(batch)
            out.drain()  # every relationship is written before the annotations that describe it
            for batch in job.batches(notes, batch_size):
                out.quads(batch)
        imports.commit(store, workspace, collection, import_id)
    except BaseException as e:
        _abandon(store, workspace, collection, import_id, e)
        raise
    return ImportStats(out.written, out.batches)


COLLECT_EVERY = 50_000
"""Quads written between two collections of cyclic garbage during an import (see :func:`_no_cycle_collection`)."""


@contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """CPython's automatic cycle collector off while a file is read and written; :class:`_Writers` collects
    cycles itself, all generations at once, every :data:`COLLECT_EVERY` quads.

    Why: an import allocates millions of short-lived objects (rows, values, tuples) that hold no cycles,
    and the collector, run every few hundred allocations, keeps walking them. Measured on 200k triples
    (scripts/bench/rdf.py's file, in process): 3.4–3.6 s with it, 3.1–3.2 s this way. The driver does make
    cyclic garbage (each transaction's objects), and with no collection at all peak memory grew with the
    file (1M triples: 380 MiB against 122 MiB); a full collection every 50,000 quads keeps it flat (132
    MiB at 1M) for about 0.03 s each, spent while the writers write.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


class _Writers:
    """Batches written ``writers`` at a time, each its own transaction, while the caller reads on."""

    def __init__(
        self, store: Store, workspace: str, collection: str, import_id: str, writers: int,
        progress: Callable[[int, int | None], None] | None,
    ) -> None:  # fmt: skip
        self.store, self.workspace, self.collection, self.import_id = store, workspace, collection, import_id
        self.writers, self.progress = writers, progress
        self.pool = ThreadPoolExecutor(max_workers=writers, thread_name_prefix="tgneo-import")
        self.pending: deque[Future[int]] = deque()
        self.written = self.batches = self._collected = 0
        self.total: int | None = None

    def __enter__(self) -> _Writers:
        return self

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        try:
            if error is None:
                self.drain()
        finally:
            self.pool.shutdown(wait=True, cancel_futures=True)

    def plain(self, rows: NativeRows) -> None:
        """Queue a batch of plain triples (taken now: ``rows`` is cleared and reused)."""
        batch, count = rows.freeze(), rows.quads
        what = f"importing {count} quads"

        def write() -> int:
            write_native(self.store, self.workspace, self.collection, batch, self.import_id, what=what)
            return count

        self._submit(write)

    def quads(self, batch: list[Quad]) -> None:
        """Queue a batch of any quads (entities, quoted triples), compiled by ``graphmodel``."""

        def write() -> int:
            write_batch(self.store, self.workspace, self.collection, compile_quads(batch),
                        what=f"importing {len(batch)} quads", import_id=self.import_id)  # fmt: skip
            return len(batch)

        self._submit(write)

    def drain(self) -> None:
        """Wait until every queued batch is written."""
        while self.pending:
            self._finished(self.pending.popleft())

    def _submit(self, work: Callable[[], int]) -> None:
        self.pending.append(self.pool.submit(work))
        while len(self.pending) > self.writers:  # bounded: the batches being written, and one waiting
            self._finished(self.pending.popleft())

    def _finished(self, future: Future[int]) -> None:
        self.written += future.result()
        self.batches += 1
        if self.written - self._collected >= COLLECT_EVERY and not gc.isenabled():  # see _no_cycle_collection
            self._collected = self.written
            gc.collect()
        if self.progress:
            self.progress(self.written, self.total)


def _abandon(store: Store, workspace: str, collection: str, import_id: str, error: BaseException) -> None:
    """Roll a failed import back now if Neo4j lets us; otherwise the next recovery will."""
    try:
        imports.rollback(store, workspace, collection, import_id)
    except TgneoError as e:
        if isinstance(error, TgneoError):
            error.args = (f"{error}; the partial import {import_id} could not be rolled back yet ({e}): it will be "
                          "removed by the next import or export into this collection",)  # fmt: skip


def recover(store: Store, workspace: str, collection: str) -> list[imports.Unfinished]:
    """Finish or undo abandoned imports into the collection (``store.imports.recover``)."""
    return imports.recover(store, workspace, collection)


def import_document(
    store: Store,
    workspace: str,
    collection: str,
    data: bytes,
    fmt: Format,
    *,
    base: str | None = None,
    batch_size: int = 2000,
    source: str = "request body",
) -> ImportStats:
    """Import an RDF document held in memory (``POST /api/v1/rdf``'s body) as :func:`import_file` imports a file:
    spooled to a temporary file and read by the same streaming reader, so that the HTTP API and ``tgneo import``
    accept and refuse the same documents with the same messages (``tests/test_rdf_import_roads.py``)."""
    with tempfile.TemporaryDirectory(prefix="tgneo-import-") as folder:
        path = Path(folder) / "document"
        path.write_bytes(data)
        return import_file(store, workspace, collection, path, fmt, base=base, batch_size=batch_size, source=source)


def import_quads(
    store: Store,
    workspace: str,
    collection: str,
    quads: Iterable[Quad],
    batch_size: int = 2000,
    progress: Progress | None = None,
) -> ImportStats:
    """Import quads already in memory (the import socket's frames, tests) with the same all-or-nothing guarantee."""
    from tgneo.rdf.writer import write

    with tempfile.TemporaryDirectory(prefix="tgneo-import-") as folder:
        path = Path(folder) / "quads.nq"
        with open(path, "w", encoding="utf-8") as handle:
            write(quads, "nquads", handle.write)

        def report(done: int, total: int | None) -> None:
            if progress:
                progress(done)

        stats = import_file(store, workspace, collection, path, get_format("nquads"), batch_size=batch_size,
                            progress=report)  # fmt: skip
    return stats
