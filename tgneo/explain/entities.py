"""The entity registry: every step and source entity type by its ``kind``, and one way to build them.

An entity is one node of a trace (or of a document's provenance) that renders exactly the triples
TrustGraph 2.11.1's builder of the same step emits. :data:`ENTITY_TYPES` is the one table the
recorder and the API consult, and :func:`entity_from_dict` builds any entity from its fields. The
classes live by what they describe, and are re-exported here:

- :mod:`tgneo.explain.entity`: the shared base (``Entity``, ``LlmStep``, ``Question``), the value
  checks and the quad builder;
- :mod:`tgneo.explain.graphrag`: GraphRAG's steps (its ``Grounding`` serves Document RAG too);
- :mod:`tgneo.explain.docrag`: Document RAG's steps;
- :mod:`tgneo.explain.agent`: the agents' steps (ReAct, plan-then-execute, supervisor);
- :mod:`tgneo.explain.citations`: tgneo's answer sentences, attached to an answer step;
- :mod:`tgneo.explain.question_parts`: tgneo's parts of a two-part question, and what each was answered from;
- :mod:`tgneo.explain.verification`: tgneo's counterfactual check of an answer;
- :mod:`tgneo.explain.extraction_time`: the extraction-time entities in ``urn:graph:source``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from tgneo.errors import InvalidEntity
from tgneo.explain.agent import (
    AgentQuestion,
    AgentSynthesis,
    Analysis,
    Conclusion,
    Decomposition,
    Finding,
    Observation,
    PatternDecision,
    Plan,
    StepResult,
    Thought,
)
from tgneo.explain.citations import AnswerSentence
from tgneo.explain.docrag import ChunkSelection, DocRagExploration, DocRagFocus, DocRagQuestion, DocRagSynthesis
from tgneo.explain.entity import Entity, LlmStep, Question, now_timestamp
from tgneo.explain.extraction_time import Activity, DerivedEntity, Document, SoftwareAgent, Subgraph
from tgneo.explain.graphrag import EdgeSelection, Exploration, Focus, GraphRagQuestion, Grounding, Synthesis
from tgneo.explain.question_parts import PartItems, QuestionPart
from tgneo.explain.retrieval import RetrievalHit
from tgneo.explain.verification import Counterfactual, Verification

__all__ = [
    "ENTITY_TYPES",
    "TGNEO_ONLY",
    "Activity",
    "AgentQuestion",
    "AgentSynthesis",
    "Analysis",
    "AnswerSentence",
    "RetrievalHit",
    "ChunkSelection",
    "Conclusion",
    "Counterfactual",
    "Decomposition",
    "DerivedEntity",
    "DocRagExploration",
    "DocRagFocus",
    "DocRagQuestion",
    "DocRagSynthesis",
    "Document",
    "EdgeSelection",
    "Entity",
    "Exploration",
    "Finding",
    "Focus",
    "GraphRagQuestion",
    "Grounding",
    "LlmStep",
    "Observation",
    "PartItems",
    "PatternDecision",
    "Plan",
    "Question",
    "QuestionPart",
    "SoftwareAgent",
    "StepResult",
    "Subgraph",
    "Synthesis",
    "Thought",
    "Verification",
    "entity_from_dict",
    "now_timestamp",
]


ENTITY_TYPES: dict[str, type[Entity]] = {
    cls.kind: cls
    for cls in (
        GraphRagQuestion,
        Grounding,
        Exploration,
        Focus,
        Synthesis,
        DocRagQuestion,
        DocRagExploration,
        DocRagFocus,
        DocRagSynthesis,
        AgentQuestion,
        PatternDecision,
        Analysis,
        Observation,
        Conclusion,
        Plan,
        StepResult,
        AgentSynthesis,
        Decomposition,
        Finding,
        AnswerSentence,
        RetrievalHit,
        QuestionPart,
        PartItems,
        Verification,
        Counterfactual,
        Document,
        DerivedEntity,
        Subgraph,
    )
}
"""Every concrete entity class by its ``kind``: the one table the recorder and the API consult."""

TGNEO_ONLY = frozenset(
    {AnswerSentence.kind, RetrievalHit.kind, QuestionPart.kind, PartItems.kind, Verification.kind, Counterfactual.kind}
)
"""The kinds TrustGraph has no builder for: tgneo's own, exported in the ``prov`` profile only."""


def entity_from_dict(kind: str, **fields: Any) -> Entity:
    """Build the entity of type ``kind`` from its fields (as an API payload or a stored row gives them).

    Args:
        kind: A key of :data:`ENTITY_TYPES`, e.g. ``"grounding"``.
        **fields: The dataclass's fields by name.

    Returns:
        The validated entity.

    Raises:
        InvalidEntity: ``kind`` is unknown, a field is unknown or missing, or a value is invalid.
    """
    cls = ENTITY_TYPES.get(kind)
    if cls is None:
        raise InvalidEntity(f"unknown entity type {kind!r}")
    declared = [f for f in dataclasses.fields(cls) if f.init]
    names = {f.name for f in declared}
    unknown = sorted(set(fields) - names)
    if unknown:
        raise InvalidEntity(f"{kind}: unknown field {unknown[0]!r} (fields: {', '.join(sorted(names))})")
    missing = [
        f.name
        for f in declared
        if f.name not in fields and f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    ]
    if missing:
        raise InvalidEntity(f"{kind}: missing field {missing[0]!r}")
    return cls(**fields)
