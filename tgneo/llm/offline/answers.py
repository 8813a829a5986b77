"""The offline provider's answers to the engines' stages (grounding, scoring, reasoning, synthesis, agents).

Each handler is registered with :func:`tgneo.llm.offline.handles` and returns text in the format its
stage's prompt asks of a real model.
"""

from __future__ import annotations
