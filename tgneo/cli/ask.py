"""``tgneo ask``: ask a question, watch the answer stream and — with ``-x`` — every step that made it.

The engine runs in this process against Neo4j, or, with ``--url``, on a running ``tgneo serve``,
whose NDJSON stream is read as it arrives (``--token`` when the server has ``TGNEO_TOKENS``). Either
way the answer arrives as the same response messages — in-process through the very pipeline and wire
codec the server streams with (:class:`tgneo.service.runtime.Runtime`) — so ``--json`` prints exactly
the server's NDJSON lines, and the readable view is the same. The answer goes to stdout as it
streams; explain events, sources and totals go to stderr, so ``tgneo ask -x "…" > answer.txt`` keeps
the answer clean. ``--json`` prints the raw response messages (TrustGraph's field names) instead.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack
from typing import Any

import click
from rdflib.term import Literal, URIRef
from rich.markup import escape

from tgneo.cli.common import (
    collection_option,
    err,
    fails_cleanly,
    graph_option,
    say,
    scope_args,
    workspace_option,
)
from tgneo.explain.events import AgentMessage, AnswerChunk, Citation, ErrorEvent, Event, ExplainEvent, SessionEnd
from tgneo.graph_profiles import GraphProfile
from tgneo.kinds import AgentPattern, SessionKind
from tgneo.mapping import CLASS_BY_IRI, most_specific
from tgneo.rdf.terms import QuotedTriple
from tgneo.stream import wire
from tgneo.stream.framing import ndjson
from tgneo.vocab import RDF, TG

_ENGINE_NAMES = tuple(k.wire for k in SessionKind)
Labels = Callable[[list[str]], dict[str, str]]


@click.command()
@click.argument("question")
@click.option("--engine", "engine_name", type=click.Choice(_ENGINE_NAMES), default="graph-rag", show_default=True,
              help="Which engine answers.")  # fmt: skip
@click.option("-x", "--explain", is_flag=True, help="Show each step (explain event) on stderr as it is recorded.")
@click.option("--json", "as_json", is_flag=True, help="Print the raw response messages as NDJSON on stdout.")
@click.option("--pattern", type=click.Choice([p.value for p in AgentPattern]),
              help="Agent only: use this pattern instead of letting the router choose.")  # fmt: skip
@click.option("-o", "--option", "options", multiple=True, metavar="NAME=N",
              help="An engine option, a positive whole number. graph-rag: entity_limit (50), triple_limit (30), "
                   "max_subgraph_size (1000), max_path_length (2), edge_score_limit (30), edge_limit (25); "
                   "document-rag: doc_limit (10); agent: max_iterations (8).")  # fmt: skip
@click.option("--url", envvar="TGNEO_URL", help="Ask a running `tgneo serve` (e.g. http://127.0.0.1:8888/).")
@click.option("--token", envvar="TGNEO_TOKEN", help="The server's API token (when it runs with TGNEO_TOKENS).")
@graph_option
@workspace_option
@collection_option
@fails_cleanly
def ask(
    question: str, engine_name: str, explain: bool, as_json: bool, pattern: str | None, options: tuple[str, ...],
    url: str | None, token: str | None, graph: GraphProfile | None, workspace: str, collection: str,
) -> None:  # fmt: skip
    """Ask QUESTION; the answer streams to stdout, its trace is recorded in Neo4j.

    \b
    Examples:
      tgneo ask "Which element did Marie Curie name after her homeland?" -x
      tgneo ask "Compare Marie Curie and Pierre Curie" --engine agent -x
      tgneo ask "Who discovered polonium?" --engine document-rag --json
      tgneo ask "Which command shows pip's cache directory?" -x --graph neo4j-graphrag --collection kg

    The last line on stderr names the trace, followed by the --workspace/--collection it was
    recorded in when they are not the defaults: `tgneo trace show` with what follows `trace:`
    draws it, `tgneo export` with the same exports it.
    """
    kind = SessionKind.parse(engine_name)
    parsed: dict[str, Any] = _parse_options(options)
    if pattern is not None:
        if kind is not SessionKind.AGENT:
            raise click.BadParameter("only the agent engine has patterns", param_hint="--pattern")
        parsed["pattern"] = pattern
    with ExitStack() as stack:
        if url:
            from tgneo.cli.remote import Remote

            remote = Remote(url, token, workspace, collection)
            messages, labels = remote.ask(kind, question, parsed, graph), remote.labels
        else:
            from tgneo.engines import Request
            from tgneo.service.runtime import Runtime
            from tgneo.store import Store, kg

            store = stack.enter_context(Store.from_settings())
            messages = Runtime(store).ask(kind, Request(question, workspace, collection, parsed, graph))

            def labels(iris: list[str]) -> dict[str, str]:
                return kg.labels(store, workspace, collection, iris)

        failed = _show(messages, kind, as_json, _View(labels) if explain else None, scope_args(workspace, collection))
    if failed:
        sys.exit(1)


def _show(
    messages: Iterator[wire.Message], kind: SessionKind, as_json: bool, view: _View | None, scope: str = ""
) -> bool:
    """Write each message as it arrives — an NDJSON line, or readable — and return whether one was an error."""
    printer = _Printer(view, scope)
    failed = False
    for message in messages:
        event = wire.decode(message, kind)
        if as_json:
            sys.stdout.buffer.write(b"".join(ndjson([message])))
            sys.stdout.buffer.flush()
        else:
            printer.show(event)
        failed = failed or isinstance(event, ErrorEvent)
    return failed


def _parse_options(options: tuple[str, ...]) -> dict[str, Any]:
    parsed: dict[str, Any] = {}
    for option in options:
        name, sep, value = option.partition("=")
        if not sep or not name.strip():
            raise click.BadParameter(f"{option!r} is not NAME=N", param_hint="-o")
        try:
            parsed[name.strip()] = int(value)
        except ValueError:
            raise click.BadParameter(f"{option!r}: {value!r} is not a whole number", param_hint="-o") from None
    return parsed


class _Printer:
    """Answer text to stdout as it streams, everything else to stderr on lines of its own."""

    def __init__(self, view: _View | None, scope: str = "") -> None:
        self.view = view
        self.scope = scope  # appended to the trace's URI: `tgneo trace show` + what follows `trace:` finds it
        self.mid_answer = False  # answer text was written without a newline after it

    def _aside(self) -> None:
        """Before a line on stderr: end the answer's line on the terminal (stdout itself stays clean)."""
        if self.mid_answer:
            err.print("", soft_wrap=True)
            self.mid_answer = False

    def show(self, event: Event) -> None:
        """Print one event where it belongs."""
        if isinstance(event, AnswerChunk):
            sys.stdout.write(event.text)
            sys.stdout.flush()
            self.mid_answer = self.mid_answer or bool(event.text)
        elif isinstance(event, ExplainEvent) and self.view is not None:
            self._aside()
            self.view.explain(event)
        elif isinstance(event, AgentMessage) and self.view is not None:
            self._aside()
            err.print(f"    [dim]{event.message_type}: {escape(' '.join(event.text.split()))}[/]", soft_wrap=True)
        elif isinstance(event, SessionEnd):
            sys.stdout.write("\n")
            sys.stdout.flush()
            self.mid_answer = False
            if event.citations and self.view is not None:
                self.view.citations(event.citations)
            if event.sources:
                say("Sources:")
                for source in event.sources:
                    say(f"  - {escape(source.title or source.uri)} ({escape(source.uri)})")
            say(f"[dim]{event.in_token or 0}→{event.out_token or 0} tokens, model {escape(event.model or 'none')}[/]")
            say(f"trace: {event.trace}{escape(self.scope)}")
        elif isinstance(event, ErrorEvent):
            sys.stdout.write("\n")
            sys.stdout.flush()
            self.mid_answer = False
            say(f"[bold red]error:[/] {escape(event.message)}")
            if event.trace:
                say(f"trace so far: {event.trace}{escape(self.scope)}")


class _View:
    """Explain events as readable lines on stderr, like TrustGraph's ``-x`` (labels looked up)."""

    def __init__(self, labels: Labels) -> None:
        self._labels = labels

    def explain(self, event: ExplainEvent) -> None:
        about: dict[str, dict[str, list[Any]]] = defaultdict(lambda: defaultdict(list))
        for quad in event.triples:
            about[str(quad.s)][str(quad.p)].append(quad.o)
        me = about[event.explain_id]
        types = [CLASS_BY_IRI[t].label.value for t in me.get(str(RDF.type), []) if t in CLASS_BY_IRI]
        label = most_specific(types)
        name = label.value if label is not None else event.kind or "step"
        lines = [f"[bold cyan]\\[{escape(name)}][/] [dim]{escape(event.explain_id)}[/]"]
        lines += self._details(name, me, about)
        usage = [f"{me[str(TG[k])][0]} {v}" for k, v in (("inToken", "in"), ("outToken", "out")) if str(TG[k]) in me]
        if str(TG.llmModel) in me:
            usage.append(str(me[str(TG.llmModel)][0]))
        if usage:
            lines.append(f"    [dim]tokens {escape(', '.join(map(str, usage)))}[/]")
        err.print("\n".join(lines), soft_wrap=True)

    def citations(self, citations: Sequence[Citation]) -> None:
        """Each answer sentence, numbered, with the evidence it rests on and where that was read."""
        lines = ["[bold]Answer sentences and their evidence:[/]"]
        for citation in citations:
            mark = "" if citation.supported else "  [yellow](no evidence supports this sentence)[/]"
            lines.append(f"  [bold]\\[{citation.index}][/] {escape(citation.sentence)}{mark}")
            for evidence in citation.evidence:
                lines.append(f"      ← “{escape(evidence.text)}”  [dim]{evidence.score:.2f}[/]")
                where = " › ".join(escape(w) for w in (evidence.title, evidence.section) if w)
                if evidence.chunk:
                    where = f"{where}  ({escape(evidence.chunk)})" if where else escape(evidence.chunk)
                if where:
                    lines.append(f"        [dim]{where}[/]")
        err.print("\n".join(lines), soft_wrap=True)

    def _details(self, name: str, me: dict[str, list[Any]], about: dict[str, dict[str, list[Any]]]) -> list[str]:
        def values(predicate: URIRef) -> list[str]:
            return [str(v) for v in me.get(str(predicate), [])]

        out: list[str] = []
        if values(TG.query):
            out.append(f"    Query: {escape(values(TG.query)[0])}")
        if values(TG.concept):
            out.append(f"    Concepts: {escape(', '.join(values(TG.concept)))}")
        if values(TG.edgeCount):
            out.append(f"    Edges explored: {values(TG.edgeCount)[0]}")
        if values(TG.entity):
            shown = self._labels(values(TG.entity))
            out.append(f"    Seed entities: {escape(', '.join(shown.get(e, e) for e in values(TG.entity)))}")
        if values(TG.chunkCount):
            out.append(f"    Chunks retrieved: {values(TG.chunkCount)[0]}")
        for selection in _best_first(values(TG.selectedEdge), about):
            out += self._edge(about.get(selection, {}))
        for selection in _best_first(values(TG.selectedChunk), about):
            chosen = about.get(selection, {})
            if chosen:
                score = chosen.get(str(TG.score), ["?"])[0]
                out.append(f"    Chunk: {escape(str(chosen.get(str(TG.document), [selection])[0]))}  Score: {score}")
        if values(TG.action):
            arguments = values(TG.arguments)[0] if values(TG.arguments) else ""
            out.append(f"    Action: {escape(values(TG.action)[0])} {escape(arguments)}")
        if values(TG.toolError):
            out.append(f"    [red]Tool error: {escape(values(TG.toolError)[0])}[/]")
        for key, title in ((TG.pattern, "Pattern"), (TG.taskType, "Task type"), (TG.terminationReason, "Termination")):
            if values(key):
                out.append(f"    {title}: {escape(values(key)[0])}")
        for goal in values(TG.subagentGoal) + values(TG.planStep):
            out.append(f"    Goal: {escape(goal)}")
        if values(TG.document) and name not in ("ChunkSelection",):
            out.append(f"    Document: {escape(values(TG.document)[0])}")
        return out

    def _edge(self, selection: dict[str, list[Any]]) -> list[str]:
        edge = selection.get(str(TG.edge), [None])[0]
        if not isinstance(edge, QuotedTriple):
            return []
        terms = [edge.s, edge.p, edge.o]
        shown = self._labels([str(t) for t in terms if isinstance(t, URIRef)])
        text = ", ".join(str(t) if isinstance(t, Literal) else shown.get(str(t), str(t)) for t in terms)
        score = selection.get(str(TG.score), [None])[0]
        concept = selection.get(str(TG.concept), [""])[0]
        lines = [f"    Edge: ({escape(text)})", f"      Concept: {escape(str(concept))}  Score: {score}"]
        reasoning = selection.get(str(TG.reasoning), [None])[0]
        if reasoning:
            lines.append(f"      [italic]{escape(str(reasoning))}[/]")
        return lines


def _best_first(selections: list[str], about: dict[str, dict[str, list[Any]]]) -> list[str]:
    """Selections by score, highest first (as ``trace show`` and the viewer list them), then by URI."""

    def score(selection: str) -> float:
        try:
            return float(about.get(selection, {}).get(str(TG.score), ["nan"])[0])
        except (TypeError, ValueError):
            return float("nan")

    return sorted(selections, key=lambda s: (-score(s) if score(s) == score(s) else float("inf"), s))


COMMANDS = [ask]
