"""The parts answering a question needs, set up once and shared by every road in.

``tgneo ask`` (in-process), the HTTP streams, the question WebSocket and the TrustGraph gateway all
answer through one :class:`Runtime`: it builds the configured LLM once, installs the search schema
the engines need once (on the first question, so a server starts — and answers ``/readyz``
honestly — while Neo4j is still down), makes engines by session kind, and runs a question through
the one stream pipeline (:func:`tgneo.stream.pipeline.messages`). No Flask here: the web layer and
the CLI are two callers of the same code.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Generator

from tgneo.config import Settings
from tgneo.engines import Engine, Request, build_engine
from tgneo.kinds import SessionKind
from tgneo.llm.base import LLM
from tgneo.llm.registry import get_llm
from tgneo.profiles import BUILTIN, GraphProfile, ProfileError, parse_graphs
from tgneo.store import Store
from tgneo.store.embeddings import check_query_model
from tgneo.store.schema import install_search_schema
from tgneo.stream.pipeline import messages, prime
from tgneo.stream.wire import Message

EMBEDDING_CHECK_SECONDS = 60.0
"""How long a collection found embedded with the configured model is trusted before it is checked again: a
question pays for the check at most once a minute per collection (it stops at the first foreign vector)."""


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

    def engine(self, kind: SessionKind) -> Engine:
        """A fresh engine of ``kind`` on the shared store and LLM, the search schema installed.

        Raises:
            EmbeddingMismatch: the vector indexes hold embeddings of another length than the LLM's.
            StoreUnavailable: Neo4j cannot be reached (the schema is tried again next time).
        """
        llm = self.llm()
        if not self._schema_ready:
            with self._lock:
                if not self._schema_ready:
                    install_search_schema(self.store, llm.dimensions)
                    self._schema_ready = True
        return build_engine(kind, self.store, llm)

    def ask(self, kind: SessionKind, request: Request, *, timestamps: bool = False) -> Generator[Message, None, None]:
        """The response messages of ``request`` answered by an engine of ``kind``, as they are produced.

        The first event is pulled before this returns, so a request the engine refuses raises here
        (a ``BadRequest``, before anything is recorded) rather than becoming a stream; after that the
        stream keeps the pipeline's promises (one final message; the engine stops with its reader).

        Raises:
            BadRequest: the engine refused the request's options.
            EmbeddingMismatch: the collection's vectors were made by another embedding model.
        """
        engine = self.engine(kind)
        self._check_embeddings(request.workspace, request.collection)
        return messages(prime(engine.answer(request)), kind, timestamps=timestamps)

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
