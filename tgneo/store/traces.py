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
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from neo4j.time import DateTime

from tgneo.errors import BadRequest, TraceNotFound
from tgneo.store.driver import Store
from tgneo.store.queries import Q
from tgneo.vocab import RDFS, Label

_INTERNAL = frozenset({"workspace", "collection"})
TRACE_TYPES: dict[str, Label] = {
    "graphrag": Label.GRAPH_RAG_QUESTION,
    "docrag": Label.DOC_RAG_QUESTION,
    "agent": Label.AGENT_QUESTION,
}
# The most specific label names a step's type; order matters (Synthesis before Answer, …).
_STEP_TYPES: tuple[Label, ...] = (
    Label.GRAPH_RAG_QUESTION, Label.DOC_RAG_QUESTION, Label.AGENT_QUESTION, Label.GROUNDING,
    Label.EXPLORATION, Label.FOCUS, Label.SYNTHESIS, Label.PATTERN_DECISION, Label.ANALYSIS,
    Label.THOUGHT, Label.OBSERVATION, Label.CONCLUSION, Label.PLAN, Label.STEP_RESULT,
    Label.DECOMPOSITION, Label.FINDING, Label.EDGE_SELECTION, Label.CHUNK_SELECTION, Label.QUESTION,
    Label.DOCUMENT, Label.PAGE, Label.SECTION, Label.IMAGE, Label.CHUNK, Label.SUBGRAPH,
    Label.PROV_ACTIVITY, Label.PROV_AGENT,
)  # fmt: skip


def plain(value: Any) -> Any:
    """A JSON-ready copy: temporal values → ISO strings (``…Z`` for UTC), containers recursively."""
    if isinstance(value, DateTime):
        value = value.to_native()
    if isinstance(value, datetime):
        return value.isoformat().replace("+00:00", "Z")
    if isinstance(value, Mapping):
        return {k: plain(v) for k, v in value.items() if k not in _INTERNAL}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


def step_type(labels: list[str]) -> str:
    """``"grounding"``, ``"focus"``, … from a node's labels (the most specific mapped one)."""
    present = set(labels)
    for label in _STEP_TYPES:
        if label.value in present:
            return label.value
    return "Resource"


def trace_type(labels: list[str]) -> str | None:
    """``graphrag`` / ``docrag`` / ``agent`` for a question's labels."""
    for name, label in TRACE_TYPES.items():
        if label.value in labels:
            return name
    return None


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
    for key in ("edges", "chunks", "selected_chunks", "entities", "thoughts", "documents"):
        if raw[key]:
            step[key] = plain(sorted(raw[key], key=_sort_key))
    return step


def _sort_key(item: Any) -> str:
    if isinstance(item, Mapping):
        return str(item.get("selection") or item.get("uri") or "")
    return str(item)


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


def get_trace(store: Store, workspace: str, collection: str, uri: str) -> dict[str, Any]:
    """A whole trace of any kind in one round trip.

    Returns:
        ``{uri, type, query, startedAtTime, steps: [...], totals: {...}}``; each step carries its
        type, parents, properties (tokens, model, durations, reasoning, …), and where relevant its
        selected edges (with subject/predicate/object labels and each edge's source chain
        subgraph → chunk → page → document), chunks, seed entities, thoughts and content texts.

    Raises:
        TraceNotFound: no explainability entity has this URI in this workspace and collection.
    """
    records = store.read(Q.trace, workspace=workspace, collection=collection, uri=uri, label_predicate=str(RDFS.label))
    if not records:
        raise TraceNotFound(f"no trace {uri!r} in workspace {workspace!r}, collection {collection!r}")
    root, raw_steps = records[0]["root"], records[0]["steps"]
    steps = [_step(s) for s in raw_steps]
    props = plain(root["props"])
    return {
        "uri": root["uri"],
        "type": trace_type(root["labels"]),
        "workspace": workspace,
        "collection": collection,
        "query": props.get("query"),
        "startedAtTime": props.get("startedAtTime"),
        "steps": steps,
        "totals": _totals(steps),
    }


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
        return datetime.fromisoformat(str(started).replace("Z", "+00:00")), str(uri)
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
) -> TracePage:
    """Trace roots newest first (``type``: graphrag, docrag or agent; ``since``: tz-aware datetime)."""
    if type is not None and type not in TRACE_TYPES:
        raise BadRequest(f"unknown trace type {type!r}; use one of {', '.join(TRACE_TYPES)}")
    if not 1 <= limit <= 1000:
        raise BadRequest(f"limit must be between 1 and 1000, not {limit}")
    if since is not None and since.tzinfo is None:
        raise BadRequest("since needs a time zone (e.g. 2025-06-01T00:00:00Z)")
    after_time, after_uri = _decode_cursor(cursor) if cursor else (None, None)
    records = store.read(
        Q.list_traces,
        workspace=workspace,
        collection=collection,
        type=TRACE_TYPES[type].value if type else None,
        since=since,
        after_time=after_time,
        after_uri=after_uri,
        limit=limit,
    )
    traces = [
        {
            "uri": r["uri"],
            "type": trace_type(r["labels"]),
            "query": r["query"],
            "startedAtTime": plain(r["startedAtTime"]),
            "steps": r["steps"],
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
