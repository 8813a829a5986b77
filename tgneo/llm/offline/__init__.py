"""The offline provider: deterministic answers computed from a task's inputs, no model, no network.

It is honest about what it is: every :class:`~tgneo.llm.base.Completion` names the model
``tgneo-offline``, token counts are real counts of its own tokenizer (the rendered prompt in, the
answer out), and each stage answers in the format its prompt asks of a real model, from rules that
only restate their inputs: grounding picks the question's noun phrases; edge scoring is lexical
similarity; reasoning names the concept and the edge it matched; synthesis states what the selected
edges or passages say and nothing else; the ReAct policy picks tools from the words of the question.
"""

from __future__ import annotations

import re
import time
from collections.abc import Generator, Sequence

from tgneo.llm.base import LLM, Completion, Embeddings, LLMError, Task
from tgneo.llm.offline import agent_policy, answers, extraction
from tgneo.llm.offline.embedders import embedder
from tgneo.llm.offline.handlers import HANDLERS
from tgneo.llm.offline.meaning import using
from tgneo.llm.offline.tokens import count
from tgneo.llm.prompts import render

MODEL = "tgneo-offline"

_REGISTERED = (answers, agent_policy, extraction)
"""The modules whose handlers fill :data:`~tgneo.llm.offline.handlers.HANDLERS` as they are imported."""


class OfflineLLM(LLM):
    """Deterministic, network-free answers (see the module docstring).

    Args:
        chunk_words: words per streamed piece.
        embedding_model: which offline embedder embeds (:mod:`tgneo.llm.offline.embedders`; the
            default when ``None``).
    """

    name = "offline"
    model = MODEL

    def __init__(self, chunk_words: int = 3, embedding_model: str | None = None) -> None:
        self.chunk_words = chunk_words
        self.embedder = embedder(embedding_model)
        self.embedding_model = self.embedder.model

    @property
    def dimensions(self) -> int:
        return self.embedder.dimensions

    def complete(self, task: Task) -> Completion:
        started = time.perf_counter()
        handler = HANDLERS.get(task.stage)
        if handler is None:
            raise LLMError(f"the offline provider cannot answer {task.stage!r}")
        prompt = render(task)
        with using(self.embedder):
            text = handler(task.inputs)
        return Completion(text, count(prompt), count(text), self.model, _ms(started))

    def stream(self, task: Task) -> Generator[str, None, Completion]:
        started = time.perf_counter()
        whole = self.complete(task)
        pieces = _pieces(whole.text, self.chunk_words)
        yield from pieces
        return Completion(whole.text, whole.in_tokens, whole.out_tokens, self.model, _ms(started))

    def embed(self, texts: Sequence[str]) -> Embeddings:
        started = time.perf_counter()
        vectors = self.embedder.vectors(texts)
        return Embeddings(vectors, self.embedding_model, self.dimensions, sum(count(t) for t in texts), _ms(started))


def _ms(started: float) -> int:
    return int((time.perf_counter() - started) * 1000)


def _pieces(text: str, per_piece: int) -> list[str]:
    """``text`` in pieces of ``per_piece`` words, each with its leading whitespace: they join back exactly."""
    parts = re.findall(r"\s*\S+", text)
    if not parts:
        return [text]
    pieces = ["".join(parts[i : i + per_piece]) for i in range(0, len(parts), per_piece)]
    pieces[-1] += text[len("".join(parts)) :]
    return pieces
