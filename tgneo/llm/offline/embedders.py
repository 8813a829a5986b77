"""The offline provider's embedders: all-MiniLM-L6-v2 (the default), hashed n-grams, or WordLlama's word embeddings.

All run on this machine, on the CPU, with no network once the model is fetched:

* ``all-minilm-l6-v2-q`` (:mod:`tgneo.llm.offline.minilm`) — a sentence-embedding model on onnxruntime, 384
  dimensions that know meaning; its weights are a Maven Central jar downloaded over HTTPS into
  ``$TGNEO_HOME/models`` on first use (:mod:`tgneo.downloads`);
* ``tgneo-offline-hash-256`` (:mod:`tgneo.llm.offline.hashed`) — hashed words, stems and trigrams: a
  lexical similarity that knows spelling, not meaning;
* ``wordllama-l2-supercat-256`` — `WordLlama <https://pypi.org/project/wordllama/>`_ 0.4 (MIT): token
  embeddings distilled from large language models' embedding layers, averaged over a text's tokens
  and L2-normalised. Its weights (``wordllama/weights/l2_supercat_256.safetensors``) and tokenizer ship
  inside the PyPI wheel; they are read from there by path, because WordLlama's own loader looks for the
  tokenizer in a folder the wheel does not have and would try Hugging Face (no hub can be reached here,
  nor by many offline users).

Which one answers is ``TGNEO_EMBEDDING_MODEL`` (the default is :data:`DEFAULT`, chosen on the quality
benchmark, ``scripts/bench/quality.py``, and ``scripts/bench/embedders.py``). No two are interchangeable,
even at the same dimensions: a collection embedded with one is refused by another (``EmbeddingMismatch``)
until every collection is embedded again (``tgneo load index --reembed --all-collections``).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any, Protocol

from tgneo.errors import ConfigError
from tgneo.llm.offline import hashed as hashed
from tgneo.llm.offline.minilm import MiniLMEmbedder

__all__ = ["DEFAULT", "EMBEDDERS", "REMOVED", "Embedder", "embedder"]


class Embedder(Protocol):
    """Texts to L2-normalised vectors of :attr:`dimensions` length, named :attr:`model`."""

    model: str
    dimensions: int

    def vectors(self, texts: Sequence[str]) -> list[list[float]]: ...


@dataclass(frozen=True)
class HashedEmbedder:
    """Hashed n-grams (:mod:`tgneo.llm.offline.hashed`)."""

    model: str = hashed.MODEL
    dimensions: int = hashed.DIMENSIONS

    def vectors(self, texts: Sequence[str]) -> list[list[float]]:
        return [hashed.embed_one(t) for t in texts]


class WordLlamaEmbedder:
    """WordLlama's ``l2_supercat`` 256-dimensional token embeddings, loaded once per process from its wheel."""

    model = "wordllama-l2-supercat-256"
    dimensions = 256
    _loaded: Any = None
    _lock = threading.Lock()

    @classmethod
    def _model(cls) -> Any:
        with cls._lock:
            if cls._loaded is None:
                try:
                    from safetensors import safe_open
                    from tokenizers import Tokenizer
                    from wordllama.inference import WordLlamaInference
                except ImportError as e:  # pragma: no cover - a dependency of tgneo
                    raise ConfigError(f"TGNEO_EMBEDDING_MODEL={cls.model} needs the wordllama package: {e}") from e
                base = resources.files("wordllama")
                tokenizer = Tokenizer.from_file(str(base / "tokenizers" / "l2_supercat_tokenizer_config.json"))
                weights = str(base / "weights" / "l2_supercat_256.safetensors")
                with safe_open(weights, framework="np", device="cpu") as f:
                    table = f.get_tensor("embedding.weight")
                cls._loaded = WordLlamaInference(table, tokenizer, binary=False)
            return cls._loaded

    def vectors(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        out: list[list[float]] = []
        for row in self._model().embed(list(texts)):
            values = [float(x) for x in row]
            norm = math.sqrt(sum(v * v for v in values))
            out.append([v / norm for v in values] if norm else values)
        return out


EMBEDDERS: dict[str, type[Any]] = {
    HashedEmbedder.model: HashedEmbedder,
    WordLlamaEmbedder.model: WordLlamaEmbedder,
    MiniLMEmbedder.model: MiniLMEmbedder,
}
"""Every offline embedder by the model name it records."""
DEFAULT = MiniLMEmbedder.model
"""The offline embedder when ``TGNEO_EMBEDDING_MODEL`` is unset: the one place that names it."""
REMOVED = {
    "all-minilm-l6-v2": (
        "the float32 all-minilm-l6-v2 is no longer offered: tgneo ran it in its own numpy encoder, and its "
        "weights' wheel has no ONNX file for onnxruntime to run. Use all-minilm-l6-v2-q, the same model in "
        "int8 with the same hit rates on the quality bench (the default: unset TGNEO_EMBEDDING_MODEL), then "
        "embed every collection again: tgneo load index --reembed --all-collections"
    ),
}
"""Offline embedders tgneo once had, by name, with what to use instead."""


def embedder(model: str | None = None) -> Embedder:
    """The offline embedder called ``model`` (:data:`DEFAULT` when ``None``).

    Raises:
        ConfigError: no offline embedder has that name; the message lists them (or, for one removed, says
            what replaces it).
    """
    cls = EMBEDDERS.get(model or DEFAULT)
    if model in REMOVED:
        raise ConfigError(f"TGNEO_EMBEDDING_MODEL={model}: {REMOVED[model]}")
    if cls is None:
        raise ConfigError(
            f"TGNEO_EMBEDDING_MODEL={model!r} is not an offline embedding model; use one of {', '.join(EMBEDDERS)}"
        )
    found: Embedder = cls()
    return found
