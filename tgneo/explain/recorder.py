"""The recorder: write a step in one transaction, and only then hand back (and announce) its event.

Write-before-emit is the rule of DESIGN §1: a client never receives an explain event whose entity is
not already durable in Neo4j. A step is compiled (``tgneo.graphmodel``) into rows that
``tgneo.store.writer.write_batch`` writes in one transaction. If any part fails (Neo4j down, a
parent step that was never recorded, a constraint), the transaction rolls back, nothing of the step
is stored, no event exists, and a typed error says why.

An engine is a generator: it calls :meth:`Recorder.record` for each step and yields the event it
gets back, which by construction is committed. Sinks are for observers that want every event
without being the caller (a test's list, a metrics counter).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from tgneo.errors import InvalidEntity
from tgneo.explain.entity import Entity
from tgneo.explain.events import ExplainEvent
from tgneo.graphmodel import compile_quads
from tgneo.store.driver import Store
from tgneo.store.writer import check_scope, write_batch

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
        >>> event.to_wire()["explain_id"]  # doctest: +SKIP
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
        triples = step.triples()
        batch = compile_quads(triples, contents)
        write_batch(
            self.store, self.workspace, self.collection, batch, parents=step.parents,
            what=f"recording {step.kind} {step.uri}",
        )  # fmt: skip
        event = ExplainEvent(step.uri, step.graph, triples, step.kind)
        for sink in self.sinks:
            sink(event)
        return event
