"""Engine events → wire messages: the one pipeline every transport runs.

An engine is a generator of :mod:`tgneo.explain.events`; :func:`messages` renders each event as the
response message TrustGraph's service of that kind sends (``Event.to_wire``), and keeps the promises a
stream makes whatever the engine does:

* **a final message, never silence** — the stream ends with ``end_of_session`` (RAG) or
  ``end_of_dialog`` (agent); when the engine ends without one, or raises (a bug past its own guard),
  an ``error`` message takes its place and the reason goes to the log, not to the client;
* **the engine stops with its reader** — when the consumer stops pulling (``close()``: a client
  gone, a socket closed), the engine generator is closed at once, so no further LLM call or write
  happens (its current step, already committed or rolled back as a whole, stays consistent);
* **explain first** — the order is the engine's, and each ``explain`` message comes out the moment
  its step's transaction committed (the recorder hands the event back only then).

:func:`prime` pulls the first event before a transport commits to a response, so that a request the
engine refuses (a ``BadRequest`` raised before anything is recorded) becomes a 4xx, not a stream.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Generator, Iterable, Iterator
from itertools import chain
from typing import Any

from tgneo.explain.events import ErrorEvent, Event, ExplainEvent, SessionEnd
from tgneo.kinds import SessionKind

log = logging.getLogger("tgneo.stream")

COMMITTED_AT = "committed_at"
"""The field a timestamped explain message carries: seconds since the epoch when its event left the
engine — the instant ``Recorder.record`` returned, since the engine yields the recorder's return
value directly. TrustGraph's clients ignore unknown fields; it is sent only when asked for."""


def prime(events: Iterator[Event]) -> Iterator[Event]:
    """Pull the first event now (raising what the engine raises before its first step), then the rest."""
    try:
        first = next(events)
    except StopIteration:
        return iter(())
    return chain([first], _closing(events))


def _closing(events: Iterator[Event]) -> Iterator[Event]:
    try:
        yield from events
    finally:
        _close(events)


def _close(events: Iterable[Event]) -> None:
    close: Callable[[], None] | None = getattr(events, "close", None)
    if close is not None:
        close()


def is_final(message: dict[str, Any]) -> bool:
    """Whether ``message`` ends its stream (``end_of_session`` or ``end_of_dialog``)."""
    return bool(message.get("end_of_session") or message.get("end_of_dialog"))


def messages(
    events: Iterator[Event],
    kind: SessionKind,
    *,
    timestamps: bool = False,
    clock: Callable[[], float] = time.time,
) -> Generator[dict[str, Any], None, None]:
    """Each event's wire message, ending in exactly one final message; closing this closes the engine.

    Args:
        events: the engine's events (``Engine.answer(request)``, possibly :func:`prime`-d).
        kind: the session kind, which decides the wire fields.
        timestamps: add :data:`COMMITTED_AT` to every explain message (for measuring delivery).
        clock: where the timestamps come from.
    """
    try:
        for event in events:
            message = event.to_wire(kind)
            if timestamps and isinstance(event, ExplainEvent):
                message[COMMITTED_AT] = clock()
            yield message
            if isinstance(event, SessionEnd | ErrorEvent):
                return
    except Exception as e:  # an engine bug past Engine.answer's own guard: end with a message, not silence
        log.exception("the %s engine failed outside its guard", kind.wire)
        yield ErrorEvent(f"internal error in {kind.wire}: {type(e).__name__}").to_wire(kind)
        return
    finally:
        _close(events)
    log.error("the %s engine ended without a final message", kind.wire)
    yield ErrorEvent(f"the {kind.wire} engine ended without a final message").to_wire(kind)
