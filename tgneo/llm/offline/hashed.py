"""Hashed n-gram embeddings: deterministic vectors, no model, no download.

Each text becomes a bag of features — its folded words, their light stems, and the character
trigrams of each word with boundary marks — hashed (BLAKE2b, so every process and machine agrees)
into :data:`DIMENSIONS` signed buckets, weighted (a word counts more than one of its trigrams) and
L2-normalised. Cosine similarity of two such vectors is a lexical similarity that tolerates
inflection and small spelling differences (``"polonium"`` ~ ``"Polonium's"``); it knows nothing of
meaning, and says so by its model name.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable

from tgneo.nlp.words import STOPWORDS, stem, words

DIMENSIONS = 256
MODEL = "tgneo-offline-hash-256"


def _features(text: str) -> Iterable[tuple[str, float]]:
    for word in words(text):
        weight = 0.3 if word in STOPWORDS else 1.0
        yield "w:" + word, weight
        yield "s:" + stem(word), weight
        padded = f"^{word}$"
        for i in range(len(padded) - 2):
            yield "t:" + padded[i : i + 3], 0.25 * weight


def _bucket(feature: str) -> tuple[int, float]:
    digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest()
    value = int.from_bytes(digest, "big")
    return value % DIMENSIONS, (1.0 if (value >> 63) & 1 else -1.0)


def embed_one(text: str) -> list[float]:
    """The vector of one text (all zeros when it has no words)."""
    vector = [0.0] * DIMENSIONS
    for feature, weight in _features(text):
        index, sign = _bucket(feature)
        vector[index] += sign * weight
    norm = math.sqrt(sum(v * v for v in vector))
    return [v / norm for v in vector] if norm else vector


def cosine(a: list[float], b: list[float]) -> float:
    """Cosine similarity of two normalised vectors (their dot product)."""
    return sum(x * y for x, y in zip(a, b, strict=True))
