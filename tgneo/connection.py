"""The front door: ``tgneo.connect()`` and the :class:`Connection` it returns.

One import and a few typed calls do tgneo's whole job from Python — load documents, ask with every step
explained, read a trace back, export it — the way ``neo4j.GraphDatabase.driver(...)`` or neo4j-graphrag's
``GraphRAG(retriever, llm).search(...)`` are used::

    import tgneo

    with tgneo.connect() as tg:                      # NEO4J_* / TGNEO_* as the CLI reads them, or arguments
        tg.load(["docs/"], collection="manuals")
        answer = tg.ask("Which …?", engine="graph-rag", collection="manuals")
        answer.text, answer.sources, answer.citations, answer.trace_uri
        for event in tg.stream("Which …?", engine="agent", collection="manuals"):
            ...                                      # typed explain events, as `tgneo ask --json` prints them
        trace = tg.trace(answer.trace_uri)           # typed steps, what `tgneo trace show` prints
        turtle = tg.export(answer.trace_uri, format="turtle")

The CLI is a thin caller of this class (``tgneo ask``, ``load``, ``trace show``, ``traces list``, ``export``), so
a Python user and a shell user get the same behaviour, the same errors (:class:`tgneo.TgneoError` and its
subclasses) and the same traces. Everything runs in this process against Neo4j: the engines, the configured
LLM (built once per connection) and the recorder; nothing needs ``tgneo serve``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from tgneo.config import Settings
from tgneo.errors import AnswerFailed, BadRequest, DocumentError, TraceNotFound
from tgneo.explain.events import AnswerChunk, ErrorEvent, Event, ExplainEvent, SessionEnd, WarningEvent
from tgneo.graph_profiles import GraphProfile, load_profile
from tgneo.ingest.chunking import DEFAULT_CHUNK_OVERLAP, DEFAULT_CHUNK_SIZE, ChunkSettings
from tgneo.kinds import SessionKind
from tgneo.llm.base import LLM
from tgneo.results import Answer, Removed, Trace, TraceSummary
from tgneo.scope import DEFAULT_SCOPE, check_name
from tgneo.store.driver import CREDENTIAL_VARS, URI_VAR, Store
from tgneo.stream import wire
from tgneo.stream.wire import Message

if TYPE_CHECKING:
    from tgneo.explain.events import VerificationSummary
    from tgneo.ingest.index import IndexReport, ReembedReport
    from tgneo.ingest.loader import Hooks, LoadReport
    from tgneo.ingest.side_index import SideReport
    from tgneo.ingest.sources import Source
    from tgneo.service.runtime import Runtime
    from tgneo.store.search import ChunkMatch, EntityMatch

__all__ = ["Connection", "Exported", "Messages", "connect"]

Progress = Callable[[str, int], None]
"""``progress(what, n)``: ``n`` more of ``what`` (``entities``, ``chunks``) are done."""


def connect(
    uri: str | None = None,
    *,
    auth: tuple[str, str] | None = None,
    database: str | None = None,
    workspace: str | None = None,
    collection: str | None = None,
    llm: LLM | None = None,
    settings: Settings | None = None,
) -> Connection:
    """Open tgneo on a Neo4j database; use it as a context manager (or call :meth:`Connection.close`).

    Args:
        uri: ``bolt://``/``neo4j://`` (``+s``) URI; default ``NEO4J_URI``, else the local ``tgneo db start`` server.
        auth: ``(username, password)``; default ``NEO4J_USERNAME``/``NEO4J_PASSWORD`` (or the local server's).
        database: Default ``NEO4J_DATABASE`` (``neo4j``).
        workspace: Where everything is read and recorded (isolation key); default ``TGNEO_WORKSPACE``, else
            ``default``, as every command's ``--workspace``.
        collection: The collection a call that names none works in; default ``TGNEO_COLLECTION``, else ``default``.
        llm: A provider to use instead of the configured one (``TGNEO_LLM``, ``TGNEO_EMBEDDING_PROVIDER``).
        settings: Every other setting (default: the environment, as the CLI reads it).

    Nothing is sent to Neo4j until the first call (as the driver does): an unreachable server or refused
    credentials raise :class:`~tgneo.errors.StoreUnavailable` there, naming the server, the reason and the remedy,
    in the words ``tgneo`` commands use.

    Raises:
        ConfigError: a setting is malformed.
        Neo4jNotConfigured: no ``uri``, no ``NEO4J_URI`` and no local ``tgneo db`` instance: no Neo4j to use.
    """
    overrides: dict[str, object] = {"neo4j_uri": uri, "neo4j_database": database}
    if auth is not None:
        overrides.update(neo4j_username=auth[0], neo4j_password=auth[1])
    base = settings if settings is not None else Settings.from_env()
    chosen = {k: v for k, v in overrides.items() if v is not None}
    if chosen:
        from dataclasses import replace

        base = replace(base, **chosen)  # type: ignore[arg-type]
    import os

    workspace = workspace or os.environ.get("TGNEO_WORKSPACE") or DEFAULT_SCOPE
    collection = collection or os.environ.get("TGNEO_COLLECTION") or DEFAULT_SCOPE
    store = Store.from_settings(
        base,
        uri_from="tgneo.connect(uri=…)" if uri is not None else URI_VAR,
        credentials_from="tgneo.connect(auth=…)" if auth is not None else CREDENTIAL_VARS,
    )
    return Connection(store, base, workspace=workspace, collection=collection, llm=llm)


class Connection:
    """tgneo on one Neo4j database, in one workspace: load, ask, stream, read traces, export (module docstring).

    Thread-safe: several threads may ask at once (each question runs its own engine; the store and the LLM are
    shared). Close it once, when done (``with tgneo.connect() as tg:`` does).

    Args:
        store: The open store (this connection closes it).
        settings: Where the LLM's and the OpenTelemetry export's configuration come from.
        workspace: The workspace every call reads and records in.
        collection: The collection a call that names none works in.
        llm: A provider to use instead of the configured one.
    """

    def __init__(
        self,
        store: Store,
        settings: Settings | None = None,
        *,
        workspace: str = DEFAULT_SCOPE,
        collection: str = DEFAULT_SCOPE,
        llm: LLM | None = None,
    ) -> None:
        from tgneo.service.runtime import Runtime

        self.store = store
        self.settings = settings if settings is not None else Settings.from_env()
        self.workspace = check_name(workspace, "workspace")
        self.collection = check_name(collection, "collection")
        self.runtime: Runtime = Runtime(store, self.settings, llm)

    # ------------------------------------------------------------------------------------------ lifecycle
    def close(self) -> None:
        """Send what the OpenTelemetry export still holds, then close the connection to Neo4j (a closed connection
        cannot be used again)."""
        try:
            self.runtime.close()
        finally:
            self.store.close()

    def __enter__(self) -> Connection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def llm(self) -> LLM:
        """The provider answering and embedding (built on first use)."""
        return self.runtime.llm()

    def _collection(self, collection: str | None) -> str:
        return self.collection if collection is None else check_name(collection, "collection")

    # ----------------------------------------------------------------------------------------------- load
    def load(
        self,
        paths: Iterable[str | Path],
        collection: str | None = None,
        *,
        chunk_size: int = DEFAULT_CHUNK_SIZE,
        chunk_overlap: int = DEFAULT_CHUNK_OVERLAP,
        hooks: Hooks | None = None,
    ) -> LoadReport:
        """Load files and folders (searched recursively) of text, Markdown, HTML and PDF into ``collection``.

        Each document is written in one transaction with its full extraction provenance, a knowledge graph and
        search indexes; loading it again changes nothing, a changed one replaces its previous version (and the
        answers that used it are marked stale). A file that cannot be read is skipped and named in
        ``report.skipped`` with why; the rest loads.

        Raises:
            DocumentError: nothing to load at ``paths`` (each is named in the message).
            BadRequest: a chunk size or overlap tgneo cannot use.
            StoreUnavailable: Neo4j cannot be reached.
        """
        from tgneo.ingest.sources import discover

        given = [paths] if isinstance(paths, str | Path) else list(paths)
        found = discover(given)
        if not found.sources:
            from tgneo.ingest.readers import supported

            why = "; ".join(f"{name}: {reason}" for name, reason in found.passed_over)
            shown = ", ".join(str(p) for p in given) or "(no paths)"
            raise DocumentError(f"no documents to load in {shown} (tgneo reads {supported()})" +
                                (f"; {why}" if why else ""))  # fmt: skip
        report = self.load_sources(
            found.sources, collection, chunks=ChunkSettings(chunk_size, chunk_overlap), hooks=hooks
        )
        report.skipped[:0] = list(found.passed_over)
        return report

    def load_sample(self, collection: str | None = None, *, hooks: Hooks | None = None) -> LoadReport:
        """Load the bundled sample corpus (four documents about Marie Curie, polonium and radium, the Nobel prizes
        and Warsaw), whose questions (:data:`tgneo.ingest.sample.QUESTIONS`) need edges read from several."""
        from tgneo.ingest.sample import sources

        return self.load_sources(sources(), collection, hooks=hooks)

    def load_sources(
        self,
        sources: Sequence[Source],
        collection: str | None = None,
        *,
        chunks: ChunkSettings | None = None,
        hooks: Hooks | None = None,
    ) -> LoadReport:
        """Load documents that are not files: each :class:`~tgneo.ingest.sources.Source` names a document, its IRI
        and how to read its bytes (``Source("report.md", "s3://bucket/report.md", lambda: data)``). As :meth:`load`."""
        from tgneo.ingest.loader import Hooks, load_documents

        return load_documents(self.store, self.llm, self.workspace, self._collection(collection), sources,
                              chunks or ChunkSettings(), hooks or Hooks())  # fmt: skip

    def remove(self, documents: Iterable[str], collection: str | None = None) -> list[Removed]:
        """Take documents (by the path they were loaded from — the file need not exist any more — or by their
        document URI) out of ``collection``, each in one transaction with everything extracted from it; the stored
        answers that used one are kept whole and marked stale. A name no stored document has is ``found=False``."""
        from tgneo.ingest.sources import document_uri_for
        from tgneo.store.documents import remove_document

        removed = []
        for name in documents:
            is_uri = "://" in name or name.startswith("urn:")
            uri = name if is_uri else document_uri_for(Path(name).resolve().as_uri())
            change = remove_document(self.store, self.workspace, self._collection(collection), uri)
            removed.append(Removed(name, uri, change.found, change.retracted, change.stale_traces))
        return removed

    def index(
        self, collection: str | None = None, *, reembed: bool = False, progress: Progress | None = None
    ) -> IndexReport:
        """Name and embed the entities, and embed the chunks, of ``collection`` that lack it (after an RDF import of
        a TrustGraph knowledge core; what :meth:`load` loads is indexed as it is written). Idempotent.

        Args:
            reembed: First forget the embeddings another model made, and embed all again with this one.

        Raises:
            EmptyCollection: ``collection`` holds nothing to index.
            EmbeddingMismatch: with ``reembed``, the new model's dimensions differ (use :meth:`reembed_all`).
        """
        from tgneo.ingest.index import index_collection

        scope = self._collection(collection)
        return index_collection(self.store, self.llm, self.workspace, scope, progress, reembed=reembed)

    def index_graph(
        self, graph: GraphProfile | str, collection: str | None = None, *, progress: Progress | None = None
    ) -> SideReport:
        """Build tgneo's side index over the graph another tool wrote (``neo4j-graphrag``, ``llm-graph-builder``,
        ``langchain``, or a profile file): one tgneo-owned node per entity (its name and the embedding of it) and per
        chunk (the embedding of its text), so the configured embedder finds theirs. Nothing is written on their
        nodes. Run it again after their graph changed: only new and changed nodes are embedded.

        Raises:
            ProfileError: ``graph`` is not a profile, or names what their database lacks.
        """
        from tgneo.ingest.side_index import build_side_index

        scope = self._collection(collection)
        return build_side_index(self.store, self.llm, _profile(graph), self.workspace, scope, progress)

    def reembed_all(self, progress: Progress | None = None) -> ReembedReport:
        """Embed every collection of every workspace (side indexes too) again with the configured embedding model:
        what changing to a model of other dimensions needs, since the vector indexes are database-wide. A run cut
        short is finished by running it again."""
        from tgneo.ingest.index import reembed_all

        return reembed_all(self.store, self.llm, progress)

    # ------------------------------------------------------------------------------------------------ ask
    def messages(
        self,
        question: str,
        engine: str = "graph-rag",
        collection: str | None = None,
        *,
        graph: GraphProfile | str | None = None,
        options: Mapping[str, int] | None = None,
        pattern: str | None = None,
        verify: bool | int = False,
    ) -> Messages:
        """The answer's response messages as they are produced: TrustGraph's field names, exactly the NDJSON lines
        ``tgneo ask --json`` prints and ``POST /api/v1/{engine}`` streams. :meth:`stream` decodes them.

        Args:
            question: What to ask (at most 4000 characters).
            engine: ``graph-rag``, ``document-rag``, ``agent``, or a registered engine's name.
            collection: Where to read and record (the connection's when ``None``).
            graph: Answer over the graph another tool wrote: a built-in profile's name or a profile file's path
                (default: the collection's ``TGNEO_GRAPHS`` profile, else tgneo's own graph).
            options: Engine options (``entity_limit``, ``doc_limit``, ``max_iterations`` …), positive integers.
            pattern: The agent's pattern (``react``, ``plan-then-execute``, ``supervisor``) instead of the router's.
            verify: Once the answer is given, check whether it depends on the evidence it cites (re-running the
                answering stage without it, with it alone, and without each item in turn): ``True`` with the default
                budget (6 re-runs), or the most re-runs as a number (at least 2). Recorded as a Verification step;
                the final message carries its ``verification`` summary.

        Raises:
            BadRequest: the question, an option, the engine or the profile is refused (nothing is recorded).
            EmptyCollection: the collection holds nothing to answer from.
            EmbeddingMismatch: the collection was embedded with another model than the configured one.
        """
        return self._ask(question, engine, collection, graph, options, pattern, verify)

    def _ask(
        self, question: str, engine: str, collection: str | None, graph: GraphProfile | str | None,
        options: Mapping[str, int] | None, pattern: str | None, verify: bool | int = False,
    ) -> Messages:  # fmt: skip
        from tgneo.engines import Request
        from tgneo.engines.verify import budget_of

        scope = self._collection(collection)
        parsed: dict[str, Any] = dict(options or {})
        if pattern is not None:
            parsed["pattern"] = pattern
        profile = _profile(graph) if graph is not None else self.runtime.profile(scope)
        request = Request(question, self.workspace, scope, parsed, profile, budget_of(verify, "verify"))
        answering = self.runtime.engine(_engine_name(engine))
        return Messages(answering.kind, self.runtime.ask(answering, request))

    def stream(
        self,
        question: str,
        engine: str = "graph-rag",
        collection: str | None = None,
        *,
        graph: GraphProfile | str | None = None,
        options: Mapping[str, int] | None = None,
        pattern: str | None = None,
        verify: bool | int = False,
    ) -> Iterator[Event]:
        """The answer as typed events, as they are produced: an :class:`~tgneo.explain.events.ExplainEvent` for each
        step once it is durable in Neo4j, :class:`~tgneo.explain.events.AnswerChunk` pieces of the answer, an
        agent's :class:`~tgneo.explain.events.AgentMessage` s, a :class:`~tgneo.explain.events.WarningEvent` for each
        fallback the answer took over another tool's graph (as it is taken, on every question), and exactly one
        final :class:`~tgneo.explain.events.SessionEnd` (sources, citations, tokens, the trace) or
        :class:`~tgneo.explain.events.ErrorEvent`. Arguments and errors as :meth:`messages`.

        Stop iterating (or ``close()`` the iterator) and the engine stops at its current step, which stays whole.
        """
        messages = self._ask(question, engine, collection, graph, options, pattern, verify)
        return _decoded(messages, messages.kind)

    def ask(
        self,
        question: str,
        engine: str = "graph-rag",
        collection: str | None = None,
        *,
        graph: GraphProfile | str | None = None,
        options: Mapping[str, int] | None = None,
        pattern: str | None = None,
        verify: bool | int = False,
    ) -> Answer:
        """Ask ``question`` and return the whole :class:`~tgneo.results.Answer` once it is recorded. Arguments as
        :meth:`messages`.

        Raises:
            AnswerFailed: the answer failed part-way (its ``trace_uri`` names what was recorded before).
            BadRequest, EmptyCollection, EmbeddingMismatch: as :meth:`messages` (nothing was recorded).
        """
        scope = self._collection(collection)
        text: list[str] = []
        steps: list[str] = []
        warnings: list[str] = []
        events = self.stream(question, engine, scope, graph=graph, options=options, pattern=pattern, verify=verify)
        for event in events:
            if isinstance(event, AnswerChunk):
                text.append(event.text)
            elif isinstance(event, ExplainEvent):
                steps.append(event.explain_id)
            elif isinstance(event, WarningEvent):
                warnings.append(event.message)
            elif isinstance(event, ErrorEvent):
                raise AnswerFailed(event.message, event.trace, event.type)
            elif isinstance(event, SessionEnd):
                return Answer(
                    "".join(text), event.sources, event.citations, event.trace or (steps[0] if steps else ""),
                    engine, self.workspace, scope, event.model, event.in_token or 0, event.out_token or 0, tuple(steps),
                    event.verification, tuple(warnings),
                )  # fmt: skip
        raise AnswerFailed("the answer ended without its final message")  # pragma: no cover - the pipeline adds one

    def record(self, question: str, kind: str = "document-rag", collection: str | None = None,
               *, graph: GraphProfile | str | None = None) -> Any:  # fmt: skip
        """Record the steps of an answer your own pipeline computed, as a trace (:func:`tgneo.record`, on this
        connection's Neo4j). A context manager: ``with tg.record(question) as t: t.grounding([...]) …``."""
        from tgneo.service.user_pipeline import record

        return record(question, kind, store=self.store, workspace=self.workspace,
                      collection=self._collection(collection), graph=graph)  # fmt: skip

    def labels(self, iris: Sequence[str], collection: str | None = None) -> dict[str, str]:
        """The names (``rdfs:label``) of the knowledge-graph entities ``iris`` that have one, by IRI: what an explain
        event's edges and seed entities read as for people."""
        from tgneo.store import kg

        return kg.labels(self.store, self.workspace, self._collection(collection), list(iris))

    def search_chunks(self, text: str, limit: int = 10, collection: str | None = None) -> list[ChunkMatch]:
        """The chunks nearest ``text`` by the configured embedder (cosine in [0, 1], best first): what Document RAG's
        vector list starts from, to look at retrieval without asking.

        Raises:
            EmbeddingMismatch: the collection was embedded by another model. EmptyCollection: it holds no documents.
        """
        from tgneo.store.search import chunks_by_vector

        vector = self.llm.embed([text])
        return chunks_by_vector(self.store, self.workspace, self._collection(collection), vector.vectors[0], limit,
                                model=vector.model)  # fmt: skip

    def search_entities(self, text: str, limit: int = 10, collection: str | None = None) -> list[EntityMatch]:
        """The knowledge-graph entities whose names match ``text``: by Lucene relevance (full text), then by the
        embedder's similarity for those the words miss — GraphRAG's seed lists, to look at without asking."""
        from tgneo.store.search import entities_by_text, entities_by_vector

        scope = self._collection(collection)
        found = entities_by_text(self.store, self.workspace, scope, text, limit=limit)
        if len(found) < limit:
            vector = self.llm.embed([text])
            seen = {m.uri for m in found}
            near = entities_by_vector(self.store, self.workspace, scope, vector.vectors[0], limit, model=vector.model)
            found += [m for m in near if m.uri not in seen][: limit - len(found)]
        return found

    # --------------------------------------------------------------------------------------------- traces
    def trace(self, uri: str, collection: str | None = None, *, max_steps: int | None = None) -> Trace:
        """A stored trace by its root URI, with every step (its type, what it recorded, selected edges and chunks
        with their source chains, answer sentences and their evidence) and its totals.

        Args:
            uri: The trace's root (``answer.trace_uri``; ``tgneo traces list`` prints them).
            collection: Where it was recorded; ``None`` looks in the connection's collection, then in every
                collection of the workspace (a trace URI is unique: it carries its session's UUID).
            max_steps: Detail at most this many steps (default 10,000); ``trace.truncated`` says when there were more.

        Raises:
            TraceNotFound: no collection of the workspace holds it (or ``collection`` does not).
            BadRequest: it is in several collections (name one).
        """
        from tgneo.store.traces import MAX_TRACE_STEPS, get_trace

        bound = MAX_TRACE_STEPS if max_steps is None else max_steps
        return Trace.of(get_trace(self.store, self.workspace, self.where(uri, collection), uri, max_steps=bound))

    def verify(self, uri: str, collection: str | None = None, *, budget: bool | int = True) -> VerificationSummary:
        """Check a stored answer after the fact: does it depend on the evidence it cites? The answering stage of the
        trace ``uri`` (any trace: tgneo's engines', the LangChain handler's, ``ExplainedGraphRAG``'s, recorded by
        hand or from OpenTelemetry) is run again on the configured provider without its cited evidence, with it
        alone, and without each item in turn (within ``budget`` re-runs), and the check is recorded in the trace.

        Returns:
            The summary the final message of ``ask(verify=True)`` carries: ``verdict``, ``sufficient``, ``model``,
            ``items`` (each item's necessity), ``stands_without`` and ``uri`` (the Verification step).

        Raises:
            TraceNotFound: no such trace. BadRequest: it holds no answer to check, or ``budget`` is below 2.
            LLMError: the provider failed (nothing was recorded).
        """
        from tgneo.engines.verify import budget_of
        from tgneo.service.verification import verify_trace

        chosen = budget_of(True if budget is False else budget, "budget")  # verifying is what was asked for
        if chosen is None:  # pragma: no cover - check_budget gives one for True and for numbers
            raise BadRequest("budget: True or the most re-runs (at least 2)")
        _, found, _ = verify_trace(self.store, self.llm, self.workspace, self.where(uri, collection), uri, chosen)
        return found

    def where(self, uri: str, collection: str | None = None) -> str:
        """The collection holding the trace ``uri``: ``collection`` when given; else the connection's, or the one
        collection of the workspace that holds it.

        Raises:
            TraceNotFound: no collection holds it. BadRequest: several do (the message names them).
        """
        from tgneo.store.traces import trace_collections

        if collection is not None:
            return check_name(collection, "collection")
        found = trace_collections(self.store, self.workspace, uri)
        if self.collection in found or not found:
            if not found:
                raise TraceNotFound(f"no trace {uri!r} in any collection of workspace {self.workspace!r}")
            return self.collection
        if len(found) > 1:
            raise BadRequest(f"trace {uri!r} is in collections {', '.join(map(repr, found))}: name one")
        return found[0]

    def traces(
        self,
        collection: str | None = None,
        *,
        kind: str | None = None,
        limit: int = 20,
        stale: bool = False,
    ) -> list[TraceSummary]:
        """The newest trace roots of ``collection`` (``kind``: ``graphrag``/``graph-rag`` …; ``stale``: only answers
        whose source documents changed since)."""
        from tgneo.store.traces import list_traces

        page = list_traces(self.store, self.workspace, self._collection(collection), type=kind, limit=limit,
                           stale=stale)  # fmt: skip
        return [
            TraceSummary(
                t["uri"],
                t["type"],
                t["query"],
                t["startedAtTime"],
                int(t["steps"]),
                bool(t["stale_at"]),
                bool(t["held"]),
            )  # fmt: skip
            for t in page.traces
        ]

    # --------------------------------------------------------------------------------------------- export
    def export(
        self,
        uri: str | Sequence[str] | None = None,
        *,
        format: str = "turtle",  # noqa: A002 - the RDF format's name, as the CLI's --format
        profile: str = "prov",
        quoted: str | None = None,
        collection: str | None = None,
    ) -> str:
        """Traces (root URIs) or, with none, the whole collection as RDF text: W3C PROV-O (``profile="prov"``, the
        default) or exactly TrustGraph's triples (``"trustgraph"``). For large exports, :meth:`export_to` streams.

        Args:
            format: ``turtle``, ``trig``, ``nt``, ``nquads``, ``json-ld`` (``tgneo export --help`` lists them all).
            quoted: How quoted triples (selected edges) are written: ``reification``, ``star``, ``triple-term``.
        """
        import io

        buffer = io.StringIO()
        self.export_to(buffer, uri, format=format, profile=profile, quoted=quoted, collection=collection)
        return buffer.getvalue()

    def export_to(
        self,
        handle: IO[str],
        uri: str | Sequence[str] | None = None,
        *,
        format: str = "turtle",  # noqa: A002
        profile: str = "prov",
        quoted: str | None = None,
        graphs: Sequence[str] = (),
        collection: str | None = None,
    ) -> Exported:
        """:meth:`export`, streamed from Neo4j into ``handle`` as it is read (memory stays flat), returning what was
        written. ``graphs``: only these named graphs (``default``, ``source``, ``retrieval``, or an IRI).

        Raises:
            UnsupportedFormat: an unknown format. BadRequest: an unknown profile or quoted-triple form.
        """
        from tgneo.rdf.export_profiles import EXPORT_PROFILES
        from tgneo.rdf.formats import get_format
        from tgneo.rdf.writer import default_quoted, write
        from tgneo.store.rdf_export import stream_quads
        from tgneo.store.rdf_import import recover
        from tgneo.vocab import GRAPH_DEFAULT, GRAPH_NAMES

        rdf_format = get_format(format)
        if profile not in EXPORT_PROFILES:
            raise BadRequest(f"profile: {profile!r} is not one of {', '.join(EXPORT_PROFILES)}")
        if quoted is not None and quoted not in ("star", "triple-term", "reification"):
            raise BadRequest(f"quoted: {quoted!r} is not one of star, triple-term, reification")
        uris = [uri] if isinstance(uri, str) else list(uri or [])
        scope = self.where(uris[0], collection) if len(uris) == 1 else self._collection(collection)
        recover(self.store, self.workspace, scope)
        quads = stream_quads(self.store, self.workspace, scope, uris or None, profile)
        if graphs:
            wanted = {GRAPH_NAMES.get(g, g) for g in graphs}
            quads = (q for q in quads if q.g in wanted)
        merged: set[str] = set()
        if not rdf_format.named_graphs:

            def into_default(source: Iterable[Any]) -> Iterator[Any]:
                for q in source:
                    if q.g != GRAPH_DEFAULT:
                        merged.add(q.g)
                        q = q._replace(g=GRAPH_DEFAULT)
                    yield q

            quads = into_default(quads)
        count = write(quads, format, handle.write, quoted or default_quoted(profile),  # type: ignore[arg-type]
                      as_entities=profile == "prov")  # fmt: skip
        return Exported(count, scope, tuple(sorted(merged)))


class Messages(Iterator[Message]):
    """A question's response messages as they are produced, and the session kind whose wire fields they use
    (``kind``: what :func:`tgneo.stream.wire.decode` needs). Closing it stops the engine at its current step."""

    def __init__(self, kind: SessionKind, messages: Iterator[Message]) -> None:
        self.kind = kind
        self._messages = messages

    def __next__(self) -> Message:
        return next(self._messages)

    def close(self) -> None:
        close = getattr(self._messages, "close", None)
        if close is not None:
            close()


@dataclass(frozen=True)
class Exported:
    """What :meth:`Connection.export_to` wrote: how many quads, from which collection, and the named graphs it merged
    into the default graph (a format without named graphs: Turtle, N-Triples)."""

    quads: int
    collection: str
    merged: tuple[str, ...] = ()


def _profile(graph: GraphProfile | str) -> GraphProfile:
    return graph if isinstance(graph, GraphProfile) else load_profile(graph)


def _engine_name(engine: str | SessionKind) -> str:
    """An engine's name: a kind's wire name (``graph-rag``) for a :class:`SessionKind`, else as given."""
    if isinstance(engine, SessionKind):
        return engine.wire
    if not isinstance(engine, str) or not engine:
        raise BadRequest(f"engine: an engine's name (graph-rag, document-rag, agent …), not {engine!r}")
    return engine


def _decoded(messages: Messages, kind: SessionKind) -> Iterator[Event]:
    """Each message as its typed event; closing this closes the stream (and so the engine)."""
    try:
        for message in messages:
            yield wire.decode(message, kind)
    finally:
        messages.close()
