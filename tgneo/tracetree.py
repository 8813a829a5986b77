"""Draw a trace (``tgneo.store.traces.get_trace`` output) as a terminal tree: users would rather look.

URIs are printed whole, never shortened: they are what a user copies into the next command.

Steps hang under the step they derive from; a step with several parents (an agent synthesis over
findings) hangs under the first and names the others. Selected edges show their labels, score,
reasoning and where they were extracted from (chunk → page → document). A stale trace (a source
document it used was replaced or removed since) says so above everything, and marks each selection
whose evidence changed.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from rich.markup import escape
from rich.tree import Tree


def _usage(props: dict[str, Any]) -> str:
    parts = []
    if "inToken" in props or "outToken" in props:
        parts.append(f"{props.get('inToken', 0)}→{props.get('outToken', 0)} tokens")
    if props.get("llmModel"):
        parts.append(str(props["llmModel"]))
    for key, name in (("llmDurationMs", "llm"), ("toolDurationMs", "tool")):
        if props.get(key) is not None:
            parts.append(f"{name} {props[key]} ms")
    return f" [dim]({escape(', '.join(parts))})[/]" if parts else ""


def _edge_line(edge: dict[str, Any]) -> str:
    st = edge["statement"]
    s = st.get("s_label") or st["s"]
    p = st.get("p_label") or st["p"]
    o = st.get("o_label") or st["o"]
    score = f" score {edge['score']:.2f}" if isinstance(edge.get("score"), int | float) else ""
    concept = f" concept {', '.join(edge['concept'])}" if edge.get("concept") else ""
    return f"[cyan]({escape(str(s))}, {escape(str(p))}, {escape(str(o))})[/]{score}{escape(concept)}{for_parts(edge)}"


def for_parts(item: dict[str, Any]) -> str:
    """`` for part 1`` after a hit or a selection of a two-part question (nothing for a question of one part)."""
    served = item.get("parts") or []
    return f" [magenta]for part {' and '.join(map(str, served))}[/]" if served else ""


def _describe(step: dict[str, Any]) -> str:
    props = step["properties"]
    head = f"[bold]{escape(step['type'])}[/] [dim]{escape(step['uri'])}[/]"
    detail = ""
    if props.get("query"):
        detail = f' "{escape(str(props["query"]))}"'
    elif props.get("concept") and step["type"] == "Grounding":
        detail = f" concepts: {escape(', '.join(props['concept']))}"
    elif props.get("action"):
        detail = f" {escape(str(props['action']))}({escape(str(props.get('arguments', '')))})"
    elif props.get("pattern"):
        detail = f" pattern {escape(str(props['pattern']))}"
    if step.get("error"):
        detail += f" [red]error: {escape(str(step['error']))}[/]"
    return head + detail + _usage(props)


def stale_lines(trace: dict[str, Any]) -> list[str]:
    """One line per document change that made ``trace`` stale (plain text, no markup): what, when, and
    how many of its selected edges and chunks it touched."""
    lines = []
    for change in trace.get("stale", []):
        edges, chunks = change["edges"], change["chunks"]
        gone = sum(1 for e in edges if not e["asserted"])
        parts = []
        if edges:
            parts.append(f"{len(edges)} selected edge(s)" + (f", {gone} no longer in the graph" if gone else ""))
        if chunks:
            missing = sum(1 for c in chunks if not c["present"])
            parts.append(f"{len(chunks)} selected chunk(s)" + (f", {missing} gone" if missing else ""))
        lines.append(f"STALE since {change['at']}: {change['label']} ({change['document']}); {'; '.join(parts)}")
    return lines


HITS_SHOWN = 10
"""How many of an Exploration's retrieval hits ``trace show`` lists (best first)."""


def hit_line(hit: dict[str, Any], name: str | None = None) -> str:
    """One retrieval hit as ``#1 <chunk>  vector #2 (0.61) + full text #1 (7.3) → 0.0325`` (a seed entity's
    ``name`` before its IRI)."""
    found = []
    if hit.get("vector_rank") is not None:
        found.append(f"vector #{hit['vector_rank']} ({hit['vector_score']:.2f})")
    if hit.get("text_rank") is not None:
        found.append(f"full text #{hit['text_rank']} ({hit['text_score']:.1f})")
    item = f"{name} <{hit['item']}>" if name else hit["item"]
    served = hit.get("parts") or []
    part = f"  for part {' and '.join(map(str, served))}" if served else ""
    return f"#{hit['rank']} {item}  {' + '.join(found)} → {hit['fused']:.4f}{part}"


NECESSARY = 0.25
"""From this necessity on a selection is shown as necessary: leaving it out loses at least a quarter of the answer."""
VERDICTS = {
    "supported": "[bold green]supported by its evidence[/]",
    "partly": "[bold yellow]partly supported by its evidence[/]",
    "unsupported": "[bold red]not supported by its evidence[/]",
}
"""How a verdict reads, at a glance (``trace show``, ``ask --verify``, ``trace verify``)."""


def verdict_line(checked: dict[str, Any]) -> str:
    """The latest check's verdict at a glance: ``VERIFIED: supported by its evidence (…)``."""
    verdict = VERDICTS.get(str(checked.get("verdict")), escape(str(checked.get("verdict"))))
    stands = checked.get("stands_without") or []
    also = f"; sentence(s) {', '.join(map(str, stands))} stand without their evidence" if stands else ""
    sufficiency = checked.get("sufficiency")
    enough = (
        f"; the cited evidence alone gives {sufficiency:.0%} of the answer" if isinstance(sufficiency, float) else ""
    )
    model = f", judged by {escape(str(checked['model']))}" if checked.get("model") else ""
    return f"VERIFIED: {verdict}[dim]{escape(also)}{escape(enough)}{model}[/]"


def render_trace(trace: dict[str, Any]) -> Tree:
    """A ``rich`` tree of the trace, root first."""
    steps = {s["uri"]: s for s in trace["steps"]}
    invalidated = {x["selection"]: change["change"] for change in trace.get("stale", [])
                   for x in (*change["edges"], *change["chunks"])}  # fmt: skip
    children: dict[str, list[str]] = defaultdict(list)
    for step in trace["steps"]:
        parents = [p for p in step["parents"] if p in steps]
        if parents:
            children[parents[0]].append(step["uri"])
    title = f"[bold]{escape(str(trace.get('type') or 'trace'))}[/] {escape(trace['uri'])}"
    totals = trace.get("totals", {})
    title += f"  [dim]{totals.get('inToken', 0)}→{totals.get('outToken', 0)} tokens"
    title += f", {totals.get('errors', 0)} error(s)[/]"
    if trace.get("truncated"):
        title += f"  [yellow]first {len(trace['steps'])} of {trace['total_steps']} steps[/]"
    if trace.get("held"):
        title += "  [magenta]held[/]"
    for line in stale_lines(trace):
        title += f"\n[bold red]{escape(line)}[/]"
    checked = trace.get("verification")
    necessity: dict[str, float] = checked["necessity"] if checked else {}
    if checked:
        title += f"\n{verdict_line(checked)}"
    tree = Tree(title)

    def needed(selection: str) -> str:
        if selection not in necessity:
            return ""
        value = necessity[selection]
        return f" [bold]necessary {value:.2f}[/]" if value >= NECESSARY else f" [dim]not necessary {value:.2f}[/]"

    def add(branch: Tree, uri: str, seen: set[str]) -> None:
        if uri in seen:
            return
        seen.add(uri)
        step = steps[uri]
        node = branch.add(_describe(step))
        others = [p for p in step["parents"][1:] if p in steps]
        if others:
            node.add(f"[dim]also derives from {escape(', '.join(others))}[/]")
        for part in step.get("parts", []):
            concepts = ", ".join(str(c) for c in part.get("concepts") or [])
            node.add(f"[magenta]part {part['index']}[/] {escape(repr(str(part['text'])))}: {escape(concepts)}")
        for e in step.get("entities", []):
            node.add(f"seed {escape(str(e.get('label') or e['uri']))}")
        for edge in step.get("edges", []):
            mark = f" [red](source {invalidated[edge['selection']]})[/]" if edge["selection"] in invalidated else ""
            edge_node = node.add(_edge_line(edge) + mark + needed(edge["selection"]))
            if edge.get("reasoning"):
                edge_node.add(f"[italic]{escape(str(edge['reasoning']))}[/]")
            for source in edge["statement"].get("sources", []):
                chain = " → ".join(n["uri"] for n in source["chain"])
                edge_node.add(f"[green]from[/] {escape(chain)}")
        for chunk in step.get("chunks", []):
            c = chunk.get("chunk") or {}
            doc = f" → {', '.join(c.get('chain', []))}" if c.get("chain") else ""
            mark = f" [red](source {invalidated[chunk['selection']]})[/]" if chunk["selection"] in invalidated else ""
            score = f" score {chunk['score']:.2f}" if isinstance(chunk.get("score"), int | float) else ""
            node.add(
                f"chunk {escape(str(c.get('uri', '?')))}{escape(doc)}{score}{for_parts(chunk)}{mark}"
                f"{needed(chunk['selection'])}"
            )
        if step.get("hits"):
            names = {e["uri"]: e.get("label") for e in step.get("entities", [])}  # GraphRAG's seeds
            what = "seed entity(ies)" if names else "chunk(s)"
            found = node.add(f"[dim]found {len(step['hits'])} {what}: vector rank / full-text rank → fused[/]")
            for hit in step["hits"][:HITS_SHOWN]:
                found.add(escape(hit_line(hit, names.get(hit["item"]))))
            if len(step["hits"]) > HITS_SHOWN:
                found.add(f"[dim]… {len(step['hits']) - HITS_SHOWN} more[/]")
        for doc in step.get("documents", []):
            if doc.get("text"):
                text = str(doc["text"])
                node.add(f'[yellow]"{escape(text[:200])}{"…" if len(text) > 200 else ""}"[/]')
        for sentence in step.get("sentences", []):
            mark = "" if sentence["supported"] else " [yellow](no evidence supports it)[/]"
            cited = node.add(f"[bold]\\[{sentence['index']}][/] {escape(str(sentence['text']))}{mark}")
            for evidence in sentence["evidence"]:
                where = " › ".join(str(w) for w in (evidence.get("title"), evidence.get("section")) if w)
                chunk = f" ({evidence['chunk']})" if evidence.get("chunk") else ""
                line = cited.add(f"← “{escape(str(evidence.get('text', '')))}”")
                line.add(f"[green]from[/] {escape(where + chunk)} [dim]via {escape(str(evidence['selection']))}[/]")
        for child in children.get(uri, []):
            add(node, child, seen)

    roots = [s["uri"] for s in trace["steps"] if s["depth"] == 0]
    seen: set[str] = set()
    for root in roots:
        add(tree, root, seen)
    return tree
