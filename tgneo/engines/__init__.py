"""The engines: GraphRAG, Document RAG and agents, each a generator of explain-first events.

:data:`ENGINES` maps every :class:`~tgneo.kinds.SessionKind` to its engine class and
:func:`build_engine` makes one: the CLI, the HTTP API and the TrustGraph gateway all get their engines
there (through :class:`tgneo.service.runtime.Runtime`), and a new engine is one more entry. See
``base.py`` for the contract every engine keeps.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from tgneo.engines.agent import Agent
from tgneo.engines.base import Engine, EngineError, Outcome, Request, Session
from tgneo.engines.docrag import DocRag
from tgneo.engines.graphrag import GraphRag
from tgneo.kinds import SessionKind
from tgneo.llm.base import LLM
from tgneo.store.driver import Store

ENGINES: Mapping[SessionKind, type[Engine]] = MappingProxyType({cls.kind: cls for cls in (GraphRag, DocRag, Agent)})
"""Every engine by the kind of session it answers."""


def build_engine(kind: SessionKind, store: Store, llm: LLM, *, record: bool = True) -> Engine:
    """A fresh engine answering ``kind`` questions from ``store`` with ``llm`` (``record=False``: no trace)."""
    return ENGINES[kind](store, llm, record=record)


__all__ = [
    "ENGINES",
    "Agent",
    "DocRag",
    "Engine",
    "EngineError",
    "GraphRag",
    "Outcome",
    "Request",
    "Session",
    "build_engine",
]
