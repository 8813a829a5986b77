"""The agents' tools: a knowledge-graph question, a document question, arithmetic, a named read query.

A tool runs inside the step that called it (an Analysis, a Plan). RAG tools answer as **sub-traces**:
a GraphRAG or Document RAG session whose Question derives from the calling step, recorded and
streamed like any other, so the agent's trace shows every edge and chunk its answer rests on; the
Observation then derives from the sub-trace's Synthesis (reference §1.10). A tool failure is a
:class:`ToolError`: the agent records it as an Observation typed ``tg:Error`` and carries on.
"""

from __future__ import annotations

import ast
import json
import math
import operator
from abc import ABC, abstractmethod
from collections.abc import Callable, Generator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from tgneo.engines.base import Engine, Outcome, Session
from tgneo.errors import BadRequest, NotFound, TgneoError
from tgneo.explain.events import Event, ExplainEvent
from tgneo.store.named import READ_QUERIES, run_named


class ToolError(TgneoError):
    """A tool could not do what it was asked; the message says why (it becomes ``tg:toolError``)."""

    status = 422


@dataclass(frozen=True)
class ToolResult:
    """What a tool returned, and the step its Observation derives from (a sub-trace's Synthesis)."""

    text: str
    derived_from: str | None = None


class Tool(ABC):
    """One tool an agent may call: a name, what it does, the arguments it takes."""

    name: ClassVar[str]
    description: ClassVar[str]
    arguments: ClassVar[Mapping[str, str]]
    """Argument names and what each means, as the LLM is told."""
    optional: ClassVar[tuple[str, ...]] = ()
    """The arguments that may be left out."""

    def spec(self) -> dict[str, Any]:
        """How the tool is described to the LLM."""
        return {"name": self.name, "description": self.description, "arguments": dict(self.arguments)}

    def check(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """The arguments, each required one present as a non-empty value; unknown ones refused."""
        unknown = sorted(set(arguments) - set(self.arguments))
        if unknown:
            raise ToolError(f"{self.name} takes {', '.join(self.arguments)}; not {unknown[0]!r}")
        missing = [a for a in self.arguments if a not in self.optional and arguments.get(a) in (None, "")]
        if missing:
            raise ToolError(f"{self.name} needs the argument {missing[0]!r}")
        return dict(arguments)

    @abstractmethod
    def run(self, session: Session, caller: str, arguments: Mapping[str, Any]) -> Generator[Event, None, ToolResult]:
        """Do the work for the step ``caller``; yield any events (a sub-trace's); return the result."""


class _RagTool(Tool):
    """Answers with a RAG engine as a sub-trace of the calling step."""

    engine: ClassVar[Callable[..., Engine]]
    arguments = {"question": "the question to answer, in full"}

    def run(self, session: Session, caller: str, arguments: Mapping[str, Any]) -> Generator[Event, None, ToolResult]:
        question = str(self.check(arguments)["question"])
        engine = self.engine(session.ctx.store, session.ctx.llm, record=session.ctx.recorder is not None)
        sub = Session(session.ctx, engine.kind, question, parent=caller)
        try:
            runner = engine.run(sub, dict(engine.defaults))
            outcome: Outcome = yield from _explain_only(runner)
        except BadRequest as e:
            raise ToolError(f"{self.name}: {e}") from e
        session.ctx.cite(list(outcome.sources))
        session.ctx.evidence.extend(outcome.evidence)
        return ToolResult(outcome.answer, outcome.final_step)


def _explain_only(runner: Generator[Event, None, Outcome]) -> Generator[Event, None, Outcome]:
    """Forward a sub-trace's explain events; its answer pieces become the tool's result, not the agent's answer."""
    try:
        while True:
            event = next(runner)
            if isinstance(event, ExplainEvent):
                yield event
    except StopIteration as stop:
        result: Outcome = stop.value
        return result


class KnowledgeQuery(_RagTool):
    name = "knowledge-query"
    description = "Answers a question from the knowledge graph (GraphRAG), citing the edges it used."

    @staticmethod
    def engine(*args: Any, **kwargs: Any) -> Engine:
        from tgneo.engines.graphrag import GraphRag

        return GraphRag(*args, **kwargs)


class DocumentQuery(_RagTool):
    name = "document-query"
    description = "Answers a question from the document chunks (Document RAG), citing the passages it used."

    @staticmethod
    def engine(*args: Any, **kwargs: Any) -> Engine:
        from tgneo.engines.docrag import DocRag

        return DocRag(*args, **kwargs)


_BINARY: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}
_UNARY: dict[type[ast.unaryop], Callable[[Any], Any]] = {ast.UAdd: operator.pos, ast.USub: operator.neg}
MAX_EXPRESSION_CHARS = 200


def evaluate(expression: str) -> int | float:
    """Arithmetic on numbers with ``+ - * / // % **`` and parentheses — parsed, never ``eval``-ed.

    Raises:
        ToolError: anything else (names, calls, attributes), a division by zero, a power too large,
            or a result that is not a finite number.
    """
    if len(expression) > MAX_EXPRESSION_CHARS:
        raise ToolError(f"calculator: expression longer than {MAX_EXPRESSION_CHARS} characters")
    try:
        tree = ast.parse(expression.strip(), mode="eval")
    except SyntaxError as e:
        raise ToolError(f"calculator: {expression!r} is not arithmetic ({e.msg})") from None

    def walk(node: ast.AST) -> int | float:
        if isinstance(node, ast.Expression):
            return walk(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, int | float) and not isinstance(node.value, bool):
            return node.value
        if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
            return _UNARY[type(node.op)](walk(node.operand))  # type: ignore[no-any-return]
        if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            left, right = walk(node.left), walk(node.right)
            if isinstance(node.op, ast.Pow) and (abs(right) > 64 or abs(left) > 1e6):
                raise ToolError("calculator: that power is too large")
            return _BINARY[type(node.op)](left, right)  # type: ignore[no-any-return]
        raise ToolError(f"calculator: {type(node).__name__} is not allowed, only numbers and + - * / // % **")

    try:
        value = walk(tree)
    except ZeroDivisionError:
        raise ToolError(f"calculator: division by zero in {expression!r}") from None
    except OverflowError:
        raise ToolError(f"calculator: {expression!r} overflows") from None
    if isinstance(value, float) and not math.isfinite(value):
        raise ToolError(f"calculator: {expression!r} is not a finite number")
    return value


class Calculator(Tool):
    name = "calculator"
    description = "Evaluates arithmetic: numbers, + - * / // % ** and parentheses."
    arguments = {"expression": "the arithmetic expression, e.g. 1911 - 1867"}

    def run(self, session: Session, caller: str, arguments: Mapping[str, Any]) -> Generator[Event, None, ToolResult]:
        value = evaluate(str(self.check(arguments)["expression"]))
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        yield from ()  # a generator like every tool, though it has no events
        return ToolResult(str(round(value, 10) if isinstance(value, float) else value))


MAX_ROWS = 20
"""The most rows a ``cypher-read`` call hands the LLM."""


class CypherRead(Tool):
    name = "cypher-read"
    description = (
        "Runs one of tgneo's named read-only Cypher queries about traces and sources in this collection: "
        + ", ".join(READ_QUERIES)
    )
    arguments = {"query": "the query's name", "params": "an object of the query's other parameters (optional)"}
    optional = ("params",)

    def run(self, session: Session, caller: str, arguments: Mapping[str, Any]) -> Generator[Event, None, ToolResult]:
        args = self.check(arguments)
        name = str(args["query"])
        params = args.get("params") or {}
        if not isinstance(params, Mapping):
            raise ToolError("cypher-read: params must be an object")
        given = {k: v for k, v in params.items() if k not in ("workspace", "collection")}  # never the caller's
        try:
            result = run_named(session.ctx.store, name, session.ctx.workspace, session.ctx.collection, given,
                               max_rows=MAX_ROWS)  # fmt: skip
        except (NotFound, BadRequest) as e:
            raise ToolError(f"cypher-read: {e}") from e
        except TgneoError as e:
            raise ToolError(f"cypher-read: {name} failed: {e}") from e
        yield from ()  # a generator like every tool, though it has no events
        return ToolResult(json.dumps(result.rows, ensure_ascii=False, default=str))


TOOLS: dict[str, Tool] = {tool.name: tool for tool in (KnowledgeQuery(), DocumentQuery(), Calculator(), CypherRead())}
"""Every tool by name, in the order they are offered to the LLM."""
