"""Render a stage's prompt file with a task's inputs (the same text a real model reads).

Templates use ``{name}`` placeholders (``{{``/``}}`` for literal braces). Strings go in as they are;
lists and mappings go in as indented JSON, so a model sees exactly the structure the offline provider
computes from.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from tgneo.llm.base import Task, prompt_text


class _Inputs(dict[str, str]):
    def __missing__(self, key: str) -> str:
        raise KeyError(f"the prompt needs an input named {key!r}")


def _as_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, indent=1, ensure_ascii=False)


def render(task: Task) -> str:
    """The prompt of ``task.stage`` with its inputs filled in.

    Raises:
        KeyError: the template names an input the task does not have.
    """
    inputs: Mapping[str, Any] = task.inputs
    return prompt_text(task.stage).format_map(_Inputs({k: _as_text(v) for k, v in inputs.items()}))
