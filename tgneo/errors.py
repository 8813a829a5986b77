"""tgneo's errors: one root, and each class knows the HTTP status it becomes.

The web layer renders any ``TgneoError`` as ``{"error": {"type": ..., "message": ...}}`` with
``status``; the CLI prints ``message`` and exits non-zero; a stream ends with a final message carrying
``error``. Driver exceptions are translated at the edge (``raise StoreUnavailable(...) from e``) so
nothing above ``tgneo.store`` has to know about ``neo4j.exceptions``.
"""

from __future__ import annotations


class TgneoError(Exception):
    """Root of every error tgneo raises on purpose."""

    status: int = 500

    @property
    def type(self) -> str:
        """The error's wire name, e.g. ``"TraceNotFound"``."""
        return type(self).__name__

    def to_dict(self) -> dict[str, str]:
        """The JSON body shared by HTTP errors and stream error messages."""
        return {"type": self.type, "message": str(self)}


class BadRequest(TgneoError):
    """The caller sent something tgneo cannot accept; the message names the problem."""

    status = 400


class InvalidEntity(BadRequest):
    """An explainability entity is malformed: an unknown type, a broken URI, an empty IRI."""


class MappingError(BadRequest):
    """RDF that the mapping table cannot place in the graph model (or the reverse)."""


class DocumentError(BadRequest):
    """A document cannot be read or loaded; the message names the file (and the page or chunk)."""


class EmbeddingMismatch(BadRequest):
    """Vectors from one embedding model met vectors (or an index) made by another: their scores would be nonsense."""

    status = 409


class NotIndexed(BadRequest):
    """A collection has content but no search index over it yet (``tgneo load index`` builds it)."""

    status = 409


class AnswerFailed(TgneoError):
    """A question was taken but its answer failed part-way (a model or the database failed); the steps recorded
    before the failure stay, as ``trace_uri`` (when any was) shows.

    Attributes:
        trace_uri: The root of what was recorded before the failure, or ``None``.
        error_type: TrustGraph's error type (``llm-error``, ``graph-rag-error`` …).
    """

    status = 502

    def __init__(self, message: str, trace_uri: str | None = None, error_type: str | None = None) -> None:
        super().__init__(message)
        self.trace_uri = trace_uri
        self.error_type = error_type


class ProfileError(BadRequest):
    """A graph profile that cannot be used: unknown, malformed, or naming what the database lacks."""


class LLMError(TgneoError):
    """The model could not answer: unreachable, timed out, refused, or answered in the wrong format."""

    status = 502


class EngineError(TgneoError):
    """An engine could not answer (a step failed for a reason that is not the caller's input)."""

    status = 500


class Unauthorized(TgneoError):
    """The server requires an API token (``TGNEO_TOKENS`` is set) and none, or an unknown one, was sent."""

    status = 401


class Forbidden(TgneoError):
    """The token is valid but its workspace is not the one the request names."""

    status = 403


class PayloadTooLarge(BadRequest):
    """A request body or message is larger than the server accepts; the message names the limit."""

    status = 413


class UnsupportedFormat(TgneoError):
    """An RDF format tgneo does not read or write."""

    status = 406


class NotFound(TgneoError):
    """A thing that was asked for by name does not exist (in this workspace and collection)."""

    status = 404


class TraceNotFound(NotFound):
    """No trace has this URI in this workspace and collection."""


class EmptyCollection(NotFound):
    """A workspace and collection hold no documents (and no knowledge graph) to answer from."""


class ParentNotFound(BadRequest):
    """A step names a parent step that was never recorded, so recording it would orphan it."""

    status = 409


class StoreError(TgneoError):
    """Neo4j answered with an error tgneo did not expect."""


class StoreUnavailable(StoreError):
    """Neo4j cannot be reached (down, wrong URI, wrong credentials)."""

    status = 503


class Neo4jNotConfigured(StoreUnavailable):
    """tgneo knows of no Neo4j at all: ``NEO4J_URI`` is unset and ``TGNEO_HOME`` holds no local ``default``
    instance. Raised before any connection is tried (no guess at a port where some other server may listen); the
    message says what to run or set."""


class QueryTimedOut(StoreError):
    """A named read query ran longer than the server allows and was stopped (nothing was changed)."""

    status = 504


class RecordingFailed(StoreError):
    """A step could not be written; its transaction was rolled back and nothing of it is stored."""


class ImportAborted(StoreError):
    """An import's journal stopped running (recovery rolled it back) while its batches were still coming."""

    status = 409


class NeedsMigration(StoreError):
    """The database holds tgneo's previous graph model (or a migration that did not finish): nothing but
    ``tgneo db migrate`` reads or writes it until it is migrated."""

    status = 503


class SchemaConflict(StoreError):
    """Neo4j did not create one of tgneo's indexes: an equivalent index exists under another name."""

    status = 409


class EmptyImport(BadRequest):
    """A file to import holds no triples: nothing to do, and probably not the file that was meant."""


class RDFSyntaxError(MappingError):
    """RDF text that does not parse; the message names the format, the line and the problem (HTTP 400)."""

    def __init__(self, syntax: str, line: int | None, problem: str, column: int | None = None) -> None:
        where = syntax if line is None else f"{syntax} line {line}" + ("" if column is None else f", column {column}")
        super().__init__(f"{where}: {problem}")
        self.syntax = syntax
        self.line = line
        self.column = column
        self.problem = problem


class ValueTooLarge(MappingError):
    """A term Neo4j would refuse to index (an IRI of many kilobytes); the message names line and column."""


class ConfigError(TgneoError):
    """A setting (an environment variable) has a value tgneo cannot use; the message names it."""


class DownloadFailed(TgneoError):
    """A pinned file tgneo fetches over HTTPS (the offline embedder's weights) could not be fetched, or its bytes
    were not the pinned ones; the message names the URL, the reason and what to do."""

    status = 503


class ProvisioningError(TgneoError):
    """The local Neo4j could not be provisioned, started or stopped."""


class MissingTool(ProvisioningError):
    """A required tool (Java 17, Maven) is not installed; the message names the Debian package."""
