"""Content: ``GET /api/v1/content/{uri}`` — a librarian text (answer, thought, observation, page, chunk).

JSON ``{uri, workspace, collection, contentType, text}``; with ``Accept: text/plain`` the bare text.
``?collection=`` picks the collection; without it the first collection of the workspace holding the
URI answers (TrustGraph's librarian has no collections). Another workspace's text is not found.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, request

from tgneo.store.librarian import get_text
from tgneo.web.app_state import app_state
from tgneo.web.auth import current_access
from tgneo.web.bodies import arg_text

bp = Blueprint("content", __name__)


@bp.get("/api/v1/content/<path:uri>")
def content(uri: str) -> Response:
    """A librarian document's text."""
    workspace = current_access().resolve(arg_text("workspace"))
    text = get_text(app_state().store, workspace, uri, arg_text("collection"))
    if request.accept_mimetypes.best_match(["application/json", "text/plain"]) == "text/plain":
        return Response(text.text, mimetype="text/plain")
    return jsonify(
        {
            "uri": text.uri,
            "workspace": workspace,
            "collection": text.collection,
            "contentType": text.content_type,
            "text": text.text,
        }
    )
