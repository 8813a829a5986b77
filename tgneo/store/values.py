"""Neo4j's temporal values as Python's: the one conversion every reader of stored properties uses."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from neo4j.time import Date, DateTime, Duration, Time


def native(value: Any) -> Any:
    """``value`` with Neo4j ``DateTime``/``Date``/``Time`` as ``datetime``/``date``/``time``, recursively.

    A ``Duration`` stays as it is (Python has no equivalent that keeps months and days apart).
    """
    if isinstance(value, DateTime | Date | Time):
        return value.to_native()
    if isinstance(value, Duration):
        return value
    if isinstance(value, Mapping):
        return {k: native(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [native(v) for v in value]
    return value
