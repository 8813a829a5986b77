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

from typing import Any

from flask import Blueprint, Response, jsonify

from tgneo.errors import BadRequest, Forbidden, NotFound, TgneoError, Unauthorized
from tgneo.service.operations import URI_CHARS, document_content, final_answer, operation, triples
from tgneo.store.librarian import collections, get_text
from tgneo.stream.options import REQUEST_FIELDS
from tgneo.web.app_state import app_state
from tgneo.web.auth import current_access
from tgneo.web.bodies import arg_text, json_body

bp = Blueprint("librarian", __name__)


@bp.post("/api/v1/librarian")
def librarian() -> Response:
    """TrustGraph's librarian: ``get-document-content``."""
    body = json_body()
    workspace = current_access().resolve(body.get("workspace"))
    return jsonify(document_content(app_state().store, workspace, body))


@bp.post("/api/v1/collection-management")
def collection_management() -> Response:
    """TrustGraph's collection management: ``list-collections`` (the workspace's non-empty collections)."""
    body = json_body()
    operation(body, ("list-collections",))
    workspace = current_access().resolve(body.get("workspace"))
    items = [
        {"collection": name, "name": name, "description": "", "tags": []}
        for name in collections(app_state().store, workspace)
    ]
    return jsonify({"collections": items})


@bp.get("/api/v1/document-stream")
def document_stream() -> Response:
    """A librarian document's bytes (``tg-get-document-content``); 404 JSON when there is none."""
    uri = arg_text("document-id", max_chars=URI_CHARS)
    if uri is None:
        raise BadRequest("document-id: required")
    workspace = current_access().resolve(arg_text("workspace"))
    text = get_text(app_state().store, workspace, uri)
    return Response(text.text.encode(), mimetype=text.content_type)


@bp.post("/api/v1/flow/<flow>/service/<service>")
def flow_service(flow: str, service: str) -> Response:
    """TrustGraph's REST flow services (non-streaming): the final payload only. ``flow`` is ignored."""
    body: dict[str, Any] = json_body()
    if service in REQUEST_FIELDS:
        try:
            return jsonify(final_answer(app_state().runtime, current_access(), service, body))
        except TgneoError as e:
            if isinstance(e, BadRequest | Forbidden | Unauthorized):
                raise
            return jsonify({"error": {"type": REQUEST_FIELDS[service].kind.error_type, "message": str(e)}})
    if service == "triples":
        workspace = current_access().resolve(body.get("workspace"))
        return jsonify({"response": triples(app_state().store, workspace, body)})
    raise NotFound(f"no service {service!r}; tgneo serves {', '.join((*REQUEST_FIELDS, 'triples'))}")
