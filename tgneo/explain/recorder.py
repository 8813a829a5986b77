"""The recorder: write a step in one transaction, and only then emit its event.

Write-before-emit is the rule of DESIGN §1: a client never receives an explain event whose entity is
not already durable in Neo4j. A step is compiled (``tgneo.graphmodel``) into rows that one batched
Cypher statement writes — no per-triple round trips — inside one write transaction. If any part
fails (Neo4j down, a parent step that was never recorded, a constraint), the transaction rolls back,
nothing of the step is stored, no event is emitted, and a typed error says why.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from tgneo.errors import InvalidEntity, ParentNotFound, RecordingFailed, StoreError, StoreUnavailable
from tgneo.explain.entities import Entity
from tgneo.explain.events import ExplainEvent
from tgneo.graphmodel import WriteBatch, compile_quads
from tgneo.store import Q, Store

Sink = Callable[[ExplainEvent], None]


class Recorder:
    """Records explainability steps for one workspace and collection.

    Args:
        store: the open store to write to.
        workspace: the workspace every node is written in (isolation key).
        collection: the collection every node is written in.
        sinks: callables receiving each ``ExplainEvent`` after its step commits (a stream queue,
            a list in tests).

    Example:
        >>> rec = Recorder(store, "default", "default", sinks=[events.append])  # doctest: +SKIP
        >>> rec.record(GraphRagQuestion(uri=question_uri(sid), query="Who?"))  # doctest: +SKIP
    """

    def __init__(self, store: Store, workspace: str, collection: str, sinks: Iterable[Sink] = ()) -> None:
        for name, value in (("workspace", workspace), ("collection", collection)):
            if not isinstance(value, str) or not value.strip():
                raise InvalidEntity(f"{name} must be a non-empty string")
        self.store = store
        self.workspace = workspace
        self.collection = collection
        self.sinks = list(sinks)

    def record(self, step: Entity, contents: Mapping[str, str] | None = None) -> ExplainEvent:
        """Write ``step`` (and librarian texts keyed by document URI) atomically, then emit its event.

        Re-recording the same step is idempotent.

        Raises:
            InvalidEntity: ``step`` is not an explainability entity.
            ParentNotFound: a step it derives from was never recorded (nothing is written).
            StoreUnavailable: Neo4j cannot be reached (nothing is written).
            RecordingFailed: Neo4j refused the write (nothing is written).
        """
        if not isinstance(step, Entity):
            raise InvalidEntity(f"cannot record {type(step).__name__}: not an explainability entity")
        triples = step.triples()
        batch = compile_quads(triples, contents)
        self.write(batch, parents=step.parents, what=f"recording {step.kind} {step.uri}")
        event = ExplainEvent(step.uri, step.graph, triples, step.kind)
        for sink in self.sinks:
            sink(event)
        return event

    def write(self, batch: WriteBatch, parents: Iterable[str] = (), what: str = "writing") -> None:
        """Write a compiled batch in one transaction (used by ``record`` and the importer)."""
        params: dict[str, Any] = {
            "workspace": self.workspace,
            "collection": self.collection,
            "parents": list(parents),
            **batch.params(),
        }

        # One statement is one atomic transaction: when a parent is missing the statement writes
        # nothing (its writes sit behind a `WHERE size(missing) = 0`), and any failure inside it
        # rolls all of it back. That lets the step go in one round trip with the driver's retries.
        try:
            records = self.store.write(Q.record_batch, **params)
            missing = list(records[0]["missing"]) if records else []
        except StoreUnavailable:
            raise
        except StoreError as e:
            raise RecordingFailed(f"{what} failed and was rolled back: {e}") from e
        if missing:
            raise ParentNotFound(
                f"{what}: parent step(s) not recorded in {self.workspace}/{self.collection}: {', '.join(missing)}"
            )
