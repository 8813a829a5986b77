"""What every engine shares: the request, the per-question session, and the template method.

An engine is a generator of :mod:`tgneo.explain.events`. :meth:`Engine.answer` is final (a
template method, after neo4j-graphrag's ``search → get_search_results``): it validates
the request, opens a :class:`Session`, runs the engine's own :meth:`Engine.run`, and ends the stream
with exactly one :class:`~tgneo.explain.events.SessionEnd` (citations and token totals) or one
:class:`~tgneo.explain.events.ErrorEvent` — never silence.

Write-before-emit holds by construction: a step's event exists only as the return value of
:meth:`Session.record`, which returns after the step's transaction committed. A failure inside a
step rolls that step back (the recorder writes a step atomically), so an error leaves complete
steps behind and no half-written one. Closing the generator early (a client gone) raises
``GeneratorExit`` at the current ``yield``: no further LLM call or write happens.

:meth:`Engine.run` returns an :class:`Outcome` (the answer text, the step that holds it, the
sources), so an agent's tool can run a RAG engine as a sub-trace with ``outcome = yield from
engine.run(sub_session)`` and forward its explain events into its own stream.
"""

from __future__ import annotations

import logging
import threading
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Generator, Iterator, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from tgneo import uris
from tgneo.engines.attribution import cited_sources
from tgneo.engines.verify import Answering, Budget, check, recorded, summary, task_answerer
from tgneo.errors import BadRequest, TgneoError
from tgneo.explain.commit_pipeline import CommitPipeline
from tgneo.explain.entity import Entity
from tgneo.explain.events import (
    AnswerChunk,
    Citation,
    ErrorEvent,
    Event,
    Evidence,
    ExplainEvent,
    SessionEnd,
    Source,
    VerificationSummary,
    WarningEvent,
)
from tgneo.explain.recorder import Recorder
from tgneo.graph_profiles import GraphProfile
from tgneo.graphs.own import OwnGraph
from tgneo.graphs.profile import ProfileGraph
from tgneo.graphs.reader import GraphReader, Reads
from tgneo.kinds import SessionKind
from tgneo.llm.base import LLM, Completion, LLMError, Task
from tgneo.scope import DEFAULT_SCOPE, check_scope
from tgneo.store.driver import Store

log = logging.getLogger("tgneo.engines")
MAX_QUESTION_CHARS = 4000
"""Longer questions are refused: no engine stage needs more, and prompts must stay bounded."""


@dataclass(frozen=True)
class Request:
    """A question for an engine.

    Attributes:
        question: What was asked (non-empty, at most :data:`MAX_QUESTION_CHARS` characters).
        workspace: The workspace everything is read from and recorded in.
        collection: The collection everything is read from and recorded in.
        options: Engine parameters by name (``entity_limit``, ``doc_limit``, ``max_iterations`` …);
            each engine validates its own against its defaults.
        graph: Answer over the knowledge graph another tool wrote, read through this profile
            (:mod:`tgneo.graph_profiles`); ``None`` answers over tgneo's own. The trace is recorded in
            ``workspace``/``collection`` either way.
        verify: Check, once the answer is given, whether it depends on the evidence it cites, within this budget
            (:mod:`tgneo.engines.verify`); ``None``: no check.
    """

    question: str
    workspace: str = DEFAULT_SCOPE
    collection: str = DEFAULT_SCOPE
    options: Mapping[str, Any] = field(default_factory=dict)
    graph: GraphProfile | None = None
    verify: Budget | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.question, str) or not self.question.strip():
            raise BadRequest("question: must not be empty")
        if len(self.question) > MAX_QUESTION_CHARS:
            raise BadRequest(f"question: {len(self.question)} characters; at most {MAX_QUESTION_CHARS} are accepted")
        check_scope(self.workspace, self.collection)


@dataclass
class Usage:
    """Token and model totals over every LLM call of a question, sub-traces included."""

    in_tokens: int = 0
    out_tokens: int = 0
    models: list[str] = field(default_factory=list)

    def add(self, completion: Completion) -> None:
        self.in_tokens += completion.in_tokens
        self.out_tokens += completion.out_tokens
        if completion.model not in self.models:
            self.models.append(completion.model)


@dataclass
class Context:
    """What one request shares across its session and any sub-traces an agent starts."""

    store: Store
    llm: LLM
    workspace: str
    collection: str
    recorder: Recorder | None
    graph: GraphReader
    """What the knowledge graph and the chunks are read through (tgneo's own, or a profile's)."""
    usage: Usage = field(default_factory=Usage)
    sources: dict[str, Source] = field(default_factory=dict)
    evidence: list[Evidence] = field(default_factory=list)
    """Everything the request's (sub-)traces selected, placed: what an agent's answer is attributed to."""
    pipeline: CommitPipeline | None = None
    commits: dict[int, Future[ExplainEvent]] = field(default_factory=dict)
    """The commit of each event recorded through the pipeline, by ``id(event)``, until it is released."""

    def cite(self, sources: list[Source]) -> None:
        """Add documents the answer rests on, first mention first."""
        for source in sources:
            self.sources.setdefault(source.uri, source)


@dataclass(frozen=True)
class Outcome:
    """How a run ended: the answer, the step whose librarian document holds it, its sources, the evidence
    it selected (placed in chunk, section and document), each answer sentence's citations, what a check needs to
    run the answering stage again (``answering``) and, once one ran, what it found (``verification``)."""

    answer: str
    final_step: str
    sources: tuple[Source, ...] = ()
    evidence: tuple[Evidence, ...] = ()
    citations: tuple[Citation, ...] = ()
    answering: Answering | None = None
    verification: VerificationSummary | None = None


class Session:
    """One question being answered: its id, its parent (for a sub-trace), and its measured calls."""

    def __init__(self, ctx: Context, kind: SessionKind, question: str, parent: str | None = None) -> None:
        self.ctx = ctx
        self.kind = kind
        self.question = question
        self.parent = parent
        self.id = uris.new_session_id()

    def record(
        self, step: Entity, contents: Mapping[str, str] | None = None, attached: Sequence[Entity] = ()
    ) -> ExplainEvent:
        """Record ``step`` (atomically, with its ``attached`` answer sentences) and return its event.

        The event is built once, here: its triples are what is written and what the stream carries.
        With a pipeline (the default) the write is queued and this returns at once:
        :meth:`Engine.answer` holds the event back until its transaction has committed. With only a
        recorder it writes now; with recording off it only builds the event.
        """
        event = ExplainEvent.of(step, attached)
        written = {step.uri, *(entity.uri for entity in attached)}  # parents written in this transaction need no check
        parents = tuple(
            dict.fromkeys(p for p in [*step.parents, *(p for e in attached for p in e.parents)] if p not in written)
        )
        ctx = self.ctx
        if ctx.pipeline is not None:
            ctx.commits[id(event)] = ctx.pipeline.submit(event, parents, contents)
        elif ctx.recorder is not None:
            ctx.recorder.write(event, parents, contents)
        return event

    def complete(self, task: Task) -> Completion:
        """One LLM call, counted in the request's totals."""
        completion = self.ctx.llm.complete(task)
        self.ctx.usage.add(completion)
        return completion

    def stream(self, task: Task) -> Generator[AnswerChunk, None, Completion]:
        """Stream an LLM answer as :class:`AnswerChunk` events; the return value is the whole completion.

        The last piece is marked ``last`` (TrustGraph's ``end_of_stream``) by holding one piece back.
        """
        pieces = self.ctx.llm.stream(task)
        held: str | None = None
        try:
            while True:
                piece = next(pieces)
                if held is not None:
                    yield AnswerChunk(held)
                held = piece
        except StopIteration as stop:
            completion: Completion = stop.value
        finally:
            pieces.close()
        yield AnswerChunk(held or "", last=True)
        self.ctx.usage.add(completion)
        return completion


class Engine(ABC):
    """A question-answering engine that records every step it takes.

    Args:
        store: Where the knowledge graph and documents are read from and the trace is written to.
        llm: The provider every stage calls.
        record: ``False`` runs the engine without writing its trace (benchmarks measure the cost of
            explaining this way); the events are built all the same.

    Example:
        >>> engine = build_engine(SessionKind.GRAPH_RAG, store, get_llm())  # doctest: +SKIP
        >>> for event in engine.answer(Request("What did Marie Curie discover?")):  # doctest: +SKIP
        ...     print(event)
    """

    kind: ClassVar[SessionKind]
    """What the engine answers as; its wire name (``graph-rag`` …) names it in messages and logs."""
    reads: ClassVar[Reads] = "any"
    """What the engine searches first (entities, chunks, or either): a question over a graph that offers no way
    to search it is refused before anything is recorded."""
    defaults: ClassVar[Mapping[str, int]] = {}
    """The engine's options and their defaults; a request may set any of them (positive integers)."""

    def __init__(self, store: Store, llm: LLM, *, record: bool = True) -> None:
        self.store = store
        self.llm = llm
        self.record = record

    def options(self, request: Request) -> dict[str, int]:
        """The request's options over the engine's defaults, each checked to be a positive integer."""
        unknown = sorted(set(request.options) - set(self.defaults))
        if unknown:
            known = ", ".join(sorted(self.defaults)) or "none"
            raise BadRequest(f"{self.kind.wire}: unknown option {unknown[0]!r} (options: {known})")
        merged = dict(self.defaults)
        for key, value in request.options.items():
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise BadRequest(f"{self.kind.wire}: option {key!r} must be a positive integer, not {value!r}")
            merged[key] = value
        return merged

    def reader(self, request: Request) -> GraphReader:
        """What the request's knowledge graph and chunks are read through: tgneo's own, or a graph profile's."""
        if request.graph is None:
            return OwnGraph(self.store, request.workspace, request.collection)
        return ProfileGraph(self.store, self.llm, request.graph, request.workspace, request.collection)

    def context(self, request: Request, graph: GraphReader) -> Context:
        recorder = Recorder(self.store, request.workspace, request.collection) if self.record else None
        pipeline = CommitPipeline(recorder) if recorder is not None else None
        return Context(self.store, self.llm, request.workspace, request.collection, recorder, graph, pipeline=pipeline)

    def answer(self, request: Request) -> Iterator[Event]:
        """Answer ``request`` as a stream of events ending in one ``SessionEnd`` or one ``ErrorEvent``.

        Raises:
            BadRequest: the request is invalid (raised before anything is recorded or yielded).
            EmptyCollection: the collection holds nothing to answer from (likewise: nothing is recorded).
        """
        options = self.options(request)
        graph = self.reader(request)
        graph.require_content(self.reads)
        for warning in graph.take_warnings():  # said before anything is recorded (a fallback every engine takes)
            yield WarningEvent(warning)
        ctx = self.context(request, graph)
        session = Session(ctx, self.kind, request.question)
        root = self.root_uri(session)
        runner = self.run(session, options)
        if request.verify is not None:
            runner = _verified(session, runner, request.verify)
        try:
            outcome = yield from _released(runner, ctx)
        except (LLMError, TgneoError) as e:
            log.warning("%s failed on %r: %s", self.kind.wire, request.question, e)
            yield ErrorEvent(str(e), type=_error_type(e, self.kind), trace=root)
            return
        except Exception as e:  # a bug must still end the stream with a message, not silence
            log.exception("%s crashed on %r", self.kind.wire, request.question)
            yield ErrorEvent(f"internal error in {self.kind.wire}: {type(e).__name__}: {e}", trace=root)
            return
        finally:
            runner.close()
            if ctx.pipeline is not None:
                ctx.pipeline.close()
        ctx.cite(list(outcome.sources))
        usage = ctx.usage
        sources = cited_sources(outcome.citations) or tuple(ctx.sources.values())
        yield SessionEnd(
            sources, usage.in_tokens, usage.out_tokens, ", ".join(usage.models) or None, root, outcome.citations,
            outcome.verification,
        )  # fmt: skip

    @abstractmethod
    def root_uri(self, session: Session) -> str:
        """The URI of the session's Question (the trace root)."""

    @abstractmethod
    def run(self, session: Session, options: Mapping[str, int]) -> Generator[Event, None, Outcome]:
        """Take the engine's steps, recording each and yielding its event; return how it ended."""


def _verified(
    session: Session, runner: Generator[Event, None, Outcome], budget: Budget
) -> Generator[Event, None, Outcome]:
    """``runner``'s steps, then — the answer given and recorded — the counterfactual check of it, recorded as its
    own step (a Verification with its Counterfactuals) before the stream's final message carries its summary."""
    outcome = yield from runner
    answering = outcome.answering
    if answering is None:
        return outcome
    ctx = session.ctx
    answerer = task_answerer(ctx.llm, answering.task)
    checked = check(answering.answer, answering.items, answering.cites, answerer, ctx.llm, budget)
    for rerun in checked.reruns:
        ctx.usage.add(rerun.completion)
    verification, counterfactuals, contents = recorded(checked, answering.step)
    yield session.record(verification, contents, attached=counterfactuals)
    return replace(outcome, verification=summary(checked, verification.uri))


LOOKAHEAD = 2
"""How many steps (explain events) the engine may have produced beyond what the client has taken: the step
the client is about to get and the next one. Enough to overlap a step's commit with the next step's work;
few enough that a client that goes away costs at most one step past the last it read. Answer pieces and
agent messages are not steps and do not count: the answer streams on while the step before it commits
(measured for issue 38: the Focus's commit otherwise held the answer back, 15–25 ms a question)."""


class _EngineThread:
    """The engine's generator, run on its own thread, its events handed over as they come.

    The client's thread then only waits — for the oldest event's commit or the engine's next event,
    whichever comes first — so a committed step goes out at once, even while the engine computes the
    next one. ``stop`` ends the engine at its next step; its generator is closed on its own thread.
    """

    def __init__(self, runner: Generator[Event, None, Outcome], ctx: Context) -> None:
        self.runner, self.ctx = runner, ctx
        self.changed = threading.Condition()
        self.inbox: deque[tuple[str, Any, Future[ExplainEvent] | None]] = deque()
        self.room = threading.Semaphore(LOOKAHEAD)
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, name="tgneo-engine", daemon=True)

    def _put(self, kind: str, value: Any, commit: Future[ExplainEvent] | None = None) -> None:
        with self.changed:
            self.inbox.append((kind, value, commit))
            self.changed.notify()

    def wake(self, _: object = None) -> None:
        with self.changed:
            self.changed.notify()

    def _warnings(self) -> None:
        """What the reader warned of while the engine took its last step (a fallback), ahead of that step's event:
        the one way a warning reaches every road (:class:`~tgneo.explain.events.WarningEvent`)."""
        for warning in self.ctx.graph.take_warnings():
            self._put("event", WarningEvent(warning))

    def _run(self) -> None:
        try:
            while True:
                self.room.acquire()
                if self.stopping.is_set():
                    return
                try:
                    event = next(self.runner)
                except StopIteration as stop:
                    self._warnings()
                    return self._put("outcome", stop.value)
                except BaseException as e:  # handed to the client's thread, which decides
                    self._warnings()
                    return self._put("raised", e)
                self._warnings()
                commit = self.ctx.commits.pop(id(event), None)
                self._put("event", event, commit)
                if commit is not None:
                    commit.add_done_callback(self.wake)
                if not isinstance(event, ExplainEvent):
                    self.room.release()  # not a step: it holds no room (see LOOKAHEAD)
        finally:
            self.runner.close()

    def stop(self) -> None:
        self.stopping.set()
        self.room.release()  # wakes the engine if it waits for room; it then sees ``stopping``
        self.thread.join()


def _released(runner: Generator[Event, None, Outcome], ctx: Context) -> Generator[Event, None, Outcome]:
    """The engine's events in its order, each explain event only once its step has committed.

    The engine runs on its own thread (:class:`_EngineThread`), up to :data:`LOOKAHEAD` steps ahead:
    while the oldest event waits for its commit the engine runs on to its next step (write-ahead), and
    an event is released the moment its commit lands, not when the engine next yields. When the engine
    is done, the rest is released as it commits. A write that failed raises its error here, after the
    events before it were released; an engine error is raised once the steps before it are released.
    """
    engine = _EngineThread(runner, ctx)
    pending: deque[tuple[Event, Future[ExplainEvent] | None]] = deque()
    outcome: Outcome | None = None
    raised: BaseException | None = None
    finished = False
    engine.thread.start()
    try:
        while True:
            with engine.changed:
                while (
                    not engine.inbox
                    and not (pending and (finished or _committed(pending[0][1])))
                    and not (finished and not pending)
                ):
                    engine.changed.wait()
                while engine.inbox:
                    kind, value, commit = engine.inbox.popleft()
                    if kind == "event":
                        pending.append((value, commit))
                    else:
                        finished = True
                        outcome, raised = (value, None) if kind == "outcome" else (None, value)
            while pending and (finished or _committed(pending[0][1])):
                event, commit = pending.popleft()
                if commit is not None:
                    commit.result()  # waits while finishing; raises the write's error
                yield event
                if isinstance(event, ExplainEvent):
                    engine.room.release()  # the client came back for more after a step
            if finished and not pending:
                break
    finally:
        engine.stop()
    if raised is not None:
        raise raised
    assert outcome is not None
    return outcome


def _committed(commit: Future[ExplainEvent] | None) -> bool:
    return commit is None or commit.done()


def _error_type(error: Exception, kind: SessionKind) -> str:
    return "llm-error" if isinstance(error, LLMError) else kind.error_type
