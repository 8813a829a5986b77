"""Send tgneo's own traces to an OTLP/HTTP endpoint as they are answered (``TGNEO_OTLP_ENDPOINT``).

The receiving end is any OpenTelemetry collector or backend speaking OTLP/HTTP (Phoenix, Langfuse, Jaeger,
the Collector): each answered question's trace is POSTed once, as protobuf
(:func:`tgneo.otlp.export.otlp_protobuf`), to ``{endpoint}/v1/traces`` — as ``OTEL_EXPORTER_OTLP_ENDPOINT``
does, with ``TGNEO_OTLP_HEADERS`` in ``OTEL_EXPORTER_OTLP_HEADERS``'s ``key=value,key2=value2`` form (values
percent-decoded) for a backend's API key.

Exporting is a copy for observability, never part of answering: it uses only the standard library, waits
at most :data:`TIMEOUT_SECONDS`, runs on a daemon thread, and a failure (a backend down, a 4xx, a refused
span) is a warning in the ``tgneo.otlp`` log, never an exception in the caller. A process that is exiting
(``tgneo ask``) gives the exports still under way up to :data:`TIMEOUT_SECONDS` to finish.
"""

from __future__ import annotations

import atexit
import logging
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceResponse

from tgneo.config import Settings
from tgneo.errors import ConfigError
from tgneo.otlp.export import otlp_protobuf
from tgneo.version import __version__

__all__ = ["TIMEOUT_SECONDS", "OtlpTarget", "export_in_background", "parse_headers", "post_traces"]

log = logging.getLogger("tgneo.otlp")

TIMEOUT_SECONDS = 5.0
"""The longest one export waits for the endpoint (connect and answer)."""
TRACES_PATH = "/v1/traces"
"""Where OTLP/HTTP receivers take traces, under the endpoint's base URL."""


def parse_headers(raw: str | None, var: str = "TGNEO_OTLP_HEADERS") -> dict[str, str]:
    """``key=value,key2=value2`` (``OTEL_EXPORTER_OTLP_HEADERS``'s form, values percent-decoded) as a dict.

    Raises:
        ConfigError: an entry has no ``=`` or an empty key (the message names ``var``, never a value).
    """
    headers: dict[str, str] = {}
    for index, entry in enumerate((raw or "").split(",")):
        if not entry.strip():
            continue
        key, sep, value = entry.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"{var}: entry {index + 1} is not key=value (the form is key=value,key2=value2)")
        headers[urllib.parse.unquote(key.strip())] = urllib.parse.unquote(value.strip())
    return headers


@dataclass(frozen=True)
class OtlpTarget:
    """Where traces go: an OTLP/HTTP endpoint's base URL and the headers every request carries."""

    endpoint: str
    headers: Mapping[str, str] = field(default_factory=dict)
    timeout: float = TIMEOUT_SECONDS

    @classmethod
    def from_settings(cls, settings: Settings) -> OtlpTarget | None:
        """The target ``TGNEO_OTLP_ENDPOINT`` and ``TGNEO_OTLP_HEADERS`` name, or ``None`` when unset.

        Raises:
            ConfigError: the endpoint is not an ``http(s)://`` URL, or the headers are malformed.
        """
        if not settings.otlp_endpoint:
            return None
        parts = urllib.parse.urlsplit(settings.otlp_endpoint)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ConfigError(
                f"TGNEO_OTLP_ENDPOINT={settings.otlp_endpoint!r} is not an http:// or https:// URL "
                f"(an OTLP/HTTP receiver's base URL, e.g. http://localhost:4318)"
            )
        return cls(settings.otlp_endpoint, parse_headers(settings.otlp_headers))

    @property
    def url(self) -> str:
        """``{endpoint}/v1/traces`` (an endpoint already ending in ``/v1/traces`` is taken as it is)."""
        base = self.endpoint.rstrip("/")
        return base if base.endswith(TRACES_PATH) else base + TRACES_PATH


def post_traces(target: OtlpTarget, body: bytes) -> bool:
    """POST one protobuf ``ExportTraceServiceRequest``; whether the endpoint took all of it (never raises)."""
    headers = {**target.headers, "Content-Type": "application/x-protobuf", "User-Agent": f"tgneo/{__version__}"}
    request = urllib.request.Request(target.url, data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=target.timeout) as response:  # the URL the operator configured
            answer = response.read()
            content_type = response.headers.get("Content-Type", "")
    except urllib.error.HTTPError as e:
        log.warning("OTLP export to %s refused: HTTP %s %s", target.url, e.code, e.reason)
        return False
    except (OSError, ValueError) as e:  # unreachable, timed out, a malformed URL
        log.warning("OTLP export to %s failed: %s", target.url, getattr(e, "reason", e))
        return False
    if answer and "protobuf" in content_type:
        try:
            partial = ExportTraceServiceResponse.FromString(answer).partial_success
        except Exception:  # a body that is no OTLP response says nothing against the export
            return True
        if partial.rejected_spans:
            log.warning("OTLP export to %s: %d span(s) rejected: %s", target.url, partial.rejected_spans,
                        partial.error_message)  # fmt: skip
            return False
    return True


_pending: set[threading.Thread] = set()
_pending_lock = threading.Lock()


def export_in_background(target: OtlpTarget, trace: Mapping[str, Any]) -> threading.Thread:
    """Encode ``trace`` (a :func:`tgneo.store.traces.get_trace` dict) and POST it on a daemon thread.

    Returns:
        The thread, already started (tests join it; callers need not).
    """

    def send() -> None:
        try:
            post_traces(target, otlp_protobuf(trace))
        except Exception:  # the caller's answer must never depend on its export
            log.warning("OTLP export of %s failed", trace.get("uri"), exc_info=True)
        finally:
            with _pending_lock:
                _pending.discard(threading.current_thread())

    thread = threading.Thread(target=send, name="tgneo-otlp-export", daemon=True)
    with _pending_lock:
        _pending.add(thread)
    thread.start()
    return thread


@atexit.register
def _drain() -> None:
    """At exit, give exports under way up to :data:`TIMEOUT_SECONDS` in all (a daemon thread dies with its process)."""
    deadline = time.monotonic() + TIMEOUT_SECONDS
    with _pending_lock:
        waiting = list(_pending)
    for thread in waiting:
        thread.join(max(0.0, deadline - time.monotonic()))
