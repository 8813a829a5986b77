"""``tgneo ask``: ask a question, watch the answer stream and — with ``-x`` — every step that made it.

The engine runs in this process against Neo4j, or, with ``--url``, on a running ``tgneo serve``,
whose NDJSON stream is read as it arrives (``--token`` when the server has ``TGNEO_TOKENS``). The
answer goes to stdout as it streams; explain events, sources and totals go to stderr, so ``tgneo ask
-x "…" > answer.txt`` keeps the answer clean. ``--json`` prints the raw response messages
(TrustGraph's field names) as NDJSON instead.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from collections.abc import Callable
from typing import Any

import click
from rdflib.term import Literal, URIRef
from rich.markup import escape

from tgneo.cli.common import collection_option, err, fails_cleanly, say, workspace_option
from tgneo.explain.events import AgentMessage, AnswerChunk, ErrorEvent, Event, ExplainEvent, SessionEnd
from tgneo.kinds import SessionKind
from tgneo.mapping import CLASS_BY_IRI, most_specific
from tgneo.rdf.terms import QuotedTriple
from tgneo.vocab import RDF, TG

_ENGINE_NAMES = tuple(k.wire for k in SessionKind)


@click.command()
@click.argument("question")
@click.option("--engine", "engine_name", type=click.Choice(_ENGINE_NAMES), default="graph-rag", show_default=True,
              help="Which engine answers.")  # fmt: skip
@click.option("-x", "--explain", is_flag=True, help="Show each step (explain event) on stderr as it is recorded.")
@click.option("--json", "as_json", is_flag=True, help="Print the raw response messages as NDJSON on stdout.")
@click.option("--pattern", type=click.Choice(["react", "plan-then-execute", "supervisor"]),
              help="Agent only: use this pattern instead of letting the router choose.")  # fmt: skip
@click.option("-o", "--option", "options", multiple=True, metavar="NAME=N",
              help="An engine option, e.g. -o edge_limit=10 -o max_path_length=1 (see tgneo/engines).")  # fmt: skip
@click.option("--url", envvar="TGNEO_URL", help="Ask a running `tgneo serve` (e.g. http://127.0.0.1:8888/).")
@click.option("--token", envvar="TGNEO_TOKEN", help="The server's API token (when it runs with TGNEO_TOKENS).")
@workspace_option
@collection_option
@fails_cleanly
def ask(
    question: str, engine_name: str, explain: bool, as_json: bool, pattern: str | None, options: tuple[str, ...],
    url: str | None, token: str | None, workspace: str, collection: str,
) -> None:  # fmt: skip
    """Ask QUESTION; the answer streams to stdout, its trace is recorded in Neo4j.

    \b
    Examples:
      tgneo ask "Which element did Marie Curie name after her homeland?" -x
      tgneo ask "Compare Marie Curie and Lise Meitner" --engine agent -x
      tgneo ask "Who discovered polonium?" --engine document-rag --json

    The last line on stderr names the trace: `tgneo trace show URI` draws it, `tgneo export URI`
    exports it.
    """
    from tgneo.engines import Request, engine_class
    from tgneo.llm.registry import get_llm
    from tgneo.store import Store, install_schema, kg
    from tgneo.store.schema import install_search_schema

    parsed: dict[str, Any] = _parse_options(options)
    if pattern is not None:
        if engine_name != "agent":
            raise click.BadParameter("only the agent engine has patterns", param_hint="--pattern")
        parsed["pattern"] = pattern
    if url:
        _ask_remote(url, token, engine_name, question, parsed, workspace, collection, explain, as_json)
        return
    cls = engine_class(engine_name)
    llm = get_llm()
    with Store.from_settings() as store:
        install_schema(store)
        install_search_schema(store, llm.dimensions)
        engine = cls(store, llm)
        request = Request(question, workspace, collection, parsed)
        view = _View(lambda iris: kg.labels(store, workspace, collection, iris)) if explain else None
        printer = _Printer(view)
        failed = False
        for event in engine.answer(request):
            if as_json:
                sys.stdout.write(json.dumps(event.to_wire(engine.kind), ensure_ascii=False) + "\n")
                sys.stdout.flush()
                failed = failed or isinstance(event, ErrorEvent)
                continue
            failed = printer.show(event) or failed
    if failed:
        sys.exit(1)


def _ask_remote(
    url: str, token: str | None, engine_name: str, question: str, options: dict[str, Any], workspace: str,
    collection: str, explain: bool, as_json: bool,
) -> None:  # fmt: skip
    """The same output as in-process, from the server's stream."""
    from tgneo.cli.remote import Remote
    from tgneo.stream.wire import event

    remote = Remote(url, token, workspace, collection)
    printer = _Printer(_View(remote.labels) if explain else None)
    failed = False
    for message in remote.ask(engine_name, question, options):
        if as_json:
            sys.stdout.write(json.dumps(message, ensure_ascii=False) + "\n")
            sys.stdout.flush()
            failed = failed or "error" in message
            continue
        failed = printer.show(event(message)) or failed
    if failed:
        sys.exit(1)


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

    def __init__(self, view: _View | None) -> None:
        self.view = view
        self.mid_answer = False  # answer text was written without a newline after it

    def _aside(self) -> None:
        """Before a line on stderr: end the answer's line on the terminal (stdout itself stays clean)."""
        if self.mid_answer:
            err.print("", soft_wrap=True)
            self.mid_answer = False

    def show(self, event: Event) -> bool:
        """Print one event where it belongs; return whether it was an error."""
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
            if event.sources:
                say("Sources:")
                for source in event.sources:
                    say(f"  - {escape(source.title or source.uri)} ({escape(source.uri)})")
            say(f"[dim]{event.in_token or 0}→{event.out_token or 0} tokens, model {escape(event.model or 'none')}[/]")
            say(f"trace: {event.trace}")
        elif isinstance(event, ErrorEvent):
            sys.stdout.write("\n")
            sys.stdout.flush()
            self.mid_answer = False
            say(f"[bold red]error:[/] {escape(event.message)}")
            if event.trace:
                say(f"trace so far: {event.trace}")
            return True
        return False


class _View:
    """Explain events as readable lines on stderr, like TrustGraph's ``-x`` (labels looked up)."""

    def __init__(self, labels: Callable[[list[str]], dict[str, str]]) -> None:
        self._labels = labels

    def explain(self, event: ExplainEvent) -> None:
        about: dict[str, dict[str, list[Any]]] = defaultdict(lambda: defaultdict(list))
        for quad in event.triples:
            about[str(quad.s)][str(quad.p)].append(quad.o)
        me = about[event.explain_id]
        types = [CLASS_BY_IRI[t].label.value for t in me.get(str(RDF.type), []) if t in CLASS_BY_IRI]
        label = most_specific(types)
        name = label.value if label is not None else event.kind
        lines = [f"[bold cyan]\\[{escape(name)}][/] [dim]{escape(event.explain_id)}[/]"]
        lines += self._details(name, me, about)
        usage = [f"{me[str(TG[k])][0]} {v}" for k, v in (("inToken", "in"), ("outToken", "out")) if str(TG[k]) in me]
        if str(TG.llmModel) in me:
            usage.append(str(me[str(TG.llmModel)][0]))
        if usage:
            lines.append(f"    [dim]tokens {escape(', '.join(map(str, usage)))}[/]")
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
        for selection in values(TG.selectedEdge):
            out += self._edge(about.get(selection, {}))
        for selection in values(TG.selectedChunk):
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


COMMANDS = [ask]
