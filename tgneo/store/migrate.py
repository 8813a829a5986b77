"""``tgneo db migrate``: a database of graph model 1 moved, in place, to the native model (model 2).

Model 1 stored every triple as a ``(:Statement)`` with ``SUBJECT``/``PREDICATE``/``OBJECT`` relationships to
``(:Resource)`` nodes, under labels other tools use (``Resource``, ``Document``, ``Chunk``) and indexes on
them. Model 2 (:mod:`tgneo.native`) keeps the knowledge graph as typed relationships and property values,
a reified edge only where provenance quotes one, and tgneo's own ``Tg…`` labels. The migration:

1. **checks** that no import of model 1 is unfinished (only the version that started it can finish it);
2. **schema**: records the vector indexes' dimensions, drops model 1's indexes and constraints (named
   ``tgneo_…`` on labels that are not ``Tg…``) and installs model 2's;
3. **labels**: relabels tgneo's nodes — a ``:Resource`` with a workspace, collection and uri, never another
   tool's — ``:Tgneo:TgResource`` (``Explain`` → ``TgExplain``, ``Document`` → ``TgDocument`` …), and its
   statements, import journals and retention policies likewise;
4. **facts**: walks, collection by collection, the statements of model 1 (they still have their ``PREDICATE``
   relationship) in id order; each plain one asserted in the default graph becomes its relationship or
   property value (``rdfs:label`` the node's ``name``), through the writer every load uses; a statement nothing
   else references is then deleted, one that is quoted (a selected edge, a subgraph's contents) stays a
   reified edge; each loses ``PREDICATE``, and a predicate's node left with nothing goes with its last one;
5. records model 2.

Every step works in batches of :data:`BATCH` in their own transactions and is idempotent, so a migration
killed at any point is simply run again (``TgStore.migration`` names the step it was at; every other
command refuses the database until the migration has finished). Extraction provenance keeps its
per-sentence subgraphs of model 1 (their ``tg:sourceText`` on the subgraph): readers take the evidence
from either place, and a document loaded again gets one subgraph per chunk.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from neo4j import Transaction
from rdflib.term import Literal, URIRef

from tgneo.errors import NeedsMigration
from tgneo.graphmodel.compiler import Compiler, WriteBatch
from tgneo.graphmodel.terms import node_term
from tgneo.native import STRUCTURE_KEYS, stored_literal
from tgneo.rdf.ntriples import edge_id
from tgneo.store.driver import Store
from tgneo.store.graph_version import MODEL
from tgneo.store.queries import Q
from tgneo.store.schema import SCHEMA, install_schema, search_schema
from tgneo.store.write_path import batch_params

__all__ = ["BATCH", "Legacy", "MigrationReport", "migrate"]

BATCH = 2_000
"""Nodes (or statements) one migration transaction handles."""
Progress = Callable[[str, int, int | None], None]
"""Called with (step, items just done, total or None)."""


class Legacy(StrEnum):
    """Labels and relationship types of graph model 1 that only the migration still reads."""

    RESOURCE = "Resource"
    STATEMENT = "Statement"
    EXPLAIN = "Explain"
    SOURCE = "Source"
    CONTENT = "Content"
    DOCUMENT = "Document"
    PAGE = "Page"
    SECTION = "Section"
    CHUNK = "Chunk"
    IMAGE = "Image"
    SUBGRAPH = "Subgraph"
    IMPORT = "Import"
    IMPORT_UNDO = "ImportUndo"
    RETENTION_POLICY = "RetentionPolicy"
    PREDICATE = "PREDICATE"


RENAMED = [
    Legacy.EXPLAIN, Legacy.SOURCE, Legacy.CONTENT, Legacy.DOCUMENT, Legacy.PAGE, Legacy.SECTION, Legacy.CHUNK,
    Legacy.IMAGE, Legacy.SUBGRAPH,
]  # fmt: skip
"""Labels a model-1 resource may carry that become ``Tg`` + the same name."""
OTHERS = [
    (Legacy.STATEMENT, "TgStatement"), (Legacy.IMPORT, "TgImport"), (Legacy.IMPORT_UNDO, "TgImportUndo"),
    (Legacy.RETENTION_POLICY, "TgRetentionPolicy"),
]  # fmt: skip
_INDEX_NAME = re.compile(r"tgneo_[a-z0-9_]+")


@dataclass
class MigrationReport:
    """What a migration did."""

    relabelled: int = 0
    facts: int = 0
    statements_deleted: int = 0
    statements_kept: int = 0
    dropped: list[str] = field(default_factory=list)
    already_current: bool = False


def _mark(store: Store, model: int, step: str | None) -> None:
    store.write(Q.model_mark, model=model, migration=step)


def migrate(store: Store, progress: Progress | None = None, batch: int = BATCH) -> MigrationReport:
    """Move the database of ``store`` (opened with ``check_model=False``) to graph model 2; idempotent.

    Args:
        progress: told of each batch done (``step``, items, total if known).
        batch: statements or nodes per transaction.

    Raises:
        NeedsMigration: an import of model 1 never finished (named), or the database is of a newer model.
    """
    report = MigrationReport()
    record = store.read_unchecked(Q.model_state)[0]
    legacy = store.read_unchecked(Q.legacy_schema)
    if record["model"] in (MODEL, None) and record["migration"] is None and not legacy:
        report.already_current = True  # current, or fresh: nothing of model 1 to move
        return report
    if record["model"] is not None and record["model"] > MODEL:
        raise NeedsMigration(f"this database holds graph model {record['model']}, newer than this tgneo ({MODEL})")
    unfinished = store.read_unchecked(Q.migrate_unfinished_imports)
    if unfinished:
        named = ", ".join(f"{r['workspace']}/{r['collection']} ({r['state']})" for r in unfinished[:5])
        raise NeedsMigration(
            f"{len(unfinished)} import(s) of the previous tgneo never finished: {named}. Run `tgneo import` of any "
            f"file into that collection with the previous tgneo to recover it (or drop the collection), then "
            f"migrate"
        )
    note = progress or (lambda step, done, total: None)
    _mark(store, 1, "schema")
    report.dropped = _schema(store)
    _mark(store, 1, "labels")
    report.relabelled = _relabel(store, note, batch)
    _mark(store, 1, "facts")
    for row in store.read_unchecked(Q.migrate_collections):
        _facts(store, row["workspace"], row["collection"], row["statements"], report, note, batch)
    _mark(store, MODEL, None)
    return report


def _schema(store: Store) -> list[str]:
    """Drop model 1's indexes and constraints (keeping its vector dimensions) and install model 2's."""
    dimensions = {r["name"]: int(r["dimensions"]) for r in store.read_unchecked(
        Q.vector_index_dimensions, names=[item.name for item in search_schema(1)])}  # fmt: skip
    recorded = store.read_unchecked(Q.migrate_dimensions)[0]["dimensions"]
    if dimensions:
        store.write(Q.migrate_dimensions_set, dimensions=max(dimensions.values()))
    dims = max(dimensions.values()) if dimensions else recorded
    dropped: list[str] = []
    for r in store.read_unchecked(Q.migrate_legacy_constraints):
        dropped.append(_drop(store, "CONSTRAINT", r["name"]))
    for r in store.read_unchecked(Q.legacy_schema):
        dropped.append(_drop(store, "INDEX", r["name"]))
    items = SCHEMA + (search_schema(dims) if dims else ())
    install_schema(store, items, mark=False)
    return dropped


def _drop(store: Store, kind: str, name: str) -> str:
    if not _INDEX_NAME.fullmatch(name):
        raise NeedsMigration(f"refusing to drop {kind.lower()} {name!r}: not a name tgneo gives")
    store.run_schema(f"DROP {kind} {name} IF EXISTS")  # cypher-label-ok: a tgneo_ name checked above
    return name


def _loop(store: Store, query: Any, note: Progress, step: str, batch: int, **params: Any) -> int:
    total = 0
    while True:
        done = int(store.write(query, batch=batch, **params)[0]["done"])
        total += done
        if done:
            note(step, done, None)
        if done < batch:
            return total


def _relabel(store: Store, note: Progress, batch: int) -> int:
    total = _loop(store, Q.migrate_relabel_resources, note, "labels", batch, renamed=[str(r) for r in RENAMED])
    for old, new in OTHERS:
        total += _loop(store, Q.migrate_relabel, note, "labels", batch, label=str(old), new=new)
    return total


def _facts(
    store: Store, workspace: str, collection: str, total: int, report: MigrationReport, note: Progress, batch: int
) -> None:
    """One collection's statements, a page at a time: the plain ones asserted in the default graph become
    native, literal ones gain their property form, and statements nothing references go."""
    after = ""
    while True:
        page = store.read_unchecked(Q.migrate_statements_page, workspace=workspace, collection=collection,
                                    after=after, batch=batch)  # fmt: skip
        if not page:
            return
        after = page[-1]["id"]

        def work(tx: Transaction, page: list[Any] = page) -> tuple[int, int, int]:
            return _page(tx, workspace, collection, page)

        outcome = store.write_transaction(work, f"migrating statements of {workspace}/{collection}")
        report.facts += outcome[0]
        report.statements_deleted += outcome[1]
        report.statements_kept += outcome[2]
        note("facts", len(page), total)


def _page(tx: Transaction, workspace: str, collection: str, page: list[Any]) -> tuple[int, int, int]:
    """One page of statements in one transaction: (facts made native, statements deleted, statements kept)."""
    compiler = Compiler()
    native: dict[str, bool] = {}
    literal: dict[str, dict[str, Any]] = {}
    for r in page:
        obj: Any = None
        if r["o_kind"] == "literal":
            obj = Literal(r["o"] or "", lang=r["o_lang"] or None,
                          datatype=URIRef(r["o_datatype"]) if r["o_datatype"] else None, normalize=False)  # fmt: skip
            value, tag = stored_literal(obj)
            literal[r["id"]] = {"key": compiler.names.property_key(r["p"]), "o_value": value, "o_tag": tag}
        native[r["id"]] = "" in r["asserted_in"] and r["s_kind"] in ("iri", "bnode")
        if not native[r["id"]]:
            continue
        if obj is None:
            compiler.plain_fact((r["s_kind"], r["s"]), r["p"], (r["o_kind"], r["o"]), r["id"])
        else:  # a value that does not fit its key's others stays a statement
            compiler.literal(node_term(r["s_kind"], r["s"]), URIRef(r["p"]), obj)
    native.update({sid: False for sid in compiler._statements})
    batch: WriteBatch = compiler.batch
    batch.prefixes = [{"prefix": p, "namespace": ns} for p, ns in compiler.names.used.items()]
    record = tx.run(Q.record_batch.text, batch_params(workspace, collection, batch)).single()
    for s, p, o in batch.misfits(record["misfits"] if record is not None else []):
        native[edge_id(s, p, o)] = False  # the values stored under its key are of another type
    rows = [{"id": r["id"], "native": native[r["id"]], "literal": literal.get(r["id"])} for r in page]
    done = tx.run(Q.migrate_statements_done.text, workspace=workspace, collection=collection, rows=rows,
                  reserved=STRUCTURE_KEYS).single()  # fmt: skip
    converted = sum(1 for flag in native.values() if flag)
    return converted, int(done["deleted"]) if done else 0, int(done["kept"]) if done else 0
