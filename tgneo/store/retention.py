"""Retention and legal hold: traces expire by age or count, in bounded batches, and held traces never do.

Every question writes its steps, selections and texts for good; run for months, that grows without
bound. A :class:`Policy` (a maximum age, a maximum number of traces, or both) names what may go;
:func:`prune` deletes it one trace at a time, each in slices of at most ``slice_size`` nodes (never one
transaction over a dense node), deepest steps first so that what is left of an interrupted prune is
still a trace the next prune finds. It deletes a trace's steps, its edge and chunk selections,
thoughts, answer sentences and the librarian texts only they point at — never a knowledge-graph
statement or resource, and never source provenance (documents, pages, chunks, subgraphs), which other
traces and the graph itself still use.

A legal hold (:func:`hold`) marks a trace root ``tg_hold``; the candidates query skips held roots, and
every slice locks the root and checks the hold again before deleting, so a hold that lands while a
prune runs stops it at once, and a trace a prune has started deleting can no longer be held (it is
reported, not half-kept). Holds and prunes are recorded in the audit log (``tgneo.store.audit``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from tgneo.errors import BadRequest
from tgneo.scope import check_scope
from tgneo.store import audit
from tgneo.store.driver import Store
from tgneo.store.queries import Q
from tgneo.store.traces import plain

SLICE = 500
"""Nodes one prune transaction deletes at most."""
_UNITS = {"m": timedelta(minutes=1), "h": timedelta(hours=1), "d": timedelta(days=1), "w": timedelta(weeks=1)}


def parse_age(text: str) -> timedelta:
    """``30d``, ``12h``, ``90m``, ``2w`` as a duration.

    Raises:
        BadRequest: anything else, naming the forms that work.
    """
    match = re.fullmatch(r"\s*(\d+)\s*([mhdw])\s*", text)
    if not match or int(match.group(1)) == 0:
        raise BadRequest(f"age {text!r}: use a positive number of minutes, hours, days or weeks: 90m, 12h, 30d, 2w")
    return int(match.group(1)) * _UNITS[match.group(2)]


def age_text(age: timedelta) -> str:
    """A duration the way :func:`parse_age` reads it (``30d``), in its largest whole unit."""
    for unit in "wdhm":
        if age % _UNITS[unit] == timedelta(0):
            return f"{age // _UNITS[unit]}{unit}"
    return str(age)


@dataclass(frozen=True)
class Policy:
    """What a workspace and collection keep: traces younger than ``max_age``, the newest ``max_traces``."""

    max_age: timedelta | None = None
    max_traces: int | None = None

    def __post_init__(self) -> None:
        if self.max_age is None and self.max_traces is None:
            raise BadRequest("a retention policy needs a maximum age, a maximum number of traces, or both")
        if self.max_traces is not None and self.max_traces < 0:
            raise BadRequest(f"the number of traces to keep must be 0 or more, not {self.max_traces}")

    def describe(self) -> str:
        parts = []
        if self.max_age is not None:
            parts.append(f"older than {age_text(self.max_age)}")
        if self.max_traces is not None:
            parts.append(f"beyond the newest {self.max_traces}")
        return " or ".join(parts)


@dataclass(frozen=True)
class Candidate:
    """A trace a policy would delete."""

    uri: str
    started: str | None
    steps: int


@dataclass(frozen=True)
class PruneReport:
    """What a prune did: traces and nodes deleted, traces found held on the way (kept)."""

    traces: int
    nodes: int
    held: list[str]


def candidates(
    store: Store, workspace: str, collection: str, policy: Policy, *, now: datetime | None = None, limit: int = 100_000
) -> list[Candidate]:
    """The traces ``policy`` would delete, oldest first (held traces never among them)."""
    check_scope(workspace, collection)
    before = (now or datetime.now(UTC)) - policy.max_age if policy.max_age is not None else None
    rows = store.read(
        Q.prune_candidates, workspace=workspace, collection=collection, before=before, keep=policy.max_traces,
        limit=limit,
    )  # fmt: skip
    return [Candidate(r["uri"], plain(r["startedAtTime"]), int(r["steps"])) for r in rows]


def prune(
    store: Store,
    workspace: str,
    collection: str,
    policy: Policy,
    *,
    who: str,
    slice_size: int = SLICE,
    progress: Callable[[int, int], None] | None = None,
) -> PruneReport:
    """Delete every trace ``policy`` names (see the module docstring); ``progress(done, total)`` per trace."""
    found = candidates(store, workspace, collection, policy)
    deleted = nodes = 0
    held: list[str] = []
    for done, candidate in enumerate(found, start=1):
        removed = delete_trace(store, workspace, collection, candidate.uri, slice_size=slice_size)
        if removed is None:
            held.append(candidate.uri)
        else:
            deleted, nodes = deleted + 1, nodes + removed
        if progress:
            progress(done, len(found))
    audit.record("prune", who=who, workspace=workspace, collection=collection, policy=policy.describe(),
                 traces=deleted, nodes=nodes, held=held)  # fmt: skip
    return PruneReport(deleted, nodes, held)


def delete_trace(store: Store, workspace: str, collection: str, uri: str, *, slice_size: int = SLICE) -> int | None:
    """Delete one trace, deepest first, ``slice_size`` nodes a transaction.

    Returns:
        The nodes deleted, or ``None`` when the trace is held (then nothing more is deleted).
    """
    members = [r["uri"] for r in store.read(Q.prune_members, workspace=workspace, collection=collection, uri=uri)]
    slices = [members[i : i + slice_size] for i in range(0, len(members), slice_size)] or [[]]
    deleted = 0
    for index, part in enumerate(slices):
        final = index == len(slices) - 1
        rows = store.write(Q.prune_slice, workspace=workspace, collection=collection, uri=uri, uris=part, final=final)
        if not rows:
            return deleted  # the root is gone already (another prune finished it)
        if rows[0]["held"]:
            return None
        deleted += int(rows[0]["deleted"])
    return deleted


@dataclass(frozen=True)
class HoldResult:
    """One trace's hold after :func:`hold` or :func:`release`."""

    uri: str
    found: bool
    pruning: bool
    held: bool


def hold(store: Store, workspace: str, collection: str, uris: list[str], *, who: str) -> list[HoldResult]:
    """Put a legal hold on each trace root (see the module docstring)."""
    return _holding(store, workspace, collection, uris, who=who, on=True)


def release(store: Store, workspace: str, collection: str, uris: list[str], *, who: str) -> list[HoldResult]:
    """Lift the legal hold of each trace root."""
    return _holding(store, workspace, collection, uris, who=who, on=False)


def _holding(store: Store, workspace: str, collection: str, uris: list[str], *, who: str, on: bool) -> list[HoldResult]:
    check_scope(workspace, collection)
    results = []
    for uri in uris:
        row = store.write(Q.hold_trace, workspace=workspace, collection=collection, uri=uri, hold=on, who=who)[0]
        results.append(HoldResult(uri, bool(row["found"]), bool(row["pruning"]), bool(row["held"])))
    audit.record("hold" if on else "release", who=who, workspace=workspace, collection=collection,
                 traces=[r.uri for r in results if r.found and r.held == on])  # fmt: skip
    return results
