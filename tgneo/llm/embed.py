"""Texts into vectors through the configured provider, checked, in batches."""

from __future__ import annotations

from collections.abc import Sequence

from tgneo.llm.base import LLM, LLMError

__all__ = ["embed_texts"]

_EMBED_BATCH = 64


def embed_texts(llm: LLM, texts: Sequence[str]) -> list[list[float] | None]:
    """Embeddings of ``texts`` in batches; ``None`` for a zero vector (a text without words has no direction).

    Raises:
        LLMError: the provider answered vectors of another length than it declares, or not one per text.
    """
    out: list[list[float] | None] = []
    for start in range(0, len(texts), _EMBED_BATCH):
        batch = list(texts[start : start + _EMBED_BATCH])
        result = llm.embed(batch)
        if len(result.vectors) != len(batch) or any(len(v) != llm.dimensions for v in result.vectors):
            raise LLMError(f"embedding model {result.model} did not answer one {llm.dimensions}-long vector per text")
        out += [v if any(v) else None for v in result.vectors]
    return out
