"""Span trees received over OTLP, kept in Neo4j until each is whole and recorded (``tgneo.service.otlp_receive``).

One ``:TgSpanTree`` per workspace, collection and trace id holds the spans of that tree as they arrive, in any
order and in any number of batches, from any number of exporters and server processes: the Cypher takes the
tree's write lock before it reads, so concurrent batches add up, and one caller alone claims a whole tree to
record it (:func:`keep`), then releases it (:func:`release`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from tgneo.otlp.receive import Span
from tgneo.store.driver import Store
from tgneo.store.queries import Q

CLAIM_SECONDS = 300
"""How long a claim holds before another caller may take it over (its caller died while recording)."""


@dataclass(frozen=True)
class Counts:
    """What is kept in one workspace and collection."""

    trees: int
    spans: int
    recorded: int


def keep(store: Store, workspace: str, collection: str, spans: Iterable[Span], claim: str) -> list[str]:
    """Keep ``spans`` (one transaction for the batch); returns the trace ids of the whole trees this call claimed."""
    trees: dict[str, dict[str, Span]] = defaultdict(dict)
    for span in spans:
        trees[span.trace_id].setdefault(span.span_id, span)
    rows = [
        {"trace_id": trace_id, "span_ids": list(tree), "parents": [s.parent_id for s in tree.values()],
         "spans": [s.to_json() for s in tree.values()]}
        for trace_id, tree in sorted(trees.items())
    ]  # fmt: skip
    return claim_whole(store, workspace, collection, rows, claim)


def claim_whole(store: Store, workspace: str, collection: str, rows: list[dict[str, Any]], claim: str) -> list[str]:
    records = store.write(Q.otlp_keep, workspace=workspace, collection=collection, trees=rows, claim=claim,
                          claim_seconds=CLAIM_SECONDS)  # fmt: skip
    return [r["trace_id"] for r in records if r["claimed"]]


def reclaim(store: Store, workspace: str, collection: str, trace_id: str, claim: str) -> bool:
    """Claim the tree again if spans arrived while it was being recorded."""
    rows = [{"trace_id": trace_id, "span_ids": [], "parents": [], "spans": []}]
    return bool(claim_whole(store, workspace, collection, rows, claim))


def tree(store: Store, workspace: str, collection: str, trace_id: str) -> tuple[list[Span], str | None]:
    """The spans kept of a tree, and the URI of the trace it was recorded as before (if it was)."""
    records = store.read(Q.otlp_tree, workspace=workspace, collection=collection, trace_id=trace_id)
    if not records:
        return [], None
    return [Span.from_json(s) for s in records[0]["spans"]], records[0]["recorded"]


def release(store: Store, workspace: str, collection: str, trace_id: str, claim: str, recorded: str | None) -> None:
    """End a claim: the tree recorded as ``recorded``, or (``None``) left for the next claim."""
    store.write(Q.otlp_release, workspace=workspace, collection=collection, trace_id=trace_id, claim=claim,
                recorded=recorded)  # fmt: skip


def counts(store: Store, workspace: str, collection: str) -> Counts:
    """How many trees and spans are kept, and how many trees are recorded."""
    r = store.read(Q.otlp_counts, workspace=workspace, collection=collection)[0]
    return Counts(r["trees"], r["spans"], r["recorded"])
