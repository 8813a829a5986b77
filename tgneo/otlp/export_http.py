"""tgneo's own traces out to an OTLP/HTTP receiver as they are answered, through the OpenTelemetry SDK.

Each answered question's trace is mapped to spans (:func:`tgneo.otlp.export.step_spans`), built as the SDK's
``ReadableSpan`` objects and handed to the SDK's ``BatchSpanProcessor`` in front of its ``OTLPSpanExporter``
(:mod:`tgneo.otlp.export_sdk`). Batching, retries with exponential backoff on 429/502/503/504 (and
``Retry-After``), compression, timeouts and the flush at shutdown are therefore the SDK's, configured as any
OpenTelemetry SDK is (``docs/configuration.md``):

* ``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`` (the traces URL, as it is), else ``OTEL_EXPORTER_OTLP_ENDPOINT`` (a base
  URL: traces go to ``{base}/v1/traces``). With neither, nothing is exported, and the SDK is never imported.
* ``OTEL_EXPORTER_OTLP_TRACES_HEADERS``, else ``OTEL_EXPORTER_OTLP_HEADERS``: ``key=value,…``, values percent-decoded.
* ``OTEL_SDK_DISABLED=true``, or ``OTEL_TRACES_EXPORTER`` set without ``otlp`` (``none``): nothing is exported.
* The exporter reads the rest itself — ``OTEL_EXPORTER_OTLP_(TRACES_)COMPRESSION``, ``…_TIMEOUT``,
  ``…_CERTIFICATE``, ``…_CLIENT_KEY``, ``…_CLIENT_CERTIFICATE`` — and the processor ``OTEL_BSP_*``.
* ``TGNEO_OTLP_ENDPOINT`` and ``TGNEO_OTLP_HEADERS`` are still read, until the next release, with a warning on the
  ``tgneo.otlp`` log (once per process) naming the variable to set instead; a standard variable that is set wins.

One :class:`TraceExporter` per :class:`~tgneo.service.runtime.Runtime` (per process: a server's worker,
``tgneo ask``), with one processor made on its first export: the processor's worker thread is the one thread that
exports, however many questions are answered. :meth:`TraceExporter.close` exports what is queued and stops (the
Runtime's and the web app's close); at exit every exporter still open is closed, so ``tgneo ask`` delivers its spans
before its process ends.

Exporting is a copy for observability, never part of answering: a failure (a receiver down, a 4xx, spans the
receiver rejected in its ``partialSuccess``) is a warning on the ``tgneo.otlp`` log, never an exception to the
caller.

tgneo's own ``POST /v1/traces`` never records these spans again (:mod:`tgneo.otlp.receive`, by their
instrumentation scope ``tgneo``): a user who points their pipeline's ``OTEL_EXPORTER_OTLP_*`` at ``tgneo serve``
in the environment ``tgneo serve`` also runs in, or who routes every service's spans through a Collector that
forwards to tgneo, gets no second copy of tgneo's answers.
"""

from __future__ import annotations

import atexit
import logging
import threading
import urllib.parse
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tgneo.config import Settings
from tgneo.errors import ConfigError

if TYPE_CHECKING:
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

__all__ = ["TRACES_PATH", "OtlpTarget", "TraceExporter", "parse_headers"]

log = logging.getLogger("tgneo.otlp")

TRACES_PATH = "v1/traces"
"""Where OTLP/HTTP receivers take traces, under a base URL."""

_warned: set[str] = set()
_warned_lock = threading.Lock()


def _warn_once(key: str, message: str) -> None:
    with _warned_lock:
        if key in _warned:
            return
        _warned.add(key)
    log.warning(message)


def parse_headers(raw: str | None, var: str) -> dict[str, str]:
    """``key=value,key2=value2`` (``OTEL_EXPORTER_OTLP_HEADERS``'s form, keys and values percent-decoded) as a dict.

    Stricter than the SDK, which skips a malformed entry with a warning: a header that carries an API key and is
    dropped would only show as the receiver's 401s, so it stops the process that reads it instead.

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


def _url(value: str, var: str) -> str:
    parts = urllib.parse.urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ConfigError(
            f"{var}={value!r} is not an http:// or https:// URL (an OTLP/HTTP receiver's, e.g. http://localhost:4318)"
        )
    return value


@dataclass(frozen=True)
class OtlpTarget:
    """Where tgneo's traces go: the traces URL, and the headers every export request carries."""

    url: str
    headers: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def from_settings(cls, settings: Settings) -> OtlpTarget | None:
        """The target ``settings`` name, or ``None`` when nothing is to be exported (module docstring).

        Raises:
            ConfigError: an endpoint is not an ``http(s)://`` URL, or headers are malformed (naming the variable).
        """
        _warn_deprecated(settings)
        if _switched_off(settings):
            return None
        if settings.otlp_traces_endpoint:
            url = _url(settings.otlp_traces_endpoint, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
        elif settings.otlp_endpoint:
            url = f"{_url(settings.otlp_endpoint, 'OTEL_EXPORTER_OTLP_ENDPOINT').removesuffix('/')}/{TRACES_PATH}"
        elif settings.deprecated_otlp_endpoint:
            base = _url(settings.deprecated_otlp_endpoint, "TGNEO_OTLP_ENDPOINT").rstrip("/")
            url = base if base.endswith("/" + TRACES_PATH) else f"{base}/{TRACES_PATH}"  # as TGNEO_OTLP_ENDPOINT did
        else:
            return None
        if settings.otlp_traces_headers:
            headers = parse_headers(settings.otlp_traces_headers, "OTEL_EXPORTER_OTLP_TRACES_HEADERS")
        elif settings.otlp_headers:
            headers = parse_headers(settings.otlp_headers, "OTEL_EXPORTER_OTLP_HEADERS")
        else:
            headers = parse_headers(settings.deprecated_otlp_headers, "TGNEO_OTLP_HEADERS")
        return cls(url, headers)


def _switched_off(settings: Settings) -> bool:
    """OpenTelemetry's own off switches: ``OTEL_SDK_DISABLED=true``, ``OTEL_TRACES_EXPORTER`` without ``otlp``."""
    if (settings.otel_sdk_disabled or "").strip().lower() == "true":
        return True
    if settings.otel_traces_exporter is not None:
        return "otlp" not in {e.strip().lower() for e in settings.otel_traces_exporter.split(",")}
    return False


def _warn_deprecated(settings: Settings) -> None:
    if settings.deprecated_otlp_endpoint:
        standard = settings.otlp_traces_endpoint or settings.otlp_endpoint
        _warn_once(
            "TGNEO_OTLP_ENDPOINT",
            "TGNEO_OTLP_ENDPOINT is deprecated and will be removed in the next release: set "
            "OTEL_EXPORTER_OTLP_ENDPOINT (the base URL; OTEL_EXPORTER_OTLP_TRACES_ENDPOINT for the /v1/traces URL "
            "itself) instead" + (" — it is set, and wins" if standard else ""),
        )
    if settings.deprecated_otlp_headers:
        standard = settings.otlp_traces_headers or settings.otlp_headers
        _warn_once(
            "TGNEO_OTLP_HEADERS",
            "TGNEO_OTLP_HEADERS is deprecated and will be removed in the next release: set "
            "OTEL_EXPORTER_OTLP_HEADERS instead" + (" — it is set, and wins" if standard else ""),
        )


class TraceExporter:
    """Answered traces to one :class:`OtlpTarget`, through one SDK batch processor (module docstring).

    Thread-safe: a server's request threads export at once; the queue is the SDK processor's (``OTEL_BSP_*``:
    2048 spans by default, the oldest dropped with a warning when the receiver cannot keep up).
    """

    def __init__(self, target: OtlpTarget) -> None:
        self.target = target
        self._processor: BatchSpanProcessor | None = None
        self._closed = False
        self._lock = threading.Lock()
        with _open_lock:
            _open.add(self)

    def export(self, trace: Mapping[str, Any]) -> int:
        """Queue the spans of ``trace`` (a :func:`tgneo.store.traces.get_trace` dict) for export; how many.

        Returns at once: the processor's thread sends them. Once :meth:`close` ran, nothing is queued (0).

        Raises:
            MappingError: the trace has no steps, or a step has no URI.
        """
        from tgneo.otlp.export_sdk import readable_spans

        spans = readable_spans(trace)
        processor = self._running()
        if processor is None:
            log.warning("OTLP export of %s dropped: the exporter to %s is closed", trace.get("uri"), self.target.url)
            return 0
        for span in spans:
            processor.on_end(span)
        return len(spans)

    def flush(self, timeout_millis: int = 30_000) -> bool:
        """Export what is queued now, waiting for it (retries included); whether the processor ran it."""
        with self._lock:
            processor = self._processor
        return True if processor is None else bool(processor.force_flush(timeout_millis))

    def close(self) -> None:
        """Export what is queued (retrying as the SDK does, within its timeout), then stop the processor's thread.

        Idempotent; traces exported later are dropped with a warning.
        """
        with self._lock:
            processor, self._processor, self._closed = self._processor, None, True
        with _open_lock:
            _open.discard(self)
        if processor is not None:
            processor.shutdown()  # type: ignore[no-untyped-call]  # the SDK leaves it unannotated

    def _running(self) -> BatchSpanProcessor | None:
        """The processor, made on the first export (importing the SDK then); ``None`` once closed."""
        with self._lock:
            if self._closed:
                return None
            if self._processor is None:
                from tgneo.otlp.export_sdk import batch_processor

                self._processor = batch_processor(self.target.url, self.target.headers)
            return self._processor


_open: set[TraceExporter] = set()
"""Every exporter not yet closed (held, so that one a caller forgot still flushes at exit)."""
_open_lock = threading.Lock()


@atexit.register
def _close_all() -> None:
    """At exit, export what every open exporter holds (the processors' threads are daemons: they die unflushed)."""
    with _open_lock:
        exporters = list(_open)
    for exporter in exporters:
        try:
            exporter.close()
        except Exception:  # one exporter's failure must not keep the others' spans in
            log.warning("closing the OTLP exporter to %s failed", exporter.target.url, exc_info=True)
