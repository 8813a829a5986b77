"""TrustGraph's gateway socket, ``/api/v1/socket``: what TrustGraph's unmodified CLI and SDK talk to.

The protocol (frames, auth, envelopes, top-level errors) is :mod:`tgneo.stream.gateway`; this module
runs it on a flask-sock WebSocket. Services:

* ``graph-rag``, ``document-rag``, ``agent`` — the same engines and the same pipeline as the native
  endpoints (:func:`tgneo.service.operations.start_question`), each message in a frame, the last one
  ``complete``; tgneo's own ``verify`` field is honoured, the check's summary on the final message and its
  Verification step left off this socket (:func:`tgneo.stream.gateway.for_trustgraph` says why);
* ``triples`` — a pattern query (:func:`tgneo.service.operations.triples`): one ``{"response": [...]}``
  frame, or one frame per ``batch-size`` triples with ``streaming``; errors at the top level;
* ``librarian`` — ``get-document-content``, as over REST (:func:`tgneo.service.operations.document_content`).

Requests on one socket run concurrently (TrustGraph's ``-x`` client looks labels up while its
question still streams), on a small pool per socket; frames are written one at a time. The token of
the auth frame fixes the workspace (:mod:`tgneo.service.access`); an envelope naming another is refused. The
``flow`` is accepted and ignored: tgneo has one flow. When the socket closes, every engine it started
stops at its next step; when the server stops, the socket is closed with 1001 (going away).
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from flask import Blueprint
from simple_websocket import ConnectionClosed

from tgneo.errors import BadRequest, Forbidden, TgneoError, Unauthorized
from tgneo.scope import DEFAULT_SCOPE
from tgneo.service.access import Access, authenticate
from tgneo.service.operations import document_content, start_question, triples
from tgneo.stream import gateway as protocol
from tgneo.stream import wire
from tgneo.stream.framing import encode
from tgneo.stream.options import REQUEST_FIELDS
from tgneo.web.app_state import AppState, app_state
from tgneo.web.extensions import POLL_SECONDS, sock

bp = Blueprint("gateway", __name__)
log = logging.getLogger("tgneo.web.gateway")

AUTH_SECONDS = 30.0
"""How long a new socket may take to send its auth frame."""
REQUESTS_PER_SOCKET = 8
"""Requests of one socket that run at once; more wait their turn."""
GATEWAY_SERVICES = (*REQUEST_FIELDS, "triples", "librarian")


def error_type(service: str, error: Exception) -> str:
    """TrustGraph's error type for a failure (reference §2.7), so its client raises the matching exception."""
    if isinstance(error, Forbidden | Unauthorized | protocol.GatewayError):
        return "gateway-error"
    if isinstance(error, BadRequest):
        return "request-error"
    if service in REQUEST_FIELDS:
        return REQUEST_FIELDS[service].kind.error_type
    return "unexpected-error"


class _Socket:
    """One authenticated gateway socket: reads envelopes, runs each on the pool, writes frames in turn."""

    def __init__(self, ws: Any, svc: AppState, access: Access) -> None:
        self.ws, self.svc, self.access = ws, svc, access
        self.lock = threading.Lock()
        self.closed = threading.Event()
        self.pool = ThreadPoolExecutor(max_workers=REQUESTS_PER_SOCKET, thread_name_prefix="tgneo-gateway")

    def send(self, frame: dict[str, Any]) -> None:
        if self.closed.is_set():
            raise ConnectionClosed()
        with self.lock:
            try:
                self.ws.send(encode(frame))
            except (ConnectionClosed, OSError):
                self.closed.set()
                raise ConnectionClosed() from None

    def serve(self) -> None:
        try:
            while not self.svc.shutting_down.is_set():
                text = self.ws.receive(timeout=POLL_SECONDS)
                if text is None:
                    continue
                try:
                    envelope = protocol.read_envelope(text)
                except protocol.GatewayError as e:
                    self.send(protocol.error(e.request_id, e.error_type, str(e)))
                    continue
                self.pool.submit(self.handle, envelope)
            with self.lock:
                self.ws.close(1001, "server shutting down")
        finally:
            self.closed.set()
            self.pool.shutdown(wait=False, cancel_futures=True)

    def handle(self, envelope: protocol.Envelope) -> None:
        """Serve one request; every failure becomes a top-level error frame for its id."""
        try:
            self._dispatch(envelope)
        except ConnectionClosed:
            return
        except TgneoError as e:
            self._fail(envelope, error_type(envelope.service, e), str(e))
        except Exception as e:  # a bug must not kill the socket, nor reach the client as a trace
            log.exception("gateway %s request %s failed", envelope.service, envelope.id)
            self._fail(envelope, "unexpected-error", f"internal error: {type(e).__name__}")

    def _fail(self, envelope: protocol.Envelope, type_: str, message: str) -> None:
        try:
            self.send(protocol.error(envelope.id, type_, message))
        except ConnectionClosed:
            pass

    def _dispatch(self, envelope: protocol.Envelope) -> None:
        service, request = envelope.service, envelope.request
        if service in REQUEST_FIELDS:
            body = {**request, "workspace": envelope.workspace}
            kind, lines = start_question(self.svc.runtime, self.access, service, body)
            try:
                for message in lines:
                    if protocol.for_trustgraph(message):
                        self.send(protocol.response(envelope.id, message, wire.is_final(message, kind)))
            finally:
                lines.close()  # the socket closed mid-answer: stop the engine at its next step
            return
        workspace = self.access.resolve(envelope.workspace)
        if service == "triples":
            found = triples(self.svc.store, workspace, request)
            streaming = request.get("streaming") is True
            for frame in protocol.triple_frames(envelope.id, found, streaming, protocol.batch_size(request)):
                self.send(frame)
            return
        if service == "librarian":
            self.send(protocol.response(envelope.id, document_content(self.svc.store, workspace, request), True))
            return
        raise protocol.GatewayError(
            f"unknown service {service!r}; tgneo serves {', '.join(GATEWAY_SERVICES)}", envelope.id
        )


@sock.route("/api/v1/socket", bp=bp)  # type: ignore[untyped-decorator]
def socket(ws: Any) -> None:
    """The TrustGraph gateway socket: an auth frame, then multiplexed request envelopes."""
    svc = app_state()
    try:
        token = protocol.read_auth(ws.receive(timeout=AUTH_SECONDS))
        access = authenticate(token or None, svc.tokens)
    except (protocol.GatewayError, Unauthorized) as e:
        ws.send(encode(protocol.auth_failed(str(e))))
        return
    ws.send(encode(protocol.auth_ok(access.workspace or DEFAULT_SCOPE)))
    _Socket(ws, svc, access).serve()
