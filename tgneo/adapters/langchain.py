"""A LangChain callback handler that records each answer a chain or agent gives as a tgneo trace, as it runs.

Pass it where LangChain takes callbacks, and every top-level run becomes one trace::

    handler = TgneoCallbackHandler(store=store, collection="docs")
    chain.invoke("How do I clear pip's cache?", config={"callbacks": [handler]})
    handler.traces[-1]  # the trace's URI: tgneo trace show …

What the handler sees becomes the trace TrustGraph's model has for it:

* a run whose first decisive step is a **retriever** is a Document RAG answer: its Question (the run's input),
  a Grounding in the retrievers' queries, an Exploration holding every document retrieved (each placed as
  :func:`tgneo.record` places a :class:`~tgneo.service.user_pipeline.Retrieved` item: an element id, in
  ``metadata["element_id"]`` or ``metadata["elementId"]``, of a chunk of the ``graph`` profile's graph, or a
  tgneo chunk URI, keep their source chain; any other document becomes a chunk holding its text, of the document
  its ``metadata["source"]`` — or ``fileName``, ``path``, ``title`` — names), and a Focus on the documents the
  model was then given (all of them: a chain hands the model what it retrieved), recorded when the model starts;
  the Synthesis when the run ends, with the answer and every model call's tokens;
* a run whose first decisive step is a **tool** is an agent's: each tool call an Analysis (the model's words
  before it, the tool, its arguments, and that model call's tokens and model) and an Observation (what the tool
  returned, or its error), then the Conclusion with the final answer;
* a run with neither is an agent's that concluded at once.

Tokens and model names are the model's own, as LangChain reports them (``usage_metadata``, else
``llm_output["token_usage"]``). Each step is committed when the callback that completes it arrives, so a chain
that fails half-way leaves the steps it got through. LangChain logs and swallows an exception a handler raises
unless the handler's ``raise_error`` is set: pass ``raise_error=True`` where an answer must not go unrecorded.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from tgneo.scope import DEFAULT_SCOPE
from tgneo.service.user_pipeline import AgentRecording, DocRagRecording, Retrieved, begin
from tgneo.store.driver import Store

try:
    from langchain_core.callbacks import BaseCallbackHandler
    from langchain_core.documents import Document
    from langchain_core.messages import BaseMessage
    from langchain_core.outputs import LLMResult
except ImportError as e:  # pragma: no cover - the adapter is used where LangChain is installed
    raise ImportError("tgneo.adapters.langchain needs LangChain: pip install langchain-core") from e

__all__ = ["TgneoCallbackHandler"]

log = logging.getLogger(__name__)

_SOURCE_KEYS = ("source", "fileName", "file_name", "path", "title", "url")
_ELEMENT_KEYS = ("element_id", "elementId")
_ANSWER_KEYS = ("answer", "output", "result", "text", "content", "response")
_QUESTION_KEYS = ("question", "query", "input", "q")


@dataclass
class _Usage:
    """The tokens and model of the model calls not yet recorded in a step."""

    model: str | None = None
    in_tokens: int | None = None
    out_tokens: int | None = None

    def add(self, model: str | None, in_tokens: int | None, out_tokens: int | None) -> None:
        self.model = model or self.model
        if in_tokens is not None:
            self.in_tokens = (self.in_tokens or 0) + in_tokens
        if out_tokens is not None:
            self.out_tokens = (self.out_tokens or 0) + out_tokens

    def take(self) -> dict[str, Any]:
        """The usage as step keywords, and a fresh start for the next step."""
        taken = {"model": self.model, "in_tokens": self.in_tokens, "out_tokens": self.out_tokens}
        self.model, self.in_tokens, self.out_tokens = None, None, None
        return taken


@dataclass
class _Run:
    """One top-level run being recorded."""

    question: str
    kind: str | None
    recording: Any = None
    queries: list[str] = field(default_factory=list)
    documents: list[Retrieved] = field(default_factory=list)
    usage: _Usage = field(default_factory=_Usage)
    words: str = ""
    """What the model said last (an agent's thought before its tool call; the answer if nothing better)."""
    tools: dict[UUID, tuple[str, dict[str, Any], float]] = field(default_factory=dict)


class TgneoCallbackHandler(BaseCallbackHandler):
    """Records every top-level LangChain run it is given as a tgneo trace (module docstring).

    Args:
        store: Where to record (default: the configured Neo4j, opened at the first run; :meth:`close` closes it).
        workspace, collection: Where the traces go.
        graph: The profile (or its name) of the Neo4j graph the retrieved documents belong to, if not tgneo's own.
        kind: ``document-rag`` or ``agent`` to fix the kind of every run, instead of each run's first step deciding.
        raise_error: Let a recording failure fail the run (LangChain's handler attribute; default: logged).
    """

    def __init__(
        self,
        *,
        store: Store | None = None,
        workspace: str = DEFAULT_SCOPE,
        collection: str = DEFAULT_SCOPE,
        graph: str | None = None,
        kind: str | None = None,
        raise_error: bool = False,
    ) -> None:
        super().__init__()
        if kind not in (None, "document-rag", "agent"):
            raise ValueError(f"kind: {kind!r} is not document-rag or agent")
        self._store, self._owned = store, store is None
        self.workspace, self.collection, self.graph, self.kind = workspace, collection, graph, kind
        self.raise_error = raise_error
        self.traces: list[str] = []
        """The URIs of the traces recorded, in the order their runs began."""
        self.recordings: list[Any] = []
        """Their recordings: after a run, its ``sources`` (the documents it rests on) and ``citations``."""
        self._runs: dict[UUID, _Run] = {}
        self._roots: dict[UUID, UUID] = {}
        self._lock = threading.RLock()

    def close(self) -> None:
        """Close the store the handler opened (one passed in stays the caller's)."""
        if self._owned and self._store is not None:
            self._store.close()
            self._store = None

    # -- the run's tree -----------------------------------------------------------------------------

    def _run(self, run_id: UUID, parent_run_id: UUID | None) -> _Run | None:
        """The top-level run ``run_id`` belongs to (noting it, for its own children's callbacks)."""
        root = self._roots.get(parent_run_id, parent_run_id) if parent_run_id is not None else run_id
        self._roots[run_id] = root
        return self._runs.get(root)

    def _begin(self, run: _Run, kind: str) -> Any:
        if run.recording is None:
            if self._store is None:
                self._store = Store.from_settings()
            run.kind = run.kind or kind
            run.recording = begin(run.question, run.kind, self._store, workspace=self.workspace,
                                  collection=self.collection, graph=self.graph)  # fmt: skip
            self.traces.append(run.recording.uri)
            self.recordings.append(run.recording)
        return run.recording

    # -- LangChain's callbacks ----------------------------------------------------------------------

    def on_chain_start(
        self, serialized: dict[str, Any], inputs: Any, *, run_id: UUID, parent_run_id: UUID | None = None,
        **kwargs: Any,
    ) -> None:  # fmt: skip
        with self._lock:
            self._run(run_id, parent_run_id)
            if parent_run_id is None:
                self._runs[run_id] = _Run(question=_question(inputs), kind=self.kind)

    def on_retriever_start(
        self, serialized: dict[str, Any], query: str, *, run_id: UUID, parent_run_id: UUID | None = None,
        **kwargs: Any,
    ) -> None:  # fmt: skip
        with self._lock:
            run = self._run(run_id, parent_run_id)
            if run is not None and run.kind != "agent" and isinstance(query, str) and query.strip():
                run.queries.append(query.strip())

    def on_retriever_end(
        self, documents: Sequence[Document], *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: Any
    ) -> None:
        with self._lock:
            run = self._run(run_id, parent_run_id)
            if run is None or run.kind == "agent":
                return  # a retriever inside an agent's tool: the tool's Observation holds what it returned
            run.kind = "document-rag"
            run.documents.extend(_retrieved(d, n) for n, d in enumerate(documents, len(run.documents)))

    def on_chat_model_start(
        self, serialized: dict[str, Any], messages: list[list[BaseMessage]], *, run_id: UUID,
        parent_run_id: UUID | None = None, **kwargs: Any,
    ) -> None:  # fmt: skip
        self._model_starts(run_id, parent_run_id)

    def on_llm_start(
        self, serialized: dict[str, Any], prompts: list[str], *, run_id: UUID, parent_run_id: UUID | None = None,
        **kwargs: Any,
    ) -> None:  # fmt: skip
        self._model_starts(run_id, parent_run_id)

    def _model_starts(self, run_id: UUID, parent_run_id: UUID | None) -> None:
        """The model is about to read what was retrieved: the retrieval's steps are recorded now."""
        with self._lock:
            run = self._run(run_id, parent_run_id)
            if run is not None and run.kind == "document-rag" and run.documents:
                self._retrieval(run)

    def on_llm_end(
        self, response: LLMResult, *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: Any
    ) -> None:
        with self._lock:
            run = self._run(run_id, parent_run_id)
            if run is None:
                return
            run.usage.add(*_usage(response))
            words = _generated_text(response)
            if words:
                run.words = words

    def on_tool_start(
        self, serialized: dict[str, Any], input_str: str, *, run_id: UUID, parent_run_id: UUID | None = None,
        inputs: dict[str, Any] | None = None, **kwargs: Any,
    ) -> None:  # fmt: skip
        with self._lock:
            run = self._run(run_id, parent_run_id)
            if run is None or run.kind == "document-rag":
                return
            run.kind = "agent"
            name = (serialized or {}).get("name") or kwargs.get("name") or "tool"
            run.tools[run_id] = (str(name), _arguments(inputs, input_str), time.monotonic())

    def on_tool_end(self, output: Any, *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: Any) -> None:
        self._tool_ends(run_id, parent_run_id, _text(output), None)

    def on_tool_error(
        self, error: BaseException, *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: Any
    ) -> None:
        self._tool_ends(run_id, parent_run_id, "", f"{type(error).__name__}: {error}")

    def _tool_ends(self, run_id: UUID, parent_run_id: UUID | None, observation: str, error: str | None) -> None:
        with self._lock:
            run = self._run(run_id, parent_run_id)
            if run is None or run_id not in run.tools:
                return
            name, arguments, started = run.tools.pop(run_id)
            recording: AgentRecording = self._begin(run, "agent")
            thought = run.words or f"The model called {name}."
            run.words = ""
            recording.step(thought, name, arguments, observation, error=error,
                           tool_ms=round((time.monotonic() - started) * 1000), **run.usage.take())  # fmt: skip

    def on_chain_end(self, outputs: Any, *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: Any) -> None:
        with self._lock:
            if parent_run_id is not None or run_id not in self._runs:
                return
            run = self._finish(run_id)
            answer = _answer(outputs) or run.words
            if run.kind == "document-rag":
                if run.recording is None or not run.recording.recorded("focus"):
                    self._retrieval(run)
                run.recording.synthesis(answer, **run.usage.take())
            else:
                self._begin(run, "agent").conclusion(answer, **run.usage.take())

    def on_chain_error(
        self, error: BaseException, *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: Any
    ) -> None:
        with self._lock:
            if parent_run_id is None and run_id in self._runs:
                self._finish(run_id)  # the steps it got through stay; nothing more is known
                log.info("run %s failed (%s): its trace keeps the steps recorded before", run_id, error)

    def _finish(self, root: UUID) -> _Run:
        self._roots = {child: r for child, r in self._roots.items() if r != root}
        return self._runs.pop(root)

    def _retrieval(self, run: _Run) -> None:
        """Record the Grounding, Exploration and Focus of a Document RAG run (once)."""
        recording: DocRagRecording = self._begin(run, "document-rag")
        if recording.recorded("focus"):
            return
        recording.grounding(run.queries or [run.question])
        recording.exploration(run.documents)
        recording.focus(run.documents)


def _question(inputs: Any) -> str:
    """The question a run was asked: its input text, or the text under a usual key, or its last user message."""
    if isinstance(inputs, str):
        return inputs
    if isinstance(inputs, Mapping):
        for key in _QUESTION_KEYS:
            if isinstance(inputs.get(key), str) and inputs[key].strip():
                return str(inputs[key])
        if "messages" in inputs:
            return _question(inputs["messages"])
        texts = [v for v in inputs.values() if isinstance(v, str) and v.strip()]
        if len(texts) == 1:
            return texts[0]
    if isinstance(inputs, Sequence) and inputs:
        return _text(inputs[-1])
    return _text(inputs)


def _answer(outputs: Any) -> str:
    """The answer a run gave: its output text, the text under a usual key, or its last message's text."""
    if isinstance(outputs, Mapping):
        for key in _ANSWER_KEYS:
            if key in outputs and _text(outputs[key]).strip():
                return _text(outputs[key])
        if outputs.get("messages"):
            return _text(outputs["messages"][-1])
        return ""
    return _text(outputs)


def _text(value: Any) -> str:
    """A value as the text a person reads: a message's content, a tool message's, or the value itself."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    content = getattr(value, "content", None)
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(p if isinstance(p, str) else str(p.get("text", "")) for p in content)
    if isinstance(value, Mapping | list):
        return json.dumps(value, default=str, ensure_ascii=False)
    return str(value)


def _arguments(inputs: Mapping[str, Any] | None, input_str: str) -> dict[str, Any]:
    if inputs:
        return {str(k): v for k, v in inputs.items()}
    try:
        parsed = json.loads(input_str)
    except (TypeError, ValueError):
        parsed = None
    return parsed if isinstance(parsed, dict) else {"input": input_str}


def _retrieved(document: Document, n: int) -> Retrieved:
    """A LangChain document as a retrieved item (module docstring: how it is placed)."""
    metadata = document.metadata or {}
    element = next((metadata[k] for k in _ELEMENT_KEYS if isinstance(metadata.get(k), str)), None)
    ident = element or document.id or metadata.get("id") or f"document-{n}"
    source = next((str(metadata[k]) for k in _SOURCE_KEYS if metadata.get(k)), None)
    score = metadata.get("score")
    return Retrieved(str(ident), document.page_content, float(score) if isinstance(score, int | float) else None,
                     source)  # fmt: skip


def _usage(response: LLMResult) -> tuple[str | None, int | None, int | None]:
    """The model and tokens of one model call, as LangChain reports them."""
    output = response.llm_output or {}
    model = output.get("model_name") or output.get("model")
    in_tokens = out_tokens = None
    for generations in response.generations:
        for generation in generations:
            message = getattr(generation, "message", None)
            usage = getattr(message, "usage_metadata", None)
            if usage:
                in_tokens = (in_tokens or 0) + int(usage.get("input_tokens", 0))
                out_tokens = (out_tokens or 0) + int(usage.get("output_tokens", 0))
            metadata = getattr(message, "response_metadata", None) or {}
            model = model or metadata.get("model_name") or metadata.get("model")
    if in_tokens is None and output.get("token_usage"):
        counted = output["token_usage"]
        in_tokens, out_tokens = counted.get("prompt_tokens"), counted.get("completion_tokens")
    return (str(model) if model else None), in_tokens, out_tokens


def _generated_text(response: LLMResult) -> str:
    return next((g.text for gs in response.generations for g in gs if g.text and g.text.strip()), "")
