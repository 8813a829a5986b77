"""Settings: one dataclass, each field naming the environment variable it comes from.

Neo4j's conventional names (``NEO4J_URI``, ``NEO4J_USERNAME``, ``NEO4J_PASSWORD``,
``NEO4J_DATABASE``) are used as-is so that ``eval "$(tgneo db env)"``, Neo4j's own tools and
docker-compose all configure tgneo the same way. When ``NEO4J_URI`` is unset, tgneo falls back to
the local server that ``tgneo db start`` provisions (its URI and generated password are read from
the cache directory), so the Quickstart works without exporting anything.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path

from tgneo.errors import ConfigError


def _env(name: str) -> dict[str, str]:
    return {"env_var": name}


def default_home() -> Path:
    """The cache directory for Neo4j jars and local instances (``TGNEO_HOME``)."""
    explicit = os.environ.get("TGNEO_HOME")
    if explicit:
        return Path(explicit).expanduser().resolve()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return (base / "tgneo").resolve()


def _parse(var: str, kind: str, raw: str) -> object:
    """An environment value as its field's type; a malformed number names the variable."""
    if kind == "Path":
        return Path(raw).expanduser().resolve()
    if kind in ("float", "int"):
        try:
            return float(raw) if kind == "float" else int(raw)
        except ValueError:
            raise ConfigError(f"{var}={raw!r} is not {'a number' if kind == 'float' else 'a whole number'}") from None
    return raw


@dataclass(frozen=True)
class Settings:
    """Runtime configuration. Build with ``Settings.from_env()``; tests pass explicit values."""

    neo4j_uri: str | None = field(default=None, metadata=_env("NEO4J_URI"))
    neo4j_username: str = field(default="neo4j", metadata=_env("NEO4J_USERNAME"))
    neo4j_password: str | None = field(default=None, metadata=_env("NEO4J_PASSWORD"))
    neo4j_database: str = field(default="neo4j", metadata=_env("NEO4J_DATABASE"))
    neo4j_connect_timeout: float = field(default=5.0, metadata=_env("TGNEO_NEO4J_CONNECT_TIMEOUT"))
    neo4j_retry_seconds: float = field(default=30.0, metadata=_env("TGNEO_NEO4J_RETRY_SECONDS"))
    home: Path = field(default_factory=default_home, metadata=_env("TGNEO_HOME"))
    tokens: str | None = field(default=None, metadata=_env("TGNEO_TOKENS"))
    prune_every: str | None = field(default=None, metadata=_env("TGNEO_PRUNE_EVERY"))
    """How often ``tgneo serve`` applies the stored retention policies (``1h``, ``1d``); never when unset."""
    graphs: str | None = field(default=None, metadata=_env("TGNEO_GRAPHS"))
    """``COLLECTION=PROFILE,…``: collections whose questions answer over another tool's graph (tgneo.graph_profiles)."""
    # OpenTelemetry out (tgneo.otlp.export_http): each answered question's trace, as spans over OTLP/HTTP. The
    # exporter itself reads the rest of OTEL_EXPORTER_OTLP_* (compression, timeout, certificates), OTEL_BSP_* its
    # batch processor.
    otlp_endpoint: str | None = field(default=None, metadata=_env("OTEL_EXPORTER_OTLP_ENDPOINT"))
    """An OTLP/HTTP receiver's base URL (``http://localhost:4318``): traces go to its ``/v1/traces``. With neither
    endpoint set, nothing is exported."""
    otlp_traces_endpoint: str | None = field(default=None, metadata=_env("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"))
    """The traces URL itself (``http://localhost:4318/v1/traces``), taken as it is; it wins over the base URL."""
    otlp_headers: str | None = field(default=None, metadata=_env("OTEL_EXPORTER_OTLP_HEADERS"))
    """``key=value,key2=value2`` (values percent-decoded): headers every export carries (an API key)."""
    otlp_traces_headers: str | None = field(default=None, metadata=_env("OTEL_EXPORTER_OTLP_TRACES_HEADERS"))
    """The same for traces only; it wins over ``OTEL_EXPORTER_OTLP_HEADERS``."""
    otel_sdk_disabled: str | None = field(default=None, metadata=_env("OTEL_SDK_DISABLED"))
    """``true``: export nothing, whatever the endpoints say (OpenTelemetry's own off switch)."""
    otel_traces_exporter: str | None = field(default=None, metadata=_env("OTEL_TRACES_EXPORTER"))
    """Comma-separated exporters; set without ``otlp`` (``none``), nothing is exported."""
    deprecated_otlp_endpoint: str | None = field(default=None, metadata=_env("TGNEO_OTLP_ENDPOINT"))
    """Deprecated for ``OTEL_EXPORTER_OTLP_ENDPOINT`` (still read, with a warning, until the next release)."""
    deprecated_otlp_headers: str | None = field(default=None, metadata=_env("TGNEO_OTLP_HEADERS"))
    """Deprecated for ``OTEL_EXPORTER_OTLP_HEADERS`` (still read, with a warning, until the next release)."""
    # The LLM (tgneo.llm): `offline` needs nothing; `openai` speaks to any OpenAI-compatible server.
    llm: str = field(default="offline", metadata=_env("TGNEO_LLM"))
    llm_model: str | None = field(default=None, metadata=_env("TGNEO_LLM_MODEL"))
    embedding_model: str | None = field(default=None, metadata=_env("TGNEO_EMBEDDING_MODEL"))
    embedding_provider: str | None = field(default=None, metadata=_env("TGNEO_EMBEDDING_PROVIDER"))
    """Which provider embeds (``offline``, ``openai``, or a registered one); ``TGNEO_LLM``'s when unset. A hosted
    chat model can then answer over a collection the offline MiniLM embedded, or the reverse, without re-embedding;
    ``TGNEO_EMBEDDING_MODEL`` names the model of this provider."""
    openai_base_url: str | None = field(default=None, metadata=_env("OPENAI_BASE_URL"))
    openai_api_key: str | None = field(default=None, metadata=_env("OPENAI_API_KEY"))
    llm_timeout: float = field(default=60.0, metadata=_env("TGNEO_LLM_TIMEOUT"))
    llm_retries: int = field(default=2, metadata=_env("TGNEO_LLM_RETRIES"))

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: object) -> Settings:
        """Read every field from its environment variable; ``overrides`` win over the environment."""
        env = os.environ if environ is None else environ
        values: dict[str, object] = {}
        for f in fields(cls):
            var = f.metadata.get("env_var")
            if var and env.get(var) not in (None, ""):
                values[f.name] = _parse(var, str(f.type), env[var])
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)  # type: ignore[arg-type]
