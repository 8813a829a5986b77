"""Recording a pipeline tgneo did not run: a user's own retrieval and answer, as a TrustGraph-shaped trace.

Teams already run a pipeline (neo4j-graphrag's retrievers, a LangChain chain over ``Neo4jVector``). :func:`record`
turns its steps into the trace tgneo's own engines record — Question, Grounding, Exploration, Focus with its
chunk (``document-rag``) or edge (``graph-rag``) selections, Synthesis with sentence citations; an agent's
(``agent``) Analysis and Observation per tool call and its Conclusion — through the same recorder::

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

A retrieved edge (:class:`RetrievedEdge`, ``graph-rag``) is the element id of a relationship of a graph
profile's graph (its ends, type and the passages it was read from are read there), or a triple of names (or
IRIs) with, when the pipeline has them, the sentence it was read from and that sentence's document.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from rdflib.term import Literal, URIRef

from tgneo import uris
from tgneo.engines.attribution import attribute
from tgneo.engines.graphrag import cited, placed
from tgneo.engines.verify import DEFAULT_BUDGET, Answerer, Budget, Item, check, recorded, summary
from tgneo.errors import BadRequest
from tgneo.explain.agent import AgentQuestion, Analysis, Conclusion, Observation, Thought
from tgneo.explain.docrag import ChunkSelection, DocRagExploration, DocRagFocus, DocRagQuestion, DocRagSynthesis
from tgneo.explain.events import Citation, ExplainEvent, Source, VerificationSummary
from tgneo.explain.extraction_time import Activity, DerivedEntity, Document, Evidence, Subgraph
from tgneo.explain.graphrag import EdgeSelection, Exploration, Focus, GraphRagQuestion, Grounding, Synthesis
from tgneo.explain.recorder import Recorder, Sink
from tgneo.graph_profiles import GraphProfile, load_profile
from tgneo.graphmodel.compiler import compile_quads
from tgneo.graphs.profile import ProfileGraph
from tgneo.ingest.facts import entity_iri
from tgneo.llm.base import LLM
from tgneo.llm.offline import OfflineLLM
from tgneo.nlp.segment import units
from tgneo.rdf.ntriples import edge_id
from tgneo.rdf.terms import DEFAULT_GRAPH, Quad, QuotedTriple
from tgneo.scope import DEFAULT_SCOPE, check_scope
from tgneo.store.driver import Store
from tgneo.store.kg import Edge, EvidenceRow, answer_sources
from tgneo.store.search import chunk_exists
from tgneo.store.write_path import write_batch
from tgneo.version import __version__
from tgneo.vocab import RDFS

__all__ = [
    "AgentRecording", "DocRagRecording", "GraphRagRecording", "Retrieved", "RetrievedEdge", "begin", "record",
]  # fmt: skip

KINDS = ("document-rag", "graph-rag", "agent")


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
class _Recording:
    """What recording any kind of answer shares: the recorder, the question, its reader, the step order."""

    recorder: Recorder
    question: str
    graph: ProfileGraph | None
    llm: LLM
    sid: str = field(default_factory=uris.new_session_id)
    sources: list[Source] = field(default_factory=list)
    """The documents the answer rests on (after ``synthesis``)."""
    citations: tuple[Citation, ...] = ()
    """Each answer sentence with the evidence it cites (after ``synthesis``)."""
    _steps: dict[str, str] = field(default_factory=dict)
    _selection_uris: tuple[str, ...] = ()
    _answer: str = ""

    @property
    def uri(self) -> str:
        """The trace's root (its Question)."""
        return self._root()

    def recorded(self, step: str) -> bool:
        """Whether ``step`` (``question``, ``grounding``, ``exploration``, ``focus``, …) is recorded yet."""
        return step in self._steps

    def _root(self) -> str:
        raise NotImplementedError

    def _record(self, step: Any, parents: Sequence[str], contents: dict[str, str] | None = None,
                attached: Sequence[Any] = ()) -> ExplainEvent:  # fmt: skip
        return self.recorder.write(ExplainEvent.of(step, attached), parents, contents)

    def verify(self, answerer: Answerer, budget: Budget = DEFAULT_BUDGET) -> VerificationSummary:
        """Check the recorded answer: re-run the answering stage with ``answerer`` (the pipeline's own: its model,
        its prompt) on the evidence altered — without what the answer cites, with only that, without each item in
        turn — and record the Verification derived from the answer (:mod:`tgneo.engines.verify`).

        Raises:
            BadRequest: the answer is not recorded yet, or this kind of recording cannot be checked.
            Exception: whatever ``answerer`` raised (nothing is recorded then).
        """
        step = self._needs("synthesis", "verification")
        checked = check(self._answer, self._items(), cited(self.citations), answerer, self.llm, budget)
        verification, counterfactuals, contents = recorded(checked, step)
        self._record(verification, verification.parents, contents, attached=counterfactuals)
        return summary(checked, verification.uri)

    def _items(self) -> tuple[Item, ...]:
        raise BadRequest(f"a {type(self).__name__} cannot be checked yet")

    def _needs(self, step: str, before: str) -> str:
        if step not in self._steps:
            raise BadRequest(f"record the {step} before the {before}")
        return self._steps[step]

    def _question(self) -> Any:
        raise NotImplementedError

    def _grounding_uri(self) -> str:
        raise NotImplementedError

    def start(self) -> ExplainEvent:
        question = self._question()
        event = self._record(question, ())
        self._steps["question"] = question.uri
        return event

    def grounding(
        self, concepts: Sequence[str], *, model: str | None = None, in_tokens: int | None = None,
        out_tokens: int | None = None,
    ) -> ExplainEvent:  # fmt: skip
        """What the question was grounded in (the concepts the pipeline looked up)."""
        parent = self._needs("question", "grounding")
        step = Grounding(uri=self._grounding_uri(), question=parent, concepts=tuple(concepts),
                         **_usage(model, in_tokens, out_tokens))  # fmt: skip
        event = self._record(step, step.parents)
        self._steps["grounding"] = step.uri
        return event


@dataclass
class DocRagRecording(_Recording):
    """The steps of one Document RAG answer, recorded as they are reported (module docstring)."""

    explored: list[Retrieved] = field(default_factory=list)
    """The items of the exploration, in the order given."""
    selected: list[Retrieved] = field(default_factory=list)
    """The items of the focus."""
    _placed: dict[str, str] = field(default_factory=dict)
    _texts: dict[str, str] = field(default_factory=dict)

    def _root(self) -> str:
        return uris.docrag_question_uri(self.sid)

    def _question(self) -> Any:
        return DocRagQuestion(uri=self.uri, query=self.question)

    def _grounding_uri(self) -> str:
        return uris.docrag_grounding_uri(self.sid)

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
        self._answer = answer
        return event

    def _items(self) -> tuple[Item, ...]:
        """The selected chunks, as the pipeline's answering stage was given them (the items it retrieved)."""
        return tuple(
            Item(uri, {"id": item.id, "text": text}, text)
            for uri, item in zip(self._selection_uris, self.selected, strict=True)
            for text in [self._texts.get(self._placed[item.id]) or item.text]
        )

    @property
    def selections(self) -> dict[str, Retrieved]:
        """Each ChunkSelection of the Focus and the item it selected."""
        return dict(zip(self._selection_uris, self.selected, strict=True))

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
        chunk, quads = _passage(item.id, item.text, item.source)
        write_batch(store, ws, coll, compile_quads(quads, {chunk: item.text}), what=f"recording retrieved {item.id}")
        self._placed[item.id] = chunk
        self._texts[chunk] = item.text


def _passage(label: str, text: str, source: str | None) -> tuple[str, list[Quad]]:
    """A passage from elsewhere as tgneo's own chunk (holding ``text``) of a document named ``source``."""
    digest = hashlib.sha1(f"{label}\n{text}".encode()).hexdigest()
    chunk = uris.chunk_uri(f"recorded-{digest}")
    title = source or "unknown source"
    document = f"urn:tgneo:recorded-source:{hashlib.sha1(title.encode()).hexdigest()}"
    reader = Activity(component_name="recorded-pipeline", component_version=__version__,
                      uri=uris.activity_uri(f"{digest}-recorded"))  # fmt: skip
    entity = DerivedEntity(uri=chunk, parent=document, activity=reader, chunk=True, label=label[:200])
    return chunk, [*Document(uri=document, title=title).triples(), *entity.triples()]


@dataclass(frozen=True)
class RetrievedEdge:
    """One knowledge-graph edge a pipeline retrieved (module docstring).

    Attributes:
        subject, predicate, object: Names (or IRIs) as the pipeline saw them (ignored when ``id`` resolves).
        id: The element id of a relationship of a graph profile's graph.
        evidence: The sentence it was read from, if the pipeline has it.
        source: The name of that sentence's document.
        score, reasoning: Why it was selected, if the pipeline says.
    """

    subject: str = ""
    predicate: str = ""
    object: str = ""
    id: str | None = None
    evidence: str | None = None
    source: str | None = None
    score: float | None = None
    reasoning: str | None = None


_IRI = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:\S+$")


def _term(name: str, what: str) -> URIRef:
    if not isinstance(name, str) or not name.strip():
        raise BadRequest(f"exploration: an edge without its {what} (pass its names, or the id of a relationship)")
    return URIRef(name) if _IRI.match(name) else entity_iri(name)


@dataclass
class GraphRagRecording(_Recording):
    """The steps of one GraphRAG answer, recorded as they are reported (module docstring)."""

    explored: list[RetrievedEdge] = field(default_factory=list)
    selected: list[RetrievedEdge] = field(default_factory=list)
    _edges: dict[RetrievedEdge, Edge] = field(default_factory=dict)

    def _root(self) -> str:
        return uris.question_uri(self.sid)

    def _question(self) -> Any:
        return GraphRagQuestion(uri=self.uri, query=self.question)

    def _grounding_uri(self) -> str:
        return uris.grounding_uri(self.sid)

    def exploration(self, edges: Sequence[RetrievedEdge], entities: Sequence[str] = ()) -> ExplainEvent:
        """The edges the pipeline retrieved (each placed: module docstring), and the entities it started from."""
        grounding = self._needs("grounding", "exploration")
        for edge in edges:
            self._place(edge)
        self.explored = list(edges)
        step = Exploration(uri=uris.exploration_uri(self.sid), grounding=grounding, edge_count=len(edges),
                           entities=tuple(str(_term(e, "entity")) for e in entities))  # fmt: skip
        event = self._record(step, step.parents)
        self._steps["exploration"] = step.uri
        return event

    def focus(self, selected: Sequence[RetrievedEdge], *, model: str | None = None, in_tokens: int | None = None,
              out_tokens: int | None = None) -> ExplainEvent:  # fmt: skip
        """The edges the answer was given from, with their scores and reasoning (each one explored before)."""
        exploration = self._needs("exploration", "focus")
        unknown = [e for e in selected if e not in self._edges]
        if unknown:
            raise BadRequest(f"focus: {unknown[0]!r} was not explored; record it in the exploration first")
        self.selected = list(selected)
        choices = tuple(EdgeSelection(edge=self._edges[e].triple, score=e.score, reasoning=e.reasoning)
                        for e in selected)  # fmt: skip
        step = Focus(uri=uris.focus_uri(self.sid), exploration=exploration, session_id=self.sid, edges=choices,
                     **_usage(model, in_tokens, out_tokens))  # fmt: skip
        event = self._record(step, step.parents)
        self._steps["focus"] = step.uri
        self._selection_uris = step.selection_uris
        return event

    def synthesis(
        self, answer: str, *, model: str | None = None, in_tokens: int | None = None, out_tokens: int | None = None
    ) -> ExplainEvent:
        """The answer, with its token use: each sentence is cited from the selected edges' evidence."""
        focus = self._needs("focus", "synthesis")
        chosen = [self._edges[e] for e in self.selected]
        rows = [EvidenceRow(uri, statement=edge.id, evidence=edge.evidence)
                for uri, edge in zip(self._selection_uris, chosen, strict=True)]  # fmt: skip
        store, ws, coll = self.recorder.store, self.recorder.workspace, self.recorder.collection
        found = self.graph.answer_sources(rows) if self.graph is not None else answer_sources(store, ws, coll, rows)
        evidence = tuple(placed(uri, edge.evidence or edge.fact, found.places.get(uri))
                         for uri, edge in zip(self._selection_uris, chosen, strict=True))  # fmt: skip
        document = uris.graphrag_answer_uri(self.sid)
        step = Synthesis(uri=uris.synthesis_uri(self.sid), focus=focus, document=document,
                         **_usage(model, in_tokens, out_tokens))  # fmt: skip
        self.citations, sentences = attribute(answer, evidence, self.llm, step.uri)
        event = self._record(step, step.parents, {document: answer}, attached=sentences)
        self.sources = [Source(uri, title) for uri, title in found.documents]
        self._steps["synthesis"] = step.uri
        return event

    def _place(self, edge: RetrievedEdge) -> None:
        """Resolve ``edge`` to a triple whose source chain readers can follow (module docstring)."""
        if not isinstance(edge, RetrievedEdge):
            raise BadRequest(f"exploration: {edge!r} is not a RetrievedEdge")
        if edge in self._edges:
            return
        if edge.id is not None and self.graph is not None:
            found = self.graph.edge(edge.id)
            if found is not None:
                self._edges[edge] = found
                return
        s, p, o = _term(edge.subject, "subject"), _term(edge.predicate, "predicate"), _term(edge.object, "object")
        triple = QuotedTriple(s, p, o)
        quads = [Quad(term, RDFS.label, Literal(name), DEFAULT_GRAPH)
                 for term, name in ((s, edge.subject), (p, edge.predicate), (o, edge.object))
                 if not _IRI.match(name)]  # fmt: skip
        contents: dict[str, str] = {}
        if edge.evidence:
            chunk, passage = _passage(edge.source or edge.evidence[:80], edge.evidence, edge.source)
            digest = chunk.rsplit(":", 1)[-1]
            extraction = Activity(component_name="recorded-pipeline", component_version=__version__,
                                  uri=uris.activity_uri(f"{digest}-extraction"))  # fmt: skip
            where = Evidence(edge.evidence, 0, len(edge.evidence))
            subgraph = Subgraph(uri=uris.subgraph_uri(digest), chunk=chunk, activity=extraction, statements=(triple,),
                                evidence=((triple, where),))  # fmt: skip
            quads += [*passage, *subgraph.triples()]
            contents[chunk] = edge.evidence
        store, ws, coll = self.recorder.store, self.recorder.workspace, self.recorder.collection
        what = f"recording the retrieved edge ({edge.subject}, {edge.predicate}, {edge.object})"
        write_batch(store, ws, coll, compile_quads(quads, contents), what=what)
        self._edges[edge] = Edge(edge_id(s, p, o), triple, edge.subject, edge.predicate, edge.object, edge.evidence)


@dataclass
class AgentRecording(_Recording):
    """The steps of one ReAct-style agent answer, recorded as they are reported: each tool call an Analysis (its
    thought, action and arguments) and an Observation (what the tool returned, or its error), then the
    Conclusion."""

    steps: int = 0
    """Tool calls recorded so far."""
    _previous: str | None = None

    def _root(self) -> str:
        return uris.agent_session_uri(self.sid)

    def _question(self) -> Any:
        return AgentQuestion(uri=self.uri, query=self.question)

    def _grounding_uri(self) -> str:
        raise BadRequest("an agent's trace has no grounding: record its tool calls with step()")

    def step(
        self, thought: str, action: str, arguments: Mapping[str, Any], observation: str, *, error: str | None = None,
        model: str | None = None, in_tokens: int | None = None, out_tokens: int | None = None,
        tool_ms: int | None = None,
    ) -> tuple[ExplainEvent, ExplainEvent]:  # fmt: skip
        """One tool call: why (``thought``), which tool (``action``) with which ``arguments``, and what it returned
        (``observation``, or ``error`` when it failed: the Observation is then typed ``tg:Error``)."""
        root = self._needs("question", "first step")
        if not isinstance(action, str) or not action.strip():
            raise BadRequest("step: the action (the tool's name) must not be empty")
        n = self.steps + 1
        uri, thought_uri = uris.agent_iteration_uri(self.sid, n), uris.agent_thought_uri(self.sid, n)
        why = Thought(uri=thought_uri, document=thought_uri)
        analysis = Analysis(uri=uri, question=root if self._previous is None else None, previous=self._previous,
                            action=action, arguments=dict(arguments), thought=why, step_number=n,
                            **_usage(model, in_tokens, out_tokens))  # fmt: skip
        analysed = self._record(analysis, analysis.parents, {thought_uri: thought})
        observation_uri = uris.agent_observation_uri(self.sid, n)
        seen = Observation(uri=observation_uri, parent=uri, document=observation_uri, tool_duration_ms=tool_ms,
                           tool_error=error)  # fmt: skip
        observed = self._record(seen, seen.parents, {observation_uri: observation})
        self.steps, self._previous = n, uri
        return analysed, observed

    def conclusion(
        self, answer: str, *, model: str | None = None, in_tokens: int | None = None, out_tokens: int | None = None,
        reason: str = "final-answer",
    ) -> ExplainEvent:  # fmt: skip
        """The final answer, with its token use."""
        root = self._needs("question", "conclusion")
        document = uris.agent_answer_uri(self.sid)
        step = Conclusion(uri=uris.agent_final_uri(self.sid), question=root if self._previous is None else None,
                          previous=self._previous, document=document, termination_reason=reason,
                          **_usage(model, in_tokens, out_tokens))  # fmt: skip
        self.citations, sentences = attribute(answer, (), self.llm, step.uri)
        event = self._record(step, step.parents, {document: answer}, attached=sentences)
        self._steps["conclusion"] = step.uri
        return event


def _usage(model: str | None, in_tokens: int | None, out_tokens: int | None) -> dict[str, Any]:
    usage: dict[str, Any] = {}
    if model is not None:
        usage["model"] = model
    if in_tokens is not None:
        usage["in_token"] = in_tokens
    if out_tokens is not None:
        usage["out_token"] = out_tokens
    return usage


def begin(
    question: str,
    kind: str,
    store: Store,
    *,
    workspace: str = DEFAULT_SCOPE,
    collection: str = DEFAULT_SCOPE,
    graph: GraphProfile | str | None = None,
    sink: Sink | None = None,
    session: str | None = None,
) -> _Recording:
    """Start recording one answer in ``store`` (which stays the caller's): its Question is committed here.

    :func:`record` is the context manager most callers want; adapters that learn of a question from callbacks
    (:mod:`tgneo.adapters.langchain`) begin when they know its kind, and keep the store open across answers.

    ``session`` fixes the session id (a UUID) where the answer has one already (an OpenTelemetry trace id), so
    that recording it again lands on the same URIs.

    Raises:
        BadRequest: an unknown kind, an empty question, a malformed workspace or collection.
    """
    if kind not in KINDS:
        raise BadRequest(f"kind: {kind!r} is not one of {', '.join(KINDS)}")
    if not isinstance(question, str) or not question.strip():
        raise BadRequest("question: must not be empty")
    check_scope(workspace, collection)
    profile = load_profile(graph) if isinstance(graph, str) else graph
    llm = OfflineLLM()
    recorder = Recorder(store, workspace, collection, sinks=[sink] if sink else [])
    reader = ProfileGraph(store, llm, profile, workspace, collection) if profile is not None else None
    kinds: dict[str, type[_Recording]] = {
        "document-rag": DocRagRecording, "graph-rag": GraphRagRecording, "agent": AgentRecording,
    }  # fmt: skip
    recording = kinds[kind](recorder, question, reader, llm, sid=session or uris.new_session_id())
    recording.start()
    return recording


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
) -> Iterator[Any]:
    """Record the steps of one answer a pipeline of the user's computed (module docstring).

    Args:
        question: What was asked.
        kind: ``document-rag`` (a :class:`DocRagRecording`), ``graph-rag`` (a :class:`GraphRagRecording`) or
            ``agent`` (an :class:`AgentRecording`).
        store: Where to record (default: the configured Neo4j, opened and closed here).
        graph: The profile (or its name) of the graph the retrieved chunks belong to, if not tgneo's own.
        sink: Receives each step's event once its step has committed (a stream to a client).

    Raises:
        BadRequest: an unknown kind, an empty question, steps reported out of order.
    """
    owned = store is None
    opened = store if store is not None else Store.from_settings()
    try:
        yield begin(question, kind, opened, workspace=workspace, collection=collection, graph=graph, sink=sink)
    finally:
        if owned:
            opened.close()
