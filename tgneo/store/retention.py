"""Retention and legal hold: traces expire by age or count, in bounded batches, and held traces never do.

Every question writes its steps, selections and texts for good; run for months, that grows without
bound. A :class:`Policy` (a maximum age, a maximum number of traces, or both) names what may go;
:func:`prune` deletes it one trace at a time, each in slices of at most ``slice_size`` nodes (never one
transaction over a dense node), deepest steps first so that what is left of an interrupted prune is
still a trace the next prune finds. It deletes a trace's steps, its edge and chunk selections,
thoughts, answer sentences and the librarian texts only they point at — never a knowledge-graph
statement or resource, and never source provenance (documents, pages, chunks, subgraphs), which other
traces and the graph itself still use. What only the deleted trace kept alive goes with it, in a last
transaction (:func:`sweep`): when a document was replaced or removed, the statements and chunks its
traces had selected stayed as their quoted evidence (``forget_document.cypher``); once the last such
trace is pruned they are garbage, and left alone they would pile up for months.
:mod:`tgneo.store.health` finds and sweeps any such residue a prune cut off before its sweep left.

A legal hold (:func:`hold`) marks a trace root ``tg_hold``; the candidates query skips held roots, and
every slice locks the root and checks the hold again before deleting, so a hold that lands while a
prune runs stops it at once, and a trace a prune has started deleting can no longer be held (it is
reported, not half-kept). Holds and prunes are recorded in the audit log (``tgneo.store.audit``).

A policy can be stored per workspace and collection (:func:`set_policy`, a ``:RetentionPolicy``
node, so the CLI and every server process see the same one); :func:`apply_stored` prunes every
collection by its stored policy — what ``tgneo traces prune`` without limits does for one collection
and what ``tgneo serve --prune-every`` does on a schedule (:class:`Schedule`).
"""

from __future__ import annotations

import fcntl
import logging
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from tgneo.errors import BadRequest, TgneoError
from tgneo.native import STRUCTURE_KEYS
from tgneo.scope import check_scope
from tgneo.store import audit
from tgneo.store.driver import Store
from tgneo.store.queries import Q
from tgneo.store.traces import plain

log = logging.getLogger("tgneo.retention")

SLICE = 500
"""Nodes one prune transaction deletes at most."""
_UNITS = {
    "s": timedelta(seconds=1),
    "m": timedelta(minutes=1),
    "h": timedelta(hours=1),
    "d": timedelta(days=1),
    "w": timedelta(weeks=1),
}


def parse_age(text: str) -> timedelta:
    """``30d``, ``12h``, ``90m``, ``2w`` (or ``45s``) as a duration.

    Raises:
        BadRequest: anything else, naming the forms that work.
    """
    match = re.fullmatch(r"\s*(\d+)\s*([smhdw])\s*", text)
    if not match or int(match.group(1)) == 0:
        raise BadRequest(
            f"age {text!r}: use a positive number of seconds, minutes, hours, days or weeks: 45s, 90m, 12h, 30d, 2w"
        )
    return int(match.group(1)) * _UNITS[match.group(2)]


def age_text(age: timedelta) -> str:
    """A duration the way :func:`parse_age` reads it (``30d``), in its largest whole unit."""
    for unit in "wdhms":
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
    """What a prune did: traces and nodes deleted, traces found held on the way (kept), and the
    statements and resources only the deleted traces kept alive (``swept``, deleted too)."""

    traces: int
    nodes: int
    held: list[str]
    swept: int = 0


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
    deleted = nodes = swept = 0
    held: list[str] = []
    for done, candidate in enumerate(found, start=1):
        result = delete_trace(store, workspace, collection, candidate.uri, slice_size=slice_size)
        if result is None:
            held.append(candidate.uri)
        else:
            deleted, nodes, swept = deleted + 1, nodes + result.nodes, swept + result.swept
        if progress:
            progress(done, len(found))
    audit.record("prune", who=who, workspace=workspace, collection=collection, policy=policy.describe(),
                 traces=deleted, nodes=nodes, swept=swept, held=held)  # fmt: skip
    return PruneReport(deleted, nodes, held, swept)


@dataclass(frozen=True)
class Deleted:
    """One trace's deletion: its own nodes, and what only it kept alive (swept after it)."""

    nodes: int
    swept: int


def delete_trace(store: Store, workspace: str, collection: str, uri: str, *, slice_size: int = SLICE) -> Deleted | None:
    """Delete one trace, deepest first, ``slice_size`` nodes a transaction, then :func:`sweep` its evidence.

    Returns:
        What was deleted, or ``None`` when the trace is held (then nothing more is deleted).
    """
    scope = {"workspace": workspace, "collection": collection}
    members = [r["uri"] for r in store.read(Q.prune_members, **scope, uri=uri)]
    evidence = store.read(Q.prune_evidence, **scope, uri=uri, uris=members)
    slices = [members[i : i + slice_size] for i in range(0, len(members), slice_size)] or [[]]
    deleted = 0
    for index, part in enumerate(slices):
        final = index == len(slices) - 1
        rows = store.write(Q.prune_slice, **scope, uri=uri, uris=part, final=final)
        if not rows:
            return Deleted(deleted, 0)  # the root is gone already (another prune finished it and its sweep)
        if rows[0]["held"]:
            return None
        deleted += int(rows[0]["deleted"])
    found = evidence[0]  # one row, aggregated: empty lists when the trace points at nothing outside itself
    return Deleted(deleted, sweep(store, workspace, collection, found["statements"], found["resources"],
                                  slice_size=slice_size))  # fmt: skip


def sweep(
    store: Store,
    workspace: str,
    collection: str,
    statements: list[str],
    resources: list[str],
    *,
    slice_size: int = SLICE,
) -> int:
    """Delete, among these statements (ids) and resources (uris), what nothing keeps alive any more.

    ``cypher/sweep_residue.cypher`` re-checks each one in its own transaction, so a key that is still
    asserted or referenced (by the graph, a source or another trace) is left alone: passing too many
    keys is safe, passing too few only leaves garbage for :func:`tgneo.store.health.residue` to find.

    Returns:
        Statements and resources deleted.
    """
    scope = {"workspace": workspace, "collection": collection}
    statements, resources = sorted(set(statements)), sorted(set(resources))  # one lock order for every sweep
    swept = 0
    for i in range(0, max(len(statements), len(resources)), slice_size):
        rows = store.write(Q.sweep_residue, **scope, statements=statements[i : i + slice_size],
                           resources=resources[i : i + slice_size], reserved=STRUCTURE_KEYS)  # fmt: skip
        swept += int(rows[0]["statements"]) + int(rows[0]["resources"])
    return swept


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


@dataclass(frozen=True)
class StoredPolicy:
    """A policy stored for one workspace and collection, with who set it and when."""

    workspace: str
    collection: str
    policy: Policy
    set_at: str | None
    set_by: str | None


def set_policy(store: Store, workspace: str, collection: str, policy: Policy | None, *, who: str) -> None:
    """Store ``policy`` as the collection's retention policy (``None``: remove it), and audit it."""
    check_scope(workspace, collection)
    age = int(policy.max_age.total_seconds()) if policy is not None and policy.max_age is not None else None
    keep = policy.max_traces if policy is not None else None
    store.write(Q.retention_policy_set, workspace=workspace, collection=collection, max_age_seconds=age,
                max_traces=keep, who=who)  # fmt: skip
    audit.record("policy", who=who, workspace=workspace, collection=collection,
                 policy=policy.describe() if policy is not None else None)  # fmt: skip


def stored_policies(store: Store, workspace: str | None = None, collection: str | None = None) -> list[StoredPolicy]:
    """The stored policies of one workspace and collection, or (``None``) of all, by workspace and collection."""
    rows = store.read(Q.retention_policies, workspace=workspace, collection=collection)
    return [
        StoredPolicy(
            r["workspace"], r["collection"],
            Policy(timedelta(seconds=r["max_age_seconds"]) if r["max_age_seconds"] is not None else None,
                   r["max_traces"]),
            plain(r["set_at"]), r["set_by"],
        )
        for r in rows
    ]  # fmt: skip


def apply_stored(store: Store, *, who: str) -> list[tuple[StoredPolicy, PruneReport]]:
    """Prune every collection that has a stored policy by that policy; one collection failing does not stop
    the others (it is logged, and tried again next time)."""
    done = []
    for stored in stored_policies(store):
        try:
            report = prune(store, stored.workspace, stored.collection, stored.policy, who=who)
        except TgneoError as e:
            log.warning("scheduled prune of %s/%s failed: %s", stored.workspace, stored.collection, e)
            continue
        done.append((stored, report))
    return done


class Schedule:
    """Apply the stored policies every ``every``, on a daemon thread, until :meth:`stop`.

    Several server processes on one machine each start one; a lock file under ``home`` lets one run at
    a time, so a prune is not done twice over (prunes are safe to run concurrently, only wasteful).
    Neo4j being down makes a round fail (logged); the next round tries again.
    """

    def __init__(self, store: Store, every: timedelta, home: Path, *, who: str = "tgneo serve (schedule)") -> None:
        self.store, self.every, self.who = store, every, who
        self.lock_path = home / "retention.lock"
        self.rounds = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tgneo-retention", daemon=True)

    def start(self) -> Schedule:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=10)

    def _run(self) -> None:
        while not self._stop.wait(self.every.total_seconds()):
            self.run_once()

    def run_once(self) -> bool:
        """One round, if no other process is running one; whether it ran."""
        self.lock_path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.lock_path, "a") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return False
            try:
                for stored, report in apply_stored(self.store, who=self.who):
                    if report.traces:
                        log.info("pruned %d trace(s) of %s/%s (%s)", report.traces, stored.workspace,
                                 stored.collection, stored.policy.describe())  # fmt: skip
            except TgneoError as e:
                log.warning("scheduled prune round failed: %s", e)
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)
        self.rounds += 1
        return True
