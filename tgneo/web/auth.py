"""Access control on HTTP: the token of each request, checked before its view runs.

What a token allows (the workspace it fixes, ``default`` under a token, no tokens configured) is
decided in :mod:`tgneo.service.access`; this module reads the token off the request —
``Authorization: Bearer <token>``, or ``?token=`` on a WebSocket handshake, as TrustGraph's bulk
sockets send it — and refuses a request without a good one (401 JSON through the error handler).

The API (``/api/…``) and the OTLP receiver (``/v1/traces``) are behind the tokens. The health probes and
``/openapi.json`` are open: they carry no workspace's data. The gateway socket
authenticates in its first frame.
"""

from __future__ import annotations

from collections.abc import Mapping

from flask import Flask, g, request

from tgneo.service.access import Access, authenticate

OPEN_PATHS = frozenset({"/healthz", "/readyz", "/openapi.json", "/api/v1/socket"})
"""Paths that need no header token (the gateway socket authenticates in its first frame)."""


def request_token() -> str | None:
    """The token of the current HTTP request: the Bearer header, or ``?token=`` on a WebSocket handshake."""
    header = request.headers.get("Authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    if request.headers.get("Upgrade", "").lower() == "websocket":
        return request.args.get("token") or None
    return None


def current_access() -> Access:
    """The access of the current request (set by the hook :func:`init_app` installs)."""
    access: Access = g.tgneo_access
    return access


def init_app(app: Flask, tokens: Mapping[str, str]) -> None:
    """Authenticate every request before its view runs (401 JSON through the error handler)."""

    @app.before_request
    def _authenticate() -> None:
        if request.path in OPEN_PATHS or not request.path.startswith(("/api/", "/v1/")):
            return
        access = authenticate(request_token(), tokens)
        g.tgneo_access = access
        if request.headers.get("Upgrade", "").lower() == "websocket":
            # a socket's ?workspace= is checked before the handshake, so a refusal is a real 403
            access.resolve(request.args.get("workspace"))
