"""Recording a pipeline tgneo did not run: a user's own retrieval and answer, as a TrustGraph-shaped trace.

Teams already run a Document RAG pipeline (neo4j-graphrag's retrievers, a LangChain chain over ``Neo4jVector``).
:func:`record` turns its steps into the trace tgneo's own Document RAG records — Question, Grounding,
Exploration, Focus with its chunk selections, Synthesis with sentence citations — through the same recorder::

    with tgneo.record(question, kind="document-rag", graph="neo4j-graphrag") as t:
        t.grounding(["pip cache"])
        t.exploration([Retrieved(item.metadata["id"], item.content, item.metadata["score"]) for item in items])
        t.focus(t.explored[:3])
        t.synthesis(answer, model="gpt-4o-mini", in_tokens=812, out_tokens=64)

Each step is committed before its method returns the step's event (write-before-emit); a step that fails
is rolled back alone and raises, and the steps before it stay. Each retrieved item is placed:

* the element id of a chunk in this Neo4j, with ``graph`` naming the profile of the graph it belongs to
  (neo4j-graphrag's retriever items carry it as ``metadata["id"]``): its source chain follows their
  chunk and document relationships, as an answer tgneo computed over that graph does;
* the URI of a chunk tgneo loaded (``urn:chunk:…`` in the collection): its own source chain;
* anything else becomes a chunk of tgneo's own holding the text the pipeline passed, derived from a
  document named by the item's ``source`` (or ``"unknown source"``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from tgneo import uris
from tgneo.engines.attribution import attribute
from tgneo.engines.foreign import ProfileGraph
from tgneo.engines.graphrag import placed
from tgneo.errors import BadRequest
from tgneo.explain.docrag import ChunkSelection, DocRagExploration, DocRagFocus, DocRagQuestion, DocRagSynthesis
from tgneo.explain.events import Citation, ExplainEvent, Source
from tgneo.explain.graphrag import Grounding
from tgneo.explain.recorder import Recorder, Sink
from tgneo.explain.source import Activity, DerivedEntity, Document
from tgneo.graphmodel import compile_quads
from tgneo.llm.base import LLM
from tgneo.llm.offline import OfflineLLM
from tgneo.nlp.segment import units
from tgneo.profiles import GraphProfile, load_profile
from tgneo.scope import DEFAULT_SCOPE, check_scope
from tgneo.store.driver import Store
from tgneo.store.kg import EvidenceRow, answer_sources
from tgneo.store.search import chunk_exists
from tgneo.store.writer import write_batch
from tgneo.version import __version__

__all__ = ["DocRagRecording", "Retrieved", "record"]

KINDS = ("document-rag",)


@dataclass(frozen=True)
class Retrieved:
    """One item a retriever returned.

    Attributes:
        id: The element id of a chunk in this Neo4j, a tgneo chunk URI, or any id the pipeline has.
        text: The text the pipeline read (kept as evidence; required for an item tgneo cannot resolve).
        score: The retriever's score, if it gave one.
        source: The name of the document it came from, for an item from elsewhere.
    """

    id: str
    text: str = ""
    score: float | None = None
    source: str | None = None


@dataclass
class DocRagRecording:
    """The steps of one Document RAG answer, recorded as they are reported (module docstring)."""

    recorder: Recorder
    question: str
    graph: ProfileGraph | None
    llm: LLM
    sid: str = field(default_factory=uris.new_session_id)
    explored: list[Retrieved] = field(default_factory=list)
    """The items of the exploration, in the order given."""
    sources: list[Source] = field(default_factory=list)
    """The documents the answer rests on (after :meth:`synthesis`)."""
    citations: tuple[Citation, ...] = ()
    """Each answer sentence with the evidence it cites (after :meth:`synthesis`)."""
    selected: list[Retrieved] = field(default_factory=list)
    """The items of the focus."""
    _selection_uris: tuple[str, ...] = ()
    _steps: dict[str, str] = field(default_factory=dict)
    _placed: dict[str, str] = field(default_factory=dict)
    _texts: dict[str, str] = field(default_factory=dict)

    @property
    def uri(self) -> str:
        """The trace's root (its Question)."""
        return uris.docrag_question_uri(self.sid)

    def _record(self, step: Any, parents: Sequence[str], contents: dict[str, str] | None = None,
                attached: Sequence[Any] = ()) -> ExplainEvent:  # fmt: skip
        return self.recorder.write(ExplainEvent.of(step, attached), parents, contents)

    def _needs(self, step: str, before: str) -> str:
        if step not in self._steps:
            raise BadRequest(f"record the {step} before the {before}")
        return self._steps[step]

    def start(self) -> ExplainEvent:
        question = DocRagQuestion(uri=self.uri, query=self.question)
        event = self._record(question, ())
        self._steps["question"] = question.uri
        return event

    def grounding(
        self, concepts: Sequence[str], *, model: str | None = None, in_tokens: int | None = None,
        out_tokens: int | None = None,
    ) -> ExplainEvent:  # fmt: skip
        """What the question was grounded in (the concepts the pipeline searched for)."""
        parent = self._needs("question", "grounding")
        step = Grounding(uri=uris.docrag_grounding_uri(self.sid), question=parent, concepts=tuple(concepts),
                         **_usage(model, in_tokens, out_tokens))  # fmt: skip
        event = self._record(step, step.parents)
        self._steps["grounding"] = step.uri
        return event

    def exploration(self, items: Sequence[Retrieved]) -> ExplainEvent:
        """What the retriever returned: each item placed (module docstring) and recorded as a retrieved chunk."""
        grounding = self._needs("grounding", "exploration")
        for item in items:
            self._place(item)
        self.explored = list(items)
        chunks = tuple(self._placed[i.id] for i in items)
        step = DocRagExploration(uri=uris.docrag_exploration_uri(self.sid), grounding=grounding,
                                 chunk_count=len(items), chunk_ids=chunks)  # fmt: skip
        event = self._record(step, step.parents)
        self._steps["exploration"] = step.uri
        return event

    def focus(self, selected: Sequence[Retrieved]) -> ExplainEvent:
        """The items the answer was given from, with their scores (each one explored before)."""
        exploration = self._needs("exploration", "focus")
        unknown = [i.id for i in selected if i.id not in self._placed]
        if unknown:
            raise BadRequest(f"focus: {unknown[0]!r} was not explored; record it in the exploration first")
        self.selected = list(selected)
        step = DocRagFocus(
            uri=uris.docrag_focus_uri(self.sid),
            exploration=exploration,
            session_id=self.sid,
            chunks=tuple(ChunkSelection(chunk_id=self._placed[i.id], score=i.score) for i in selected),
        )
        event = self._record(step, step.parents)
        self._steps["focus"] = step.uri
        self._selection_uris = step.selection_uris
        return event

    def synthesis(
        self, answer: str, *, model: str | None = None, in_tokens: int | None = None, out_tokens: int | None = None
    ) -> ExplainEvent:
        """The answer, with its token use: each sentence is cited from the selected chunks it rests on."""
        exploration = self._needs("exploration", "synthesis")
        self._needs("focus", "synthesis")
        rows = [EvidenceRow(uri, chunk=self._placed[i.id])
                for uri, i in zip(self._selection_uris, self.selected, strict=True)]  # fmt: skip
        store, ws, coll = self.recorder.store, self.recorder.workspace, self.recorder.collection
        found = self.graph.answer_sources(rows) if self.graph is not None else answer_sources(store, ws, coll, rows)
        evidence = tuple(
            placed(uri, unit.text, found.places.get(uri))
            for uri, item in zip(self._selection_uris, self.selected, strict=True)
            for unit in units(self._texts.get(self._placed[item.id]) or item.text)
            if unit.kind != "heading"
        )
        document = uris.docrag_answer_uri(self.sid)
        step = DocRagSynthesis(uri=uris.docrag_synthesis_uri(self.sid), exploration=exploration, document=document,
                               **_usage(model, in_tokens, out_tokens))  # fmt: skip
        self.citations, sentences = attribute(answer, evidence, self.llm, step.uri)
        event = self._record(step, step.parents, {document: answer}, attached=sentences)
        self.sources = [Source(uri, title) for uri, title in found.documents]
        self._steps["synthesis"] = step.uri
        return event

    def _place(self, item: Retrieved) -> None:
        """Resolve ``item`` to a chunk URI whose source chain readers can follow (module docstring)."""
        if not isinstance(item, Retrieved) or not isinstance(item.id, str) or not item.id:
            raise BadRequest(f"exploration: {item!r} is not a Retrieved item with an id")
        if item.id in self._placed:
            return
        store, ws, coll = self.recorder.store, self.recorder.workspace, self.recorder.collection
        if self.graph is not None:
            chunk = self.graph.chunk(item.id)
            if chunk is not None:
                self._placed[item.id] = chunk
                return
        if item.id.startswith("urn:chunk:") and chunk_exists(store, ws, coll, item.id):
            self._placed[item.id] = item.id
            return
        if not item.text.strip():
            raise BadRequest(f"exploration: {item.id!r} is no chunk tgneo can find; pass the text the pipeline read")
        digest = hashlib.sha1(f"{item.id}\n{item.text}".encode()).hexdigest()
        chunk = uris.chunk_uri(f"recorded-{digest}")
        title = item.source or "unknown source"
        document = f"urn:tgneo:recorded-source:{hashlib.sha1(title.encode()).hexdigest()}"
        reader = Activity(component_name="recorded-pipeline", component_version=__version__,
                          uri=uris.activity_uri(f"{digest}-recorded"))  # fmt: skip
        quads = [
            *Document(uri=document, title=title).triples(),
            *DerivedEntity(uri=chunk, parent=document, activity=reader, chunk=True, label=item.id[:200]).triples(),
        ]
        write_batch(store, ws, coll, compile_quads(quads, {chunk: item.text}), what=f"recording retrieved {item.id}")
        self._placed[item.id] = chunk
        self._texts[chunk] = item.text


def _usage(model: str | None, in_tokens: int | None, out_tokens: int | None) -> dict[str, Any]:
    usage: dict[str, Any] = {}
    if model is not None:
        usage["model"] = model
    if in_tokens is not None:
        usage["in_token"] = in_tokens
    if out_tokens is not None:
        usage["out_token"] = out_tokens
    return usage


@contextmanager
def record(
    question: str,
    kind: str = "document-rag",
    *,
    store: Store | None = None,
    workspace: str = DEFAULT_SCOPE,
    collection: str = DEFAULT_SCOPE,
    graph: GraphProfile | str | None = None,
    sink: Sink | None = None,
) -> Iterator[DocRagRecording]:
    """Record the steps of one answer a pipeline of the user's computed (module docstring).

    Args:
        question: What was asked.
        kind: ``document-rag``.
        store: Where to record (default: the configured Neo4j, opened and closed here).
        graph: The profile (or its name) of the graph the retrieved chunks belong to, if not tgneo's own.
        sink: Receives each step's event once its step has committed (a stream to a client).

    Raises:
        BadRequest: an unknown kind, an empty question, steps reported out of order.
    """
    if kind not in KINDS:
        raise BadRequest(f"kind: {kind!r} is not one of {', '.join(KINDS)}")
    if not isinstance(question, str) or not question.strip():
        raise BadRequest("question: must not be empty")
    check_scope(workspace, collection)
    profile = load_profile(graph) if isinstance(graph, str) else graph
    owned = store is None
    opened = store if store is not None else Store.from_settings()
    try:
        llm = OfflineLLM()
        recorder = Recorder(opened, workspace, collection, sinks=[sink] if sink else [])
        reader = ProfileGraph(opened, llm, profile, workspace, collection) if profile is not None else None
        recording = DocRagRecording(recorder, question, reader, llm)
        recording.start()
        yield recording
    finally:
        if owned:
            opened.close()
