"""The prompt files: one per stage, each rendering from the inputs its stage is given (any provider)."""

from __future__ import annotations

import json
import re
import string

import pytest

from tests.llm_tasks import INPUTS, task
from tgneo.llm.base import STAGES, Task, prompt_text
from tgneo.llm.prompts import render


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_stage_has_example_inputs() -> None:
    assert set(INPUTS) == set(STAGES)


@pytest.mark.parametrize("stage", STAGES)
def test_every_prompt_asks_for_exactly_the_inputs_its_stage_is_given(stage: str) -> None:
    assert placeholders(prompt_text(stage)) == set(INPUTS[stage])


@pytest.mark.parametrize("stage", STAGES)
def test_every_prompt_renders_with_no_placeholder_left(stage: str) -> None:
    rendered = render(task(stage))
    assert not re.search(r"\{[a-z_]+\}", rendered), rendered


@pytest.mark.parametrize("stage", STAGES)
def test_every_input_reaches_the_rendered_prompt(stage: str) -> None:
    rendered = render(task(stage))
    for value in INPUTS[stage].values():
        text = value if isinstance(value, str) else json.dumps(value, indent=1, ensure_ascii=False)
        assert text in rendered


def test_a_missing_input_is_named() -> None:
    with pytest.raises(KeyError, match="'question'"):
        render(Task("grounding", {}))
