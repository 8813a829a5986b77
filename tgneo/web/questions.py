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

from collections.abc import Iterator, Mapping
from typing import Any

from flask import Blueprint, Response, request
from simple_websocket import ConnectionClosed

from tgneo.engines import Request
from tgneo.errors import BadRequest, TgneoError
from tgneo.explain.events import Event
from tgneo.kinds import SessionKind
from tgneo.stream import wire
from tgneo.stream.framing import NDJSON, SSE, encode, ndjson, sse
from tgneo.stream.options import SERVICES, translate
from tgneo.stream.pipeline import messages, prime
from tgneo.web.auth import Access, current_access
from tgneo.web.bodies import arg_flag, arg_text, json_body
from tgneo.web.extensions import sock
from tgneo.web.services import Services, services

bp = Blueprint("questions", __name__)
POLL_SECONDS = 1.0
"""How often an idle socket looks up from ``receive`` to see whether the server is stopping."""


def start(svc: Services, access: Access, service: str, body: Mapping[str, Any]) -> tuple[SessionKind, Iterator[Event]]:
    """Validate a question and start its engine; the first event is already pulled.

    Raises:
        BadRequest: the body, a field or the workspace is refused (nothing was recorded).
        Forbidden: the token's workspace is not the one named.
    """
    workspace = access.resolve(body.get("workspace"))
    ask = translate(service, {k: v for k, v in body.items() if k != "workspace"})
    engine = svc.engine(ask.kind)
    return ask.kind, prime(engine.answer(Request(ask.question, workspace, ask.collection, ask.options)))


@bp.post('/api/v1/<any("graph-rag", "document-rag", "agent"):service>')
def ask(service: str) -> Response:
    """Ask a question; the answer streams as NDJSON, or as Server-Sent Events for ``Accept: text/event-stream``."""
    kind, events = start(services(), current_access(), service, json_body())
    stream = messages(events, kind, timestamps=arg_flag("timestamps"))
    if request.accept_mimetypes.best_match([NDJSON, SSE], default=NDJSON) == SSE:
        return Response(sse(stream), mimetype=SSE, headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
    return Response(ndjson(stream), mimetype=NDJSON, headers={"X-Accel-Buffering": "no"})


def _read_frame(text: object) -> tuple[str, dict[str, Any]]:
    frame = wire.json_object(text)
    service, body = frame.get("service"), frame.get("request", {})
    if not isinstance(service, str) or service not in SERVICES:
        raise BadRequest(f"service: {service!r} is not one of {', '.join(SERVICES)}")
    if not isinstance(body, dict):
        raise BadRequest("request: must be a JSON object")
    if "workspace" in frame:
        body = {**body, "workspace": frame["workspace"]}
    return service, body


@sock.route("/api/v1/stream", bp=bp)  # type: ignore[untyped-decorator]
def stream(ws: Any) -> None:
    """Questions over a WebSocket: one question per frame, its messages one per frame."""
    svc, access = services(), current_access()
    timestamps = arg_flag("timestamps")
    default_workspace = arg_text("workspace")
    while not svc.shutting_down.is_set():
        text = ws.receive(timeout=POLL_SECONDS)
        if text is None:
            continue
        try:
            service, body = _read_frame(text)
            body.setdefault("workspace", default_workspace)
            kind, events = start(svc, access, service, body)
        except TgneoError as e:
            ws.send(encode({"error": e.to_dict()}))
            continue
        lines = messages(events, kind, timestamps=timestamps)
        try:
            for message in lines:
                ws.send(encode(message))
        except ConnectionClosed:
            lines.close()  # the client went away: stop the engine now
            raise
    ws.close(1001, "server shutting down")
