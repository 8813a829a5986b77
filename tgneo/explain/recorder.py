"""The recorder: write a step in one transaction, and only then hand back (and announce) its event.

Write-before-emit is the rule every stream keeps: a client never receives an explain event whose entity is
not already durable in Neo4j. A step is compiled (``tgneo.graphmodel``) into rows that
``tgneo.store.write_path.write_batch`` writes in one transaction. If any part fails (Neo4j down, a
parent step that was never recorded, a constraint), the transaction rolls back, nothing of the step
is stored, no event exists, and a typed error says why.

A step's event (:meth:`ExplainEvent.of <tgneo.explain.events.ExplainEvent.of>`) is built once: its
triples are what the transaction writes and what the stream carries. :meth:`Recorder.record` builds
and writes it; :meth:`Recorder.write` writes one already built (the engine's session builds the event
as it queues the step, so the write and the stream share it). Sinks are for observers that want every
event without being the caller (a test's list, a metrics counter).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from tgneo.errors import InvalidEntity
from tgneo.explain.entity import Entity
from tgneo.explain.events import ExplainEvent
from tgneo.graphmodel.compiler import compile_quads
from tgneo.scope import check_scope
from tgneo.store.driver import Store
from tgneo.store.write_path import write_batch

Sink = Callable[[ExplainEvent], None]


class Recorder:
    """Records explainability steps for one workspace and collection.

    Args:
        store: the open store to write to.
        workspace: the workspace every node is written in (isolation key).
        collection: the collection every node is written in.
        sinks: callables receiving each ``ExplainEvent`` after its step commits (observers; the
            caller gets the same event back from :meth:`record`).

    Example:
        >>> rec = Recorder(store, "default", "default")  # doctest: +SKIP
        >>> event = rec.record(GraphRagQuestion(uri=question_uri(sid), query="Who?"))  # doctest: +SKIP
        >>> event.explain_id  # doctest: +SKIP
    """

    def __init__(self, store: Store, workspace: str, collection: str, sinks: Iterable[Sink] = ()) -> None:
        check_scope(workspace, collection)
        self.store = store
        self.workspace = workspace
        self.collection = collection
        self.sinks = list(sinks)

    def record(self, step: Entity, contents: Mapping[str, str] | None = None) -> ExplainEvent:
        """Write ``step`` (and librarian texts keyed by document URI) atomically; return its committed event.

        Re-recording the same step is idempotent.

        Returns:
            The step's ``explain`` event, emitted to every sink first.

        Raises:
            InvalidEntity: ``step`` is not an explainability entity.
            ParentNotFound: a step it derives from was never recorded (nothing is written).
            StoreUnavailable: Neo4j cannot be reached (nothing is written).
            RecordingFailed: Neo4j refused the write (nothing is written).
        """
        if not isinstance(step, Entity):
            raise InvalidEntity(f"cannot record {type(step).__name__}: not an explainability entity")
        return self.write(ExplainEvent.of(step), step.parents, contents)

    def write(
        self, event: ExplainEvent, parents: Iterable[str] = (), contents: Mapping[str, str] | None = None
    ) -> ExplainEvent:
        """Write the step ``event`` announces (its triples, and ``contents``) atomically; return ``event``.

        Args:
            event: the step's event, built once by :meth:`ExplainEvent.of`.
            parents: the URIs the step derives from (``Entity.parents``): all must be recorded already.
            contents: librarian texts keyed by document URI.

        Raises:
            ParentNotFound, StoreUnavailable, RecordingFailed: as :meth:`record` (nothing is written).
        """
        batch = compile_quads([*event.triples, *event.extensions], contents)
        write_batch(
            self.store, self.workspace, self.collection, batch, parents=parents,
            what=f"recording {event.kind} {event.explain_id}",
        )  # fmt: skip
        for sink in self.sinks:
            sink(event)
        return event
