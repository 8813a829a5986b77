"""One plausible task per LLM stage: the inputs an engine or the ingest pipeline gives it (``STAGES``).

Shared by the prompt tests (every prompt renders from these) and the provider tests (every stage's
prompt goes over the wire), so a new stage needs one entry here to be covered by both.
"""

from __future__ import annotations

from typing import Any

from tgneo.llm.base import Task

QUESTION = "What did Marie Curie discover?"
EDGES = [
    {"id": "e1", "text": "Marie Curie, discovered, polonium"},
    {"id": "e2", "text": "Marie Curie, born in, Warsaw"},
]
TOOLS = [
    {"name": "knowledge-query", "description": "Ask the knowledge graph a question"},
    {"name": "calculator", "description": "Evaluate an arithmetic expression"},
]

INPUTS: dict[str, dict[str, Any]] = {
    "grounding": {"question": QUESTION},
    "edge-scoring": {"question": QUESTION, "concepts": ["marie curie", "discover"], "edges": EDGES},
    "edge-reasoning": {"question": QUESTION, "concepts": ["marie curie"], "edges": [{**EDGES[0], "score": 0.9}]},
    "synthesis": {
        "question": QUESTION,
        "facts": ["Marie Curie discovered polonium", "Marie Curie discovered radium"],
        "evidence": ["Marie Curie and Pierre Curie discovered polonium and radium in 1898."],
    },
    "docrag-synthesis": {
        "question": QUESTION,
        "passages": [{"id": "c1", "text": "In 1898 the Curies found polonium."}],
    },
    "extraction": {"text": "Marie Curie, born in Warsaw, discovered polonium in 1898."},
    "router": {"question": QUESTION, "patterns": ["react", "plan-then-execute", "supervisor"]},
    "react": {
        "question": QUESTION,
        "tools": TOOLS,
        "history": [
            {
                "thought": "Look it up",
                "action": "knowledge-query",
                "arguments": {"question": QUESTION},
                "observation": "Marie Curie discovered polonium and radium.",
            }
        ],
    },
    "plan": {"question": QUESTION, "tools": TOOLS},
    "decompose": {"question": "Compare what Marie Curie and Pierre Curie discovered."},
    "agent-synthesis": {"question": QUESTION, "results": [{"goal": "find discoveries", "text": "polonium, radium"}]},
}


def task(stage: str) -> Task:
    """The example task of ``stage``."""
    return Task(stage, INPUTS[stage])
