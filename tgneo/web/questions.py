"""Questions: ``POST /api/v1/graph-rag`` · ``/document-rag`` · ``/agent`` (NDJSON, SSE) and ``/api/v1/stream`` (WS).

Bodies are TrustGraph's service requests (``{"query": …, "collection": …, "entity-limit": …}``; the
agent's ``{"question": …, "pattern": …}``) plus an optional ``workspace``; every response line, event
or frame is TrustGraph's response message (``message_type``, ``response``/``content``,
``explain_id``/``explain_graph``/``explain_triples``, ``end_of_session``/``end_of_dialog``; the final
one with ``sources``, ``in_token``, ``out_token``, ``model``). A refused request is a 4xx JSON error
before any stream starts; a failure once it runs ends the stream with an ``error`` message.
``?timestamps=true`` adds ``committed_at`` (seconds since the epoch, when the step's transaction
committed) to each explain message.

The WebSocket ``/api/v1/stream`` (``?workspace=`` for every frame; ``?token=`` where a client cannot
send headers) takes one question per text frame, ``{"service": "graph-rag", "request": {…},
"workspace"?: …}``, answers with the same messages, one per frame, and then waits for the next
question; a refused frame is answered ``{"error": {"type", "message"}}``. Closing the socket (or the
HTTP response) stops the engine at its next step.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, request
from simple_websocket import ConnectionClosed

from tgneo.errors import BadRequest, TgneoError
from tgneo.service.operations import start_question
from tgneo.stream.fields import json_object
from tgneo.stream.framing import NDJSON, SSE, encode, ndjson, sse
from tgneo.stream.options import REQUEST_FIELDS
from tgneo.web.app_state import app_state
from tgneo.web.auth import current_access
from tgneo.web.bodies import arg_flag, arg_text, json_body
from tgneo.web.extensions import POLL_SECONDS, sock

bp = Blueprint("questions", __name__)


@bp.post('/api/v1/<any("graph-rag", "document-rag", "agent"):service>')
def ask(service: str) -> Response:
    """Ask a question; the answer streams as NDJSON, or as Server-Sent Events for ``Accept: text/event-stream``."""
    _, stream = start_question(
        app_state().runtime, current_access(), service, json_body(), timestamps=arg_flag("timestamps")
    )
    if request.accept_mimetypes.best_match([NDJSON, SSE], default=NDJSON) == SSE:
        return Response(sse(stream), mimetype=SSE, headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
    return Response(ndjson(stream), mimetype=NDJSON, headers={"X-Accel-Buffering": "no"})


def _read_frame(text: object) -> tuple[str, dict[str, Any]]:
    frame = json_object(text)
    service, body = frame.get("service"), frame.get("request", {})
    if not isinstance(service, str) or service not in REQUEST_FIELDS:
        raise BadRequest(f"service: {service!r} is not one of {', '.join(REQUEST_FIELDS)}")
    if not isinstance(body, dict):
        raise BadRequest("request: must be a JSON object")
    if "workspace" in frame:
        body = {**body, "workspace": frame["workspace"]}
    return service, body


@sock.route("/api/v1/stream", bp=bp)  # type: ignore[untyped-decorator]
def stream(ws: Any) -> None:
    """Questions over a WebSocket: one question per frame, its messages one per frame."""
    svc, access = app_state(), current_access()
    timestamps = arg_flag("timestamps")
    default_workspace = arg_text("workspace")
    while not svc.shutting_down.is_set():
        text = ws.receive(timeout=POLL_SECONDS)
        if text is None:
            continue
        try:
            service, body = _read_frame(text)
            body.setdefault("workspace", default_workspace)
            _, lines = start_question(svc.runtime, access, service, body, timestamps=timestamps)
        except TgneoError as e:
            ws.send(encode({"error": e.to_dict()}))
            continue
        try:
            for message in lines:
                ws.send(encode(message))
        except ConnectionClosed:
            lines.close()  # the client went away: stop the engine now
            raise
    ws.close(1001, "server shutting down")
