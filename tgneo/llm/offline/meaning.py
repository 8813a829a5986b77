"""What the offline answers know of meaning: how close a question is to each candidate sentence, measured by
the embedder the provider embeds with — when that embedder knows meaning, not only spelling.

The answering rules (:mod:`tgneo.llm.offline.answers`) are pure functions of a stage's inputs; the embedder
belongs to the provider. :meth:`OfflineLLM.complete <tgneo.llm.offline.OfflineLLM.complete>` lends it to them
for the length of one call (:func:`using`), so no rule imports a model and a provider built with the hashed
embedder answers exactly as before: :func:`similarities` then says ``None`` and the rules stay lexical.
"""

from __future__ import annotations

import threading
from array import array
from collections import OrderedDict
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
    rules' own word matching already says.

    Each distinct text is embedded once: GraphRAG's edges repeat the sentence they were read from (a sentence
    holds several facts), and the same sentences come back across a session's stages and questions, so vectors
    are kept per model in a bounded cache (:data:`_CACHED` texts, float32: about 1.5 KB each at 384 dimensions,
    35 MB when full).
    """
    embedder = _EMBEDDER.get()
    if embedder is None or not getattr(embedder, "knows_meaning", False) or not candidates:
        return None
    vectors = _vectors(embedder, [question, *dict.fromkeys(candidates)])
    asked = vectors[question]
    return [sum(a * b for a, b in zip(asked, vectors[c], strict=True)) for c in candidates]


_CACHED = 20_000
_cache: OrderedDict[tuple[str, str], array[float]] = OrderedDict()
_lock = threading.Lock()


def _vectors(embedder: Any, texts: list[str]) -> dict[str, array[float]]:
    """The vectors of ``texts`` (distinct), from the cache where they are, embedded in one call where not."""
    model = str(getattr(embedder, "model", type(embedder).__name__))
    found: dict[str, array[float]] = {}
    with _lock:
        for text in texts:
            hit = _cache.get((model, text))
            if hit is not None:
                _cache.move_to_end((model, text))
                found[text] = hit
    missing = [t for t in texts if t not in found]
    if missing:
        fresh = {t: array("f", v) for t, v in zip(missing, embedder.vectors(missing), strict=True)}
        found.update(fresh)
        with _lock:
            for text, vector in fresh.items():
                _cache[(model, text)] = vector
            while len(_cache) > _CACHED:
                _cache.popitem(last=False)
    return found
