"""tgneo traces as OpenTelemetry spans (OTLP), so Phoenix, Langfuse, Jaeger or any OTLP backend shows them.

The input is a trace as :func:`tgneo.store.traces.get_trace` returns it. The mapping is :func:`step_spans`: one
:class:`StepSpan` per step, plain values, before any encoding. Two encodings are made from it and from nothing
else: the OTLP/JSON ``ExportTraceServiceRequest`` (:func:`otlp_json`: ids in lowercase hex, 64-bit integers as
strings, enums as integers; ``tgneo export --format otlp-json``), and the OpenTelemetry SDK's spans that
:mod:`tgneo.otlp.export_http` hands to the SDK's batch processor and OTLP/HTTP exporter. Pure: no driver, no I/O,
no SDK; the same trace always gives the same spans, so exporting a trace twice gives a backend the same spans
rather than a second copy.

How a trace becomes spans:

* **One OTel trace per tgneo trace.** Its ``traceId`` is the 16 bytes of the session UUID in the root URI
  (``urn:trustgraph:question:fa1d2504-…`` → ``fa1d2504…``), so a backend's trace id is the id a tgneo user
  already has; a root URI without a UUID hashes to one (the first 16 bytes of its SHA-256). A sub-trace (the
  GraphRAG question an agent's tool asked) stays inside its caller's OTel trace.
* **One span per step**, the root question included; ``spanId`` is the first 8 bytes of the SHA-256 of the
  step's URI. A step's parent span is its first parent step's; its other parents (an agent synthesis over
  several findings) are span links.
* **Every span names its PROV entity**: ``tgneo.prov.entity`` (the step's URI), ``tgneo.prov.type``,
  ``tgneo.trace`` (the root URI), ``tgneo.workspace``, ``tgneo.collection`` — what ``tgneo trace show``,
  ``tgneo export`` and ``/api/v1/traces/{uri}`` take to go back from a span to its provenance.
* **GenAI semantic conventions** (``gen_ai.*``, experimental upstream) for what each step did:

  ============================================  =================  ============================================
  step                                          operation          what else
  ============================================  =================  ============================================
  a question (GraphRAG, Document RAG, agent,    ``invoke_agent``   ``gen_ai.agent.name`` (``graph-rag``,
  and the sub-questions inside a trace)                            ``document-rag``, ``agent``),
                                                                   ``gen_ai.conversation.id`` (session UUID),
                                                                   ``gen_ai.input.messages`` (the question)
  Exploration; a selection made without a       ``retrieval``      ``gen_ai.retrieval.documents``: a JSON list
  model (Document RAG's chunk Focus)                               of ``{id, score}``; ``gen_ai.data_source.id``
  Analysis that called a tool                   ``execute_tool``   ``gen_ai.tool.name`` (the action),
                                                                   ``gen_ai.tool.call.arguments``, ``.result``
  any other step that called the model,         ``chat``           ``gen_ai.usage.input_tokens`` /
  and every Synthesis and Conclusion                               ``output_tokens``, ``gen_ai.request.model``
                                                                   / ``response.model``, the answer as
                                                                   ``gen_ai.output.messages``
  Thought, Observation, Finding, …              (none)             an Observation's text as
                                                                   ``gen_ai.tool.call.result``
  Verification (the counterfactual check of an  (none)             ``tgneo.verification.verdict``,
  answer, a child of the answer's span)                            ``.sufficiency``, ``.calls``, ``.model``,
                                                                   ``.stands_without`` (sentence numbers)
  Counterfactual (one re-run of the answering   ``chat``           ``tgneo.counterfactual.ablation``,
  stage, a child of its Verification's span)                       ``.ablated`` (the selection IRIs left out, or
                                                                   kept alone), ``.preserved``; a leave-one-out's
                                                                   ``.item`` and ``.necessity``; its answer as
                                                                   ``gen_ai.output.messages``
  ============================================  =================  ============================================

  Token counts sit on the step that spent them, never summed onto a parent, so a backend that adds up
  usage over a trace gets the trace's ``totals``. A Focus that scored edges is a ``chat`` span that also
  lists what it kept, with its scores, as ``gen_ai.retrieval.documents`` (edges by their statement id,
  chunks by URI). Span names are ``{operation} {target}``, the target being the agent, the tool, or the
  step type (``chat Focus``) rather than the model every step of a trace shares, so a waterfall reads like
  ``tgneo trace show``.
* **A verified answer** (:mod:`tgneo.engines.verify`): the check called the model once per re-run, and each re-run
  is a ``chat`` span of its own (a Counterfactual, with its model and tokens); the Verification is the span around
  them, with no operation and no usage of its own (the trace records its re-runs' sum on it, which a backend
  adding up usage would count twice), carrying what the check found. GenAI's ``gen_ai.evaluation.result`` is a
  log-based event, which a span exporter does not send: the verdict stays on the Verification's span, where a
  backend filters and groups by it.
* **Time.** tgneo records one instant per question (``prov:startedAtTime``) and per step what its model and
  tool calls took (``tg:llmDurationMs``, ``tg:toolDurationMs``), not a clock reading per step. So spans are
  laid end to end in derivation order, from the question's instant: a step starts where the step before it
  ended and lasts its recorded durations. A step that carries instants of its own (a sub-question's
  ``startedAtTime``; ``endedAtTime`` or ``generatedAtTime`` in an imported trace) keeps them; with only an
  end, it starts its duration earlier (or at its end). A question's span covers everything derived from it.
  With the offline model (durations 0) steps are instants: the waterfall shows the order, not time spent. A
  Verification ends when it was recorded (``generatedAtTime``) and lasts what its re-runs took; its
  Counterfactuals are laid end to end inside it, from its start.
* **Errors**: a step recorded as an error (an ``Observation:Error``) has status ``ERROR`` (code 2) with its
  message and ``error.type``; other spans leave the status unset, as OpenTelemetry asks instrumentations to.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC
from typing import Any

from tgneo.errors import MappingError
from tgneo.kinds import SessionKind
from tgneo.timestamps import parse_iso
from tgneo.version import __version__
from tgneo.vocab import Label

__all__ = [
    "RESOURCE",
    "SCOPE",
    "SERVICE",
    "Attribute",
    "SpanLink",
    "StepSpan",
    "otlp_json",
    "span_id",
    "step_spans",
    "trace_id",
]

SERVICE = "tgneo"
"""``service.name`` of the resource every exported span belongs to."""
SCOPE = "tgneo"
"""The instrumentation scope's name (its version is tgneo's). It is how tgneo's own ``POST /v1/traces`` knows
spans that tgneo exported (:mod:`tgneo.otlp.receive`): they are never recorded a second time."""
RESOURCE: Mapping[str, str] = {"service.name": SERVICE, "service.version": __version__}
"""The attributes of the one resource every exported span belongs to."""

# OTLP enum values (opentelemetry/proto/trace/v1/trace.proto), written as integers as OTLP/JSON requires
SPAN_KIND_INTERNAL = 1
SPAN_KIND_CLIENT = 3
STATUS_CODE_UNSET = 0
STATUS_CODE_ERROR = 2

INVOKE_AGENT, CHAT, RETRIEVAL, EXECUTE_TOOL = "invoke_agent", "chat", "retrieval", "execute_tool"
_KIND_OF = {INVOKE_AGENT: SPAN_KIND_INTERNAL, CHAT: SPAN_KIND_CLIENT, RETRIEVAL: SPAN_KIND_CLIENT,
            EXECUTE_TOOL: SPAN_KIND_INTERNAL}  # fmt: skip
"""In-process work is INTERNAL; a call out to a model or a database is CLIENT (as the GenAI conventions say)."""
_ANSWERS = frozenset({"Synthesis", "Conclusion"})
"""Step types that give an answer: ``chat`` even when they name no model."""

_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.IGNORECASE)
_FRACTION = re.compile(r"^(.*T\d{2}:\d{2}:\d{2})(?:[.,](\d+))?(.*)$")
_MS = 1_000_000
"""Nanoseconds in a millisecond."""


Attribute = str | bool | int | float | list[Any]
"""An attribute's value as OpenTelemetry takes it: a primitive, or a list of them."""


@dataclass(frozen=True)
class SpanLink:
    """A link from a span to another step's span of the same trace (a parent beyond the first)."""

    trace_id: str
    span_id: str
    attributes: Mapping[str, Attribute]


@dataclass(frozen=True)
class StepSpan:
    """One step of a trace as an OpenTelemetry span, before any encoding (module docstring).

    Attributes:
        trace_id, span_id: Lowercase hex (32 and 16 characters); ``parent_span_id`` likewise, ``None`` for the root.
        kind: OTLP's ``SpanKind`` number (1 internal, 3 client).
        start, end: Unix nanoseconds.
        attributes: In the order they are encoded; ``None`` values already left out, the others plain
            (:data:`Attribute`).
        status_code: OTLP's ``StatusCode`` number: 0 unset, 2 error (then ``status_message`` says what failed).
    """

    trace_id: str
    span_id: str
    parent_span_id: str | None
    name: str
    kind: int
    start: int
    end: int
    attributes: Mapping[str, Attribute]
    links: tuple[SpanLink, ...]
    status_code: int
    status_message: str | None


def otlp_json(trace: Mapping[str, Any]) -> dict[str, Any]:
    """The OTLP/JSON ``ExportTraceServiceRequest`` of one trace: one resource (``service.name`` tgneo), one scope.

    Args:
        trace: a trace as :func:`tgneo.store.traces.get_trace` returns it.

    Returns:
        ``{"resourceSpans": [{"resource": …, "scopeSpans": [{"scope": …, "spans": [...]}]}]}``, one span per
        step, in the trace's derivation order (the root question first). ``json.dumps`` of it is a body an
        OTLP/HTTP receiver accepts with ``Content-Type: application/json``.

    Raises:
        MappingError: the trace has no steps, or a step has no URI.
    """
    return {
        "resourceSpans": [
            {
                "resource": {"attributes": _json_attributes(RESOURCE)},
                "scopeSpans": [
                    {"scope": {"name": SCOPE, "version": __version__}, "spans": [_json(s) for s in step_spans(trace)]}
                ],
            }
        ]
    }


def trace_id(root_uri: str) -> str:
    """The OTel trace id of the trace rooted at ``root_uri``: its session UUID, else a hash of the URI (32 hex)."""
    found = _UUID.search(root_uri)
    if found and int(found.group(0).replace("-", ""), 16):
        return uuid.UUID(found.group(0)).hex
    return _nonzero(hashlib.sha256(root_uri.encode()).digest()[:16]).hex()


def span_id(step_uri: str) -> str:
    """The OTel span id of the step ``step_uri``: the first 8 bytes of the URI's SHA-256 (16 hex)."""
    return _nonzero(hashlib.sha256(step_uri.encode()).digest()[:8]).hex()


def _nonzero(raw: bytes) -> bytes:
    """OTLP reads all-zero ids as "no id"; the one such hash in 2⁶⁴ becomes ``…01``."""
    return raw if any(raw) else raw[:-1] + b"\x01"


# --------------------------------------------------------------------------------------------------
# spans


def step_spans(trace: Mapping[str, Any]) -> list[StepSpan]:
    """The mapping: one :class:`StepSpan` per step of ``trace``, in its derivation order (module docstring).

    Raises:
        MappingError: the trace has no steps, or a step has no URI.
    """
    steps: list[Mapping[str, Any]] = list(trace.get("steps") or [])
    if not steps:
        raise MappingError(f"trace {trace.get('uri')!r} has no steps to export")
    for index, step in enumerate(steps):
        if not isinstance(step.get("uri"), str) or not step["uri"]:
            raise MappingError(f"steps[{index}] has no uri")
    root = str(trace.get("uri") or steps[0]["uri"])
    tid = trace_id(root)
    by_uri = {s["uri"]: s for s in steps}
    parent: dict[str, str | None] = {
        s["uri"]: next((p for p in s.get("parents", []) if p in by_uri and p != s["uri"]), None) for s in steps
    }
    for step in steps:  # a step whose parents were not read (a truncated trace) hangs under the root
        if parent[step["uri"]] is None and step["uri"] != root and root in by_uri:
            parent[step["uri"]] = root
    times = _times(trace, steps, parent)
    results = {_observed_by(s["uri"]): _text(s) for s in steps if s.get("type") == "Observation"}
    common = {"tgneo.trace": root, "tgneo.workspace": trace.get("workspace"),
              "tgneo.collection": trace.get("collection")}  # fmt: skip
    relation = _plain_attributes({"tgneo.prov.relation": "wasDerivedFrom"})
    spans = []
    for step in steps:
        uri = step["uri"]
        operation, name, attributes = _describe(step, trace, results.get(uri))
        up = parent[uri]
        start, end = times[uri]
        prov = {"tgneo.prov.entity": uri, "tgneo.prov.type": step.get("type"), "tgneo.prov.label": _label(step)}
        values = {**attributes, **prov, **common}
        others = [p for p in step.get("parents", []) if p in by_uri and p not in (uri, up)]
        status, message = STATUS_CODE_UNSET, None
        if "error" in step:
            values["error.type"] = "_OTHER"
            status, message = STATUS_CODE_ERROR, str(step["error"] or f"{step.get('type')} recorded an error")
        spans.append(
            StepSpan(
                trace_id=tid, span_id=span_id(uri), parent_span_id=None if up is None else span_id(up), name=name,
                kind=_KIND_OF.get(operation or "", SPAN_KIND_INTERNAL), start=start, end=end,
                attributes=_plain_attributes(values), links=tuple(SpanLink(tid, span_id(p), relation) for p in others),
                status_code=status, status_message=message,
            )
        )  # fmt: skip
    return spans


def _describe(
    step: Mapping[str, Any], trace: Mapping[str, Any], result: str | None
) -> tuple[str | None, str, dict[str, Any]]:
    """A step's GenAI operation (or none), its span name and its ``gen_ai.*`` attributes (module docstring)."""
    props: Mapping[str, Any] = step.get("properties") or {}
    kind = SessionKind.of_labels(step.get("labels") or [])
    step_type = str(step.get("type") or "Step")
    model = props.get("llmModel") if isinstance(props.get("llmModel"), str) else None
    used_model = model is not None or "inToken" in props or "outToken" in props
    documents = _documents(step)
    attributes: dict[str, Any] = {}
    if kind is not None:
        operation, target = INVOKE_AGENT, kind.wire
        session = _UUID.search(str(step["uri"]))
        attributes |= {"gen_ai.agent.name": kind.wire, "gen_ai.conversation.id": session and session.group(0)}
        if isinstance(props.get("query"), str):
            attributes["gen_ai.input.messages"] = _messages("user", "text", props["query"])
    elif step_type == "Analysis" and props.get("action"):
        operation = EXECUTE_TOOL
        target = str(props["action"])
        arguments = props.get("arguments")
        attributes |= {
            "gen_ai.tool.name": target,
            "gen_ai.tool.call.arguments": arguments if isinstance(arguments, str) or arguments is None
            else json.dumps(arguments, ensure_ascii=False),
            "gen_ai.tool.call.result": result,
        }  # fmt: skip
    elif step_type == "Exploration" or (documents and not used_model):
        operation, target = RETRIEVAL, step_type
        attributes["gen_ai.data_source.id"] = f"{trace.get('workspace')}/{trace.get('collection')}"
    elif step_type == Label.VERIFICATION:  # its model calls are its Counterfactuals' spans (module docstring)
        operation, target = None, step_type
        attributes |= _verification(step)
    elif used_model or step_type in _ANSWERS:
        operation, target = CHAT, step_type
    else:
        operation, target = None, step_type
    if step_type == Label.COUNTERFACTUAL:
        attributes |= _counterfactual(step)
    if operation in (CHAT, EXECUTE_TOOL):
        attributes |= {
            "gen_ai.request.model": model,
            "gen_ai.response.model": model,
            "gen_ai.usage.input_tokens": _int(props.get("inToken")),
            "gen_ai.usage.output_tokens": _int(props.get("outToken")),
        }
    if documents:
        attributes["gen_ai.retrieval.documents"] = json.dumps(documents, ensure_ascii=False)
    text = _text(step)
    if step_type == "Observation":
        attributes["gen_ai.tool.call.result"] = text
    elif step_type == "Thought" and text is not None:
        attributes["gen_ai.output.messages"] = _messages("assistant", "reasoning", text)
    elif operation == CHAT and (step_type in _ANSWERS or step_type == Label.COUNTERFACTUAL) and text is not None:
        attributes["gen_ai.output.messages"] = _messages("assistant", "text", text, finish_reason="stop")
    if operation is not None:
        attributes["gen_ai.operation.name"] = operation
        return operation, f"{operation} {target}", attributes
    return None, target, attributes


def _verification(step: Mapping[str, Any]) -> dict[str, Any]:
    """What a counterfactual check found (``tgneo.verification.*``): its verdict, the share of the answer the cited
    evidence alone still gave, how many re-runs it made, the model that answered them, and the numbers of the answer
    sentences that stand without their evidence (none when the verdict is ``supported``)."""
    props: Mapping[str, Any] = step.get("properties") or {}
    return {
        "tgneo.verification.verdict": _str(props.get("verdict")),
        "tgneo.verification.sufficiency": _float(props.get("sufficiency")),
        "tgneo.verification.calls": _int(props.get("calls")),
        "tgneo.verification.model": _str(props.get("llmModel")),
        "tgneo.verification.stands_without": [i for i in step.get("stands_without") or [] if _int(i) is not None],
    }


def _counterfactual(step: Mapping[str, Any]) -> dict[str, Any]:
    """One re-run of a check (``tgneo.counterfactual.*``): how it altered the evidence, the selections it left out
    (for ``only-cited``, the ones it kept), the share of the answer it still said; a leave-one-out also names its
    one item and that item's necessity (the share of the answer lost without it)."""
    props: Mapping[str, Any] = step.get("properties") or {}
    ablated = [str(uri) for uri in step.get("ablated") or []]
    necessity = _float(props.get("necessity"))
    return {
        "tgneo.counterfactual.ablation": _str(props.get("ablation")),
        "tgneo.counterfactual.ablated": ablated,
        "tgneo.counterfactual.preserved": _float(props.get("preserved")),
        "tgneo.counterfactual.item": ablated[0] if necessity is not None and len(ablated) == 1 else None,
        "tgneo.counterfactual.necessity": necessity,
    }


def _documents(step: Mapping[str, Any]) -> list[dict[str, Any]]:
    """What a step retrieved or kept, as ``gen_ai.retrieval.documents`` items (``score`` only when recorded)."""
    found: list[dict[str, Any]] = []
    for edge in step.get("edges") or []:
        statement = edge.get("statement") or {}
        found.append(_document(statement.get("id") or edge.get("selection"), edge.get("score")))
    for chunk in step.get("chunks") or []:
        found.append(_document((chunk.get("chunk") or {}).get("uri") or chunk.get("selection"), chunk.get("score")))
    for uri in step.get("selected_chunks") or []:
        found.append(_document(uri, None))
    for entity in step.get("entities") or []:
        found.append(_document(entity.get("uri"), None))
    return [d for d in found if d["id"]]


def _document(identifier: object, score: object) -> dict[str, Any]:
    document: dict[str, Any] = {"id": str(identifier) if identifier is not None else ""}
    if isinstance(score, int | float) and not isinstance(score, bool):
        document["score"] = float(score)
    return document


def _messages(role: str, part: str, content: str, finish_reason: str | None = None) -> str:
    """A GenAI ``input``/``output`` messages attribute: one message with one part, as a JSON string."""
    message: dict[str, Any] = {"role": role, "parts": [{"type": part, "content": content}]}
    if finish_reason is not None:
        message["finish_reason"] = finish_reason
    return json.dumps([message], ensure_ascii=False)


def _text(step: Mapping[str, Any]) -> str | None:
    """The content a step holds (an answer, a thought, an observation): its text, else its first document's."""
    text = (step.get("properties") or {}).get("text")
    if isinstance(text, str):
        return text
    return next((d["text"] for d in step.get("documents") or [] if isinstance(d.get("text"), str)), None)


def _label(step: Mapping[str, Any]) -> str | None:
    label = (step.get("properties") or {}).get("label")
    return label if isinstance(label, str) else None


def _observed_by(observation_uri: str) -> str:
    """The Analysis an agent Observation reports on: TrustGraph mints ``{iteration}/observation``."""
    return observation_uri.removesuffix("/observation")


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _float(value: object) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _str(value: object) -> str | None:
    return value if isinstance(value, str) else None


# --------------------------------------------------------------------------------------------------
# time


def _times(
    trace: Mapping[str, Any], steps: list[Mapping[str, Any]], parent: Mapping[str, str | None]
) -> dict[str, tuple[int, int]]:
    """Each step's (start, end) in Unix nanoseconds, laid end to end from the question (module docstring)."""
    known = [t for s in steps for t in _own_instants(s) if t is not None]
    cursor = _instant(trace.get("startedAtTime"))
    if cursor is None:
        cursor = min(known, default=0)  # no question instant: the earliest the trace has, else the epoch
    times: dict[str, tuple[int, int]] = {}
    inside: dict[str, int] = {}  # a Verification → where its next re-run starts, inside its span
    reruns: dict[str, int] = {}  # a Verification → what its re-runs took: its span holds them all
    for step in steps:
        up = parent[step["uri"]]
        if up is not None and step.get("type") == Label.COUNTERFACTUAL:
            reruns[up] = reruns.get(up, 0) + _duration(step)
    for step in steps:
        started, ended = _own_instants(step)
        duration = max(_duration(step), reruns.get(step["uri"], 0))
        up = parent[step["uri"]]
        if started is not None:
            start, end = started, max(ended if ended is not None else started + duration, started)
        elif ended is not None:
            start, end = ended - duration, ended
        elif up in inside:
            start, end = inside[up], inside[up] + duration
            inside[up] = end
        else:
            start, end = cursor, cursor + duration
        times[step["uri"]] = (start, end)
        if step.get("type") == Label.VERIFICATION:
            inside[step["uri"]] = start
        cursor = max(cursor, end)
    # a question's span lasts until the last step derived from it ended (children come after parents)
    reach = {uri: end for uri, (_, end) in times.items()}
    for step in reversed(steps):
        up = parent[step["uri"]]
        if up is not None:
            reach[up] = max(reach[up], reach[step["uri"]])
    for step in steps:
        if SessionKind.of_labels(step.get("labels") or []) is not None:
            start, _ = times[step["uri"]]
            times[step["uri"]] = (start, max(reach[step["uri"]], start))
    return times


def _own_instants(step: Mapping[str, Any]) -> tuple[int | None, int | None]:
    props: Mapping[str, Any] = step.get("properties") or {}
    ended = _instant(props.get("endedAtTime"))
    return _instant(props.get("startedAtTime")), ended if ended is not None else _instant(props.get("generatedAtTime"))


def _duration(step: Mapping[str, Any]) -> int:
    """What the step's model and tool calls took (``llmDurationMs`` + ``toolDurationMs``), in nanoseconds."""
    props: Mapping[str, Any] = step.get("properties") or {}
    return sum(max(v, 0) * _MS for k in ("llmDurationMs", "toolDurationMs") if (v := _int(props.get(k))) is not None)


def _instant(value: object) -> int | None:
    """ISO 8601 text as Unix nanoseconds, every fractional digit kept (a zone-less time is read as UTC)."""
    if not isinstance(value, str):
        return None
    parts = _FRACTION.match(value.strip())
    if parts is None:
        return None
    try:
        moment = parse_iso(parts.group(1) + parts.group(3))
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    fraction = (parts.group(2) or "")[:9].ljust(9, "0")
    return int(moment.timestamp()) * 1_000_000_000 + int(fraction)


# --------------------------------------------------------------------------------------------------
# encoding


def _plain_attributes(values: Mapping[str, Any]) -> dict[str, Attribute]:
    """Attribute values as OpenTelemetry takes them: ``None`` left out (an attribute is absent, never null), a list
    without its ``None`` items, anything else that is not a primitive as its JSON text."""
    return {key: _plain(value) for key, value in values.items() if value is not None}


def _plain(value: Any) -> Attribute:
    if isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value if v is not None]
    return json.dumps(value, ensure_ascii=False, default=str)


def _json(span: StepSpan) -> dict[str, Any]:
    """A :class:`StepSpan` in OTLP/JSON (the keys in the order ``tgneo export --format otlp-json`` has always had)."""
    encoded: dict[str, Any] = {"traceId": span.trace_id, "spanId": span.span_id}
    if span.parent_span_id is not None:
        encoded["parentSpanId"] = span.parent_span_id
    encoded |= {"name": span.name, "kind": span.kind, "startTimeUnixNano": str(span.start),
                "endTimeUnixNano": str(span.end), "attributes": _json_attributes(span.attributes)}  # fmt: skip
    if span.links:
        encoded["links"] = [{"traceId": link.trace_id, "spanId": link.span_id,
                             "attributes": _json_attributes(link.attributes)} for link in span.links]  # fmt: skip
    if span.status_code == STATUS_CODE_ERROR:
        encoded["status"] = {"code": span.status_code, "message": span.status_message}
    else:
        encoded["status"] = {"code": span.status_code}
    return encoded


def _json_attributes(values: Mapping[str, Attribute]) -> list[dict[str, Any]]:
    """OTLP ``KeyValue``s in their JSON form."""
    return [{"key": key, "value": _any_value(value)} for key, value in values.items()]


def _any_value(value: Attribute) -> dict[str, Any]:
    """An OTLP ``AnyValue`` in its JSON form: ``intValue`` as a string, non-finite doubles by name."""
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, int):
        return {"intValue": str(value)}
    if isinstance(value, float):
        if math.isfinite(value):
            return {"doubleValue": value}
        return {"doubleValue": "NaN" if math.isnan(value) else "Infinity" if value > 0 else "-Infinity"}
    if isinstance(value, list):
        return {"arrayValue": {"values": [_any_value(v) for v in value]}}
    return {"stringValue": value}
