"""OTLP span trees recorded as tgneo traces: what ``POST /v1/traces`` does with the spans it receives.

:func:`receive` keeps a batch's spans (``tgneo.store.otlp_receive``) and records each tree the batch made whole. A span
tree (the spans of one OpenTelemetry trace id) becomes one trace, through :func:`tgneo.record`'s recorder, once
it is whole: its root span has arrived and every span's parent has. Its session id is the trace id (16
bytes are a UUID), so a tree always lands on the same URIs, and a tree that grows after it was recorded (a late
batch) is recorded again in its place. Spans are read by both conventions users' instrumentation emits:

================  ======================================  ==========================================
what              OpenInference                           OpenTelemetry GenAI (``gen_ai.*``)
================  ======================================  ==========================================
a retrieval       ``openinference.span.kind`` RETRIEVER,  ``gen_ai.operation.name`` ``retrieval``,
                  ``retrieval.documents.N.document.*``    ``gen_ai.retrieval.documents`` ``[{id, score}]``
a model call      LLM: ``llm.token_count.*``,             ``chat`` / ``text_completion``:
                  ``llm.model_name``, ``output.value``    ``gen_ai.usage.*``, ``gen_ai.response.model``
a tool call       TOOL: ``tool.name``, ``input.value``,   ``execute_tool``: ``gen_ai.tool.name``,
                  ``output.value``                        ``gen_ai.tool.call.arguments`` / ``.result``
the question      the root's ``input.value``              the first user message of a model call
================  ======================================  ==========================================

A tree with a tool call is an agent's trace (each tool call an Analysis — the words of the model call before it,
its tokens and model — and an Observation, typed an error when the span's status is); otherwise a tree with a
retrieval is a Document RAG trace (a Grounding in the retrieval queries, an Exploration and a Focus holding every
document retrieved, placed as :class:`~tgneo.service.user_pipeline.Retrieved` items are, and the Synthesis with the
answer and every model call's tokens); a tree with neither is an agent's that concluded at once.
"""

from __future__ import annotations

import json
import logging
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tgneo.errors import BadRequest, StoreUnavailable, TgneoError
from tgneo.graph_profiles import GraphProfile
from tgneo.otlp.receive import Span
from tgneo.service.user_pipeline import Retrieved, begin
from tgneo.store import otlp_receive as kept
from tgneo.store.driver import Store
from tgneo.store.retention import delete_trace

__all__ = ["Received", "Tree", "receive", "record_tree", "session_of", "whole"]

log = logging.getLogger(__name__)


@dataclass
class Received:
    """What one export request did: spans kept, traces recorded (their URIs), and trees that failed to record."""

    spans: int = 0
    recorded: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)
    """Trace id → why it could not be recorded (its spans stay kept; the next batch or retry tries again)."""


def receive(
    store: Store, workspace: str, collection: str, spans: Sequence[Span], graph: GraphProfile | None = None
) -> Received:
    """Keep ``spans`` and record every tree they made whole (module docstring)."""
    claim = uuid.uuid4().hex
    done = Received(spans=len(spans))
    for trace_id in kept.keep(store, workspace, collection, spans, claim):
        while True:
            recorded: str | None = None
            try:
                tree, before = kept.tree(store, workspace, collection, trace_id)
                if before is not None and delete_trace(store, workspace, collection, before) is None:
                    raise BadRequest(f"the trace {before} is held: the spans that arrived since are kept, not recorded")
                recorded = record_tree(Tree.of(tree), store, workspace, collection, graph)
                done.recorded.append(recorded)
            except StoreUnavailable:
                raise  # 503: the exporter retries the batch, whose spans are kept already
            except TgneoError as e:
                log.warning("span tree %s could not be recorded: %s", trace_id, e)
                done.failed[trace_id] = str(e)
            except Exception as e:  # a span tree no rule here foresaw: its spans stay kept, the batch goes on
                log.exception("span tree %s could not be recorded", trace_id)
                done.failed[trace_id] = f"{type(e).__name__}: {e}"
            finally:
                kept.release(store, workspace, collection, trace_id, claim, recorded)
            if recorded is None or not kept.reclaim(store, workspace, collection, trace_id, claim):
                break
    return done


_QUESTION_KEYS = ("question", "query", "input", "q")
_ANSWER_KEYS = ("answer", "output", "result", "text", "content", "response")
_SOURCE_KEYS = ("source", "fileName", "file_name", "path", "title", "url")
_ELEMENT_KEYS = ("element_id", "elementId")


_OPERATIONS = {
    "retrieval": "retriever", "chat": "llm", "text_completion": "llm", "generate_content": "llm",
    "execute_tool": "tool", "invoke_agent": "agent", "create_agent": "agent",
}  # fmt: skip
"""GenAI's ``gen_ai.operation.name`` values as the kinds of span read here."""


def session_of(trace_id: str) -> str:
    """The tgneo session id of an OTel trace id: its 16 bytes as a UUID."""
    return str(uuid.UUID(hex=trace_id))


def whole(spans: Iterable[Span]) -> bool:
    """Whether a span tree is complete: its root has arrived and every span's parent has."""
    spans = list(spans)
    ids = {s.span_id for s in spans}
    return any(not s.parent_id for s in spans) and all(not s.parent_id or s.parent_id in ids for s in spans)


def _kind(span: Span) -> str:
    """``retriever``, ``llm``, ``tool``, ``agent``, ``chain`` or ``other``, by either convention."""
    a = span.attributes
    openinference = str(a.get("openinference.span.kind", "")).upper()
    if openinference in ("RETRIEVER", "LLM", "TOOL", "AGENT", "CHAIN"):
        return openinference.lower()
    operation = str(a.get("gen_ai.operation.name", ""))
    return _OPERATIONS.get(operation, "other")


@dataclass(frozen=True)
class Tree:
    """A whole span tree, its spans in the order they started."""

    spans: tuple[Span, ...]

    @staticmethod
    def of(spans: Iterable[Span]) -> Tree:
        return Tree(tuple(sorted(spans, key=lambda s: (s.start, s.end, s.span_id))))

    @property
    def root(self) -> Span:
        return next(s for s in self.spans if not s.parent_id)

    def of_kind(self, kind: str) -> list[Span]:
        return [s for s in self.spans if _kind(s) == kind]

    def question(self) -> str:
        """The root's input, else the first model call's last user message, else a retrieval's query."""
        asked = _text_in(self.root.attributes.get("input.value"), _QUESTION_KEYS)
        if not asked:
            asked = next((q for s in self.of_kind("llm") if (q := _user_message(s))), "")
        if not asked:
            asked = next((q for s in self.of_kind("retriever") if (q := _query(s))), "")
        return asked or self.root.name

    def answer(self) -> str:
        """The root's output, else the last model call's."""
        answered = _text_in(self.root.attributes.get("output.value"), _ANSWER_KEYS)
        answered = answered or _messages_text(self.root.attributes.get("gen_ai.output.messages"))
        if not answered:
            answered = next((t for s in reversed(self.of_kind("llm")) if (t := _model_words(s))), "")
        return answered


def record_tree(tree: Tree, store: Store, workspace: str, collection: str, graph: GraphProfile | None = None) -> str:
    """Record ``tree`` as a trace (module docstring); returns its URI."""
    session = session_of(tree.root.trace_id)
    tools, retrievals, models = tree.of_kind("tool"), tree.of_kind("retriever"), tree.of_kind("llm")
    kind = "agent" if tools else "document-rag" if retrievals else "agent"
    recording: Any = begin(tree.question(), kind, store, workspace=workspace, collection=collection, graph=graph,
                      session=session)  # fmt: skip
    if kind == "document-rag":
        queries = [q for s in retrievals if (q := _query(s))]
        documents = _unique(d for s in retrievals for d in _documents(s))
        recording.grounding(queries or [recording.question])
        recording.exploration(documents)
        recording.focus(documents)
        recording.synthesis(tree.answer(), **_usage(models))
        return str(recording.uri)
    used: set[str] = set()
    for tool in tools:
        before = [m for m in models if m.end <= tool.start and m.span_id not in used]
        used |= {m.span_id for m in before}
        words = next((t for m in reversed(before) if (t := _model_words(m))), "")
        name = str(tool.attributes.get("tool.name") or tool.attributes.get("gen_ai.tool.name") or tool.name)
        arguments = _called_with(before, name) or _arguments(tool)
        observation = _text_in(tool.attributes.get("output.value"), _ANSWER_KEYS) or _text_in(
            tool.attributes.get("gen_ai.tool.call.result"), _ANSWER_KEYS
        )
        recording.step(words or f"The model called {name}.", name, arguments, observation, error=tool.error,
                       tool_ms=max(0, (tool.end - tool.start) // 1_000_000), **_usage(before))  # fmt: skip
    rest = [m for m in models if m.span_id not in used]
    recording.conclusion(tree.answer(), **_usage(rest))
    return str(recording.uri)


def _usage(models: Sequence[Span]) -> dict[str, Any]:
    """The summed tokens and the last model name of some model calls, as step keywords."""
    model, in_tokens, out_tokens = None, None, None
    for span in models:
        a = span.attributes
        name = a.get("llm.model_name") or a.get("gen_ai.response.model") or a.get("gen_ai.request.model")
        model = str(name) if name else model
        spent = _count(a, "llm.token_count.prompt", "gen_ai.usage.input_tokens")
        said = _count(a, "llm.token_count.completion", "gen_ai.usage.output_tokens")
        in_tokens = in_tokens if spent is None else (in_tokens or 0) + spent
        out_tokens = out_tokens if said is None else (out_tokens or 0) + said
    return {"model": model, "in_tokens": in_tokens, "out_tokens": out_tokens}


def _count(attributes: Mapping[str, Any], *keys: str) -> int | None:
    """The first of ``keys`` that holds a whole number (either convention's name for the same count)."""
    return next((v for k in keys if isinstance(v := attributes.get(k), int) and not isinstance(v, bool)), None)


def _documents(span: Span) -> list[Retrieved]:
    """A retrieval span's documents: OpenInference's flattened ``retrieval.documents.N.document.*``, or GenAI's
    ``gen_ai.retrieval.documents`` (ids and scores only: such a document is found by its id or kept as its id)."""
    a = span.attributes
    found: dict[int, dict[str, Any]] = {}
    for key, value in a.items():
        if key.startswith("retrieval.documents."):
            index, _, rest = key[len("retrieval.documents.") :].partition(".")
            if index.isdigit() and rest.startswith("document."):
                found.setdefault(int(index), {})[rest[len("document.") :]] = value
    items = [_retrieved(found[i], f"{span.span_id}-{i}") for i in sorted(found)]
    listed = a.get("gen_ai.retrieval.documents")
    if isinstance(listed, str):
        try:
            listed = json.loads(listed)
        except ValueError:
            raise BadRequest(f"span {span.span_id}: gen_ai.retrieval.documents is not JSON") from None
    if isinstance(listed, list):
        items += [_retrieved(d, f"{span.span_id}-{n}") for n, d in enumerate(listed) if isinstance(d, Mapping)]
    return items


def _retrieved(document: Mapping[str, Any], fallback: str) -> Retrieved:
    metadata = document.get("metadata") or {}
    if isinstance(metadata, str):
        try:
            metadata = json.loads(metadata)
        except ValueError:
            metadata = {}
    metadata = metadata if isinstance(metadata, Mapping) else {}
    element = next((str(metadata[k]) for k in _ELEMENT_KEYS if metadata.get(k)), None)
    ident = element or str(document.get("id") or metadata.get("id") or fallback)
    text = document.get("content")
    text = str(text) if text else f"(the text of {ident} was not sent with the span)"
    score = document.get("score", metadata.get("score"))
    source = next((str(metadata[k]) for k in _SOURCE_KEYS if metadata.get(k)), None)
    return Retrieved(ident, text, float(score) if isinstance(score, int | float) else None, source)


def _unique(items: Iterable[Retrieved]) -> list[Retrieved]:
    seen: dict[str, Retrieved] = {}
    for item in items:
        seen.setdefault(item.id, item)
    return list(seen.values())


def _query(span: Span) -> str:
    a = span.attributes
    return _text_in(a.get("input.value"), _QUESTION_KEYS) or str(a.get("gen_ai.retrieval.query.text") or "")


def _called_with(models: Sequence[Span], tool: str) -> dict[str, Any] | None:
    """The arguments the model passed to ``tool`` in its tool call (OpenInference's
    ``llm.output_messages.0.message.tool_calls.N.tool_call.function.*``): the call's own arguments, where the tool
    span's input holds only what the framework handed the tool."""
    for span in reversed(models):
        a = span.attributes
        for key, value in a.items():
            if key.endswith(".tool_call.function.name") and value == tool:
                raw = a.get(key.replace(".function.name", ".function.arguments"))
                try:
                    parsed = json.loads(raw) if isinstance(raw, str) else None
                except ValueError:
                    parsed = None
                if isinstance(parsed, dict):
                    return parsed
    return None


def _arguments(span: Span) -> dict[str, Any]:
    raw = span.attributes.get("input.value") or span.attributes.get("gen_ai.tool.call.arguments")
    if isinstance(raw, str):
        try:
            parsed = json.loads(raw)
        except ValueError:
            return {"input": raw}
        return parsed if isinstance(parsed, dict) else {"input": parsed}
    return {} if raw is None else {"input": raw}


def _model_words(span: Span) -> str:
    """What a model call said: OpenInference's output message (or ``output.value``), or GenAI's output messages."""
    a = span.attributes
    content = a.get("llm.output_messages.0.message.content")
    if isinstance(content, str) and content.strip():
        return content
    return _messages_text(a.get("gen_ai.output.messages")) or _text_in(a.get("output.value"), _ANSWER_KEYS)


def _user_message(span: Span) -> str:
    a = span.attributes
    roles = (k for k, v in a.items() if k.startswith("llm.input_messages.") and k.endswith(".message.role"))
    users = sorted(
        (k for k in roles if a[k] == "user"),
        key=lambda k: int(k.split(".")[2]) if k.split(".")[2].isdigit() else 0,
    )
    if users:
        content = a.get(users[-1].replace(".message.role", ".message.content"))
        if isinstance(content, str) and content.strip():
            return content
    return _messages_text(a.get("gen_ai.input.messages"), role="user")


def _messages_text(raw: object, role: str | None = None) -> str:
    """The text of the last message (of ``role``) in GenAI's JSON messages ``[{role, parts: [{type, content}]}]``."""
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except ValueError:
            return ""
    if not isinstance(raw, list):
        return ""
    for message in reversed(raw):
        if not isinstance(message, Mapping) or (role and message.get("role") != role):
            continue
        parts = message.get("parts") or []
        text = "".join(str(p.get("content", "")) for p in parts if isinstance(p, Mapping) and p.get("type") == "text")
        content = message.get("content")
        text = text or (content if isinstance(content, str) else "")
        if text.strip():
            return str(text)
    return ""


def _text_in(raw: object, keys: Sequence[str]) -> str:
    """A span's ``input.value`` / ``output.value``: plain text, or a JSON object whose usual key (or only string
    value, or last message) holds the text."""
    if raw is None:
        return ""
    if not isinstance(raw, str):
        return json.dumps(raw, default=str, ensure_ascii=False)
    try:
        parsed = json.loads(raw)
    except ValueError:
        return raw
    if isinstance(parsed, str):
        return parsed
    if isinstance(parsed, Mapping):
        for key in keys:
            if isinstance(parsed.get(key), str) and parsed[key].strip():
                return str(parsed[key])
        messages = parsed.get("messages")
        if isinstance(messages, list) and messages:
            last = messages[-1]
            content = last.get("content") if isinstance(last, Mapping) else None
            if isinstance(content, str):
                return content
            kwargs = last.get("kwargs") if isinstance(last, Mapping) else None
            if isinstance(kwargs, Mapping) and isinstance(kwargs.get("content"), str):
                return str(kwargs["content"])
        strings = [v for v in parsed.values() if isinstance(v, str) and v.strip()]
        if len(strings) == 1:
            return strings[0]
    return raw
