"""The engines: GraphRAG, Document RAG and agents, each a generator of explain-first events.

Engines are found by name (``graph-rag``, ``document-rag``, ``agent``, and any a user registers), the way rdflib
finds its parsers: :data:`ENGINES` holds the built-ins by :class:`~tgneo.kinds.SessionKind`, :func:`register_engine`
adds one by name (or an installed package declares it under the ``tgneo.engines`` entry-point group), and
:func:`build_engine` makes one. The CLI, the HTTP API, the TrustGraph gateway and :func:`tgneo.connect` all get
their engines there, so an engine a user adds is asked like a built-in one (``tgneo ask --engine NAME``,
``tg.ask(question, engine=NAME)``). See ``base.py`` for the contract every engine keeps.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from tgneo.engines.agent import Agent
from tgneo.engines.base import Engine, Outcome, Request, Session
from tgneo.engines.docrag import DocRag
from tgneo.engines.graphrag import GraphRag
from tgneo.entrypoints import Registry
from tgneo.errors import BadRequest, EngineError
from tgneo.kinds import SessionKind
from tgneo.llm.base import LLM
from tgneo.store.driver import Store

ENGINES: Mapping[SessionKind, type[Engine]] = MappingProxyType({cls.kind: cls for cls in (GraphRag, DocRag, Agent)})
"""The built-in engines by the kind of session they answer."""

EngineFactory = Callable[..., Engine]
"""An :class:`Engine` subclass, or any callable ``factory(store, llm, *, record=True) -> Engine``."""

ENTRY_POINTS = "tgneo.engines"
"""The entry-point group an installed package declares its engines under: ``name = "package.module:Factory"``."""

ENGINE_FACTORIES: Registry[EngineFactory] = Registry(
    "engine", ENTRY_POINTS, {kind.wire: cls for kind, cls in ENGINES.items()}, BadRequest
)
"""Every engine by name: the built-ins, those :func:`register_engine` adds and those installed packages declare."""


def register_engine(name: str, factory: EngineFactory, *, replace: bool = False) -> None:
    """Make ``factory`` answer questions asked of engine ``name``, as the built-ins do.

    The engine it builds decides the kind of trace it records and the wire fields its stream uses by its
    ``kind`` (a :class:`~tgneo.kinds.SessionKind`): a Document RAG variant subclasses
    :class:`~tgneo.engines.docrag.DocRag` and keeps ``document-rag``'s trace and messages.

    Args:
        name: What users ask for (``tg.ask(q, engine=name)``, ``tgneo ask --engine name``).
        factory: An :class:`Engine` subclass, or a callable taking ``(store, llm, *, record=True)``.
        replace: Allow replacing an engine already registered under ``name`` (a built-in included).

    Raises:
        BadRequest: ``name`` is empty or has whitespace, or is taken and ``replace`` is false.
    """
    ENGINE_FACTORIES.register(name, factory, replace=replace)


def engine_names() -> tuple[str, ...]:
    """Every engine's name: the built-ins first, then those registered or declared by installed packages."""
    return ENGINE_FACTORIES.names()


def build_engine(kind: SessionKind | str, store: Store, llm: LLM, *, record: bool = True) -> Engine:
    """A fresh engine of ``kind`` (a session kind, or any engine's name) on ``store`` and ``llm``.

    Args:
        kind: A built-in's :class:`SessionKind`, or a name (``graph-rag``, ``graphrag``, a registered engine's).
        record: ``False`` answers without writing a trace (benchmarks measure the cost of explaining this way).

    Raises:
        BadRequest: no engine goes by that name (the message lists them), or its factory built no engine.
    """
    if isinstance(kind, SessionKind):
        return ENGINES[kind](store, llm, record=record)
    factory = _factory(kind)
    engine: Any = factory(store, llm, record=record)
    if not isinstance(engine, Engine):
        raise BadRequest(f"engine {kind!r}: its factory returned {type(engine).__name__}, not an Engine")
    return engine


def _factory(name: str) -> EngineFactory:
    builtin = next((k for k in SessionKind if name == k.value), None)  # the short names: graphrag, docrag
    found = ENGINES[builtin] if builtin is not None else ENGINE_FACTORIES.get(name)
    if found is None:
        raise BadRequest(f"unknown engine {name!r}; use one of {', '.join(engine_names())}")
    return found


__all__ = [
    "ENGINES",
    "ENGINE_FACTORIES",
    "ENTRY_POINTS",
    "Agent",
    "DocRag",
    "Engine",
    "EngineError",
    "EngineFactory",
    "GraphRag",
    "Outcome",
    "Request",
    "Session",
    "build_engine",
    "engine_names",
    "register_engine",
]
