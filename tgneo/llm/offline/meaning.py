"""What the offline answers know of meaning: how close a question is to each candidate sentence, measured by
the embedder the provider embeds with — when that embedder knows meaning, not only spelling.

The answering rules (:mod:`tgneo.llm.offline.answers`) are pure functions of a stage's inputs; the embedder
belongs to the provider. :meth:`OfflineLLM.complete <tgneo.llm.offline.OfflineLLM.complete>` lends it to them
for the length of one call (:func:`using`), so no rule imports a model and a provider built with the hashed
embedder answers exactly as before: :func:`similarities` then says ``None`` and the rules stay lexical.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

__all__ = ["similarities", "using"]

_EMBEDDER: ContextVar[Any] = ContextVar("tgneo_offline_embedder", default=None)


@contextmanager
def using(embedder: Any) -> Iterator[None]:
    """Lend ``embedder`` to the answering rules while the block runs (this thread and context only)."""
    token = _EMBEDDER.set(embedder)
    try:
        yield
    finally:
        _EMBEDDER.reset(token)


def similarities(question: str, candidates: Sequence[str]) -> list[float] | None:
    """The cosine similarity of ``question`` to each candidate, or ``None`` when the lent embedder (if any)
    does not know meaning (its ``knows_meaning`` is not true): a lexical embedder would only repeat what the
    rules' own word matching already says."""
    embedder = _EMBEDDER.get()
    if embedder is None or not getattr(embedder, "knows_meaning", False) or not candidates:
        return None
    vectors = embedder.vectors([question, *candidates])
    asked = vectors[0]
    return [sum(a * b for a, b in zip(asked, v, strict=True)) for v in vectors[1:]]
