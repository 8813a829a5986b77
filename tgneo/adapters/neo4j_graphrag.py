"""neo4j-graphrag's ``GraphRAG``, answering exactly as before and recording each answer as a tgneo trace.

Wrap the ``GraphRAG`` you already built and call ``search`` as you did; the result is neo4j-graphrag's own
``RagResultModel`` (a subclass of it) that also names the trace::

    rag = GraphRAG(VectorRetriever(driver, "chunk_embeddings", embedder), OpenAILLM(model_name="gpt-4o-mini"))
    explained = ExplainedGraphRAG(rag, store=store, collection="docs")
    result = explained.search("How does pip cache wheels?", retriever_config={"top_k": 3})
    result.answer, result.trace_uri, result.sources  # tgneo trace show <trace_uri>

Each search is a ``document-rag`` trace (:func:`tgneo.record`): its Question (``query_text``); a Grounding in the
query the retriever was given (with the tokens of the model's summary of ``message_history``, when there is one);
an Exploration holding every retrieved item; a Focus on all of them (``GraphRAG`` puts every item in the prompt);
and the Synthesis holding the answer with the model's own token usage and served model name. An item whose
``metadata["id"]`` is the element id of a chunk of the ``graph`` profile's graph (``VectorRetriever`` sets it, and a
``VectorCypherRetriever`` whose query returns it in ``metadata``) keeps that chunk's source chain to its document,
even when its ``content`` is a formatted record rather than the chunk's text; any other item becomes a chunk holding
its ``content``, of the document its metadata names (``path``, ``source``, ``document`` or ``url``).

Token usage comes from the chat completions themselves, which ``GraphRAG.search`` does not return: for an
``OpenAILLM`` (any ``BaseOpenAILLM``, Azure's included), each search runs on a shallow copy of the ``GraphRAG`` and
of its LLM whose client is a thin proxy keeping each response's ``usage`` and ``model``. Nothing the caller holds is
changed, so searches in several threads at once never see each other's usage. Any other LLM's answer is recorded
without tokens, under the ``model_name`` it was configured with (as asked, not as served).

Each step is committed when ``GraphRAG`` reaches it: the Grounding before the retriever runs, the Exploration and
Focus as soon as it returns, the Synthesis once the answer is in. A retriever or model that fails leaves the steps
before it and its exception propagates unchanged; a step that cannot be written is rolled back alone and raises
(:class:`~tgneo.errors.RecordingFailed`), so no answer is returned that was not recorded.
"""

from __future__ import annotations

import copy
import hashlib
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tgneo.engines.verify import Answerer, Item, budget_of
from tgneo.explain.recorder import Sink
from tgneo.graph_profiles import GraphProfile
from tgneo.llm.base import Completion
from tgneo.scope import DEFAULT_SCOPE
from tgneo.service.user_pipeline import DocRagRecording, Retrieved, record
from tgneo.store.driver import Store
from tgneo.stream.wire import encode_verification

try:
    from neo4j_graphrag.generation.graphrag import GraphRAG
    from neo4j_graphrag.generation.types import RagResultModel
    from neo4j_graphrag.llm.openai_llm import BaseOpenAILLM
    from neo4j_graphrag.message_history import MessageHistory
    from neo4j_graphrag.types import LLMMessage, RetrieverResult, RetrieverResultItem
except ImportError as e:  # pragma: no cover - the adapter is used where neo4j-graphrag is installed
    raise ImportError("tgneo.adapters.neo4j_graphrag needs neo4j-graphrag: pip install neo4j-graphrag") from e

__all__ = ["ExplainedGraphRAG", "ExplainedRagResult", "retrieved_item"]

_SOURCE_KEYS = ("path", "source", "document", "url")


class ExplainedRagResult(RagResultModel):
    """neo4j-graphrag's ``RagResultModel`` (``answer``, and ``retriever_result`` when it was asked for), with the
    trace that records how the answer was produced."""

    trace_uri: str
    """The trace's root, its Question: ``tgneo trace show`` or ``GET /api/v1/traces/…`` reads it."""
    sources: list[str] = []
    """The names of the documents the answer rests on (a neo4j-graphrag ``Document``'s ``path``)."""
    verification: dict[str, Any] | None = None
    """With ``verify``: whether the answer depends on what the retriever returned — ``verdict`` (``supported``,
    ``partly``, ``unsupported``), ``sufficient``, ``model`` and each item's ``necessity`` (``items``)."""


def retrieved_item(item: RetrieverResultItem) -> Retrieved:
    """A retriever's item as :func:`tgneo.record` places it: by its element id when its metadata has one, else by
    a digest of its content (stable, so the same passage is one chunk however often it is retrieved)."""
    metadata = item.metadata or {}
    text = item.content if isinstance(item.content, str) else str(item.content)
    element = metadata.get("id")
    ident = str(element) if element else f"neo4j-graphrag:{hashlib.sha256(text.encode()).hexdigest()[:32]}"
    score = metadata.get("score")
    number = float(score) if isinstance(score, int | float) and not isinstance(score, bool) else None
    source = next((str(metadata[k]) for k in _SOURCE_KEYS if metadata.get(k)), None)
    return Retrieved(ident, text, number, source)


@dataclass
class _Usage:
    """What the chat completions of one search phase reported: the served model and the tokens, summed."""

    calls: int = 0
    model: str | None = None
    in_tokens: int | None = None
    out_tokens: int | None = None

    def add(self, response: Any) -> None:
        self.calls += 1
        self.model = getattr(response, "model", None) or self.model
        usage = getattr(response, "usage", None)
        if usage is not None:
            self.in_tokens = (self.in_tokens or 0) + int(usage.prompt_tokens)
            self.out_tokens = (self.out_tokens or 0) + int(usage.completion_tokens)

    def take(self) -> _Usage:
        """This phase's usage, and a fresh start for the next one."""
        taken = copy.copy(self)
        self.calls, self.model, self.in_tokens, self.out_tokens = 0, None, None, None
        return taken


class _Delegate:
    """Everything not overridden is the wrapped object's own (an SDK client keeps its whole surface)."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


class _Completions(_Delegate):
    """``client.chat.completions``, keeping each response's usage and model for the search that made it."""

    def __init__(self, inner: Any, usage: _Usage) -> None:
        super().__init__(inner)
        self._usage = usage

    def create(self, *args: Any, **kwargs: Any) -> Any:
        response = self._inner.create(*args, **kwargs)
        self._usage.add(response)
        return response


class _Chat(_Delegate):
    def __init__(self, inner: Any, usage: _Usage) -> None:
        super().__init__(inner)
        self.completions = _Completions(inner.completions, usage)


class _Client(_Delegate):
    def __init__(self, inner: Any, usage: _Usage) -> None:
        super().__init__(inner)
        self.chat = _Chat(inner.chat, usage)


@dataclass
class _Search:
    """One search in progress: its recording, and the model usage not yet recorded in a step."""

    recording: DocRagRecording
    usage: _Usage = field(default_factory=_Usage)

    def grounded(self, query: str) -> None:
        """The retriever is about to run: the Grounding, with the tokens of any summary made before it."""
        before = self.usage.take()
        self.recording.grounding([query], model=before.model, in_tokens=before.in_tokens, out_tokens=before.out_tokens)

    def retrieved(self, result: RetrieverResult) -> None:
        """The retriever returned: every item explored, and all of them in focus (``GraphRAG`` prompts with all)."""
        items: dict[str, Retrieved] = {}
        for item in map(retrieved_item, result.items):
            items.setdefault(item.id, item)  # a passage returned twice (two rows of a Cypher query) is one chunk
        self.recording.exploration(list(items.values()))
        self.recording.focus(list(items.values()))


class _Retriever(_Delegate):
    """The caller's retriever, reporting to one search when it starts and what it returns."""

    def __init__(self, inner: Any, search: _Search) -> None:
        super().__init__(inner)
        self._search = search

    def search(self, *args: Any, **kwargs: Any) -> Any:
        self._search.grounded(str(kwargs.get("query_text", args[0] if args else "")))
        result = self._inner.search(*args, **kwargs)
        self._search.retrieved(result)
        return result


class ExplainedGraphRAG:
    """A ``GraphRAG`` whose every ``search`` is recorded as a tgneo trace (module docstring).

    Args:
        rag: The ``GraphRAG`` to answer with; it is not changed, and stays usable on its own.
        store: Where to record (default: the configured Neo4j, opened and closed around each search; pass an
            open :class:`~tgneo.store.driver.Store` to share one connection between searches).
        workspace, collection: Where the traces are kept in tgneo.
        graph: The profile (or its name) of the graph the retrieved chunks belong to (default: the graph
            neo4j-graphrag's ``SimpleKGPipeline`` writes); ``None`` records every item as a passage from
            elsewhere.
        sink: Receives each step's event once its step has committed.
        verify: Once each answer is recorded, check whether it depends on what the retriever returned: ``GraphRAG``
            answers again — your own LLM, your prompt, your message history — from the retrieved items without
            those the answer cites, with only them, and without each in turn (``True``: 6 re-runs at most; a number:
            that many), and the Verification is recorded in the trace (:mod:`tgneo.engines.verify`).

    Example::

        explained = ExplainedGraphRAG(GraphRAG(retriever, OpenAILLM(model_name="gpt-4o-mini")), store=store)
        result = explained.search("How does pip cache wheels?", retriever_config={"top_k": 3})
        print(result.answer, result.trace_uri, result.sources)
    """

    def __init__(
        self,
        rag: GraphRAG,
        *,
        store: Store | None = None,
        workspace: str = DEFAULT_SCOPE,
        collection: str = DEFAULT_SCOPE,
        graph: GraphProfile | str | None = "neo4j-graphrag",
        sink: Sink | None = None,
        verify: bool | int = False,
    ) -> None:
        self.rag = rag
        self.store = store
        self.workspace = workspace
        self.collection = collection
        self.graph = graph
        self.sink = sink
        self.verify = budget_of(verify, "verify")

    def search(
        self,
        query_text: str = "",
        message_history: list[LLMMessage] | MessageHistory | None = None,
        examples: str = "",
        retriever_config: Mapping[str, Any] | None = None,
        return_context: bool | None = None,
        response_fallback: str | None = None,
    ) -> ExplainedRagResult:
        """``GraphRAG.search`` with the same arguments and answer, recorded as a ``document-rag`` trace.

        The retriever's result is always kept for the trace; it is returned in ``retriever_result`` only when
        ``return_context`` is true (``None`` means false, as in neo4j-graphrag 1.x, without its warning).

        Returns:
            The answer, the context when asked for, the trace's URI and the documents the answer rests on.

        Raises:
            BadRequest: an empty ``query_text`` (a trace needs its question), a malformed workspace or collection.
            RecordingFailed: a step could not be written (the steps before it stay).
            Exception: whatever ``GraphRAG.search`` raised (``LLMGenerationError``, a retriever's error …),
                unchanged, after the steps before it were recorded.
        """
        with record(query_text, "document-rag", store=self.store, workspace=self.workspace,
                    collection=self.collection, graph=self.graph, sink=self.sink) as recording:  # fmt: skip
            search = _Search(recording)
            rag = copy.copy(self.rag)
            rag.retriever = _Retriever(self.rag.retriever, search)  # type: ignore[assignment]
            counted = isinstance(self.rag.llm, BaseOpenAILLM)
            if counted:
                rag.llm = copy.copy(self.rag.llm)
                rag.llm.client = _Client(self.rag.llm.client, search.usage)
            result = rag.search(
                query_text=query_text,
                message_history=message_history,
                examples=examples,
                retriever_config=dict(retriever_config or {}),
                return_context=True,
                response_fallback=response_fallback,
            )
            answered = search.usage.take()
            context = result.retriever_result
            fell_back = response_fallback is not None and context is not None and not context.items
            model = answered.model if counted else None
            if model is None and not fell_back:
                model = getattr(self.rag.llm, "model_name", None) or None
            recording.synthesis(result.answer, model=model, in_tokens=answered.in_tokens,
                                out_tokens=answered.out_tokens)  # fmt: skip
            checked = None
            if self.verify is not None and context is not None and context.items and not fell_back:
                again = _Again(rag, search.usage, context, query_text, message_history, examples, model)
                checked = encode_verification(recording.verify(again.answer_with(recording.selections), self.verify))
            return ExplainedRagResult(
                answer=result.answer,
                retriever_result=context if return_context else None,
                trace_uri=recording.uri,
                sources=[source.title or source.uri for source in recording.sources],
                verification=checked,
            )


@dataclass
class _Again:
    """``GraphRAG`` answering the same question again from some of the items its retriever returned: the same LLM
    (its usage kept as the first answer's was), prompt, examples and message history — what a check re-runs."""

    rag: GraphRAG
    usage: _Usage
    context: RetrieverResult
    query_text: str
    message_history: list[LLMMessage] | MessageHistory | None
    examples: str
    model: str | None

    def answer_with(self, selections: Mapping[str, Retrieved]) -> Answerer:
        by_id: dict[str, RetrieverResultItem] = {}
        for item in self.context.items:
            by_id.setdefault(retrieved_item(item).id, item)

        def answer(items: Sequence[Item]) -> Completion:
            kept = [by_id[selections[i.uri].id] for i in items if i.uri in selections]
            rerun = copy.copy(self.rag)
            rerun.retriever = _Fixed(RetrieverResult(items=kept, metadata=self.context.metadata))  # type: ignore[assignment]
            started = time.perf_counter()
            said = rerun.search(query_text=self.query_text, message_history=self.message_history,
                                examples=self.examples, retriever_config={}, return_context=False)  # fmt: skip
            used = self.usage.take()
            return Completion(said.answer, used.in_tokens or 0, used.out_tokens or 0, used.model or self.model or "",
                              int((time.perf_counter() - started) * 1000))  # fmt: skip

        return answer


class _Fixed:
    """A retriever that returns what it is given: the items of a re-run, taken from what the real one returned."""

    def __init__(self, result: RetrieverResult) -> None:
        self.result = result

    def search(self, *args: Any, **kwargs: Any) -> RetrieverResult:
        return self.result
