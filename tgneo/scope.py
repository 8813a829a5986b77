"""Workspaces and collections: the one rule for their names, and the name of the unnamed one.

Every node tgneo writes carries a ``workspace`` and a ``collection``, every lookup filters on both
(isolation), and every road in names them: CLI options, HTTP bodies and query strings, gateway envelopes,
the store's own functions. They all check a name here, so a name one road accepts is never refused by another.

``default`` is both tgneo's and TrustGraph's name for the workspace or collection a caller did not name
(TrustGraph's client sends it when nothing was configured; see :mod:`tgneo.service.access` for what it
means under an API token).
"""

from __future__ import annotations

from tgneo.errors import BadRequest

DEFAULT_SCOPE = "default"
"""The workspace, and the collection, of a request that names none."""

MAX_NAME_CHARS = 200
"""The longest workspace or collection name accepted anywhere."""


def check_name(value: object, key: str) -> str:
    """``value`` if it is a usable workspace or collection name; ``key`` names it in the error.

    Raises:
        BadRequest: not a string, blank, or longer than :data:`MAX_NAME_CHARS` characters.
    """
    if not isinstance(value, str) or not value.strip():
        raise BadRequest(f"{key}: must be a non-empty string, not {value!r}")
    if len(value) > MAX_NAME_CHARS:
        raise BadRequest(f"{key}: {len(value)} characters; at most {MAX_NAME_CHARS} are accepted")
    return value


def name_or_default(value: object, key: str) -> str:
    """A name a request may leave out: ``None`` (absent, or JSON ``null``) is :data:`DEFAULT_SCOPE`."""
    return DEFAULT_SCOPE if value is None else check_name(value, key)


def check_scope(workspace: object, collection: object) -> None:
    """Refuse a workspace or collection that :func:`check_name` refuses."""
    check_name(workspace, "workspace")
    check_name(collection, "collection")
