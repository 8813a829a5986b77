"""Models whose answers do, or do not, depend on the context they are handed: what the verification tells apart.

Both wrap the offline provider (every stage but the answering one is the offline provider's own, so each engine
runs as usual) and differ only in how they answer:

* :class:`Remembering` answers a question the way it first did, whatever evidence it is handed later — a model
  answering from memory. Its first answer is the offline provider's, so it cites exactly what an offline answer
  cites: only the counterfactual check can tell that it does not depend on it.
* :class:`Embellishing` answers from the evidence as the offline provider does, then adds a sentence of its own that
  no evidence holds (:data:`INVENTED`): a mixed answer, one sentence drawn from the evidence and one made up.

They are providers like any other: tests and ``scripts/bench/verification.py`` build them in process, and a test
installs them as an entry-point package (``tgneo.providers``) so that ``tgneo ask --verify`` runs on them.
"""

from __future__ import annotations

import json
import threading

from tgneo.config import Settings
from tgneo.llm.base import Completion, Task
from tgneo.llm.offline import OfflineLLM

ANSWERING = ("synthesis", "docrag-synthesis", "agent-synthesis")
"""The stages that write an answer from the evidence handed to them."""
INVENTED = "It was first announced in a letter to the Royal Society of Edinburgh in 1911."
"""What :class:`Embellishing` adds to every answer: a sentence no document of the sample or the quality sets holds."""


def _final_answer(text: str) -> str | None:
    """The final answer of a ``react`` step, if it gives one."""
    try:
        data = json.loads(text)
    except ValueError:
        return None
    answer = data.get("final_answer") if isinstance(data, dict) else None
    return answer if isinstance(answer, str) and answer.strip() else None


class Remembering(OfflineLLM):
    """Answers each question as it first answered it, whatever evidence it is handed (module docstring)."""

    name = model = "remembering"

    def __init__(self, embedding_model: str | None = None) -> None:
        super().__init__(embedding_model=embedding_model)
        self.memory: dict[str, str] = {}
        self._lock = threading.Lock()

    def complete(self, task: Task) -> Completion:
        question = str(task.inputs.get("question", ""))
        if task.stage in ANSWERING:
            with self._lock:
                remembered = self.memory.get(question)
            if remembered is not None:
                return Completion(remembered, 0, len(remembered.split()), self.model, 0)
        done = super().complete(task)
        said = done.text if task.stage in ANSWERING else _final_answer(done.text) if task.stage == "react" else None
        if said is not None:
            with self._lock:
                self.memory.setdefault(question, said)
        return Completion(done.text, done.in_tokens, done.out_tokens, self.model, done.duration_ms)


class Embellishing(OfflineLLM):
    """Answers from the evidence as the offline provider does, and adds a sentence of its own (:data:`INVENTED`)."""

    name = model = "embellishing"

    def complete(self, task: Task) -> Completion:
        done = super().complete(task)
        text = done.text
        if task.stage in ANSWERING and text.strip():
            text = f"{text.rstrip()} {INVENTED}"
        elif task.stage == "react" and (answer := _final_answer(text)) is not None:
            text = json.dumps({**json.loads(text), "final_answer": f"{answer.rstrip()} {INVENTED}"})
        return Completion(text, done.in_tokens, done.out_tokens, self.model, done.duration_ms)


def remembering(settings: Settings) -> Remembering:
    """The ``tgneo.providers`` entry point of :class:`Remembering` (``TGNEO_LLM=remembering``)."""
    return Remembering(embedding_model=settings.embedding_model)


def embellishing(settings: Settings) -> Embellishing:
    """The ``tgneo.providers`` entry point of :class:`Embellishing` (``TGNEO_LLM=embellishing``)."""
    return Embellishing(embedding_model=settings.embedding_model)
