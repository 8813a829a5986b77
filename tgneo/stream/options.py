"""TrustGraph's request fields → what an engine is asked: one translation for every transport.

The native endpoints (``POST /api/v1/graph-rag`` …, ``/api/v1/stream``) and the TrustGraph gateway
socket take the same request bodies TrustGraph's services take (reference §2.6) and hand them to
:func:`translate`, so a field means the same everywhere and is checked in one place. Each field is
one of four things:

* **the question** — ``query`` (RAG) or ``question`` (agent): a non-empty string;
* **an engine option** — ``entity-limit`` → ``entity_limit``, ``doc-limit`` → ``doc_limit``,
  ``pattern``, ``max-iterations`` (tgneo's addition) …: a positive integer (a name for ``pattern``),
  at most :data:`OPTION_CEILINGS` so one request cannot ask the store for millions of rows;
* **accepted and ignored**, as TrustGraph's own services do — ``streaming`` (tgneo always streams; a
  non-streaming reader takes the last message), ``explainable`` (explain messages are always sent,
  reference §6.2), ``max-reranker-input`` and ``fetch-limit`` (tgneo's rerank sees every retrieved
  edge/chunk), ``user-context`` (gateway-injected), the agent's orchestration fields (``state``,
  ``group``, ``session_id`` …); see :data:`IGNORED`;
* **not supported** — ``grounding-seeds``, ``graph-seeds``, ``languages``, ``traversal-instructions``,
  ``graph`` and the agent's ``history``: accepted when empty (the CLI sends them so), refused with a
  400 naming the field when they ask for something tgneo's engines do not do, because silently
  ignoring them would answer a different question.

Anything else is refused with a message naming the field and the accepted ones.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from tgneo.errors import BadRequest
from tgneo.kinds import SessionKind
from tgneo.scope import name_or_default

OPTION_CEILINGS: Mapping[str, int] = MappingProxyType(
    {
        "entity_limit": 1000,
        "triple_limit": 1000,
        "max_subgraph_size": 10_000,
        "max_path_length": 5,
        "edge_score_limit": 1000,
        "edge_limit": 1000,
        "doc_limit": 100,
        "max_iterations": 32,
    }
)
"""The largest value each engine option may take over the network (TrustGraph's defaults are far below)."""


@dataclass(frozen=True)
class RequestFields:
    """The request fields of one service: where the question is, which fields are options, which are ignored."""

    kind: SessionKind
    question: str
    options: Mapping[str, str]
    ignored: frozenset[str]
    unsupported: frozenset[str] = frozenset()

    @property
    def accepted(self) -> tuple[str, ...]:
        """Every field name the service accepts, for error messages and the OpenAPI schema."""
        return (self.question, "collection", *self.options, *sorted(self.ignored | self.unsupported))


_RAG_IGNORED = frozenset({"streaming", "explainable", "user-context"})

REQUEST_FIELDS: Mapping[str, RequestFields] = MappingProxyType(
    {
        "graph-rag": RequestFields(
            SessionKind.GRAPH_RAG,
            "query",
            {
                "entity-limit": "entity_limit",
                "triple-limit": "triple_limit",
                "max-subgraph-size": "max_subgraph_size",
                "max-path-length": "max_path_length",
                "edge-score-limit": "edge_score_limit",
                "edge-limit": "edge_limit",
            },
            _RAG_IGNORED | {"max-reranker-input"},
            frozenset({"grounding-seeds", "graph-seeds", "languages", "traversal-instructions", "graph"}),
        ),
        "document-rag": RequestFields(
            SessionKind.DOC_RAG, "query", {"doc-limit": "doc_limit"}, _RAG_IGNORED | {"fetch-limit"}
        ),
        "agent": RequestFields(
            SessionKind.AGENT,
            "question",
            {"pattern": "pattern", "max-iterations": "max_iterations"},
            _RAG_IGNORED
            | {
                "state",
                "group",
                "session_id",
                "conversation_id",
                "task_type",
                "framing",
                "correlation_id",
                "parent_session_id",
                "subagent_goal",
                "expected_siblings",
            },  # fmt: skip
            frozenset({"history"}),
        ),
    }
)
"""Every question service by its TrustGraph name."""

IGNORED: Mapping[str, frozenset[str]] = MappingProxyType({name: s.ignored for name, s in REQUEST_FIELDS.items()})
"""The fields each service accepts and ignores (documented in docs/http.md and the OpenAPI schema)."""


@dataclass(frozen=True)
class Ask:
    """A validated question for an engine: the web layer adds the workspace and builds the engine ``Request``."""

    kind: SessionKind
    question: str
    collection: str
    options: dict[str, Any] = field(default_factory=dict)


def request_fields(service: object) -> RequestFields:
    """The fields of a question service, by its TrustGraph name (``graph-rag``, ``document-rag``, ``agent``).

    Raises:
        BadRequest: no such service; the message lists them.
    """
    if not isinstance(service, str) or service not in REQUEST_FIELDS:
        raise BadRequest(f"service: {service!r} is not a question service; use one of {', '.join(REQUEST_FIELDS)}")
    return REQUEST_FIELDS[service]


def _empty(value: Any) -> bool:
    return value is None or value == "" or value == [] or value == {}


def _option(service: str, key: str, name: str, value: Any) -> Any:
    if name == "pattern":
        if value in (None, ""):
            return None
        if not isinstance(value, str):
            raise BadRequest(f"{key}: must be a pattern name (string), not {value!r}")
        return value
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise BadRequest(f"{key}: must be a positive integer, not {value!r}")
    ceiling = OPTION_CEILINGS[name]
    if value > ceiling:
        raise BadRequest(f"{key}: {value} is more than this server accepts ({ceiling})")
    return value


def translate(service: str, body: object) -> Ask:
    """Validate a service request body and translate its fields to an engine's options.

    Args:
        service: ``graph-rag``, ``document-rag`` or ``agent``.
        body: the request object, exactly as TrustGraph's client sends it (a ``workspace`` key, which
            native clients may add, is left to the caller).

    Raises:
        BadRequest: the body is not an object, the question is missing or empty, a field has the
            wrong type or an unsupported value, or a field is unknown; the message names the field.
    """
    fields = request_fields(service)
    if not isinstance(body, Mapping):
        raise BadRequest(f"request: must be a JSON object, not {type(body).__name__}")
    question = body.get(fields.question)
    if not isinstance(question, str) or not question.strip():
        raise BadRequest(f"{fields.question}: required, a non-empty string (got {question!r})")
    options: dict[str, Any] = {}
    for key, value in body.items():
        if key in (fields.question, "collection", "workspace") or key in fields.ignored:
            continue
        if key in fields.unsupported:
            if not _empty(value):
                raise BadRequest(f"{key}: not supported by tgneo's {service} engine (send it empty or leave it out)")
            continue
        name = fields.options.get(key)
        if name is None:
            raise BadRequest(f"{key}: unknown field for {service}; accepted: {', '.join(fields.accepted)}")
        chosen = _option(service, key, name, value)
        if chosen is not None:
            options[name] = chosen
    return Ask(fields.kind, question, name_or_default(body.get("collection"), "collection"), options)
