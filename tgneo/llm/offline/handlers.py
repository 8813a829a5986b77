"""The offline provider's answers by stage: a table the answering modules register into.

``answers`` (grounding, scoring, reasoning, synthesis, the agents' policies) and ``extraction`` (the
rule-based extractor) each decorate their functions with :func:`handles`; the provider looks a task's
stage up in :data:`HANDLERS`. The table lives apart from the provider so that registering never
imports the provider back.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

Handler = Callable[[Mapping[str, Any]], str]
HANDLERS: dict[str, Handler] = {}
"""How the offline provider answers each stage."""


def handles(stage: str) -> Callable[[Handler], Handler]:
    """Register the decorated function as the offline answer to ``stage``."""

    def register(fn: Handler) -> Handler:
        HANDLERS[stage] = fn
        return fn

    return register
