"""Run the app on Gunicorn's threaded worker: production-grade, and it serves flask-sock WebSockets.

Why Gunicorn ``gthread``: flask-sock needs a server that hands the raw socket to the app. Werkzeug's
dev server, Gunicorn (threaded, eventlet, gevent) and eventlet/gevent do; waitress does not. Threads
rather than processes keep one driver pool per process and let a long stream hold one thread.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Flask
from gunicorn.app.base import BaseApplication


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
            "graceful_timeout": 10,
            "accesslog": "-",
            "loglevel": "info",
            "control_socket_disable": True,  # several servers (tests, users) may run side by side
        },
    ).run()
