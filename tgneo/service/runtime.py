"""The parts answering a question needs, set up once and shared by every road in.

``tgneo ask`` (in-process), the HTTP streams, the question WebSocket and the TrustGraph gateway all
answer through one :class:`Runtime`: it builds the configured LLM once, installs the search schema
the engines need once (on the first question, so a server starts — and answers ``/readyz``
honestly — while Neo4j is still down), makes engines by session kind, and runs a question through
the one stream pipeline (:func:`tgneo.stream.pipeline.messages`). No Flask here: the web layer and
the CLI are two callers of the same code.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Generator

from tgneo.config import Settings
from tgneo.engines import Engine, Request, build_engine
from tgneo.graph_profiles import BUILTIN, GraphProfile, ProfileError, parse_graphs
from tgneo.kinds import SessionKind
from tgneo.llm.base import LLM
from tgneo.llm.registry import get_llm
from tgneo.otlp.export_http import OtlpTarget, TraceExporter
from tgneo.store import Store
from tgneo.store.embeddings import check_query_model
from tgneo.store.schema import ensure_search_schema
from tgneo.store.traces import get_trace
from tgneo.stream.pipeline import messages, prime
from tgneo.stream.wire import Message

log = logging.getLogger("tgneo.otlp")

EMBEDDING_CHECK_SECONDS = 60.0
"""How long a collection found embedded with the configured model is trusted before it is checked again: a
question pays for the check at most once a minute per collection (it stops at the first foreign vector)."""


EXPORT_STEPS = 1_000_000
"""The most steps of one trace read for OTLP export (an agent looping for hours stays bounded; the SDK's queue,
``OTEL_BSP_MAX_QUEUE_SIZE``, bounds what is sent)."""


class Runtime:
    """The store, the LLM and the engines of one process (thread-safe: requests run on many threads).

    Args:
        store: the open store questions read from and record into (the caller closes it).
        settings: where the LLM's configuration comes from (the environment when omitted).
        llm: a provider to use instead of the configured one (tests, benchmarks).
    """

    def __init__(self, store: Store, settings: Settings | None = None, llm: LLM | None = None) -> None:
        self.store = store
        self.settings = settings
        self._llm = llm
        self._schema_ready = False
        self._checked: dict[tuple[str, str], float] = {}
        self._lock = threading.Lock()
        self.graphs = parse_graphs(settings.graphs if settings is not None else None)
        """Collection → the graph profile its questions answer over (``TGNEO_GRAPHS``)."""
        self.otlp = OtlpTarget.from_settings(settings if settings is not None else Settings.from_env())
        """Where each answered question's trace goes as OpenTelemetry spans (``OTEL_EXPORTER_OTLP_*``), if anywhere."""
        self.exporter = TraceExporter(self.otlp) if self.otlp is not None else None
        """This runtime's one exporter (and, from its first export, the SDK's batch processor and thread)."""

    def profile(self, collection: str, named: object = None) -> GraphProfile | None:
        """The graph profile a question to ``collection`` answers over: the one it names (``graph-profile``: a
        built-in profile, or one ``TGNEO_GRAPHS`` configured, by its name — never a file a client names), else
        the collection's own (``TGNEO_GRAPHS``), else none (tgneo's own graph).

        Raises:
            ProfileError: the name is not a profile this server knows.
        """
        if named is None:
            return self.graphs.get(collection)
        known = {**BUILTIN, **{p.name: p for p in self.graphs.values()}}
        if not isinstance(named, str) or named not in known:
            raise ProfileError(f"graph-profile: {named!r} is not a profile this server knows ({', '.join(known)})")
        return known[named]

    def llm(self) -> LLM:
        """The configured LLM provider (``TGNEO_LLM``), built on first use."""
        with self._lock:
            if self._llm is None:
                self._llm = get_llm(self.settings)
            return self._llm

    def engine(self, kind: SessionKind | str) -> Engine:
        """A fresh engine of ``kind`` (a session kind, or an engine's name) on the shared store and LLM, the search
        schema installed.

        Raises:
            EmbeddingMismatch: the vector indexes hold embeddings of another length than the LLM's.
            StoreUnavailable: Neo4j cannot be reached (the schema is tried again next time).
        """
        self.ensure_schema()
        return build_engine(kind, self.store, self.llm())

    def ensure_schema(self) -> None:
        """Install tgneo's constraints and indexes (with the vector indexes of the LLM's dimensions) once per process,
        before the first write that relies on them: a question's, or the span trees ``POST /v1/traces`` keeps (one
        per trace id only while its constraint holds).

        Raises:
            StoreUnavailable: Neo4j cannot be reached (the schema is tried again next time).
        """
        if not self._schema_ready:
            dimensions = self.llm().dimensions  # outside the lock, which building the LLM takes
            with self._lock:
                if not self._schema_ready:
                    ensure_search_schema(self.store, dimensions)
                    self._schema_ready = True

    def ask(
        self, kind: SessionKind | str | Engine, request: Request, *, timestamps: bool = False
    ) -> Generator[Message, None, None]:
        """The response messages of ``request`` answered by an engine of ``kind`` (a session kind, an engine's name —
        a registered engine answers in its own kind's messages — or an engine :meth:`engine` made), as they are
        produced.

        The first event is pulled before this returns, so a request the engine refuses raises here
        (a ``BadRequest``, before anything is recorded) rather than becoming a stream; after that the
        stream keeps the pipeline's promises (one final message; the engine stops with its reader).

        With an OTLP endpoint set (``OTEL_EXPORTER_OTLP_ENDPOINT``), once the stream has ended (answered, failed, or
        closed by its reader) the trace is sent there as OpenTelemetry spans (:meth:`_exported`).

        Raises:
            BadRequest: the engine refused the request's options.
            EmbeddingMismatch: the collection's vectors were made by another embedding model.
        """
        engine = kind if isinstance(kind, Engine) else self.engine(kind)
        self._check_embeddings(request.workspace, request.collection)
        stream = messages(prime(engine.answer(request)), engine.kind, timestamps=timestamps)
        return stream if self.exporter is None else self._exported(stream, self.exporter, request)

    def close(self) -> None:
        """Export the spans still queued and stop the exporter's thread (the store stays the caller's to close).

        The web app closes its runtime when it goes, ``tgneo ask`` when it is done; a runtime nobody closes is
        closed at exit (:mod:`tgneo.otlp.export_http`).
        """
        if self.exporter is not None:
            self.exporter.close()

    def _exported(
        self, stream: Generator[Message, None, None], exporter: TraceExporter, request: Request
    ) -> Generator[Message, None, None]:
        """``stream`` unchanged; when it ends, its trace is read and its spans queued on ``exporter``.

        The trace (rooted at the first explain message's entity, the Question) is read here, after the final
        message went out, while the store is surely open (``tgneo ask`` closes it as soon as the stream
        ends); its spans are queued on the SDK's batch processor, whose one thread sends them. Nothing here
        raises into the stream.
        """
        root: str | None = None
        try:
            for message in stream:
                if root is None and message.get("message_type") == "explain":
                    root = str(message.get("explain_id") or "") or None
                yield message
        finally:
            stream.close()
            if root is not None:
                try:
                    trace = get_trace(self.store, request.workspace, request.collection, root, max_steps=EXPORT_STEPS)
                    exporter.export(trace)
                except Exception as e:  # an export is a copy: the answer never depends on it
                    log.warning("OTLP export of %s skipped: %s", root, e)

    def _check_embeddings(self, workspace: str, collection: str) -> None:
        """Refuse a collection whose vectors another embedding model made (re-checked every minute).

        Raises:
            EmbeddingMismatch: it is embedded with another model (409, naming how to re-embed it).
        """
        key = (workspace, collection)
        if time.monotonic() - self._checked.get(key, -EMBEDDING_CHECK_SECONDS) < EMBEDDING_CHECK_SECONDS:
            return
        check_query_model(self.store, workspace, collection, self.llm().embedding_model)
        with self._lock:
            self._checked[key] = time.monotonic()
