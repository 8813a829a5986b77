"""Access control: API tokens fix the workspace, on every road in.

``TGNEO_TOKENS=token=workspace,token2=workspace2``. When it is set, every request under ``/api/``
needs a known token — ``Authorization: Bearer <token>`` (or ``?token=`` on a WebSocket handshake,
as TrustGraph's bulk sockets send it; the gateway socket takes it in its auth frame) — else 401; the
token decides the workspace, and a request naming another workspace gets 403. A trace or document of
another workspace is simply not found (404): lookups only ever run in the caller's workspace.

``"default"`` is TrustGraph's word for *unspecified* (its client replaces it with the workspace
``auth-ok`` announces, and its REST calls send it when no workspace was configured), so under a token
it means the token's own workspace — a request can never reach a workspace named ``default`` that
belongs to somebody else with it.

When ``TGNEO_TOKENS`` is unset the server trusts its caller (``tgneo serve`` then binds to loopback
only) and the workspace is whatever the request names, ``default`` when it names none.

The health probes and ``/openapi.json`` are open: they carry no workspace's data.
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping
from dataclasses import dataclass, field

from flask import Flask, g, request

from tgneo.errors import BadRequest, ConfigError, Forbidden, Unauthorized
from tgneo.stream.options import MAX_NAME_CHARS

DEFAULT_WORKSPACE = "default"
OPEN_PATHS = frozenset({"/healthz", "/readyz", "/openapi.json", "/api/v1/socket"})
"""Paths that need no header token (the gateway socket authenticates in its first frame)."""


def parse_tokens(raw: str | None) -> dict[str, str]:
    """``token=workspace,…`` as a table; empty when unset.

    Raises:
        ConfigError: an entry is not ``token=workspace``, or a token appears twice.
    """
    table: dict[str, str] = {}
    for entry in (raw or "").split(","):
        if not entry.strip():
            continue
        token, sep, workspace = entry.strip().partition("=")
        if not sep or not token.strip() or not workspace.strip():
            raise ConfigError(f"TGNEO_TOKENS: {entry.strip()!r} is not token=workspace")
        if token.strip() in table:
            raise ConfigError("TGNEO_TOKENS: a token appears twice")
        table[token.strip()] = workspace.strip()
    return table


@dataclass(frozen=True)
class Access:
    """Who is asking: the workspace their token fixes, or ``None`` when no tokens are configured."""

    workspace: str | None = None
    tokens: Mapping[str, str] = field(default_factory=dict, repr=False)

    def resolve(self, requested: object) -> str:
        """The workspace a request may use, given the one it names (``None`` when it names none).

        Raises:
            BadRequest: the named workspace is not a non-empty string.
            Forbidden: a token's request names another workspace.
        """
        if requested is not None and (not isinstance(requested, str) or not requested.strip()):
            raise BadRequest(f"workspace: must be a non-empty string, not {requested!r}")
        if isinstance(requested, str) and len(requested) > MAX_NAME_CHARS:
            raise BadRequest(f"workspace: longer than {MAX_NAME_CHARS} characters")
        if self.workspace is None:
            return requested if isinstance(requested, str) else DEFAULT_WORKSPACE
        if requested in (None, DEFAULT_WORKSPACE, self.workspace):
            return self.workspace
        raise Forbidden(f"this token is for workspace {self.workspace!r}, not {requested!r}")


def authenticate(token: str | None, tokens: Mapping[str, str]) -> Access:
    """The access a token gives (every token is compared, in constant time, so timing tells nothing).

    Raises:
        Unauthorized: tokens are configured and ``token`` is missing or unknown.
    """
    if not tokens:
        return Access()
    found: str | None = None
    for known, workspace in tokens.items():
        if token is not None and hmac.compare_digest(token.encode(), known.encode()):
            found = workspace
    if found is None:
        raise Unauthorized("a valid API token is required: Authorization: Bearer <token>")
    return Access(found, tokens)


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
        if request.path in OPEN_PATHS or not request.path.startswith("/api/"):
            return
        access = authenticate(request_token(), tokens)
        g.tgneo_access = access
        if request.headers.get("Upgrade", "").lower() == "websocket":
            # a socket's ?workspace= is checked before the handshake, so a refusal is a real 403
            access.resolve(request.args.get("workspace"))
