"""What the Neo4j driver sent to the server and what the server answered, read from the driver's own debug log.

The driver logs every Bolt message on the ``neo4j.io`` logger at DEBUG: ``C: BEGIN {'mode': 'r', 'bookmarks':
[…]}``, ``C: RUN 'query' {params} {extra}`` (for an auto-commit query the extra holds the mode and the bookmarks),
``C: COMMIT``, and the server's ``S: SUCCESS {…}``, whose summary after a query's records carries the query's
``type`` as the server planned it (``r`` read only, ``w`` write only, ``rw``, ``s`` schema) and, when a
transaction commits, its ``bookmark``. :class:`BoltLog` groups them into units of work, per connection, so a test
can see which access mode and which bookmarks each transaction was really sent with, and what the server made
of its queries: nothing is wrapped or replaced, the driver runs as it always does.
"""

from __future__ import annotations

import ast
import logging
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

_STRING = re.compile(r"""^('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")""")


@dataclass
class Unit:
    """One transaction as sent: explicit (``BEGIN`` … ``COMMIT``) or one auto-commit query."""

    port: int
    mode: str
    """``r`` (READ access) or ``w`` (WRITE: Bolt sends no mode for it)."""
    bookmarks: tuple[str, ...]
    """The bookmarks the transaction was sent with: the server runs it only once it holds their writes."""
    explicit: bool
    queries: list[str] = field(default_factory=list)
    types: list[str] = field(default_factory=list)
    """The server's query type of each query that completed (``r``, ``w``, ``rw``, ``s``)."""
    bookmark: str | None = None
    """The bookmark the server answered when the transaction committed."""
    failed: bool = False
    thread: int = 0
    """The thread that sent it (and read its answers: the driver is synchronous)."""
    begun: int = 0
    """When it was sent (the message's rank in the log)."""
    answered: int | None = None
    """When its bookmark came back (the message's rank in the log)."""

    @property
    def read_only(self) -> bool:
        """Whether the server planned every query of the unit as a read (``type`` ``r``)."""
        return bool(self.types) and all(t == "r" for t in self.types)


def _run_fields(text: str) -> tuple[str, dict[str, Any]]:
    """The query and the extra of a logged ``RUN`` (``repr(query) repr(params) repr(extra)``, space-joined)."""
    match = _STRING.match(text)
    if match is None:
        raise ValueError(f"not a logged RUN: {text[:80]!r}")
    query = ast.literal_eval(match.group(1))
    # the extra is the last repr; scanning from the right, the first suffix that is a dict literal is it
    at = len(text)
    while (at := text.rfind(" {", 0, at)) > 0:
        try:
            extra = ast.literal_eval(text[at + 1 :])
        except (ValueError, SyntaxError):
            continue
        if isinstance(extra, dict):
            return query, extra
    raise ValueError(f"no extra in a logged RUN: {text[-80:]!r}")


class BoltLog(logging.Handler):
    """Collects the units of work the driver sends (see the module docstring), in the order they were begun."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.units: list[Unit] = []
        self._open: dict[int, Unit] = {}
        """Connection → its explicit transaction, while one is open."""
        self._last: dict[int, Unit] = {}
        """Connection → the unit its last query belongs to (the next summaries are that query's)."""
        self._mutex = threading.Lock()
        self._rank = 0
        self._ranks: dict[int, list[int]] = {}
        """Thread → the ranks of the messages it logged, in order."""

    def emit(self, record: logging.LogRecord) -> None:
        args = record.args
        if record.name != "neo4j.io" or not isinstance(args, tuple) or not args or not isinstance(args[0], int):
            return
        port, message = args[0], str(record.msg)
        with self._mutex:
            self._rank += 1
            thread = record.thread or 0
            self._ranks.setdefault(thread, []).append(self._rank)
            if "C: BEGIN" in message and isinstance(args[1], dict):
                unit = Unit(port, args[1].get("mode", "w"), tuple(args[1].get("bookmarks", ())), True, thread=thread,
                            begun=self._rank)  # fmt: skip
                self.units.append(unit)
                self._open[port] = self._last[port] = unit
            elif "C: RUN" in message:
                query, extra = _run_fields(str(args[1]))
                unit = self._open.get(port) or Unit(port, extra.get("mode", "w"), tuple(extra.get("bookmarks", ())),
                                                    False, thread=thread, begun=self._rank)  # fmt: skip
                if unit is not self._open.get(port):
                    self.units.append(unit)
                unit.queries.append(query)
                self._last[port] = unit
            elif "S: SUCCESS" in message and isinstance(args[1], dict) and port in self._last:
                unit = self._last[port]
                if "type" in args[1]:
                    unit.types.append(args[1]["type"])
                if "bookmark" in args[1]:
                    unit.bookmark, unit.answered = args[1]["bookmark"], self._rank
            elif "S: FAILURE" in message and port in self._last:
                self._last[port].failed = True
            elif "C: COMMIT" in message or "C: ROLLBACK" in message:
                self._open.pop(port, None)

    def written(self) -> list[Unit]:
        """The units that committed a write (a query the server planned as one, and a bookmark answered)."""
        return [u for u in self.units if not u.failed and u.bookmark and any(t != "r" for t in u.types)]

    def chained(self) -> list[tuple[Unit, Unit]]:
        """Each unit sent after a write had committed, with the last write committed before it took its bookmarks
        (:meth:`committed_before`)."""
        written = sorted(self.written(), key=lambda u: u.answered or 0)
        pairs = []
        for unit in self.units:
            before = [w for w in written if self.committed_before(w, unit)]
            if before:
                pairs.append((unit, before[-1]))
        return pairs

    def committed_before(self, write: Unit, unit: Unit) -> bool:
        """Whether ``write``'s bookmark was the driver's before ``unit`` took its bookmarks, as the log can tell.

        In one thread, when the write's answer came first. Across threads, the log orders only messages: the
        writer's thread records the bookmark after it logged the answer, and the other thread takes its bookmarks
        after its own last message before the unit's. So a write of another thread counts once that thread had
        logged a message after the answer, before the unit's thread logged its last one ahead of the unit (a read
        begun two messages after a concurrent step's commit, by a thread that had taken its bookmarks meanwhile,
        was counted and failed under CI's load, at cc36cd8)."""
        answered = write.answered or 0
        if write.thread == unit.thread:
            return answered < unit.begun
        writer, reader = self._ranks.get(write.thread, []), self._ranks.get(unit.thread, [])
        went_on = next((rank for rank in writer if rank > answered), None)
        ahead = max((rank for rank in reader if rank < unit.begun), default=None)
        return went_on is not None and ahead is not None and went_on < ahead

    def sees(self, unit: Unit, write: Unit) -> bool:
        """Whether ``unit`` was sent with ``write``'s bookmark or a newer one: one the server first answered once
        ``write`` had committed (when several sessions run at once, the driver's manager keeps the newest it was
        answered, and Neo4j's bookmarks of one database are ordered)."""
        first: dict[str, int] = {}
        for u in self.units:
            if u.bookmark is not None and u.answered is not None:
                first[u.bookmark] = min(first.get(u.bookmark, u.answered), u.answered)
        return write.bookmark in unit.bookmarks or any(first.get(b, -1) > (write.answered or 0) for b in unit.bookmarks)


@contextmanager
def listening() -> Iterator[BoltLog]:
    """A :class:`BoltLog` on the driver's ``neo4j.io`` logger for the ``with`` block (DEBUG only there, meanwhile)."""
    logger = logging.getLogger("neo4j.io")
    log = BoltLog()
    level, propagate = logger.level, logger.propagate
    logger.addHandler(log)
    logger.setLevel(logging.DEBUG)
    logger.propagate = False  # the Bolt log is for this handler, not for pytest's captured output
    try:
        yield log
    finally:
        logger.removeHandler(log)
        logger.setLevel(level)
        logger.propagate = propagate
