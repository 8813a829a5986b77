"""The engines: GraphRAG, Document RAG and agents, each a generator of explain-first events.

``ENGINES`` maps every engine's name — TrustGraph's service names ``graph-rag``, ``document-rag``,
``agent`` — to its class; the CLI, the HTTP API and the TrustGraph gateway all look engines up here,
and a new engine is one more entry. See ``base.py`` for the contract every engine keeps.
"""

from __future__ import annotations

from tgneo.engines.agent import Agent
from tgneo.engines.base import Engine, EngineError, Outcome, Request, Session
from tgneo.engines.docrag import DocRag
from tgneo.engines.graphrag import GraphRag
from tgneo.errors import BadRequest
from tgneo.kinds import SessionKind

ENGINES: dict[str, type[Engine]] = {cls.name: cls for cls in (GraphRag, DocRag, Agent)}
"""Every engine by its name (``graph-rag``, ``document-rag``, ``agent``)."""


def engine_class(name: str) -> type[Engine]:
    """The engine called ``name`` — a wire name (``graph-rag``) or tgneo's short one (``graphrag``).

    Raises:
        BadRequest: no engine has that name; the message lists them.
    """
    kind = SessionKind.parse(name) if name not in ENGINES else None
    cls = ENGINES.get(kind.wire if kind is not None else name)
    if cls is None:
        raise BadRequest(f"unknown engine {name!r}; use one of {', '.join(ENGINES)}")
    return cls


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
    "engine_class",
]
