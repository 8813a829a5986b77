"""Run the app on Gunicorn's threaded worker: production-grade, and it serves flask-sock WebSockets.

Why Gunicorn ``gthread``: flask-sock needs a server that hands the raw socket to the app. Werkzeug's
dev server, Gunicorn (threaded, eventlet, gevent) and eventlet/gevent do; waitress does not. Threads
rather than more processes keep one driver pool per process and let a long stream hold one thread.

Sizing for a 2-core machine: one worker process per core (:func:`default_workers`, at most 4), each
with 32 threads — a thread per open stream or socket, so 64 streams run at once and more wait in the
accept queue, not refused. The work itself is mostly waiting on Neo4j and the LLM; two processes
let the offline provider's Python use both cores.

Shutdown is graceful: on SIGTERM each worker stops accepting, lets in-flight HTTP streams finish for
up to ``graceful_timeout`` seconds, and closes its WebSockets with 1001 (going away) instead of
dropping them. Access logs are one JSON object per line on stderr (tokens in query strings redacted).
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qsl, urlencode

from flask import Flask
from gunicorn.app.base import BaseApplication
from gunicorn.glogging import Logger

from tgneo.explain.commit_pipeline import SWITCH_INTERVAL

GRACEFUL_SECONDS = 30


def default_workers() -> int:
    """One worker process per core, at most 4 (each holds its own Neo4j driver pool)."""
    return max(1, min(4, os.cpu_count() or 1))


def _redacted(query: str) -> str:
    pairs = parse_qsl(query, keep_blank_values=True)
    return urlencode([(k, "***" if k == "token" else v) for k, v in pairs])


class JsonAccessLogger(Logger):  # type: ignore[misc]
    """Gunicorn's logger with structured access lines: one JSON object per request, on stderr.

    Gunicorn's ``accesslog = "-"`` means stdout; the manual and ``serve --help`` promise stderr (stdout
    stays for what a command prints), so the line is written to stderr here, one write per line.
    """

    def access(self, resp: Any, req: Any, environ: dict[str, Any], request_time: Any) -> None:
        if not self.access_log_enabled:
            return
        status = getattr(resp, "status", None)
        if isinstance(status, str):
            status = status.split(None, 1)[0]
        record = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "remote": environ.get("REMOTE_ADDR"),
            "method": environ.get("REQUEST_METHOD"),
            "path": environ.get("PATH_INFO"),
            "query": _redacted(environ.get("QUERY_STRING") or ""),
            "status": int(status) if status and str(status).isdigit() else None,
            "bytes": getattr(resp, "sent", None),
            "duration_ms": round(request_time.total_seconds() * 1000, 1),
            "websocket": (environ.get("HTTP_UPGRADE") or "").lower() == "websocket",
            "agent": environ.get("HTTP_USER_AGENT"),
            "pid": os.getpid(),
        }
        try:
            sys.stderr.write(json.dumps(record) + "\n")
            sys.stderr.flush()
        except Exception:  # a log line must never fail a request
            self.error("could not write an access log line")


def _post_worker_init(worker: Any) -> None:
    """Tune the worker for streaming, and chain SIGTERM: tell the app to close its sockets (1001), then
    let Gunicorn stop the worker gracefully."""
    sys.setswitchinterval(SWITCH_INTERVAL)
    app = worker.wsgi

    def stop(sig: int, frame: Any) -> None:
        services = getattr(app, "extensions", {}).get("tgneo")
        if services is not None:
            services.shutting_down.set()
        worker.handle_exit(sig, frame)

    signal.signal(signal.SIGTERM, stop)
    signal.siginterrupt(signal.SIGTERM, False)


class _Server(BaseApplication):  # type: ignore[misc]
    def __init__(self, app_factory: Callable[[], Flask], options: dict[str, Any]) -> None:
        self.app_factory = app_factory
        self.options = options
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self) -> Flask:
        # Called in the worker after the fork, so the Neo4j driver's pool is born in its process.
        return self.app_factory()


def serve(
    app_factory: Callable[[], Flask],
    host: str = "127.0.0.1",
    port: int = 8888,
    threads: int = 32,
    workers: int = 1,
) -> None:
    """Serve the app built by ``app_factory`` until SIGINT/SIGTERM (blocks)."""
    _Server(
        app_factory,
        {
            "bind": f"{host}:{port}",
            "workers": workers,
            "worker_class": "gthread",
            "threads": threads,
            "timeout": 120,
            "graceful_timeout": GRACEFUL_SECONDS,
            "keepalive": 5,
            # the longest request line Gunicorn allows: a percent-encoded IRI in the path can be long.
            # Past it Gunicorn itself answers a plain-text 400, before the app (and its JSON errors).
            "limit_request_line": 8190,
            "accesslog": "-",  # enables access lines; JsonAccessLogger writes them to stderr
            "logger_class": JsonAccessLogger,
            "loglevel": "info",
            "post_worker_init": _post_worker_init,
            "control_socket_disable": True,  # several servers (tests, users) may run side by side
        },
    ).run()
