"""tgneo: explain how an AI answer was produced, back to the source documents, natively in Neo4j.

The front door is :func:`connect`::

    import tgneo

    with tgneo.connect() as tg:
        tg.load(["docs/"], collection="manuals")
        answer = tg.ask("Which …?", engine="graph-rag", collection="manuals")
        print(answer.text, answer.sources, answer.trace_uri)
        trace = tg.trace(answer.trace_uri)

Everything else a user needs is here too: the typed results (:class:`Answer`, :class:`Trace`, :class:`Step`), the
errors (one root, :class:`TgneoError`), the recording API for a pipeline of your own (:func:`record`), the
extension points (:func:`register_engine`, :func:`register_provider`) and what tgneo owns in a shared database
(:func:`owned_types`). ``import tgneo`` stays light: what needs the driver, the engines or a model is imported on
first use.
"""

from typing import TYPE_CHECKING

from tgneo.errors import (
    AnswerFailed,
    BadRequest,
    ConfigError,
    DocumentError,
    DownloadFailed,
    EmbeddingMismatch,
    EmptyCollection,
    EngineError,
    LLMError,
    Neo4jNotConfigured,
    NotFound,
    NotIndexed,
    ProfileError,
    StoreError,
    StoreUnavailable,
    TgneoError,
    TraceNotFound,
)
from tgneo.version import __version__

if TYPE_CHECKING:  # for type checkers only; at run time each is imported on first use (below)
    from tgneo.adapters.text2cypher import user_schema
    from tgneo.connection import Connection, Exported, connect
    from tgneo.engines import register_engine
    from tgneo.explain.events import (
        AgentMessage,
        AnswerChunk,
        Citation,
        ErrorEvent,
        Event,
        Evidence,
        ExplainEvent,
        SessionEnd,
        Source,
        WarningEvent,
    )
    from tgneo.ingest.loader import LoadReport
    from tgneo.llm.registry import register_provider
    from tgneo.owned import owned_types
    from tgneo.results import Answer, Removed, Step, Totals, Trace, TraceSummary
    from tgneo.service.user_pipeline import Retrieved, RetrievedEdge, record

_LAZY = {
    "connect": "tgneo.connection",
    "Connection": "tgneo.connection",
    "Exported": "tgneo.connection",
    "Answer": "tgneo.results",
    "Removed": "tgneo.results",
    "Step": "tgneo.results",
    "Totals": "tgneo.results",
    "Trace": "tgneo.results",
    "TraceSummary": "tgneo.results",
    "LoadReport": "tgneo.ingest.loader",
    "Event": "tgneo.explain.events",
    "ExplainEvent": "tgneo.explain.events",
    "AnswerChunk": "tgneo.explain.events",
    "AgentMessage": "tgneo.explain.events",
    "SessionEnd": "tgneo.explain.events",
    "ErrorEvent": "tgneo.explain.events",
    "WarningEvent": "tgneo.explain.events",
    "Citation": "tgneo.explain.events",
    "Evidence": "tgneo.explain.events",
    "Source": "tgneo.explain.events",
    "owned_types": "tgneo.owned",
    "user_schema": "tgneo.adapters.text2cypher",
    "register_engine": "tgneo.engines",
    "register_provider": "tgneo.llm.registry",
    "record": "tgneo.service.user_pipeline",
    "Retrieved": "tgneo.service.user_pipeline",
    "RetrievedEdge": "tgneo.service.user_pipeline",
}
"""Public names imported on first use, by the module that defines them."""

__all__ = [
    "AgentMessage",
    "Answer",
    "AnswerChunk",
    "AnswerFailed",
    "BadRequest",
    "Citation",
    "ConfigError",
    "Connection",
    "DocumentError",
    "DownloadFailed",
    "EmbeddingMismatch",
    "EmptyCollection",
    "EngineError",
    "ErrorEvent",
    "Event",
    "Evidence",
    "ExplainEvent",
    "Exported",
    "LLMError",
    "LoadReport",
    "Neo4jNotConfigured",
    "NotFound",
    "NotIndexed",
    "ProfileError",
    "Removed",
    "Retrieved",
    "RetrievedEdge",
    "SessionEnd",
    "Source",
    "Step",
    "StoreError",
    "StoreUnavailable",
    "TgneoError",
    "Totals",
    "Trace",
    "TraceNotFound",
    "TraceSummary",
    "WarningEvent",
    "__version__",
    "connect",
    "owned_types",
    "record",
    "register_engine",
    "register_provider",
    "user_schema",
]


def __getattr__(name: str) -> object:
    """The public names of :data:`_LAZY`, imported on first use so that ``import tgneo`` stays light."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'tgneo' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
