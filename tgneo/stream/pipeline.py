"""Engine events → wire messages: the one pipeline every road out runs.

An engine is a generator of :mod:`tgneo.explain.events`; :func:`messages` encodes each with the wire
codec (:func:`tgneo.stream.wire.encode`) and keeps the promises a stream makes whatever the engine
does. ``tgneo ask`` (in-process, printed or ``--json``), HTTP NDJSON and SSE, the question WebSocket
and the TrustGraph gateway all write what it yields; ``tgneo ask --url`` reads a server's messages
through :func:`final`, so the same promise holds for a stream read off the network:

* **a final message, never silence** — the stream ends with ``end_of_session`` (RAG) or
  ``end_of_dialog`` (agent); when the source ends without one, or raises (an engine bug past its own
  guard, a connection that broke), an ``error`` message takes its place and the reason goes to the log;
* **the engine stops with its reader** — when the consumer stops pulling (``close()``: a client
  gone, a socket closed), the engine generator is closed at once, so no further LLM call or write
  happens (its current step, already committed or rolled back as a whole, stays consistent);
* **explain first** — the order is the engine's, and each ``explain`` message comes out the moment
  its step's transaction committed (the engine releases the event only then).

:func:`prime` pulls the first event before a transport commits to a response, so that a request the
engine refuses (a ``BadRequest`` raised before anything is recorded) becomes a 4xx, not a stream.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Generator, Iterable, Iterator
from itertools import chain

from tgneo.errors import TgneoError
from tgneo.explain.events import ErrorEvent, Event, ExplainEvent
from tgneo.kinds import SessionKind
from tgneo.stream import wire
from tgneo.stream.wire import Message

log = logging.getLogger("tgneo.stream")

COMMITTED_AT = "committed_at"
"""The field a timestamped explain message carries: seconds since the epoch when its event left the
engine — the moment its step's commit was seen. TrustGraph's clients ignore unknown fields; it is sent
only when asked for."""


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


def _close(source: Iterable[object]) -> None:
    close: Callable[[], None] | None = getattr(source, "close", None)
    if close is not None:
        close()


def messages(
    events: Iterator[Event],
    kind: SessionKind,
    *,
    timestamps: bool = False,
    clock: Callable[[], float] = time.time,
) -> Generator[Message, None, None]:
    """Each event's wire message, ending in exactly one final message; closing this closes the engine.

    Args:
        events: the engine's events (``Engine.answer(request)``, possibly :func:`prime`-d).
        kind: the session kind, which decides the wire fields.
        timestamps: add :data:`COMMITTED_AT` to every explain message (for measuring delivery).
        clock: where the timestamps come from.
    """
    return final(_encoded(events, kind, timestamps, clock), kind, f"the {kind.wire} engine")


def _encoded(
    events: Iterator[Event], kind: SessionKind, timestamps: bool, clock: Callable[[], float]
) -> Generator[Message, None, None]:
    try:
        for event in events:
            message = wire.encode(event, kind)
            if timestamps and isinstance(event, ExplainEvent):
                message[COMMITTED_AT] = clock()
            yield message
    finally:
        _close(events)


def final(source: Iterator[Message], kind: SessionKind, what: str) -> Generator[Message, None, None]:
    """``source``'s messages up to and including its final one; an ``error`` message if it gives none.

    Args:
        source: messages from an engine (:func:`messages`) or read from a server.
        kind: the session kind, which names the final flag.
        what: the source, as the error message names it (``the graph-rag engine``).
    """
    try:
        for message in source:
            yield message
            if wire.is_final(message, kind):
                return
    except TgneoError as e:  # a typed failure reading the source (a connection that broke)
        log.warning("%s failed: %s", what, e)
        yield wire.encode(ErrorEvent(str(e)), kind)
        return
    except Exception as e:  # an engine bug past Engine.answer's own guard: end with a message, not silence
        log.exception("%s failed outside its guard", what)
        yield wire.encode(ErrorEvent(f"internal error in {kind.wire}: {type(e).__name__}"), kind)
        return
    finally:
        _close(source)
    log.error("%s ended without a final message", what)
    yield wire.encode(ErrorEvent(f"{what} ended without a final message"), kind)
