"""Request bodies and parameters, checked at the door: size, JSON, types — 4xx naming the field.

Every JSON body is read through :func:`json_body` (at most :data:`MAX_JSON_BYTES`, an object,
``BadRequest`` naming what is wrong), and every query parameter through :func:`arg_int` /
:func:`arg_text`; nothing unchecked reaches a view.
"""

from __future__ import annotations

from typing import Any

from flask import request

from tgneo.errors import BadRequest, PayloadTooLarge
from tgneo.scope import MAX_NAME_CHARS, name_or_default
from tgneo.stream.fields import json_object

MAX_JSON_BYTES = 1 << 20
"""The largest JSON body accepted (1 MiB): a question is at most 4,000 characters."""
MAX_RDF_BYTES = 64 << 20
"""The largest RDF document ``POST /api/v1/rdf`` accepts (64 MiB)."""
MAX_SOCKET_MESSAGE = 4 << 20
"""The largest WebSocket message accepted (4 MiB); a larger one closes the socket with 1009."""


def raw_body(limit: int) -> bytes:
    """The request body, refused with 413 past ``limit`` bytes (declared or actually sent)."""
    if request.content_length is not None and request.content_length > limit:
        raise PayloadTooLarge(f"the body is {request.content_length} bytes; at most {limit} are accepted")
    request.max_content_length = limit
    data = request.get_data(cache=True)
    if len(data) > limit:  # pragma: no cover - werkzeug enforces max_content_length while reading
        raise PayloadTooLarge(f"the body is larger than {limit} bytes")
    return data


def json_body(limit: int = MAX_JSON_BYTES) -> dict[str, Any]:
    """The request's JSON object.

    Raises:
        PayloadTooLarge: more than ``limit`` bytes.
        BadRequest: not UTF-8 JSON, or not an object.
    """
    return json_object(raw_body(limit), "body")


def arg_text(name: str, default: str | None = None, *, max_chars: int = MAX_NAME_CHARS) -> str | None:
    """A query parameter as non-empty text (``default`` when absent)."""
    value = request.args.get(name)
    if value is None:
        return default
    if not value.strip():
        raise BadRequest(f"{name}: must not be empty")
    if len(value) > max_chars:
        raise BadRequest(f"{name}: longer than {max_chars} characters")
    return value


def arg_scope(name: str) -> str:
    """A ``workspace`` or ``collection`` query parameter, by the one scope rule (``default`` when absent)."""
    return name_or_default(request.args.get(name), name)


def arg_int(name: str, default: int, low: int, high: int) -> int:
    """A query parameter as an integer in ``[low, high]``."""
    value = request.args.get(name)
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        raise BadRequest(f"{name}: {value!r} is not a whole number") from None
    if not low <= number <= high:
        raise BadRequest(f"{name}: must be from {low} to {high}, not {number}")
    return number


def arg_flag(name: str) -> bool:
    """A boolean query parameter (``1``/``true``/``yes`` or ``0``/``false``/``no``)."""
    value = request.args.get(name)
    if value is None:
        return False
    if value.lower() in ("1", "true", "yes"):
        return True
    if value.lower() in ("0", "false", "no", ""):
        return False
    raise BadRequest(f"{name}: {value!r} is not true or false")
