"""What changed between two answers: two traces (``store.traces.get_trace``) compared in terms of provenance.

Pure: no driver, no Flask. Both forms of ``tgneo trace diff`` and ``GET /api/v1/traces/diff`` come from
:func:`diff`, so the text, the JSON and the API say the same thing.

Everything is compared by what it *is*, never by its URI (every run mints new URIs):

* concepts by their text, explored entities by their IRI;
* selected edges by their triple ``(s, p, o)``, with score and reasoning on each side;
* selected chunks by the chunk's IRI;
* tool calls by tool and arguments, with the observation each returned;
* answer sentences by their text, with the evidence each cites (document, section, sentence);
* usage by the totals of the trace: tokens, LLM and tool milliseconds, models, errors.

An item on both sides whose score, reasoning, result or citations differ is *changed*.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_USAGE = ("inToken", "outToken", "llmDurationMs", "toolDurationMs", "errors")

Item = dict[str, Any]


def diff(a: Mapping[str, Any], b: Mapping[str, Any]) -> dict[str, Any]:
    """Compare trace ``a`` (the earlier answer, usually) with trace ``b``; JSON-ready."""
    return {
        "a": _summary(a),
        "b": _summary(b),
        "same_question": _text(a.get("query")) == _text(b.get("query")),
        "concepts": _sets(_concepts(a), _concepts(b)),
        "entities": _compare(_entities(a), _entities(b)),
        "explored": {"a": _explored(a), "b": _explored(b)},
        "edges": _compare(_edges(a), _edges(b), ("score", "reasoning")),
        "chunks": _compare(_chunks(a), _chunks(b), ("score",)),
        "tool_calls": _compare(_tool_calls(a), _tool_calls(b), ("result",)),
        "sentences": _compare(_sentences(a), _sentences(b), ("citations",)),
        "usage": _usage(a.get("totals") or {}, b.get("totals") or {}),
    }


def changed(result: Mapping[str, Any]) -> bool:
    """Whether the two traces differ in anything :func:`diff` compares (the question aside)."""
    parts = ("concepts", "entities", "edges", "chunks", "tool_calls", "sentences")
    if any(result[p]["added"] or result[p]["removed"] or result[p].get("changed") for p in parts):
        return True
    return any(result["usage"]["delta"].values()) or result["usage"]["a"]["models"] != result["usage"]["b"]["models"]


# ------------------------------------------------------------------------------------------ what is compared
def _summary(trace: Mapping[str, Any]) -> Item:
    keys = ("uri", "type", "workspace", "collection", "query", "startedAtTime")
    return {k: trace.get(k) for k in keys}


def _text(value: Any) -> str:
    return " ".join(str(value or "").split())


def _steps(trace: Mapping[str, Any], *types: str) -> list[Item]:
    return [s for s in trace.get("steps", []) if s.get("type") in types]


def _concepts(trace: Mapping[str, Any]) -> list[str]:
    found: dict[str, None] = {}
    for step in _steps(trace, "Grounding"):
        value = step["properties"].get("concept") or []
        for concept in [value] if isinstance(value, str) else value:
            found.setdefault(str(concept))
    return list(found)


def _entities(trace: Mapping[str, Any]) -> dict[str, Item]:
    return {
        str(e["uri"]): {"uri": e["uri"], "label": e.get("label")}
        for step in _steps(trace, "Exploration")
        for e in step.get("entities", [])
        if isinstance(e, Mapping) and e.get("uri")
    }


def _explored(trace: Mapping[str, Any]) -> Item:
    steps = _steps(trace, "Exploration")
    return {key: sum(int(s["properties"].get(key) or 0) for s in steps) for key in ("edgeCount", "chunkCount")}


def edge_text(statement: Mapping[str, Any]) -> str:
    """``subject · predicate · object`` by their labels where the trace has them."""
    parts = [
        statement.get("s_label") or statement.get("s"),
        statement.get("p_label") or statement.get("p"),
        statement.get("o_label") or statement.get("o"),
    ]
    return " · ".join(str(p) for p in parts)


def _edges(trace: Mapping[str, Any]) -> dict[str, Item]:
    found: dict[str, Item] = {}
    for step in _steps(trace, "Focus"):
        for edge in step.get("edges", []):
            st = edge.get("statement") or {}
            key = "\t".join(str(st.get(k)) for k in ("s", "p", "o"))
            found.setdefault(key, {"edge": edge_text(st), "s": st.get("s"), "p": st.get("p"), "o": st.get("o"),
                                   "score": edge.get("score"), "reasoning": edge.get("reasoning")})  # fmt: skip
    return found


def _chunks(trace: Mapping[str, Any]) -> dict[str, Item]:
    found: dict[str, Item] = {}
    for step in _steps(trace, "Focus"):
        for selected in step.get("chunks", []):
            chunk = selected.get("chunk") or {}
            uri = chunk.get("uri") or selected.get("selection")
            text = _text(chunk.get("text"))
            found.setdefault(str(uri), {"chunk": uri, "text": text[:200], "score": selected.get("score")})
    return found


def _tool_calls(trace: Mapping[str, Any]) -> dict[str, Item]:
    observations = _steps(trace, "Observation")
    found: dict[str, Item] = {}
    for step in _steps(trace, "Analysis", "ToolUse"):
        props = step["properties"]
        action = props.get("action")
        if not action:
            continue
        arguments = _text(props.get("arguments"))
        result = next((_text(o["properties"].get("text")) for o in observations
                       if str(o["uri"]).startswith(f"{step['uri']}/")), None)  # fmt: skip
        key = f"{action}\t{arguments}"
        found.setdefault(key, {"tool": action, "arguments": arguments, "result": result})
    return found


def _sentences(trace: Mapping[str, Any]) -> dict[str, Item]:
    """The sentences of the answer itself (not of a sub-trace's), with what each cites."""
    root = _UUID.search(str(trace.get("uri", "")))
    found: dict[str, Item] = {}
    for step in _steps(trace, "Synthesis", "Conclusion"):
        if root is not None and root.group(0) not in str(step["uri"]):
            continue
        for sentence in step.get("sentences", []):
            citations = sorted({_citation(e) for e in sentence.get("evidence", [])})
            found.setdefault(_text(sentence.get("text")), {"text": _text(sentence.get("text")), "citations": citations})
    return found


def _citation(evidence: Mapping[str, Any]) -> str:
    source = (evidence.get("title") or evidence.get("document"), evidence.get("section"))
    where = " § ".join(str(p) for p in source if p)
    return f"{where}: {_text(evidence.get('text'))}" if where else _text(evidence.get("text"))


def _usage(a: Mapping[str, Any], b: Mapping[str, Any]) -> Item:
    def pick(totals: Mapping[str, Any]) -> Item:
        return {**{k: int(totals.get(k) or 0) for k in _USAGE}, "models": list(totals.get("models") or [])}

    left, right = pick(a), pick(b)
    return {"a": left, "b": right, "delta": {k: right[k] - left[k] for k in _USAGE}}


# ------------------------------------------------------------------------------------------ comparing
def _sets(a: Iterable[str], b: Iterable[str]) -> Item:
    left, right = list(a), list(b)
    return {"added": [x for x in right if x not in left], "removed": [x for x in left if x not in right],
            "kept": [x for x in left if x in right]}  # fmt: skip


def _order(item: Item) -> tuple[float, str]:
    """Best score first (as the trace lists selections), then by content."""
    score = item.get("score")
    return (-float(score) if isinstance(score, int | float) else 0.0, str(item))


def _compare(a: Mapping[str, Item], b: Mapping[str, Item], fields: tuple[str, ...] = ()) -> Item:
    changes = []
    for key in a.keys() & b.keys():
        before, after = a[key], b[key]
        moved = {f: {"a": before.get(f), "b": after.get(f)} for f in fields if before.get(f) != after.get(f)}
        if moved:
            changes.append({**after, "changes": moved})
    return {
        "added": sorted((b[k] for k in b.keys() - a.keys()), key=_order),
        "removed": sorted((a[k] for k in a.keys() - b.keys()), key=_order),
        "changed": sorted(changes, key=_order),
        "kept": len(a.keys() & b.keys()),
    }


# ------------------------------------------------------------------------------------------ text
def render(result: Mapping[str, Any]) -> str:
    """The plain-text form: ``+`` only in B, ``-`` only in A, ``~`` in both but different."""
    a, b = result["a"], result["b"]
    lines = [f"A  {a['uri']}  ({a['type']}, {a['workspace']}/{a['collection']}, {a['startedAtTime']})",
             f"B  {b['uri']}  ({b['type']}, {b['workspace']}/{b['collection']}, {b['startedAtTime']})"]  # fmt: skip
    if result["same_question"]:
        lines.append(f"question  {a['query']}")
    else:
        lines += [f"question  A: {a['query']}", f"          B: {b['query']}"]
    concepts = result["concepts"]
    lines.append("concepts  " + _tally(concepts["added"], concepts["removed"], len(concepts["kept"])))
    lines += [f"  + {c}" for c in concepts["added"]] + [f"  - {c}" for c in concepts["removed"]]
    explored = result["explored"]
    for key, name in (("edgeCount", "edges explored"), ("chunkCount", "chunks explored")):
        if explored["a"][key] or explored["b"][key]:
            lines.append(f"{name}  {explored['a'][key]} → {explored['b'][key]}")
    lines += _section("entities", result["entities"], lambda e: str(e.get("label") or e["uri"]))
    lines += _section("selected edges", result["edges"], _scored("edge"), _reasoning)
    lines += _section("selected chunks", result["chunks"], _scored("text"))
    lines += _section("tool calls", result["tool_calls"], lambda t: f"{t['tool']}({t['arguments']}) → {t['result']}")
    lines += _section("answer sentences", result["sentences"], _cited)
    usage = result["usage"]
    numbers = [f"{k} {usage['a'][k]} → {usage['b'][k]} ({usage['delta'][k]:+d})" for k in _USAGE
               if usage["a"][k] or usage["b"][k]]  # fmt: skip
    lines.append("usage  " + ("; ".join(numbers) or "none recorded"))
    models_a, models_b = ", ".join(usage["a"]["models"]) or "-", ", ".join(usage["b"]["models"]) or "-"
    lines.append(f"models  {models_a}" + (f" → {models_b}" if models_a != models_b else " (same)"))
    if not changed(result):
        lines.append("no difference in concepts, entities, edges, chunks, tool calls, sentences or usage")
    return "\n".join(lines)


def _tally(added: list[Any], removed: list[Any], kept: int, changes: int = 0) -> str:
    parts = [f"+{len(added)}", f"-{len(removed)}"] + ([f"~{changes}"] if changes else []) + [f"={kept}"]
    return " ".join(parts)


def _section(
    title: str, part: Mapping[str, Any], show: Callable[[Item], str], detail: Callable[[Item], str] | None = None
) -> list[str]:
    if not (part["added"] or part["removed"] or part["changed"] or part["kept"]):
        return []  # neither trace has any (no chunks in a GraphRAG trace, no tool calls outside an agent)
    lines = [f"{title}  {_tally(part['added'], part['removed'], part['kept'], len(part['changed']))}"]
    for sign, key in (("+", "added"), ("-", "removed")):
        for item in part[key]:
            lines.append(f"  {sign} {show(item)}")
            if detail is not None and detail(item):
                lines.append(f"      {detail(item)}")
    for item in part["changed"]:
        moved = "; ".join(f"{f}: {_short(v['a'])} → {_short(v['b'])}" for f, v in item["changes"].items())
        lines.append(f"  ~ {show(item)}")
        lines.append(f"      {moved}")
    return lines


def _scored(field: str) -> Callable[[Item], str]:
    def show(item: Item) -> str:
        score = item.get("score")
        return (f"{score:.2f}  " if isinstance(score, int | float) else "") + str(item.get(field))

    return show


def _reasoning(item: Item) -> str:
    return _short(item.get("reasoning"), 160)


def _cited(item: Item) -> str:
    cites = len(item.get("citations") or [])
    return f"{item['text']}  [{cites} citation{'s' if cites != 1 else ''}]" if cites else f"{item['text']}  [uncited]"


def _short(value: Any, limit: int = 80) -> str:
    if isinstance(value, list):
        value = "; ".join(str(v) for v in value)
    text = _text(value) if not isinstance(value, int | float) else f"{value:.2f}"
    return text if len(text) <= limit else text[: limit - 1] + "…"
