"""Named queries: ``POST /api/v1/queries/{name}`` runs one of tgneo's read-only Cypher files.

Body ``{"params": {…}, "collection"?: …, "workspace"?: …}``; answer ``{"name", "rows", "truncated"}``.
Only the queries ``tgneo.store.named.READ_QUERIES`` lists, in a read transaction, stopped after a
timeout, at most a bounded number of rows; workspace and collection are always the caller's own.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify

from tgneo.errors import BadRequest
from tgneo.scope import name_or_default
from tgneo.store.named import named_query, run_named
from tgneo.web.app_state import app_state
from tgneo.web.auth import current_access
from tgneo.web.bodies import json_body

bp = Blueprint("queries", __name__)


@bp.post("/api/v1/queries/<name>")
def run(name: str) -> Response:
    """Run a named read-only query in the caller's workspace and collection."""
    named_query(name)  # 404 for an unknown name before the body is read
    body = json_body()
    unknown = sorted(set(body) - {"params", "collection", "workspace"})
    if unknown:
        raise BadRequest(f"{unknown[0]}: unknown field; send params, collection, workspace")
    params = body.get("params") or {}
    if not isinstance(params, dict):
        raise BadRequest("params: must be an object")
    workspace = current_access().resolve(body.get("workspace"))
    result = run_named(
        app_state().store, name, workspace, name_or_default(body.get("collection"), "collection"), params
    )
    return jsonify({"name": result.name, "rows": result.rows, "truncated": result.truncated})
