"""OTLP trace payloads read into plain spans: protobuf or JSON, checked whole before anything is kept.

An exporter (the OpenTelemetry SDK's ``OTLPSpanExporter``, a collector) sends ``ExportTraceServiceRequest``
messages: as protobuf (``application/x-protobuf``) or as OTLP/JSON (``application/json``, whose trace and span
ids are hex strings, not protobuf-JSON's base64). Both are read here with OpenTelemetry's own generated
messages into :class:`Span` values, and every span is checked (a trace id of 16 bytes, a span id of 8, neither
all zeros; times in order); the first problem raises :class:`~tgneo.errors.BadRequest` naming where it is, so
that a malformed payload is refused whole and nothing of it is kept.

Spans whose instrumentation scope is tgneo's own (:data:`tgneo.otlp.export.SCOPE`, what ``tgneo.otlp.export_http``
sends) are counted and left out (:class:`Payload`): their traces were recorded when tgneo answered them, in full,
and spans carry less than the trace they came from, so recording them would only add a poorer second copy. That
is what happens when a user points ``OTEL_EXPORTER_OTLP_*`` at ``tgneo serve`` in an environment tgneo's own export
also reads, or when a Collector forwards every service's spans, tgneo's among them, to ``tgneo serve``. A trace
goes from one tgneo store to another by ``tgneo export`` and ``tgneo import`` (RDF, lossless).
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from google.protobuf import json_format
from google.protobuf.message import DecodeError
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue

from tgneo.errors import BadRequest
from tgneo.otlp.export import SCOPE

__all__ = ["PROTOBUF", "JSON", "Payload", "Span", "parse"]

PROTOBUF = "application/x-protobuf"
JSON = "application/json"
STATUS_ERROR = 2
"""``Status.STATUS_CODE_ERROR``."""


@dataclass(frozen=True)
class Span:
    """One finished span, as tgneo keeps it until its tree is whole.

    Attributes:
        trace_id, span_id: Lowercase hex (32 and 16 characters).
        parent_id: The parent span's id, ``""`` for a tree's root.
        name: The span's name.
        start, end: Nanoseconds since the epoch.
        attributes: The span's attributes (and its resource's, under ``resource.``), as plain values.
        error: The status message (or the exception event's) when the span's status is an error.
    """

    trace_id: str
    span_id: str
    parent_id: str
    name: str
    start: int
    end: int
    attributes: dict[str, Any] = field(default_factory=dict)
    error: str | None = None

    def to_json(self) -> str:
        return json.dumps(
            {"trace_id": self.trace_id, "span_id": self.span_id, "parent_id": self.parent_id, "name": self.name,
             "start": self.start, "end": self.end, "attributes": self.attributes, "error": self.error},
            ensure_ascii=False, sort_keys=True, default=str,
        )  # fmt: skip

    @staticmethod
    def from_json(text: str) -> Span:
        return Span(**json.loads(text))


@dataclass(frozen=True)
class Payload:
    """What one export request holds: the spans to keep, and how many spans of tgneo's own export it left out."""

    spans: list[Span]
    own: int = 0

    @property
    def note(self) -> str | None:
        """What the receiver's answer says about the spans of tgneo's own export it left out, if any."""
        if not self.own:
            return None
        return (
            f"{self.own} span(s) of tgneo's own export (instrumentation scope {SCOPE!r}) not recorded again: tgneo "
            "recorded their traces when it answered them (tgneo export and tgneo import copy traces between stores)"
        )


def parse(body: bytes, content_type: str) -> Payload:
    """The spans of one export request, and the count of tgneo's own left out (module docstring).

    Raises:
        BadRequest: not an ``ExportTraceServiceRequest`` in the given encoding, or a span that is malformed.
    """
    kind = content_type.split(";", 1)[0].strip().lower()
    if kind == PROTOBUF:
        request = ExportTraceServiceRequest()
        try:
            request.ParseFromString(body)
        except DecodeError as e:
            raise BadRequest(f"the body is not a protobuf ExportTraceServiceRequest ({e})") from None
    elif kind == JSON:
        request = _from_json(body)
    else:
        raise BadRequest(f"Content-Type: {content_type or 'none'!r}; send {PROTOBUF} or {JSON}")
    spans, own = [], 0
    for scope, span in _spans(request):  # every span is checked, tgneo's own too: a malformed payload is refused whole
        if scope == SCOPE:
            own += 1
        else:
            spans.append(span)
    return Payload(spans, own)


def _from_json(body: bytes) -> ExportTraceServiceRequest:
    try:
        data = json.loads(body)
    except (UnicodeDecodeError, ValueError) as e:
        raise BadRequest(f"the body is not JSON ({e})") from None
    if not isinstance(data, dict):
        raise BadRequest("the body must be a JSON object (an ExportTraceServiceRequest)")
    for r, resource in enumerate(_list(data, "resourceSpans", "")):
        for s, scope in enumerate(_list(resource, "scopeSpans", f"resourceSpans[{r}]")):
            for n, span in enumerate(_list(scope, "spans", f"resourceSpans[{r}].scopeSpans[{s}]")):
                where = f"resourceSpans[{r}].scopeSpans[{s}].spans[{n}]"
                if not isinstance(span, dict):
                    raise BadRequest(f"{where}: must be an object")
                for key in ("traceId", "spanId", "parentSpanId"):
                    if key in span:
                        span[key] = _hex_to_base64(span[key], f"{where}.{key}")
                for k, link in enumerate(span.get("links") or []):
                    for key in ("traceId", "spanId"):
                        if isinstance(link, dict) and key in link:
                            link[key] = _hex_to_base64(link[key], f"{where}.links[{k}].{key}")
    request = ExportTraceServiceRequest()
    try:
        json_format.ParseDict(data, request, ignore_unknown_fields=True)
    except json_format.ParseError as e:
        raise BadRequest(f"the body is not an OTLP/JSON ExportTraceServiceRequest: {e}") from None
    return request


def _list(holder: Any, key: str, where: str) -> list[Any]:
    value = holder.get(key, []) if isinstance(holder, dict) else None
    if not isinstance(value, list):
        raise BadRequest(f"{where + '.' if where else ''}{key}: must be a list")
    return value


def _hex_to_base64(value: object, where: str) -> str:
    """OTLP/JSON's hex ids as the base64 protobuf-JSON reads (an empty parent id stays empty)."""
    if not isinstance(value, str):
        raise BadRequest(f"{where}: must be a hex string")
    try:
        return base64.b64encode(bytes.fromhex(value)).decode()
    except ValueError:
        raise BadRequest(f"{where}: {value[:40]!r} is not hex") from None


def _spans(request: ExportTraceServiceRequest) -> Iterator[tuple[str, Span]]:
    """Each span with the name of its instrumentation scope."""
    for r, resource_spans in enumerate(request.resource_spans):
        resource = {f"resource.{kv.key}": _value(kv.value) for kv in resource_spans.resource.attributes}
        for s, scope_spans in enumerate(resource_spans.scope_spans):
            for n, span in enumerate(scope_spans.spans):
                where = f"resourceSpans[{r}].scopeSpans[{s}].spans[{n}]"
                trace_id, span_id = _id(span.trace_id, 16, f"{where}.traceId"), _id(span.span_id, 8, f"{where}.spanId")
                parent = binascii.hexlify(span.parent_span_id).decode() if span.parent_span_id else ""
                if parent and len(span.parent_span_id) != 8:
                    raise BadRequest(f"{where}.parentSpanId: must be 8 bytes, not {len(span.parent_span_id)}")
                if span.end_time_unix_nano and span.end_time_unix_nano < span.start_time_unix_nano:
                    raise BadRequest(f"{where}: ends before it starts")
                attributes = {**resource, **{kv.key: _value(kv.value) for kv in span.attributes}}
                error = None
                if span.status.code == STATUS_ERROR:
                    exception = next((e for e in span.events if e.name == "exception"), None)
                    messages = {kv.key: _value(kv.value) for kv in exception.attributes} if exception else {}
                    error = span.status.message or str(messages.get("exception.message") or "error")
                yield scope_spans.scope.name, Span(trace_id, span_id, parent, span.name,
                    int(span.start_time_unix_nano), int(span.end_time_unix_nano or span.start_time_unix_nano),
                    attributes, error)  # fmt: skip


def _id(raw: bytes, size: int, where: str) -> str:
    if len(raw) != size:
        raise BadRequest(f"{where}: must be {size} bytes, not {len(raw)}")
    if not any(raw):
        raise BadRequest(f"{where}: must not be all zeros")
    return binascii.hexlify(raw).decode()


def _value(value: AnyValue) -> Any:
    """An ``AnyValue`` as a plain value (arrays as lists, key-value lists as dicts)."""
    which = value.WhichOneof("value")
    if which == "array_value":
        return [_value(v) for v in value.array_value.values]
    if which == "kvlist_value":
        return {kv.key: _value(kv.value) for kv in value.kvlist_value.values}
    if which == "bytes_value":
        return base64.b64encode(value.bytes_value).decode()
    return getattr(value, which) if which else None
