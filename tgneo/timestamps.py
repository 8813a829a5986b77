"""Timestamps as TrustGraph writes them: ISO 8601, UTC spelled ``Z`` (``2025-06-01T10:15:30.123456Z``).

TrustGraph's client sorts sessions by comparing these strings, so every timestamp tgneo writes,
streams or shows goes through :func:`iso_z`. Pure: no driver types here (``tgneo.store.values``
turns Neo4j's temporal values into ``datetime`` first).
"""

from __future__ import annotations

from datetime import UTC, datetime


def iso_z(moment: datetime) -> str:
    """ISO 8601 text with UTC written ``Z``; another offset is kept as it is (``+02:00``)."""
    return moment.isoformat().replace("+00:00", "Z")


def now_iso_z() -> str:
    """The current UTC time in TrustGraph's form."""
    return iso_z(datetime.now(UTC))


def parse_iso(text: str) -> datetime:
    """Read ISO 8601 text, accepting a trailing ``Z`` for UTC.

    Raises:
        ValueError: ``text`` is not ISO 8601.
    """
    return datetime.fromisoformat(text.replace("Z", "+00:00") if text.endswith("Z") else text)
