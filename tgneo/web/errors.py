"""One error handler: every failure answers JSON ``{"error": {"type", "message"}}`` with its status.

tgneo's typed errors carry their own status (``errors.py``); Werkzeug's (404, 405, 413 …) keep
theirs; anything else is a bug: it is logged with its traceback and the client gets a 500 that says
only that — never a stack trace.
"""

from __future__ import annotations

import logging

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
        response, status = error_response(e.status, e.type, str(e))
        if status == 401:
            response.headers["WWW-Authenticate"] = "Bearer"
        return response, status

    @app.errorhandler(HTTPException)
    def _http_error(e: HTTPException) -> tuple[Response, int]:
        name = (e.name or "HTTPError").replace(" ", "")
        response, status = error_response(e.code or 500, name, e.description or name)
        if status == 401:
            response.headers["WWW-Authenticate"] = "Bearer"
        return response, status

    @app.errorhandler(Exception)
    def _bug(e: Exception) -> tuple[Response, int]:
        logging.getLogger("tgneo.web").exception("unhandled error")
        return error_response(500, "InternalError", "internal error; the server log has the details")
