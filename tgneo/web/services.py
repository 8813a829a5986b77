"""What the views share, attached to the app in ``create_app``: settings, the store, the LLM, the engines.

Views reach it through :func:`services` (``current_app.extensions["tgneo"]``), never through module
globals, so two apps (tests run several) never share state. The LLM is built on first use and the
search indexes the engines need are installed once, on the first question — so the server starts,
and answers ``/readyz`` honestly, even while Neo4j is still down.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass, field

from flask import current_app

from tgneo.config import Settings
from tgneo.engines import Engine, engine_class
from tgneo.kinds import SessionKind
from tgneo.llm.base import LLM
from tgneo.llm.registry import get_llm
from tgneo.store import Store
from tgneo.store.schema import install_search_schema


@dataclass
class Services:
    """The app's shared parts (thread-safe: views run on many threads at once)."""

    settings: Settings
    store: Store
    tokens: Mapping[str, str]
    shutting_down: threading.Event = field(default_factory=threading.Event)
    """Set when the server is asked to stop: long-lived sockets close with 1001 (going away)."""
    _llm: LLM | None = None
    _schema_ready: bool = False
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def llm(self) -> LLM:
        """The configured LLM provider (``TGNEO_LLM``), built once."""
        with self._lock:
            if self._llm is None:
                self._llm = get_llm(self.settings)
            return self._llm

    def engine(self, kind: SessionKind) -> Engine:
        """A fresh engine of ``kind`` on the shared store and LLM, the search schema installed."""
        llm = self.llm()
        if not self._schema_ready:
            with self._lock:
                if not self._schema_ready:
                    install_search_schema(self.store, llm.dimensions)
                    self._schema_ready = True
        return engine_class(kind.wire)(self.store, llm)


def services() -> Services:
    """The current app's :class:`Services`."""
    found: Services = current_app.extensions["tgneo"]
    return found
