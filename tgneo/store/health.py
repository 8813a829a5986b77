"""Health checks an operator (and the fault benches) run over a store: is anything half-written?

Every step is one transaction (the recorder), every document one transaction, every import journaled,
so a crash — Neo4j stopped, the server killed — should leave nothing half-written. :func:`half_written`
is the check that says so, or names what is not: it looks for the shapes a non-atomic write would
leave (``cypher/half_written.cypher``).
"""

from __future__ import annotations

from dataclasses import dataclass

from tgneo.store.driver import Store
from tgneo.store.queries import Q

__all__ = ["Problem", "half_written"]


@dataclass(frozen=True)
class Problem:
    """A node a half-done write would leave, and what is wrong with it."""

    uri: str
    problem: str


def half_written(store: Store, workspace: str | None = None) -> list[Problem]:
    """Everything that looks half-written in ``workspace`` (every workspace when ``None``); empty when healthy."""
    return [Problem(r["uri"], r["problem"]) for r in store.read(Q.half_written, workspace=workspace)]
