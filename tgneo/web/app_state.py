"""What the views share, attached to the app in ``create_app``: the runtime, the tokens, the stop signal.

Views reach it through :func:`app_state` (``current_app.extensions["tgneo"]``), never through module
globals, so two apps (tests run several) never share state. Everything a view does beyond reading
the request and writing the response is a call into :mod:`tgneo.service` with these parts.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass, field

from flask import current_app

from tgneo.config import Settings
from tgneo.service.runtime import Runtime
from tgneo.store import Store


@dataclass
class AppState:
    """The app's shared parts (thread-safe: views run on many threads at once)."""

    settings: Settings
    runtime: Runtime
    tokens: Mapping[str, str]
    shutting_down: threading.Event = field(default_factory=threading.Event)
    """Set when the server is asked to stop: long-lived sockets close with 1001 (going away)."""

    @property
    def store(self) -> Store:
        """The store every view reads from and writes to."""
        return self.runtime.store


def app_state() -> AppState:
    """The current app's :class:`AppState`."""
    found: AppState = current_app.extensions["tgneo"]
    return found
