"""Which provider answers (``TGNEO_LLM``) and which embeds (``TGNEO_EMBEDDING_PROVIDER``): ``offline`` (the
default), ``openai``, or one a user registers.

Each entry builds its provider from :class:`~tgneo.config.Settings` and imports it only then, so choosing
``offline`` never imports the ``openai`` package and an incomplete ``openai`` configuration (no
``TGNEO_LLM_MODEL``) is a :class:`~tgneo.errors.ConfigError` when the provider is asked for, not at import time.

**Two roles.** The chat model and the embedder are chosen apart: when ``TGNEO_EMBEDDING_PROVIDER`` names another
provider than ``TGNEO_LLM``, :func:`get_llm` pairs them (:class:`Paired`): answers come from the one, vectors from
the other. A collection is tied to the model that embedded it (its vectors and vector indexes), not to the model
that answers over it, so a user swaps the chat model without embedding anything again.

**Adding a provider** without editing tgneo, as rdflib's plugins do: :func:`register_provider` in the user's code,
or an installed package's ``tgneo.providers`` entry point (``name = "package.module:factory"``), where ``factory``
takes the :class:`~tgneo.config.Settings` and returns an :class:`~tgneo.llm.base.LLM`.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from dataclasses import replace

from tgneo.config import Settings
from tgneo.entrypoints import Registry
from tgneo.errors import ConfigError
from tgneo.llm.base import LLM, Completion, Embeddings, Task

__all__ = ["ENTRY_POINTS", "PROVIDERS", "Paired", "ProviderFactory", "get_llm", "provider_names", "register_provider"]

ProviderFactory = Callable[[Settings], LLM]
"""Builds a provider from the settings (``TGNEO_LLM_MODEL``, ``OPENAI_*`` … are the provider's to read)."""

ENTRY_POINTS = "tgneo.providers"
"""The entry-point group an installed package declares its providers under."""


def _offline(settings: Settings) -> LLM:
    from tgneo.llm.offline import OfflineLLM

    return OfflineLLM(embedding_model=settings.embedding_model)


def _openai(settings: Settings) -> LLM:
    from tgneo.llm.openai_provider import OpenAILLM

    return OpenAILLM.from_settings(settings)


PROVIDERS: Registry[ProviderFactory] = Registry(
    "provider", ENTRY_POINTS, {"offline": _offline, "openai": _openai}, ConfigError
)
"""Every provider by its ``TGNEO_LLM`` name: the built-ins, those registered, those installed packages declare."""


def register_provider(name: str, factory: ProviderFactory, *, replace: bool = False) -> None:
    """Make ``TGNEO_LLM=name`` (or ``TGNEO_EMBEDDING_PROVIDER=name``) build its provider with ``factory``.

    Raises:
        ConfigError: ``name`` is empty or has whitespace, or is taken and ``replace`` is false.
    """
    PROVIDERS.register(name, factory, replace=replace)


def provider_names() -> tuple[str, ...]:
    """Every provider's name: the built-ins, then those registered or declared by installed packages."""
    return PROVIDERS.names()


def _build(name: str, settings: Settings, variable: str) -> LLM:
    build = PROVIDERS.get(name)
    if build is None:
        raise ConfigError(f"{variable}={name!r} is not a provider; use one of {', '.join(provider_names())}")
    return build(settings)


def get_llm(settings: Settings | None = None) -> LLM:
    """The provider ``TGNEO_LLM`` names, paired with ``TGNEO_EMBEDDING_PROVIDER``'s embedder when that differs.

    Raises:
        ConfigError: a variable names no provider (the message lists them), or a provider's own settings are
            incomplete.
    """
    settings = settings or Settings.from_env()
    embedder = settings.embedding_provider
    if embedder is None or embedder == settings.llm:
        return _build(settings.llm, settings, "TGNEO_LLM")
    # TGNEO_EMBEDDING_MODEL names the embedding provider's model: the chat provider keeps its own default
    chat = _build(settings.llm, replace(settings, embedding_model=None), "TGNEO_LLM")
    if embedder == "openai":  # it only embeds here: the chat model it would need is the other provider's
        from tgneo.llm.openai_provider import OpenAILLM

        return Paired(chat, OpenAILLM.from_settings(settings, embeddings_only=True))
    return Paired(chat, _build(embedder, settings, "TGNEO_EMBEDDING_PROVIDER"))


class Paired(LLM):
    """One provider's chat model with another's embedder (``TGNEO_EMBEDDING_PROVIDER``): tasks and streams go to
    ``chat``, texts to ``embeddings``; the pair names each model as the provider that serves it."""

    def __init__(self, chat: LLM, embeddings: LLM) -> None:
        self.chat = chat
        self.embeddings = embeddings
        self.name = f"{chat.name}+{embeddings.name}"
        self.model = chat.model
        self.embedding_model = embeddings.embedding_model

    @property
    def dimensions(self) -> int:
        return self.embeddings.dimensions

    def complete(self, task: Task) -> Completion:
        return self.chat.complete(task)

    def stream(self, task: Task) -> Generator[str, None, Completion]:
        return self.chat.stream(task)

    def embed(self, texts: Sequence[str]) -> Embeddings:
        return self.embeddings.embed(texts)
