"""Which provider answers: ``TGNEO_LLM`` names it — ``offline`` (the default) or ``openai``.

Each entry builds its provider from :class:`~tgneo.config.Settings` and imports it only then, so
choosing ``offline`` never imports the ``openai`` package and an incomplete ``openai`` configuration
(no ``TGNEO_LLM_MODEL``) is a :class:`~tgneo.errors.ConfigError` when the provider is asked for, not
at import time.
"""

from __future__ import annotations

from collections.abc import Callable

from tgneo.config import Settings
from tgneo.errors import ConfigError
from tgneo.llm.base import LLM


def _offline(settings: Settings) -> LLM:
    from tgneo.llm.offline import OfflineLLM

    return OfflineLLM(embedding_model=settings.embedding_model)


def _openai(settings: Settings) -> LLM:
    from tgneo.llm.openai_provider import OpenAILLM

    return OpenAILLM.from_settings(settings)


PROVIDERS: dict[str, Callable[[Settings], LLM]] = {"offline": _offline, "openai": _openai}
"""Every provider by its ``TGNEO_LLM`` name."""


def get_llm(settings: Settings | None = None) -> LLM:
    """The provider ``settings.llm`` names, configured from the settings.

    Raises:
        ConfigError: ``TGNEO_LLM`` names no provider (the message lists them), or the provider's
            own settings are incomplete.
    """
    settings = settings or Settings.from_env()
    build = PROVIDERS.get(settings.llm)
    if build is None:
        raise ConfigError(f"TGNEO_LLM={settings.llm!r} is not a provider; use one of {', '.join(PROVIDERS)}")
    return build(settings)
