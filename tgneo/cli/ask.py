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
from collections.abc import Callable, Iterator, Mapping, Sequence
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
from tgneo.errors import TgneoError
from tgneo.explain.events import (
    AgentMessage,
    AnswerChunk,
    Citation,
    ErrorEvent,
    Event,
    ExplainEvent,
    SessionEnd,
    VerificationSummary,
    WarningEvent,
)
from tgneo.graph_profiles import GraphProfile
from tgneo.kinds import AgentPattern, SessionKind
from tgneo.mapping import CLASS_BY_IRI, most_specific
from tgneo.rdf.terms import QuotedTriple
from tgneo.stream import wire
from tgneo.stream.framing import ndjson
from tgneo.tracetree import NECESSARY, VERDICTS
from tgneo.vocab import RDF, TG

_ENGINE_NAMES = tuple(k.wire for k in SessionKind)
Labels = Callable[[list[str]], dict[str, str]]


def _engine(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """A built-in engine's name as given; any other is looked up among the registered engines (which imports them:
    only then, so a plain ``tgneo ask`` does not pay for the entry-point scan)."""
    if value in SessionKind.names():
        return value
    from tgneo.engines import engine_names

    if value not in engine_names():
        raise click.BadParameter(f"{value!r} is not an engine; use one of {', '.join(engine_names())}")
    return value


@click.command()
@click.argument("question")
@click.option("--engine", "engine_name", metavar="NAME", default="graph-rag", show_default=True, callback=_engine,
              help=f"Which engine answers: {', '.join(_ENGINE_NAMES)}, or one registered by an installed package "
                   "(tgneo.engines entry points) or in Python (tgneo.register_engine).")  # fmt: skip
@click.option("-x", "--explain", is_flag=True, help="Show each step (explain event) on stderr as it is recorded.")
@click.option("--json", "as_json", is_flag=True, help="Print the raw response messages as NDJSON on stdout.")
@click.option("--pattern", type=click.Choice([p.value for p in AgentPattern]),
              help="Agent only: use this pattern instead of letting the router choose.")  # fmt: skip
@click.option("-o", "--option", "options", multiple=True, metavar="NAME=N",
              help="An engine option, a positive whole number. graph-rag: entity_limit (50), triple_limit (30), "
                   "max_subgraph_size (1000), max_path_length (2), edge_score_limit (30), edge_limit (25); "
                   "document-rag: doc_limit (10); agent: max_iterations (8).")  # fmt: skip
@click.option(
    "--verify",
    is_flag=True,
    help="Once answered, check whether the answer depends on the evidence it cites: the answering stage is "
    "run again without it, with it alone and without each item in turn; the verdict (supported, "
    "partly, unsupported) and each item's necessity are recorded as a Verification step and printed.",
)
@click.option(
    "--verify-budget",
    type=click.IntRange(min=2),
    default=None,
    metavar="N",
    help="With --verify: at most N re-runs of the answering stage [default: 6].",
)
@click.option("--url", envvar="TGNEO_URL", help="Ask a running `tgneo serve` (e.g. http://127.0.0.1:8888/).")
@click.option("--token", envvar="TGNEO_TOKEN", help="The server's API token (when it runs with TGNEO_TOKENS).")
@graph_option
@workspace_option
@collection_option
@fails_cleanly
def ask(
    question: str, engine_name: str, explain: bool, as_json: bool, pattern: str | None, options: tuple[str, ...],
    verify: bool, verify_budget: int | None, url: str | None, token: str | None, graph: GraphProfile | None,
    workspace: str, collection: str,
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
    parsed: dict[str, Any] = _parse_options(options)
    if verify_budget is not None and not verify:
        raise click.BadParameter("give --verify too", param_hint="--verify-budget")
    checking: bool | int = (verify_budget or True) if verify else False
    if pattern is not None and engine_name not in ("agent", SessionKind.AGENT.value):
        raise click.BadParameter("only the agent engine has patterns", param_hint="--pattern")
    with ExitStack() as stack:
        if url:
            from tgneo.cli.remote import Remote

            kind = _remote_kind(engine_name)
            if pattern is not None:
                parsed["pattern"] = pattern
            remote = Remote(url, token, workspace, collection)
            messages, labels = remote.ask(kind, question, parsed, graph, checking), remote.labels
        else:
            from tgneo.connection import connect

            tg = stack.enter_context(connect(workspace=workspace, collection=collection))
            stream = tg.messages(question, engine_name, graph=graph, options=parsed, pattern=pattern, verify=checking)
            kind, messages = stream.kind, stream

            def labels(iris: list[str]) -> dict[str, str]:
                return tg.labels(iris)

        failed = _show(messages, kind, as_json, _View(labels) if explain else None, scope_args(workspace, collection))
    if failed:
        sys.exit(1)


def _remote_kind(engine_name: str) -> SessionKind:
    """A server answers with its built-in engines only (the names its HTTP routes take)."""
    try:
        return SessionKind.parse(engine_name)
    except TgneoError:
        names = ", ".join(_ENGINE_NAMES)
        raise click.BadParameter(f"a server's engines are {names}; {engine_name!r} is none of them",
                                 param_hint="--engine") from None  # fmt: skip


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
        elif isinstance(event, WarningEvent):
            self._aside()
            say(f"warning: {escape(' '.join(event.message.split()))}")
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
            if event.verification is not None:
                sentences = {c.index: c.sentence for c in event.citations}
                verified(event.verification, sentences, self.view.named if self.view is not None else None)
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
        self.named: dict[str, str] = {}
        """What each selection shown so far was (an edge's terms, a chunk's IRI), for the verification's lines."""

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
            out += self._edge(about.get(selection, {}), selection)
        for selection in _best_first(values(TG.selectedChunk), about):
            chosen = about.get(selection, {})
            if chosen:
                score = chosen.get(str(TG.score), ["?"])[0]
                self.named[selection] = str(chosen.get(str(TG.document), [selection])[0])
                out.append(f"    Chunk: {escape(self.named[selection])}  Score: {score}")
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

    def _edge(self, selection: dict[str, list[Any]], uri: str) -> list[str]:
        edge = selection.get(str(TG.edge), [None])[0]
        if not isinstance(edge, QuotedTriple):
            return []
        terms = [edge.s, edge.p, edge.o]
        shown = self._labels([str(t) for t in terms if isinstance(t, URIRef)])
        text = ", ".join(str(t) if isinstance(t, Literal) else shown.get(str(t), str(t)) for t in terms)
        self.named[uri] = f"({text})"
        score = selection.get(str(TG.score), [None])[0]
        concept = selection.get(str(TG.concept), [""])[0]
        lines = [f"    Edge: ({escape(text)})", f"      Concept: {escape(str(concept))}  Score: {score}"]
        reasoning = selection.get(str(TG.reasoning), [None])[0]
        if reasoning:
            lines.append(f"      [italic]{escape(str(reasoning))}[/]")
        return lines


def verified(
    summary: VerificationSummary, sentences: Mapping[int, str], named: Mapping[str, str] | None = None
) -> None:
    """The counterfactual check on stderr: the verdict, which sentences (by index: ``sentences``) stand without their
    evidence, whether the cited evidence alone suffices, and each item checked (shown as ``named`` says: an edge's
    terms), necessary or not."""
    names = named or {}
    lines = [f"Verification: {VERDICTS.get(summary.verdict, escape(summary.verdict))}"
             f"  [dim](judged by re-running {escape(summary.model or 'the model')})[/]"]  # fmt: skip
    for index in summary.stands_without:
        shown = f": {escape(sentences[index])}" if index in sentences else ""
        lines.append(f"  [yellow]sentence [{index}] stands without its evidence{shown}[/]")
    enough = "enough" if summary.sufficient else "not enough"
    lines.append(f"  the cited evidence alone gives {summary.sufficiency:.0%} of the answer ({enough})")
    for item in summary.items:
        mark = "[bold]necessary[/]" if item.necessity >= NECESSARY else "[dim]not necessary[/]"
        shown = f"{escape(names[item.iri])}  [dim]{escape(item.iri)}[/]" if item.iri in names else escape(item.iri)
        lines.append(f"  {mark} {item.necessity:.2f}  {shown}")
    err.print("\n".join(lines), soft_wrap=True)


def _best_first(selections: list[str], about: dict[str, dict[str, list[Any]]]) -> list[str]:
    """Selections by score, highest first (as ``trace show`` and the viewer list them), then by URI."""

    def score(selection: str) -> float:
        try:
            return float(about.get(selection, {}).get(str(TG.score), ["nan"])[0])
        except (TypeError, ValueError):
            return float("nan")

    return sorted(selections, key=lambda s: (-score(s) if score(s) == score(s) else float("inf"), s))


COMMANDS = [ask]
