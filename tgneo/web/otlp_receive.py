"""OpenTelemetry in: ``POST /v1/traces``, the OTLP/HTTP trace receiver (protobuf or JSON).

Point an exporter at the server (``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=http://host:8000/v1/traces``, or
``OTEL_EXPORTER_OTLP_ENDPOINT=http://host:8000``) and each span tree it sends becomes a trace
(:mod:`tgneo.service.otlp_receive`). The request is behind the same tokens as the API (``Authorization: Bearer …``,
``OTEL_EXPORTER_OTLP_HEADERS=Authorization=Bearer%20<token>``): its spans land in the token's workspace. They go
to the collection ``default`` unless the request names another — the header ``X-Tgneo-Collection`` (set it in
``OTEL_EXPORTER_OTLP_HEADERS``) or ``?collection=`` — and a collection ``TGNEO_GRAPHS`` maps to a graph profile
resolves retrieved element ids there. ``gzip`` bodies are read. The answer is OTLP's: an
``ExportTraceServiceResponse`` in the request's encoding, with ``partialSuccess`` naming a tree that could not be
recorded (its spans are kept, and the next batch of the tree or a retry records it). A payload that is not an
export request, or holds a malformed span, is refused whole with a 400 JSON error naming the problem; nothing
of it is kept. Spans of tgneo's own export (instrumentation scope ``tgneo``) are accepted and not recorded again
(:mod:`tgneo.otlp.receive`): the answer's ``partialSuccess`` says so with ``rejectedSpans`` 0 (OTLP's warning on a
full success, so no exporter retries), and the ``tgneo.otlp`` log once per process.
"""

from __future__ import annotations

import logging
import threading
import zlib

from flask import Blueprint, Response, request
from google.protobuf import json_format
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceResponse

from tgneo.errors import BadRequest, PayloadTooLarge
from tgneo.otlp.receive import JSON, PROTOBUF, parse
from tgneo.scope import name_or_default
from tgneo.service.otlp_receive import Received, receive
from tgneo.web.app_state import app_state
from tgneo.web.auth import current_access
from tgneo.web.bodies import raw_body

bp = Blueprint("otlp", __name__)

MAX_OTLP_BYTES = 32 << 20
"""The largest export request accepted (32 MiB, after decompression): a batch of 512 spans of long prompts."""

log = logging.getLogger("tgneo.otlp")
_told = threading.Event()
"""Set once the log said that spans of tgneo's own export arrive here (once per process: every batch would)."""


def _body() -> bytes:
    body = raw_body(MAX_OTLP_BYTES)
    encoding = request.headers.get("Content-Encoding", "").strip().lower()
    if encoding in ("", "identity"):
        return body
    if encoding != "gzip":
        raise BadRequest(f"Content-Encoding: {encoding!r} is not gzip")
    reader = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        data = reader.decompress(body, MAX_OTLP_BYTES + 1)
    except zlib.error as e:
        raise BadRequest(f"the body is not gzip ({e})") from None
    if len(data) > MAX_OTLP_BYTES or reader.unconsumed_tail:
        raise PayloadTooLarge(f"the body inflates past {MAX_OTLP_BYTES} bytes")
    return data


@bp.post("/v1/traces")
def traces() -> Response:
    """Receive an OTLP/HTTP trace export (module docstring)."""
    workspace = current_access().resolve(request.headers.get("X-Tgneo-Workspace") or request.args.get("workspace"))
    collection = name_or_default(request.headers.get("X-Tgneo-Collection") or request.args.get("collection"),
                                 "collection")  # fmt: skip
    content_type = request.headers.get("Content-Type", "")
    payload = parse(_body(), content_type)
    done = Received()
    if payload.spans:
        svc = app_state()
        svc.runtime.ensure_schema()
        done = receive(svc.store, workspace, collection, payload.spans, svc.runtime.profile(collection))
    notes = [f"trace {t}: {why}" for t, why in done.failed.items()]
    if payload.note is not None:
        notes.append(payload.note)
        if not _told.is_set():
            _told.set()
            log.warning(
                "POST /v1/traces: %s. Spans of tgneo's own export arrive here: this process or another tgneo exports "
                "to this receiver, directly or through a Collector (said once)",
                payload.note,
            )
    answer = ExportTraceServiceResponse()
    if notes:
        answer.partial_success.error_message = "; ".join(notes)
    if content_type.split(";", 1)[0].strip().lower() == JSON:
        text = json_format.MessageToJson(answer, indent=None) if notes else "{}"
        return Response(text, status=200, mimetype=JSON)
    return Response(answer.SerializeToString(), status=200, mimetype=PROTOBUF)


__all__ = ["bp"]
