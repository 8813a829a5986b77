"""Documents in and out of Neo4j: one document, with its whole derivation, in one transaction.

Why one transaction: a loaded document is its provenance (pages or sections, chunks, subgraphs,
activities), its knowledge (the statements it states, asserted in the default graph), its chunks'
texts and the vectors search reads. Written together they are all there or none is, so a failure
(Neo4j down, a constraint, a deadlock that outlasts the retries) leaves no half-loaded document,
and a changed document's old version is replaced in the same commit that writes the new one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from neo4j import Transaction

from tgneo.errors import RecordingFailed, StoreError, StoreUnavailable
from tgneo.graphmodel import WriteBatch
from tgneo.scope import check_scope
from tgneo.store.driver import Store
from tgneo.store.embeddings import ChunkVector, EntityVector, vector_rows
from tgneo.store.queries import Q
from tgneo.store.writer import batch_params
from tgneo.vocab import RDFS

__all__ = ["StoredDocument", "stored_document", "write_document"]


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
) -> int:
    """Replace the document's stored version (if any) by ``batch`` and its vectors, atomically.

    Args:
        batch: The document's compiled quads and librarian texts (it holds the document itself, so no
            parent needs to exist beforehand).
        model: The embedding model of ``chunks`` and ``entities`` (``embeddedWith``).

    Returns:
        How many statements of the previous version left the default graph (0 for a new document).

    Raises:
        StoreUnavailable: Neo4j cannot be reached (nothing written).
        RecordingFailed: Neo4j refused the write (nothing written).
    """
    params = batch_params(workspace, collection, batch)
    scope: dict[str, Any] = {"workspace": workspace, "collection": collection}
    forget = {**scope, "document": document_uri, "label_predicate": str(RDFS.label)}
    vectors = {**scope, "model": model, **vector_rows(chunks, entities)}

    def work(tx: Transaction) -> int:
        forgotten = tx.run(Q.forget_document.text, forget).single()
        tx.run(Q.record_batch.text, params).consume()
        tx.run(Q.set_embeddings.text, vectors).consume()
        return int(forgotten["retracted"]) if forgotten is not None else 0

    try:
        return store.write_transaction(work, f"loading {document_uri}")
    except StoreUnavailable:
        raise
    except StoreError as e:
        raise RecordingFailed(f"loading {document_uri} failed and was rolled back: {e}") from e
