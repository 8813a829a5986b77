"""The agents' pure parts: safe arithmetic, reading a ReAct step, checking tool arguments."""

from __future__ import annotations

import pytest

from tgneo.engines.agent.react import parse_step
from tgneo.engines.agent.tools import TOOLS, ToolError, evaluate
from tgneo.llm.base import Completion, LLMError


@pytest.mark.parametrize(
    ("expression", "value"),
    [("1911 - 1867", 44), ("2 * (3 + 4)", 14), ("7 / 2", 3.5), ("-2 ** 2", -4), ("10 // 3 % 2", 1), ("2 ** 10", 1024)],
)
def test_the_calculator_does_arithmetic(expression: str, value: float) -> None:
    assert evaluate(expression) == value


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        ("7 / 0", "division by zero"),
        ("__import__('os').system('true')", "not allowed"),
        ("open('/etc/passwd')", "not allowed"),
        ("x + 1", "Name is not allowed"),
        ("9 ** 9 ** 9", "too large"),
        ("1 +", "not arithmetic"),
        ("1" * 201, "longer than 200"),
        ("True + 1", "not allowed"),
    ],
)
def test_the_calculator_refuses_everything_but_arithmetic(expression: str, message: str) -> None:
    with pytest.raises(ToolError, match=message):
        evaluate(expression)


def _call(text: str) -> Completion:
    return Completion(text, 1, 1, "m", 0)


def test_a_react_answer_is_either_a_tool_call_or_a_final_answer() -> None:
    step = parse_step(_call('{"thought": "look", "action": "calculator", "arguments": {"expression": "1+1"}}'))
    assert (step.action, step.arguments, step.final_answer) == ("calculator", {"expression": "1+1"}, None)
    done = parse_step(_call('Sure! {"thought": "done", "final_answer": "Warsaw."}'))
    assert (done.action, done.final_answer) == (None, "Warsaw.")


@pytest.mark.parametrize("text", ["no json at all", '{"thought": "hmm"}', '{"action": "x", "arguments": [1]}'])
def test_a_react_answer_that_is_no_step_is_refused(text: str) -> None:
    with pytest.raises(LLMError):
        parse_step(_call(text))


def test_a_tool_refuses_unknown_and_missing_arguments() -> None:
    with pytest.raises(ToolError, match="needs the argument 'expression'"):
        TOOLS["calculator"].check({})
    with pytest.raises(ToolError, match="not 'colour'"):
        TOOLS["calculator"].check({"expression": "1", "colour": "red"})
    assert TOOLS["cypher-read"].check({"query": "latest_traces"}) == {"query": "latest_traces"}
