"""Access control: API tokens fix the workspace, on every road in.

``TGNEO_TOKENS=token=workspace,token2=workspace2``. When it is set, every request under ``/api/``
needs a known token — ``Authorization: Bearer <token>`` (or ``?token=`` on a WebSocket handshake,
as TrustGraph's bulk sockets send it; the gateway socket takes it in its auth frame) — else 401; the
token decides the workspace, and a request naming another workspace gets 403. A trace or document of
another workspace is simply not found (404): lookups only ever run in the caller's workspace.

``"default"`` (:data:`~tgneo.scope.DEFAULT_SCOPE`) is TrustGraph's word for *unspecified* (its client
replaces it with the workspace ``auth-ok`` announces, and its REST calls send it when no workspace was
configured), so under a token it means the token's own workspace — a request can never reach a
workspace named ``default`` that belongs to somebody else with it.

When ``TGNEO_TOKENS`` is unset the server trusts its caller (``tgneo serve`` then binds to loopback
only) and the workspace is whatever the request names, ``default`` when it names none.

Reading the token off an HTTP request is the web layer's part (:mod:`tgneo.web.auth`); deciding what
it allows is this module's.
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping
from dataclasses import dataclass, field

from tgneo.errors import ConfigError, Forbidden, Unauthorized
from tgneo.scope import DEFAULT_SCOPE, check_name


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
            BadRequest: the named workspace breaks the scope rule (:func:`tgneo.scope.check_name`).
            Forbidden: a token's request names another workspace.
        """
        if requested is not None:
            check_name(requested, "workspace")
        if self.workspace is None:
            return requested if isinstance(requested, str) else DEFAULT_SCOPE
        if requested in (None, DEFAULT_SCOPE, self.workspace):
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
