"""TrustGraph's gateway socket protocol (``/api/v1/socket``), as frames in and frames out (pure).

Reference §2.1–§2.3: the first frame is ``{"type": "auth", "token": …}``, answered by ``auth-ok``
(with both ``default_workspace``, which TrustGraph's client reads, and ``workspace``, which its gateway
sends — quirk §6.9) or ``auth-failed``. Then every request is an envelope ``{"id", "workspace",
"service", "flow", "request"}`` and every answer a frame ``{"id", "response", "complete"}``; many
requests may be open on one socket at once, answered in any interleaving, routed by ``id``.
Failures are frames with ``error`` at the **top level** (``{"id", "error": {"type", "message"},
"complete": true}``): every client path checks that position, including the plain request/response
path the explainability client uses for ``triples`` (quirk §6.5).

A question's messages are the native stream's (:mod:`tgneo.stream.wire`) less the explain messages of tgneo's own
steps (:func:`for_trustgraph`): the counterfactual check of an answer (a Verification) is recorded, exported by the
``prov`` profile and streamed on tgneo's own roads, and on this socket its summary rides on the final message
(``verification``, which TrustGraph's client ignores like every field it does not know).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tgneo.errors import BadRequest
from tgneo.mapping import CLASSES, PROV_PROFILE_ONLY_LABELS
from tgneo.stream.fields import bounded_int, json_object
from tgneo.vocab import RDF

MAX_ID_CHARS = 200
DEFAULT_BATCH = 20
MAX_BATCH = 10_000
_TGNEO_STEPS = frozenset(str(row.iri) for row in CLASSES if row.label in PROV_PROFILE_ONLY_LABELS)
"""The classes of tgneo's own entities, which only the ``prov`` profile exports (:func:`for_trustgraph`)."""


class GatewayError(BadRequest):
    """A frame the gateway cannot serve; ``id`` is the request's when it could be read."""

    def __init__(self, message: str, request_id: str | None = None, type_: str = "gateway-error") -> None:
        super().__init__(message)
        self.request_id = request_id
        self.error_type = type_


@dataclass(frozen=True)
class Envelope:
    """One request on the socket."""

    id: str
    service: str
    request: dict[str, Any]
    workspace: str | None = None
    flow: str | None = None


def _json_object(text: object, what: str) -> dict[str, Any]:
    try:
        return json_object(text, what)
    except BadRequest as e:
        raise GatewayError(str(e)) from None


def read_auth(text: object) -> str:
    """The token of the first frame (``""`` when the client has none).

    Raises:
        GatewayError: the frame is not ``{"type": "auth", "token": "…"}``.
    """
    frame = _json_object(text, "auth frame")
    if frame.get("type") != "auth":
        raise GatewayError('the first frame must be {"type": "auth", "token": "…"}')
    token = frame.get("token", "")
    if token is None:
        return ""
    if not isinstance(token, str):
        raise GatewayError("auth frame: token must be a string")
    return token


def auth_ok(workspace: str) -> dict[str, Any]:
    """The answer to a good auth frame: both keys TrustGraph's client and gateway use for the workspace."""
    return {"type": "auth-ok", "default_workspace": workspace, "workspace": workspace}


def auth_failed(reason: str) -> dict[str, Any]:
    return {"type": "auth-failed", "error": reason}


def read_envelope(text: object) -> Envelope:
    """A request envelope, checked field by field.

    Raises:
        GatewayError: not an envelope; carries the ``id`` when one could be read.
    """
    frame = _json_object(text, "request frame")
    request_id = frame.get("id")
    if not isinstance(request_id, str) or not request_id or len(request_id) > MAX_ID_CHARS:
        raise GatewayError(f"id: must be a non-empty string of at most {MAX_ID_CHARS} characters")
    service = frame.get("service")
    if not isinstance(service, str) or not service:
        raise GatewayError("service: required, a string", request_id)
    request = frame.get("request", {})
    if not isinstance(request, dict):
        raise GatewayError("request: must be a JSON object", request_id)
    workspace = frame.get("workspace")
    if workspace is not None and (not isinstance(workspace, str) or not workspace.strip()):
        raise GatewayError("workspace: must be a non-empty string", request_id)
    flow = frame.get("flow")
    if flow is not None and not isinstance(flow, str):
        raise GatewayError("flow: must be a string", request_id)
    return Envelope(request_id, service, request, workspace, flow)


def response(request_id: str, payload: dict[str, Any], complete: bool) -> dict[str, Any]:
    """A response frame."""
    return {"id": request_id, "response": payload, "complete": complete}


def error(request_id: str | None, type_: str, message: str) -> dict[str, Any]:
    """A top-level error frame; it always completes its request."""
    return {"id": request_id, "error": {"type": type_, "message": message}, "complete": True}


def for_trustgraph(message: Mapping[str, Any]) -> bool:
    """Whether a question stream's ``message`` goes on TrustGraph's socket: every message but the explain message of
    a step of tgneo's own (a Verification).

    TrustGraph's client takes each ``explain_id`` for an entity its ``triples`` service can serve — it parses the
    inline triples and, failing that, looks the entity up and waits for it — and that service here is the
    ``trustgraph`` profile, which holds exactly TrustGraph's triples and never tgneo's own entities. So tgneo's steps
    stay off this socket (their summary rides on the final message), and every ``explain_id`` it sends can be
    fetched with it.
    """
    if message.get("message_type") != "explain":
        return True
    subject, rdf_type = message.get("explain_id"), str(RDF.type)
    for triple in message.get("explain_triples") or ():
        s, p, o = (triple.get(k) or {} for k in ("s", "p", "o"))
        if s.get("i") == subject and p.get("i") == rdf_type and o.get("i") in _TGNEO_STEPS:
            return False
    return True


def batch_size(request: dict[str, Any]) -> int:
    """``batch-size`` of a streaming ``triples`` request (20 by default)."""
    return bounded_int(request, "batch-size", DEFAULT_BATCH, 1, MAX_BATCH)


def triple_frames(
    request_id: str, triples: Sequence[dict[str, Any]], streaming: bool, size: int
) -> Iterator[dict[str, Any]]:
    """The answer to a ``triples`` request: ``{"response": [...]}`` frames, the last one ``complete``.

    Non-streaming: one frame with everything. Streaming: one frame per ``size`` triples; an empty
    answer is a single empty, complete frame (reference §2.6).
    """
    if not streaming or len(triples) <= size:
        yield response(request_id, {"response": list(triples)}, True)
        return
    for start in range(0, len(triples), size):
        chunk = list(triples[start : start + size])
        yield response(request_id, {"response": chunk}, start + size >= len(triples))
