"""The session kinds — GraphRAG, Document RAG, agent — and every name each one goes by; the agent patterns.

One enum, so that the CLI's ``--type`` choices, the trace reader's filter, the URI roots, the
question labels and TrustGraph's wire names (``graph-rag``, ``document-rag``, ``agent``) can never
disagree. Values are tgneo's short names (``graphrag``); :meth:`SessionKind.parse` also accepts the
wire names, so ``--engine graph-rag`` and ``--type graphrag`` name the same kind.
"""

from __future__ import annotations

from enum import StrEnum

from tgneo.errors import BadRequest
from tgneo.vocab import Label

GRAPHRAG_ROOT = "urn:trustgraph:question:"
"""Prefix of a GraphRAG question (trace root). Load-bearing: TrustGraph's client keys on it."""
DOCRAG_ROOT = "urn:trustgraph:docrag:"
"""Prefix of a Document RAG question and of all its steps."""
AGENT_ROOT = "urn:trustgraph:agent:"
"""Prefix of an agent session and of all its steps."""


class AgentPattern(StrEnum):
    """How an agent works a question; the value is the name requests and the router use."""

    REACT = "react"
    PLAN_THEN_EXECUTE = "plan-then-execute"
    SUPERVISOR = "supervisor"

    @property
    def purpose(self) -> str:
        """What the pattern is good for, as the router is told."""
        return _PURPOSE[self]


class SessionKind(StrEnum):
    """What answered a question; the value is tgneo's short name."""

    GRAPH_RAG = "graphrag"
    DOC_RAG = "docrag"
    AGENT = "agent"

    @property
    def wire(self) -> str:
        """TrustGraph's service name: ``graph-rag``, ``document-rag``, ``agent``."""
        return _WIRE[self]

    @property
    def root(self) -> str:
        """The URI prefix of the session's root (and, for DocRAG and agents, of every step)."""
        return _ROOT[self]

    @property
    def question_label(self) -> Label:
        """The label of the root Question: ``GraphRagQuestion``, ``DocRagQuestion``, ``AgentQuestion``."""
        return _QUESTION[self]

    @property
    def error_type(self) -> str:
        """TrustGraph's error type for a failure of this service (``graph-rag-error`` …)."""
        return f"{self.wire}-error"

    @property
    def last_flag(self) -> str:
        """The response field that ends one message's pieces: ``end_of_stream`` (RAG) or ``end_of_message``."""
        return "end_of_message" if self is SessionKind.AGENT else "end_of_stream"

    @property
    def final_flag(self) -> str:
        """The response field that ends a stream: ``end_of_session`` (RAG) or ``end_of_dialog`` (agent)."""
        return "end_of_dialog" if self is SessionKind.AGENT else "end_of_session"

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """Every accepted spelling: the short names, then the wire names."""
        return tuple(dict.fromkeys([*(k.value for k in cls), *(k.wire for k in cls)]))

    @classmethod
    def parse(cls, name: str) -> SessionKind:
        """The kind called ``name`` (``graphrag`` or ``graph-rag`` …).

        Raises:
            BadRequest: no kind goes by that name; the message lists the names.
        """
        for kind in cls:
            if name in (kind.value, kind.wire):
                return kind
        raise BadRequest(f"unknown session kind {name!r}; use one of {', '.join(cls.names())}")

    @classmethod
    def of_labels(cls, labels: object) -> SessionKind | None:
        """The kind whose question label is among ``labels`` (a node's labels), if any."""
        present = set(labels) if isinstance(labels, list | tuple | set | frozenset) else set()
        for kind in cls:
            if kind.question_label.value in present:
                return kind
        return None


_PURPOSE = {
    AgentPattern.REACT: "think, call a tool, observe, until an answer",
    AgentPattern.PLAN_THEN_EXECUTE: "plan the steps, run each, answer from the results",
    AgentPattern.SUPERVISOR: "split into sub-goals, research each in a sub-agent, combine the findings",
}
_WIRE = {SessionKind.GRAPH_RAG: "graph-rag", SessionKind.DOC_RAG: "document-rag", SessionKind.AGENT: "agent"}
_ROOT = {SessionKind.GRAPH_RAG: GRAPHRAG_ROOT, SessionKind.DOC_RAG: DOCRAG_ROOT, SessionKind.AGENT: AGENT_ROOT}
_QUESTION = {
    SessionKind.GRAPH_RAG: Label.GRAPH_RAG_QUESTION,
    SessionKind.DOC_RAG: Label.DOC_RAG_QUESTION,
    SessionKind.AGENT: Label.AGENT_QUESTION,
}
