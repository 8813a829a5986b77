"""One error handler: every failure answers JSON ``{"error": {"type", "message"}}`` with its status."""

from __future__ import annotations

from flask import Flask, Response, jsonify
from werkzeug.exceptions import HTTPException

from tgneo.errors import TgneoError


def error_response(status: int, type_: str, message: str) -> tuple[Response, int]:
    """The JSON error body every endpoint uses."""
    return jsonify({"error": {"type": type_, "message": message}}), status


def register_error_handlers(app: Flask) -> None:
    """Render tgneo's typed errors and Werkzeug's HTTP errors (404, 405, …) as JSON."""

    @app.errorhandler(TgneoError)
    def _tgneo_error(e: TgneoError) -> tuple[Response, int]:
        return error_response(e.status, e.type, str(e))

    @app.errorhandler(HTTPException)
    def _http_error(e: HTTPException) -> tuple[Response, int]:
        name = (e.name or "HTTPError").replace(" ", "")
        return error_response(e.code or 500, name, e.description or name)
