"""JSON text from a client, checked at the door: one object, integers within bounds (pure).

Every body, socket frame and request field that is JSON goes through :func:`json_object`, so a bad
one is a ``BadRequest`` naming what was expected, never a traceback.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from tgneo.errors import BadRequest


def json_object(text: object, what: str = "frame") -> dict[str, Any]:
    """A JSON object from text (a WebSocket frame, a request body); ``what`` names it in errors."""
    if not isinstance(text, str | bytes):
        raise BadRequest(f"{what}: expected JSON text")
    if not text.strip():
        raise BadRequest(f"{what}: a JSON object is required")
    try:
        value = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise BadRequest(f"{what}: not valid JSON ({e})") from None
    if not isinstance(value, dict):
        raise BadRequest(f"{what}: must be a JSON object, not {type(value).__name__}")
    return value


def bounded_int(raw: Mapping[str, Any], key: str, default: int, low: int, high: int) -> int:
    """``raw[key]``, an integer from ``low`` to ``high`` (``default`` when absent or null)."""
    value = raw.get(key, default)
    if value is None:
        return default
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise BadRequest(f"{key}: must be an integer from {low} to {high}, not {value!r}")
    return value
