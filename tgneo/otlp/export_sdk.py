"""The OpenTelemetry SDK's half of tgneo's OTLP export: its spans, its batch processor, its OTLP/HTTP exporter.

:mod:`tgneo.otlp.export_http` imports this module on its first export only, so a process that exports nothing never
imports the SDK. The spans are :func:`tgneo.otlp.export.step_spans`, the mapping ``tgneo export --format otlp-json``
encodes too, built as the SDK's ``ReadableSpan``: the same trace and span ids, parents, links, attributes, status,
times, resource and instrumentation scope. The SDK's encoder adds only what the SDK adds to every span it sends:
OTLP's ``flags`` saying that the parent is not remote.

The SDK's exporter does not read what a receiver answers; a ``partialSuccess`` (spans a receiver rejected, or its
warning) is logged here on ``tgneo.otlp``, from a response hook on the exporter's own ``requests`` session — except
when one of the Python exporter's credential providers (``OTEL_PYTHON_EXPORTER_OTLP_HTTP_CREDENTIAL_PROVIDER``,
``…_TRACES_CREDENTIAL_PROVIDER``) supplies the session, which is then the provider's, untouched.
"""

from __future__ import annotations

import functools
import logging
import os
from collections.abc import Mapping, Sequence
from typing import Any

import requests
from google.protobuf.message import DecodeError
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceResponse
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SpanExporter, SpanExportResult
from opentelemetry.sdk.util.instrumentation import InstrumentationScope
from opentelemetry.trace import Link, SpanContext, SpanKind, Status, StatusCode, TraceFlags

from tgneo.otlp.export import RESOURCE, SCOPE, STATUS_CODE_ERROR, StepSpan, step_spans
from tgneo.version import __version__

__all__ = ["CREDENTIAL_PROVIDERS", "batch_processor", "readable", "readable_spans"]

log = logging.getLogger("tgneo.otlp")

CREDENTIAL_PROVIDERS = (
    "OTEL_PYTHON_EXPORTER_OTLP_HTTP_CREDENTIAL_PROVIDER",
    "OTEL_PYTHON_EXPORTER_OTLP_HTTP_TRACES_CREDENTIAL_PROVIDER",
)
"""The Python exporter's variables naming an entry point that makes its ``requests`` session (module docstring)."""

_KINDS = {1: SpanKind.INTERNAL, 2: SpanKind.SERVER, 3: SpanKind.CLIENT, 4: SpanKind.PRODUCER, 5: SpanKind.CONSUMER}
"""OTLP's ``SpanKind`` numbers as the API's kinds (whose own numbering starts at 0)."""
_SAMPLED = TraceFlags(TraceFlags.SAMPLED)
"""Every span is sampled: a processor drops a span that is not."""
_RESOURCE = Resource(dict(RESOURCE))
"""One resource for every span (``Resource``, not ``Resource.create``: the mapping's attributes and no others), so
the exporter's encoder puts every batch under one ``resourceSpans``."""
_SCOPE = InstrumentationScope(SCOPE, __version__)


def readable_spans(trace: Mapping[str, Any]) -> list[ReadableSpan]:
    """The spans of ``trace`` (a :func:`tgneo.store.traces.get_trace` dict) as the SDK's finished spans.

    Raises:
        MappingError: the trace has no steps, or a step has no URI.
    """
    return [readable(span) for span in step_spans(trace)]


def readable(span: StepSpan) -> ReadableSpan:
    """One :class:`~tgneo.otlp.export.StepSpan` as the SDK's ``ReadableSpan``."""
    trace_id = int(span.trace_id, 16)
    parent = None if span.parent_span_id is None else _context(trace_id, span.parent_span_id)
    return ReadableSpan(
        name=span.name,
        context=_context(trace_id, span.span_id),
        parent=parent,
        resource=_RESOURCE,
        attributes=dict(span.attributes),
        links=[Link(_context(int(link.trace_id, 16), link.span_id), dict(link.attributes)) for link in span.links],
        kind=_KINDS[span.kind],
        status=Status(StatusCode.ERROR, span.status_message)
        if span.status_code == STATUS_CODE_ERROR
        else Status(StatusCode.UNSET),
        start_time=span.start,
        end_time=span.end,
        instrumentation_scope=_SCOPE,
    )


def _context(trace_id: int, span_id: str) -> SpanContext:
    return SpanContext(trace_id, int(span_id, 16), is_remote=False, trace_flags=_SAMPLED)


def batch_processor(url: str, headers: Mapping[str, str]) -> BatchSpanProcessor:
    """The SDK's batch processor in front of its OTLP/HTTP exporter to ``url`` (its thread starts now)."""
    return BatchSpanProcessor(_Reporting(url, headers))


class _Reporting(SpanExporter):
    """The SDK's ``OTLPSpanExporter``, with what went wrong also said on the ``tgneo.otlp`` log."""

    def __init__(self, url: str, headers: Mapping[str, str]) -> None:
        self.url = url
        provided = any(os.environ.get(var) for var in CREDENTIAL_PROVIDERS)
        self._exporter = OTLPSpanExporter(
            endpoint=url, headers=dict(headers) or None, session=None if provided else _answer_reading(url)
        )

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        result = self._exporter.export(spans)
        if result is not SpanExportResult.SUCCESS:
            log.warning("OTLP export of %d span(s) to %s failed (the opentelemetry.exporter log before this says why)",
                        len(spans), self.url)  # fmt: skip
        return result

    def shutdown(self) -> None:
        self._exporter.shutdown()  # type: ignore[no-untyped-call]  # the SDK leaves it unannotated

    def force_flush(self, timeout_millis: int = 30_000) -> bool:
        return bool(self._exporter.force_flush(timeout_millis))


def _answer_reading(url: str) -> requests.Session:
    """A ``requests`` session that reads each OTLP answer's ``partialSuccess`` (module docstring)."""
    session = requests.Session()
    session.hooks["response"].append(functools.partial(_read_answer, url))
    return session


def _read_answer(url: str, response: requests.Response, *args: Any, **kwargs: Any) -> None:
    if not 200 <= response.status_code < 300 or "protobuf" not in response.headers.get("Content-Type", ""):
        return
    try:
        partial = ExportTraceServiceResponse.FromString(response.content).partial_success
    except DecodeError:  # a body that is no OTLP answer says nothing against the export
        return
    if partial.rejected_spans:
        log.warning("OTLP export to %s: %d span(s) rejected: %s", url, partial.rejected_spans, partial.error_message)
    elif partial.error_message:
        log.info("OTLP export to %s: the receiver says: %s", url, partial.error_message)
