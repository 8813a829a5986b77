"""The LLM interface every engine and the ingest pipeline call: tasks in, text and usage out.

Why tasks and not raw prompts: each stage of an engine (grounding, edge scoring, synthesis, a ReAct
step, extraction, …) is a :class:`Task` — a name and the structured inputs of that stage. A
provider that talks to a real model renders the stage's prompt file (``tgneo/llm/prompts/NAME.txt``)
with those inputs; the offline provider computes its answer from the same inputs without a model.
Either way the *answer text has the format the prompt asks for* (one concept per line, JSON, …), so
the engines parse one format, and a model that answers garbage is caught by the same parser.

Every call is measured: :class:`Completion` carries the text with ``in_tokens``, ``out_tokens``,
``model`` and ``duration_ms``, which the engines record on the step that made the call.
:meth:`LLM.stream` is a generator of text pieces whose *return value* is the :class:`Completion`
(``completion = yield from llm.stream(task)`` inside a generator).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from tgneo.errors import LLMError

__all__ = ["LLM", "STAGES", "Completion", "Embeddings", "LLMError", "Task", "prompt_text"]


STAGES: tuple[str, ...] = (
    "grounding",  # question → concepts, one per line
    "edge-scoring",  # question, concepts, edges [{id, text}] → JSON [{"id", "score"}]
    "edge-reasoning",  # question, edges [{id, text, score}] → JSON [{"id", "reasoning"}]
    "synthesis",  # question, facts [str] → answer text (streamed)
    "docrag-synthesis",  # question, passages [{id, text}] → answer text (streamed)
    "extraction",  # text → JSON [{"s", "p", "o"}] with entity and relation names
    "router",  # question, patterns → JSON {"pattern", "task_type"}
    "react",  # question, tools [{name, description}], history [{thought, action, arguments, observation}]
    #           → JSON {"thought", "action", "arguments"} or {"thought", "final_answer"}
    "plan",  # question, tools → JSON [{"goal", "tool", "arguments"}]
    "decompose",  # question → JSON ["sub-goal", …]
    "agent-synthesis",  # question, results [{goal, text}] → answer text (streamed)
)
"""Every task an engine or the ingest pipeline asks of a model; each has a prompt file of its name."""


@dataclass(frozen=True)
class Task:
    """One call's worth of work: the stage (``STAGES``) and its structured inputs.

    Attributes:
        stage: Which prompt and which offline behaviour (``"grounding"``, …).
        inputs: The stage's inputs by name (JSON-serialisable values).
    """

    stage: str
    inputs: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.stage not in STAGES:
            raise ValueError(f"unknown LLM stage {self.stage!r}; known: {', '.join(STAGES)}")


@dataclass(frozen=True)
class Completion:
    """What a model said and what it cost."""

    text: str
    in_tokens: int
    out_tokens: int
    model: str
    duration_ms: int


@dataclass(frozen=True)
class Embeddings:
    """Vectors for texts, in order, and what produced them."""

    vectors: list[list[float]]
    model: str
    dimensions: int
    in_tokens: int = 0
    duration_ms: int = 0


class LLM(ABC):
    """A provider: completes tasks, streams answers, embeds texts.

    Attributes:
        name: The provider's name (``offline``, ``openai``).
        model: The chat model every :class:`Completion` names.
        embedding_model: The embedding model every :class:`Embeddings` names.
    """

    name: str
    model: str
    embedding_model: str

    @abstractmethod
    def complete(self, task: Task) -> Completion:
        """Answer ``task`` in one piece.

        Raises:
            LLMError: the model could not answer (timeout, refusal, unreachable server).
        """

    @abstractmethod
    def stream(self, task: Task) -> Generator[str, None, Completion]:
        """Answer ``task`` piece by piece; the generator's return value is the whole :class:`Completion`.

        Closing the generator early stops the call (a client that went away costs nothing more).

        Raises:
            LLMError: as :meth:`complete`, possibly after some pieces were yielded.
        """

    @abstractmethod
    def embed(self, texts: Sequence[str]) -> Embeddings:
        """One vector per text, L2-normalised, all of :attr:`Embeddings.dimensions` length.

        Raises:
            LLMError: as :meth:`complete`.
        """

    @property
    @abstractmethod
    def dimensions(self) -> int:
        """The length of the vectors :meth:`embed` returns (vector indexes are created with it)."""


def prompt_text(stage: str) -> str:
    """The prompt template of ``stage`` (``tgneo/llm/prompts/{stage}.txt``), read from the package."""
    if stage not in STAGES:
        raise ValueError(f"unknown LLM stage {stage!r}")
    return resources.files("tgneo.llm").joinpath("prompts", f"{stage}.txt").read_text(encoding="utf-8")
