"""Wire messages → bytes on an HTTP response: NDJSON lines or Server-Sent Events.

Both framings carry exactly the messages of :func:`tgneo.stream.pipeline.messages`, one per line or
event, flushed as they come, so a reader sees each explain message the moment its step committed.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

NDJSON = "application/x-ndjson"
SSE = "text/event-stream"


def encode(message: dict[str, Any]) -> str:
    """One message as compact JSON on one line (non-ASCII kept as is; JSON escapes every newline)."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


def ndjson(messages: Iterable[dict[str, Any]]) -> Iterator[bytes]:
    """One JSON document per line (``application/x-ndjson``)."""
    for message in messages:
        yield (encode(message) + "\n").encode()


def sse(messages: Iterable[dict[str, Any]]) -> Iterator[bytes]:
    """Server-Sent Events: ``id: n`` and ``data: {json}`` per message, the default ``message`` event.

    The default event type means a browser's ``EventSource.onmessage`` sees every message; the
    ``message_type`` inside tells explain from answer. The final message is followed by nothing: the
    server ends the response, and a reader that reconnects would ask a new question, so none should.
    """
    for number, message in enumerate(messages, start=1):
        yield f"id: {number}\ndata: {encode(message)}\n\n".encode()
