"""Which provider answers: ``TGNEO_LLM`` names it (``offline`` by default)."""

from __future__ import annotations

from collections.abc import Callable

from tgneo.config import Settings
from tgneo.errors import ConfigError
from tgneo.llm.base import LLM


def _offline(settings: Settings) -> LLM:
    from tgneo.llm.offline import OfflineLLM

    return OfflineLLM()


PROVIDERS: dict[str, Callable[[Settings], LLM]] = {"offline": _offline}
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
