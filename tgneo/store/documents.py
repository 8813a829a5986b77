"""Documents in and out of Neo4j: one document, with its whole derivation, in one transaction.

Why one transaction: a loaded document is its provenance (pages or sections, chunks, subgraphs,
activities), its knowledge (the statements it states, asserted in the default graph), its chunks'
texts and the vectors search reads. Written together they are all there or none is, so a failure
(Neo4j down, a constraint, a deadlock that outlasts the retries) leaves no half-loaded document,
and a changed document's old version is replaced in the same commit that writes the new one.

Why stale marks go in the same transaction: the traces that used the old version (an edge extracted
from it, a chunk of it) are found through the old version's subgraphs and chunks, which the forget
removes; marking them first (``cypher/mark_stale.cypher``) and committing marks, removal and the new
version together means no trace can look current after its evidence changed, and no trace is marked
for a change that rolled back.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from neo4j import Transaction

from tgneo.errors import RecordingFailed, StoreError, StoreUnavailable
from tgneo.graphmodel.compiler import WriteBatch
from tgneo.native import STRUCTURE_KEYS
from tgneo.scope import check_scope
from tgneo.store.driver import Store
from tgneo.store.embeddings import ChunkVector, EntityVector, vector_rows
from tgneo.store.queries import Q
from tgneo.store.write_path import record
from tgneo.timestamps import now_iso_z
from tgneo.vocab import GRAPH_RETRIEVAL

__all__ = ["DocumentChange", "StoredDocument", "remove_document", "stored_document", "write_document"]

Change = Literal["replaced", "removed"]


@dataclass(frozen=True)
class StoredDocument:
    """What a collection holds of a document: whether it is there, and the URIs of its pages or sections."""

    stored: bool
    parts: frozenset[str]


def stored_document(store: Store, workspace: str, collection: str, document_uri: str) -> StoredDocument:
    """The stored state of the document ``document_uri`` (not stored: ``stored`` is false, no parts)."""
    check_scope(workspace, collection)
    record = store.read(Q.document_parts, workspace=workspace, collection=collection, document=document_uri)[0]
    return StoredDocument(bool(record["stored"]), frozenset(record["parts"]))


@dataclass(frozen=True)
class DocumentChange:
    """What writing or removing a document did to the graph and to the traces that used it.

    Attributes:
        found: Whether a version of the document was stored before (a removal of nothing finds none).
        retracted: Statements of the previous version that left the default graph.
        stale_traces: Traces marked stale because a selected edge or chunk of theirs came from it.
    """

    found: bool
    retracted: int
    stale_traces: int


def _replace(tx: Transaction, scope: dict[str, Any], document_uri: str, change: Change) -> DocumentChange:
    """Mark the traces that used the stored version stale, then forget that version (one transaction)."""
    marks = {
        **scope, "document": document_uri, "change": change, "change_id": uuid.uuid4().hex, "at": now_iso_z(),
        "graph": GRAPH_RETRIEVAL,
    }  # fmt: skip
    marked = tx.run(Q.mark_stale.text, marks).single()
    forgotten = tx.run(Q.forget_document.text, {**scope, "document": document_uri,
                                                 "reserved": STRUCTURE_KEYS}).single()  # fmt: skip
    return DocumentChange(
        found=forgotten is not None,
        retracted=int(forgotten["retracted"]) if forgotten is not None else 0,
        stale_traces=int(marked["traces"]) if marked is not None else 0,
    )


def write_document(
    store: Store,
    workspace: str,
    collection: str,
    document_uri: str,
    batch: WriteBatch,
    *,
    model: str,
    chunks: Sequence[ChunkVector] = (),
    entities: Sequence[EntityVector] = (),
) -> DocumentChange:
    """Replace the document's stored version (if any) by ``batch`` and its vectors, atomically.

    Args:
        batch: The document's compiled quads and librarian texts (it holds the document itself, so no
            parent needs to exist beforehand). Literal values that do not fit the values their property
            holds become reified edges in the same transaction (``writer.record``).
        model: The embedding model of ``chunks`` and ``entities`` (``embeddedWith``).

    Returns:
        What replacing the previous version did (nothing, for a new document): the statements that left
        the default graph and the traces marked stale.

    Raises:
        StoreUnavailable: Neo4j cannot be reached (nothing written).
        RecordingFailed: Neo4j refused the write (nothing written).
    """
    check_scope(workspace, collection)
    scope: dict[str, Any] = {"workspace": workspace, "collection": collection}
    vectors = {**scope, "model": model, **vector_rows(chunks, entities)}

    def work(tx: Transaction) -> DocumentChange:
        replaced = _replace(tx, scope, document_uri, "replaced")
        record(tx, workspace, collection, batch)
        tx.run(Q.set_embeddings.text, vectors).consume()
        return replaced

    try:
        return store.write_transaction(work, f"loading {document_uri}")
    except StoreUnavailable:
        raise
    except StoreError as e:
        raise RecordingFailed(f"loading {document_uri} failed and was rolled back: {e}") from e


def remove_document(store: Store, workspace: str, collection: str, document_uri: str) -> DocumentChange:
    """Remove a document and its whole derivation, marking the traces that used it stale, atomically.

    What goes is what a replacement forgets (``cypher/forget_document.cypher``): statements no other
    document states leave the default graph, and a statement or chunk a trace selected stays as that
    trace's evidence (a quoted triple, a bare resource) so the trace still reads whole — and stale.

    Raises:
        StoreUnavailable: Neo4j cannot be reached (nothing removed).
        RecordingFailed: Neo4j refused the write (nothing removed).
    """
    check_scope(workspace, collection)
    scope: dict[str, Any] = {"workspace": workspace, "collection": collection}
    try:
        return store.write_transaction(lambda tx: _replace(tx, scope, document_uri, "removed"),
                                       f"removing {document_uri}")  # fmt: skip
    except StoreUnavailable:
        raise
    except StoreError as e:
        raise RecordingFailed(f"removing {document_uri} failed and was rolled back: {e}") from e
