"""The agents' steps: a session, the router's pattern decision, then the pattern's own steps.

- ReAct: Analysis (with its Thought) ← Observation ← the next Analysis … ← Conclusion.
- Plan-then-execute: Plan ← StepResult … ← AgentSynthesis.
- Supervisor: Decomposition ← Finding … ← AgentSynthesis.

Each renders exactly the quads of TrustGraph 2.11.1's ``agent_*_triples`` builder of the same step.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tgneo import uris
from tgneo.errors import InvalidEntity
from tgneo.explain.entity import About, Entity, LlmStep, Quads, Question, Step, valid_optional_iri, valid_text
from tgneo.vocab import PROV, TG

__all__ = [
    "AgentQuestion",
    "AgentSynthesis",
    "Analysis",
    "Conclusion",
    "Decomposition",
    "Finding",
    "Observation",
    "PatternDecision",
    "Plan",
    "StepResult",
    "Thought",
]


@dataclass(frozen=True, kw_only=True)
class AgentQuestion(Question):
    """An agent session (``agent_session_triples``): ``urn:trustgraph:agent:{sid}``."""

    kind = "agent_question"
    rdf_types = (PROV.Entity, TG.Question, TG.AgentQuestion)
    rdfs_label = "Agent Question"


@dataclass(frozen=True, kw_only=True)
class PatternDecision(LlmStep):
    """The router's choice of pattern (``agent_pattern_decision_triples``).

    TrustGraph's builder takes no token usage for it, yet the router is an LLM call whose tokens every
    answer counts: tgneo records them here as on every other LLM step (``tg:inToken``, ``tg:outToken``,
    ``tg:llmModel``, last), so that a trace's stored steps add up to the answer's totals. Without
    usage (a pattern named by the caller: no router call) the triples are exactly TrustGraph's.

    Attributes:
        session: The agent session it derives from.
        pattern: ``"react"``, ``"plan-then-execute"`` or ``"supervisor"``.
        task_type: The task type the router recognised (``tg:taskType``), if any.
    """

    kind = "pattern_decision"
    rdf_types = (PROV.Entity, TG.PatternDecision)
    derives_from = ("session",)

    session: str
    pattern: str
    task_type: str | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        self._iri("session")
        valid_text(self.pattern, self._what("pattern"))
        self._optional_text("task_type")

    def _label(self) -> str:
        return f"Pattern: {self.pattern}"

    def _body(self, out: Quads, about: About) -> None:
        about.text(TG.pattern, self.pattern)
        self._derived_from(about)
        if self.task_type is not None:
            about.text(TG.taskType, self.task_type)


@dataclass(frozen=True)
class Thought:
    """The reasoning behind an agent iteration (a ``tg:Thought`` inside its :class:`Analysis`).

    Attributes:
        uri: ``urn:trustgraph:agent:{sid}/i{n}/thought``.
        document: The librarian id of the thought's text.
    """

    uri: str
    document: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "uri", uris.validate_iri(self.uri, "Thought.uri"))
        object.__setattr__(self, "document", valid_optional_iri(self.document, "Thought.document"))


def _one_parent(entity: Entity, question: str | None, previous: str | None) -> None:
    """Check that exactly one of ``question`` / ``previous`` is given.

    TrustGraph links to the question if given, else to the previous step, else to nothing; a step
    with no parent would be an orphan no trace walk reaches, and one with both would silently drop
    a link, so both cases are refused.
    """
    if (question is None) == (previous is None):
        raise InvalidEntity(
            f"{type(entity).__name__}: give exactly one of 'question' (first step) or 'previous' (later steps)"
        )


@dataclass(frozen=True, kw_only=True)
class Analysis(LlmStep):
    """One think/act cycle of an agent: the tool it chose and why (``agent_iteration_triples``).

    Attributes:
        question: The session, for the first iteration (give this *or* ``previous``).
        previous: The previous iteration (or step) for later ones.
        action: The tool's name (``tg:action``; label ``"Analysis: {action}"``).
        arguments: The tool's arguments, JSON-encoded in ``tg:arguments`` in the given key order.
        thought: The reasoning sub-entity, if recorded.
        tool_candidates: The tools the LLM could choose from (``tg:toolCandidate``).
        step_number: ``tg:stepNumber``.
        llm_duration_ms: ``tg:llmDurationMs``.
    """

    kind = "analysis"
    rdf_types = (PROV.Entity, TG.Analysis, TG.ToolUse)
    derives_from = ("question", "previous")

    question: str | None = None
    previous: str | None = None
    action: str
    arguments: dict[str, Any] = field(default_factory=dict, hash=False)
    thought: Thought | None = None
    tool_candidates: tuple[str, ...] = ()
    step_number: int | None = None
    llm_duration_ms: int | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        self._optional_iri("question")
        self._optional_iri("previous")
        _one_parent(self, self.question, self.previous)
        if not isinstance(self.action, str):
            raise InvalidEntity(f"{self._what('action')}: expected a string, got {self.action!r}")
        if not isinstance(self.arguments, Mapping):
            raise InvalidEntity(f"{self._what('arguments')}: expected a mapping, got {self.arguments!r}")
        arguments = dict(self.arguments)
        try:
            json.dumps(arguments)
        except (TypeError, ValueError) as e:
            raise InvalidEntity(f"{self._what('arguments')}: not JSON-serialisable ({e})") from None
        self._set("arguments", arguments)
        if self.thought is not None and not isinstance(self.thought, Thought):
            raise InvalidEntity(f"{self._what('thought')}: expected a Thought, got {self.thought!r}")
        self._texts("tool_candidates")
        self._optional_count("step_number")
        self._optional_count("llm_duration_ms")

    def _label(self) -> str:
        return f"Analysis: {self.action}"

    def _body(self, out: Quads, about: About) -> None:
        about.text(TG.action, self.action)
        about.text(TG.arguments, json.dumps(self.arguments))
        for name in self.tool_candidates:
            about.text(TG.toolCandidate, name)
        if self.step_number is not None:
            about.text(TG.stepNumber, self.step_number)
        if self.llm_duration_ms is not None:
            about.text(TG.llmDurationMs, self.llm_duration_ms)
        self._derived_from(about)
        if self.thought is not None:
            about.link(TG.thought, self.thought.uri)
            th = out.about(self.thought.uri)
            th.a(TG.Reflection, TG.Thought)
            th.label("Thought")
            th.link(PROV.wasDerivedFrom, self.uri)
            if self.thought.document is not None:
                th.link(TG.document, self.thought.document)


@dataclass(frozen=True, kw_only=True)
class Observation(Step):
    """What a tool returned (``agent_observation_triples``); a failed call is also a ``tg:Error``.

    Attributes:
        parent: The iteration that called the tool (or the sub-trace Synthesis of a RAG tool).
        document: The librarian id of the result text.
        tool_duration_ms: ``tg:toolDurationMs``.
        tool_error: The error message if the tool failed (adds ``a tg:Error``).
    """

    kind = "observation"
    rdf_types = (PROV.Entity, TG.Observation)
    rdfs_label = "Observation"
    derives_from = ("parent",)

    parent: str
    document: str | None = None
    tool_duration_ms: int | None = None
    tool_error: str | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        self._iri("parent")
        self._optional_iri("document")
        self._optional_count("tool_duration_ms")
        self._optional_text("tool_error")

    def _body(self, out: Quads, about: About) -> None:
        self._derived_from(about)
        if self.document is not None:
            about.link(TG.document, self.document)
        if self.tool_duration_ms is not None:
            about.text(TG.toolDurationMs, self.tool_duration_ms)
        if self.tool_error is not None:
            about.text(TG.toolError, self.tool_error)
            about.a(TG.Error)


@dataclass(frozen=True, kw_only=True)
class Conclusion(LlmStep):
    """A ReAct agent's final answer (``agent_final_triples``).

    Attributes:
        question: The session, when the agent answered without iterating (give this *or* ``previous``).
        previous: The last iteration otherwise.
        document: The librarian id of the answer (``urn:trustgraph:agent:{sid}/answer``).
        termination_reason: Why the loop stopped: ``"final-answer"``, ``"max-iterations"``, ``"error"``.
    """

    kind = "conclusion"
    rdf_types = (PROV.Entity, TG.Conclusion, TG.Answer)
    rdfs_label = "Conclusion"
    derives_from = ("question", "previous")

    question: str | None = None
    previous: str | None = None
    document: str | None = None
    termination_reason: str | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        self._optional_iri("question")
        self._optional_iri("previous")
        _one_parent(self, self.question, self.previous)
        self._optional_iri("document")
        self._optional_text("termination_reason")

    def _body(self, out: Quads, about: About) -> None:
        self._derived_from(about)
        if self.document is not None:
            about.link(TG.document, self.document)
        if self.termination_reason is not None:
            about.text(TG.terminationReason, self.termination_reason)


@dataclass(frozen=True, kw_only=True)
class Plan(LlmStep):
    """A plan-then-execute plan (``agent_plan_triples``).

    Attributes:
        session: The agent session it derives from.
        steps: The planned steps, one ``tg:planStep`` each.
    """

    kind = "plan"
    rdf_types = (PROV.Entity, TG.Plan)
    derives_from = ("session",)

    session: str
    steps: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        super().__post_init__()
        self._iri("session")
        self._texts("steps")

    def _label(self) -> str:
        return f"Plan with {len(self.steps)} steps"

    def _body(self, out: Quads, about: About) -> None:
        self._derived_from(about)
        for step in self.steps:
            about.text(TG.planStep, step)


@dataclass(frozen=True, kw_only=True)
class StepResult(LlmStep):
    """The result of one plan step (``agent_step_result_triples``).

    Attributes:
        plan: The plan it derives from.
        goal: The step's goal (``tg:planStep``; label ``"Step result: {goal[:60]}"``).
        document: The librarian id of the result text.
    """

    kind = "step_result"
    rdf_types = (PROV.Entity, TG.StepResult, TG.Answer)
    derives_from = ("plan",)

    plan: str
    goal: str
    document: str | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        self._iri("plan")
        valid_text(self.goal, self._what("goal"))
        self._optional_iri("document")

    def _label(self) -> str:
        return f"Step result: {self.goal[:60]}"

    def _body(self, out: Quads, about: About) -> None:
        self._derived_from(about)
        about.text(TG.planStep, self.goal)
        if self.document is not None:
            about.link(TG.document, self.document)


@dataclass(frozen=True, kw_only=True)
class AgentSynthesis(LlmStep):
    """The answer of a supervisor or a plan, woven from several results (``agent_synthesis_triples``).

    Attributes:
        previous: The findings or step results it derives from (one ``prov:wasDerivedFrom`` each);
            a single URI string is accepted, as TrustGraph accepts it.
        document: The librarian id of the answer (``urn:trustgraph:agent:{sid}/answer``).
        termination_reason: Why the run stopped.
    """

    kind = "agent_synthesis"
    rdf_types = (PROV.Entity, TG.Synthesis, TG.Answer)
    rdfs_label = "Synthesis"
    derives_from = ("previous",)

    previous: tuple[str, ...]
    document: str | None = None
    termination_reason: str | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        if isinstance(self.previous, str):
            self._set("previous", (self.previous,))
        self._iris("previous")
        if not self.previous:
            raise InvalidEntity(f"{self._what('previous')}: needs at least one step to derive from")
        self._optional_iri("document")
        self._optional_text("termination_reason")

    def _body(self, out: Quads, about: About) -> None:
        self._derived_from(about)
        if self.document is not None:
            about.link(TG.document, self.document)
        if self.termination_reason is not None:
            about.text(TG.terminationReason, self.termination_reason)


@dataclass(frozen=True, kw_only=True)
class Decomposition(LlmStep):
    """A supervisor's split of the question into sub-goals (``agent_decomposition_triples``).

    Attributes:
        session: The agent session it derives from.
        goals: One ``tg:subagentGoal`` each; label ``"Decomposed into {n} research threads"``.
    """

    kind = "decomposition"
    rdf_types = (PROV.Entity, TG.Decomposition)
    derives_from = ("session",)

    session: str
    goals: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        super().__post_init__()
        self._iri("session")
        self._texts("goals")

    def _label(self) -> str:
        return f"Decomposed into {len(self.goals)} research threads"

    def _body(self, out: Quads, about: About) -> None:
        self._derived_from(about)
        for goal in self.goals:
            about.text(TG.subagentGoal, goal)


@dataclass(frozen=True, kw_only=True)
class Finding(Step):
    """One sub-agent's result under a decomposition (``agent_finding_triples``); no token usage.

    Attributes:
        decomposition: The decomposition it derives from.
        goal: The sub-goal (``tg:subagentGoal``; label ``"Finding: {goal[:60]}"``).
        document: The librarian id of the finding's text.
    """

    kind = "finding"
    rdf_types = (PROV.Entity, TG.Finding, TG.Answer)
    derives_from = ("decomposition",)

    decomposition: str
    goal: str
    document: str | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        self._iri("decomposition")
        valid_text(self.goal, self._what("goal"))
        self._optional_iri("document")

    def _label(self) -> str:
        return f"Finding: {self.goal[:60]}"

    def _body(self, out: Quads, about: About) -> None:
        self._derived_from(about)
        about.text(TG.subagentGoal, self.goal)
        if self.document is not None:
            about.link(TG.document, self.document)
