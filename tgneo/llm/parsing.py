"""Reading an LLM's structured answers: the JSON a stage's prompt asked for, or a clear LLMError.

Models wrap JSON in code fences or prose more often than not; the first JSON value of the expected
kind in the answer is taken, and anything else is refused with the stage, the model and the start of
what it said — the same parser for the offline provider and a real model.
"""

from __future__ import annotations

import json
from typing import Any

from tgneo.llm.base import Completion, LLMError

_OPENERS = {list: "[", dict: "{"}


def json_answer(call: Completion, stage: str, kind: type[list[Any]] | type[dict[str, Any]]) -> Any:
    """The first JSON array (``kind=list``) or object (``kind=dict``) in ``call.text``.

    Raises:
        LLMError: the answer holds no JSON value of that kind.
    """
    text = call.text
    decoder = json.JSONDecoder()
    start = text.find(_OPENERS[kind])
    while start >= 0:
        try:
            value, _ = decoder.raw_decode(text, start)
        except json.JSONDecodeError:
            value = None
        if isinstance(value, kind):
            return value
        start = text.find(_OPENERS[kind], start + 1)
    shape = "array" if kind is list else "object"
    raise LLMError(
        f"the {stage} stage did not answer a JSON {shape} (model {call.model}: {' '.join(text.split())[:80]!r})"
    )


def json_objects(call: Completion, stage: str) -> list[dict[str, Any]]:
    """A JSON array of objects (other items dropped)."""
    return [item for item in json_answer(call, stage, list) if isinstance(item, dict)]
