"""TrustGraph's REST surface: the librarian, collections, document bytes and the flow services.

What TrustGraph's clients call over plain HTTP (reference §2.4, §2.6, §3):

* ``POST /api/v1/librarian`` ``get-document-content`` → ``{"content": base64}`` (answer, thought,
  observation, page and chunk texts: ``tg-show-explain-trace``, ``--show-content``);
* ``POST /api/v1/collection-management`` ``list-collections`` (``tg-list-collections``);
* ``GET /api/v1/document-stream?document-id=…`` → the document's bytes (``tg-get-document-content``);
* ``POST /api/v1/flow/{flow}/service/{service}`` — the non-streaming services (``--no-streaming``):
  ``graph-rag``, ``document-rag`` and ``agent`` answer with their final message, the whole answer in
  ``response`` (and in ``answer``, which TrustGraph's REST agent client reads); ``triples`` with
  ``{"response": [...]}``.

Conventions are TrustGraph's, which its client depends on: a malformed request is a 4xx JSON error;
a well-formed one that fails (no such document, a question that failed) is HTTP 200 with TrustGraph's
``{"error": {"type", "message"}}``, which the client reports with that message rather than as a bare
status code.
"""

from __future__ import annotations

import base64
from typing import Any

from flask import Blueprint, Response, jsonify

from tgneo.errors import BadRequest, Forbidden, NotFound, TgneoError, Unauthorized
from tgneo.store.librarian import collections, get_text
from tgneo.stream.options import SERVICES
from tgneo.stream.pipeline import messages
from tgneo.web.auth import current_access
from tgneo.web.bodies import arg_text, json_body
from tgneo.web.services import Services, services

bp = Blueprint("librarian", __name__)
URI_CHARS = 4000


def _operation(body: dict[str, Any], known: tuple[str, ...]) -> str:
    operation = body.get("operation")
    if operation not in known:
        raise BadRequest(f"operation: {operation!r} is not supported; tgneo serves {', '.join(known)}")
    return str(operation)


def _document_id(body: dict[str, Any]) -> str:
    value = body.get("document-id")
    if not isinstance(value, str) or not value.strip() or len(value) > URI_CHARS:
        raise BadRequest(f"document-id: required, a non-empty string of at most {URI_CHARS} characters")
    return value


def document_content(svc: Services, workspace: str, body: dict[str, Any]) -> dict[str, Any]:
    """``get-document-content``: the librarian text of ``document-id``, base64-encoded, or TrustGraph's error."""
    _operation(body, ("get-document-content",))
    try:
        text = get_text(svc.store, workspace, _document_id(body))
    except NotFound as e:
        return {"error": {"type": "request-error", "message": str(e)}}
    return {"content": base64.b64encode(text.text.encode()).decode()}


@bp.post("/api/v1/librarian")
def librarian() -> Response:
    """TrustGraph's librarian: ``get-document-content``."""
    body = json_body()
    workspace = current_access().resolve(body.get("workspace"))
    return jsonify(document_content(services(), workspace, body))


@bp.post("/api/v1/collection-management")
def collection_management() -> Response:
    """TrustGraph's collection management: ``list-collections`` (the workspace's non-empty collections)."""
    body = json_body()
    _operation(body, ("list-collections",))
    workspace = current_access().resolve(body.get("workspace"))
    items = [
        {"collection": name, "name": name, "description": "", "tags": []}
        for name in collections(services().store, workspace)
    ]
    return jsonify({"collections": items})


@bp.get("/api/v1/document-stream")
def document_stream() -> Response:
    """A librarian document's bytes (``tg-get-document-content``); 404 JSON when there is none."""
    uri = arg_text("document-id", max_chars=URI_CHARS)
    if uri is None:
        raise BadRequest("document-id: required")
    workspace = current_access().resolve(arg_text("workspace"))
    text = get_text(services().store, workspace, uri)
    return Response(text.text.encode(), mimetype=text.content_type)


def _final(service: str, body: dict[str, Any]) -> dict[str, Any]:
    """Run a question to its end and return its final message, carrying the whole answer."""
    from tgneo.web.questions import start

    kind, events = start(services(), current_access(), service, body)
    answer: list[str] = []
    final: dict[str, Any] = {}
    for message in messages(events, kind):
        if message.get("message_type") in ("chunk", "answer"):
            answer.append(str(message.get("response", message.get("content", "")) or ""))
        final = message
    if "error" in final:
        return {"error": final["error"]}
    text = "".join(answer)
    return {**final, "response": text, "answer": text} if kind.wire == "agent" else {**final, "response": text}


@bp.post("/api/v1/flow/<flow>/service/<service>")
def flow_service(flow: str, service: str) -> Response:
    """TrustGraph's REST flow services (non-streaming): the final payload only. ``flow`` is ignored."""
    from tgneo.web.gateway import triples_payloads

    body = json_body()
    if service in SERVICES:
        try:
            return jsonify(_final(service, body))
        except TgneoError as e:
            if isinstance(e, BadRequest | Forbidden | Unauthorized):
                raise
            return jsonify({"error": {"type": SERVICES[service].kind.error_type, "message": str(e)}})
    if service == "triples":
        workspace = current_access().resolve(body.get("workspace"))
        return jsonify({"response": triples_payloads(services(), workspace, body)})
    raise NotFound(f"no service {service!r}; tgneo serves {', '.join((*SERVICES, 'triples'))}")
