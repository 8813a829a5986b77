"""Read traces back: a whole trace in one round trip, lists, source chains and the audit question.

Every function filters on workspace and collection first (through the ``:Resource`` uniqueness
index), so reading a trace costs what the trace is, not what the store holds, and one workspace never
sees another's data. Results are plain JSON-ready dicts: Neo4j temporal values become ISO strings in
TrustGraph's ``…Z`` form.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime, time
from typing import Any

from tgneo.errors import BadRequest, TraceNotFound
from tgneo.kinds import SessionKind
from tgneo.mapping import most_specific
from tgneo.nlp.align import support
from tgneo.nlp.segment import units
from tgneo.store.driver import Store
from tgneo.store.queries import Q
from tgneo.store.values import native
from tgneo.timestamps import iso_z, parse_iso
from tgneo.vocab import Label

_INTERNAL = frozenset({"workspace", "collection", "embedding"})
"""Storage and search internals no reader of a trace needs (an embedding is hundreds of numbers)."""


def plain(value: Any) -> Any:
    """A JSON-ready copy: temporal values → ISO strings (``…Z`` for UTC), containers recursively."""
    value = native(value)
    if isinstance(value, datetime):
        return iso_z(value)
    if isinstance(value, date | time):
        return value.isoformat()
    if isinstance(value, Mapping):
        return {k: plain(v) for k, v in value.items() if k not in _INTERNAL}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


def step_type(labels: list[str]) -> str:
    """``"Grounding"``, ``"Focus"``, … from a node's labels: the most specific one (``mapping.most_specific``)."""
    label = most_specific(labels)
    return label.value if label is not None else "Resource"


def trace_type(labels: list[str]) -> str | None:
    """``graphrag`` / ``docrag`` / ``agent`` for a question's labels."""
    kind = SessionKind.of_labels(labels)
    return kind.value if kind is not None else None


def _step(raw: Mapping[str, Any]) -> dict[str, Any]:
    step: dict[str, Any] = {
        "uri": raw["uri"],
        "type": step_type(raw["labels"]),
        "labels": sorted(raw["labels"]),
        "depth": raw["depth"],
        "parents": sorted(raw["parents"]),
        "properties": plain({k: v for k, v in raw["props"].items() if k not in ("uri", "kind", "graph")}),
    }
    if Label.ERROR.value in raw["labels"]:
        step["error"] = raw["props"].get("toolError")
    for key in ("edges", "chunks", "selected_chunks"):
        if raw[key]:
            step[key] = plain(sorted((_served(x) for x in raw[key]), key=_best_first))
    for key in ("entities", "thoughts", "documents"):
        if raw[key]:
            step[key] = plain(sorted(raw[key], key=_sort_key))
    if raw.get("hits"):
        step["hits"] = plain(sorted((_served(h) for h in raw["hits"]), key=lambda h: h["rank"] or 0))
    if raw.get("question_parts"):
        step["parts"] = plain(sorted(raw["question_parts"], key=lambda p: p["index"] or 0))
    if raw.get("sentences"):
        step["sentences"] = [_sentence(s) for s in sorted(raw["sentences"], key=lambda s: s["index"] or 0)]
    if raw.get("ablated"):
        step["ablated"] = sorted(raw["ablated"])
    if raw.get("stands_without"):
        step["stands_without"] = sorted(raw["stands_without"])
    return step


def _served(item: Any) -> Any:
    """A selection or retrieval hit, with the parts of the question it served (``parts``: their 1-based positions)
    only when the question had parts: a question of one part reads as it always did."""
    if not isinstance(item, Mapping) or "parts" not in item:
        return item
    served = sorted(p for p in item["parts"] or () if p is not None)
    return {**{k: v for k, v in item.items() if k != "parts"}, **({"parts": served} if served else {})}


def latest_verification(steps: list[dict[str, Any]]) -> dict[str, Any] | None:
    """What the trace's latest counterfactual check found: its verdict, sufficiency, model, the answer sentences that
    stand without their evidence, and each selection's necessity (from its leave-one-out re-runs); ``None`` when the
    answer was never checked."""
    checks = [s for s in steps if s["type"] == "Verification"]
    if not checks:
        return None
    latest = max(checks, key=lambda s: (str(s["properties"].get("generatedAtTime") or ""), s["uri"]))
    necessity: dict[str, float] = {}
    for step in steps:
        props = step["properties"]
        if step["type"] == "Counterfactual" and latest["uri"] in step["parents"] and "necessity" in props:
            for item in step.get("ablated", []):
                necessity[item] = float(props["necessity"])
    props = latest["properties"]
    return {
        "uri": latest["uri"], "verdict": props.get("verdict"), "sufficiency": props.get("sufficiency"),
        "model": props.get("llmModel"), "checked_at": props.get("generatedAtTime"),
        "stands_without": latest.get("stands_without", []), "necessity": necessity,
    }  # fmt: skip


def _sentence(raw: Mapping[str, Any]) -> dict[str, Any]:
    """An answer sentence with, for each selection it derives from, the sentence of it that supports it best.

    The trace records which selections support a sentence; which of a selection's sentences (an edge's
    evidence sentences, a chunk's sentences) does is found again here the way the engine found it.
    """
    text = str(raw["text"] or "")
    evidence = []
    for link in raw["evidence"]:
        best: tuple[float, dict[str, Any]] | None = None
        for candidate in link["candidates"]:
            for piece in [u.text for u in units(str(candidate["text"] or "")) if u.kind != "heading"]:
                score = support(piece, text)
                if best is None or score > best[0]:
                    best = (score, {**candidate, "text": piece})
        cited = {"selection": link["selection"], **(best[1] if best else {})}
        evidence.append(plain(cited))
    return {
        "uri": raw["uri"], "index": raw["index"], "text": text, "support": plain(raw["support"]),
        "supported": bool(evidence), "evidence": sorted(evidence, key=lambda e: str(e["selection"])),
    }  # fmt: skip


def _sort_key(item: Any) -> str:
    if isinstance(item, Mapping):
        return str(item.get("selection") or item.get("uri") or "")
    return str(item)


def _best_first(item: Any) -> tuple[float, str]:
    """Selections by score, highest first, then by URI (a selection without a score last)."""
    score = item.get("score") if isinstance(item, Mapping) else None
    return (-float(score) if isinstance(score, int | float) else float("inf"), _sort_key(item))


_SESSION = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def _session(uri: str) -> str:
    """The session a step belongs to: the UUID its URI carries (TrustGraph's URIs all do)."""
    found = _SESSION.search(uri)
    return found.group(0) if found else uri


def _natural(uri: str) -> list[Any]:
    """``…/i2`` before ``…/i10``: digits compared as numbers."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", uri)]


def derivation_order(steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``steps`` in the order they were derived: each after every parent it has in the trace, and each
    branch followed to its end before the next one starts — so an agent's sub-trace sits whole right
    after the iteration that called it, and a supervisor's sub-agents one after another. Siblings come
    in their URIs' natural order (iteration 2 before 10), except that an iteration's Thought comes right
    after it and a sub-trace it called (another session) before what its own session did next (the next
    iteration, the conclusion). Steps a cycle would hold back (the shapes forbid cycles) keep their
    place at the end rather than vanish.
    """
    by_uri = {s["uri"]: s for s in steps}
    children: dict[str, list[str]] = defaultdict(list)
    waiting: dict[str, int] = {}
    for step in steps:
        parents = {p for p in step["parents"] if p in by_uri and p != step["uri"]}
        waiting[step["uri"]] = len(parents)
        for parent in parents:
            children[parent].append(step["uri"])

    parent_of = {s["uri"]: next((p for p in s["parents"] if p in by_uri), None) for s in steps}

    def first(uri: str) -> tuple[int, list[Any]]:
        # an iteration's own thought, then the sub-trace it called, then what its own session did next
        parent = parent_of[uri]
        called = parent is not None and _session(parent) != _session(uri)
        rank = 0 if by_uri[uri].get("type") == "Thought" else 1 if called else 2
        return (rank, _natural(uri))

    ready = sorted((u for u, n in waiting.items() if n == 0), key=first, reverse=True)
    ordered: list[dict[str, Any]] = []
    while ready:
        uri = ready.pop()
        ordered.append(by_uri[uri])
        freed = []
        for child in children[uri]:
            waiting[child] -= 1
            if waiting[child] == 0:
                freed.append(child)
        ready.extend(sorted(freed, key=first, reverse=True))  # the last pushed is taken first: depth first
    placed = {s["uri"] for s in ordered}
    return ordered + [s for s in steps if s["uri"] not in placed]


def _totals(steps: list[dict[str, Any]]) -> dict[str, Any]:
    totals: dict[str, Any] = {"inToken": 0, "outToken": 0, "llmDurationMs": 0, "toolDurationMs": 0}
    models: set[str] = set()
    for step in steps:
        props = step["properties"]
        for key in totals:
            value = props.get(key)
            if isinstance(value, int):
                totals[key] += value
        if isinstance(props.get("llmModel"), str):
            models.add(props["llmModel"])
    totals["models"] = sorted(models)
    totals["errors"] = sum(1 for s in steps if "error" in s)
    return totals


MAX_TRACE_STEPS = 10_000
"""The most steps ``get_trace`` details by default. A trace with more (an agent looping for hours)
comes back with its first ``MAX_TRACE_STEPS`` steps, shallowest first, and ``truncated: true`` —
never silently cut. Export (``tgneo export URI``) has no such bound."""


def get_trace(
    store: Store, workspace: str, collection: str, uri: str, max_steps: int = MAX_TRACE_STEPS
) -> dict[str, Any]:
    """A whole trace of any kind, at any depth, in one round trip.

    Returns:
        ``{uri, type, query, startedAtTime, steps: [...], totals: {...}, total_steps, truncated}``;
        each step carries its type, depth, parents, properties (tokens, model, durations,
        reasoning, …), and where relevant its selected edges (with subject/predicate/object labels
        and each edge's source chain subgraph → chunk → page → document), chunks, seed entities,
        thoughts and content texts. ``truncated`` is true when the trace has more than
        ``max_steps`` steps and only the first ``max_steps`` (by depth, then URI) are included.
        ``stale`` lists the document changes that made the answer stale (:func:`staleness`; empty
        when its evidence is as it was), ``held`` says whether a legal hold protects it.

    Raises:
        TraceNotFound: no explainability entity has this URI in this workspace and collection.
        BadRequest: ``max_steps`` is below 1.
    """
    if max_steps < 1:
        raise BadRequest(f"max_steps must be at least 1, not {max_steps}")
    records = store.read(Q.trace, workspace=workspace, collection=collection, uri=uri, max_steps=max_steps)
    if not records:
        raise TraceNotFound(f"no trace {uri!r} in workspace {workspace!r}, collection {collection!r}")
    root, raw_steps = records[0]["root"], records[0]["steps"]
    # a step a concurrent prune has deleted since the query matched it reads back without its URI: it is gone
    steps = derivation_order([_step(s) for s in raw_steps if s["uri"] is not None])
    props = plain(root["props"])
    stale = staleness(store, workspace, collection, root["uri"])
    return {
        "uri": root["uri"],
        "type": trace_type(root["labels"]),
        "workspace": workspace,
        "collection": collection,
        "query": props.get("query"),
        "startedAtTime": props.get("startedAtTime"),
        "steps": steps,
        "totals": _totals(steps),
        "total_steps": records[0]["total_steps"],
        "truncated": records[0]["total_steps"] > len(steps),
        "held": bool(props.get("tg_hold")),
        "stale": stale,
        "verification": latest_verification(steps),
    }


def trace_collections(store: Store, workspace: str, uri: str) -> list[str]:
    """The collections of ``workspace`` holding a trace step called ``uri`` (usually one; none when unknown)."""
    return [r["collection"] for r in store.read(Q.trace_collections, workspace=workspace, uri=uri)]


def staleness(store: Store, workspace: str, collection: str, uri: str) -> list[dict[str, Any]]:
    """Why the trace ``uri`` is stale: one entry per document change recorded against it, oldest first.

    Each is ``{uri, change: replaced|removed, at, label, document, edges, chunks}``; ``edges`` are the
    trace's edge selections from that document, each with ``asserted`` (whether its statement is still
    in the knowledge graph, e.g. extracted again from the new version), ``chunks`` its chunk selections,
    each with ``present`` (whether the chunk still exists). Evidence changed after the answer was given:
    the answer may no longer hold, and the trace still shows what it was given from.
    """
    records = store.read(Q.trace_staleness, workspace=workspace, collection=collection, uri=uri)
    return [
        {
            "uri": r["uri"], "change": r["change"], "at": plain(r["at"]), "label": r["label"],
            "document": r["document"], "edges": sorted(r["edges"], key=_sort_key),
            "chunks": sorted(r["chunks"], key=_sort_key),
        }
        for r in records
    ]  # fmt: skip


@dataclass(frozen=True)
class TracePage:
    """One page of ``list_traces``; pass ``next_cursor`` back to get the next page."""

    traces: list[dict[str, Any]]
    next_cursor: str | None


def _encode_cursor(started: Any, uri: str) -> str:
    raw = json.dumps([plain(started), uri]).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _decode_cursor(cursor: str) -> tuple[datetime, str]:
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        started, uri = json.loads(base64.urlsafe_b64decode(padded.encode()))
        return parse_iso(str(started)), str(uri)
    except (ValueError, TypeError, binascii.Error, json.JSONDecodeError) as e:
        raise BadRequest(f"cursor {cursor!r} is not one this server issued") from e


def list_traces(
    store: Store,
    workspace: str,
    collection: str,
    type: str | None = None,  # noqa: A002 - the public filter is called "type"
    since: datetime | None = None,
    limit: int = 50,
    cursor: str | None = None,
    stale: bool = False,
) -> TracePage:
    """Trace roots newest first (``type``: a session kind, e.g. ``graphrag``; ``since``: tz-aware datetime;
    ``stale``: only those whose evidence changed since, each with ``stale_at``, its latest change)."""
    kind = SessionKind.parse(type) if type is not None else None
    if not 1 <= limit <= 1000:
        raise BadRequest(f"limit must be between 1 and 1000, not {limit}")
    if since is not None and since.tzinfo is None:
        raise BadRequest("since needs a time zone (e.g. 2025-06-01T00:00:00Z)")
    after_time, after_uri = _decode_cursor(cursor) if cursor else (None, None)
    records = store.read(
        Q.list_traces,
        workspace=workspace,
        collection=collection,
        type=kind.question_label.value if kind is not None else None,
        since=since,
        after_time=after_time,
        after_uri=after_uri,
        limit=limit,
        stale=stale,
    )
    traces = [
        {
            "uri": r["uri"],
            "type": trace_type(r["labels"]),
            "query": r["query"],
            "startedAtTime": plain(r["startedAtTime"]),
            "steps": r["steps"],
            "stale_at": plain(r["stale_at"]),
            "held": bool(r["held"]),
        }
        for r in records
    ]
    last = records[-1] if len(records) == limit else None
    return TracePage(traces, _encode_cursor(last["startedAtTime"], last["uri"]) if last else None)


def source_chain(store: Store, workspace: str, collection: str, statement_id: str) -> dict[str, Any]:
    """Where a statement came from: each subgraph containing it, with chunk → page → document above."""
    records = store.read(Q.source_chain, workspace=workspace, collection=collection, id=statement_id)
    if not records:
        raise TraceNotFound(f"no statement {statement_id!r} in workspace {workspace!r}, collection {collection!r}")
    return {"statement": plain(records[0]["statement"]), "sources": plain(records[0]["sources"])}


def dependents(store: Store, workspace: str, collection: str, document_uri: str) -> list[dict[str, Any]]:
    """The audit question: which questions were answered using this document, and through what."""
    records = store.read(Q.dependents, workspace=workspace, collection=collection, uri=document_uri)
    return [
        {"question": r["question"], "query": r["query"], "startedAtTime": plain(r["startedAtTime"]), "via": r["via"]}
        for r in records
    ]
