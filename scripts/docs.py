#!/usr/bin/env python3
"""Regenerate README.md's console examples from real runs, so that none can go stale.

A generated block is marked in README.md by an HTML comment naming its recipe, on the line before its fence::

    <!-- docs: quickstart -->
    ```
    …what the recipe printed…
    ```

Nothing else is touched, and nothing is found by guessing: a marker names a recipe of :data:`RECIPES`, a recipe
no marker names (or a marker naming no recipe) is an error.

    scripts/docs.py            run every recipe and write the blocks into README.md
    scripts/docs.py --check    write nothing; exit 1 with a diff when README.md differs
    scripts/docs.py --only otel-out --readme /tmp/README.md

The recipes run the real commands (``tgneo``, ``scripts/demo.sh``) as subprocesses against the Neo4j of
``NEO4J_URI``/``NEO4J_USERNAME``/``NEO4J_PASSWORD`` with the offline LLM (deterministic: no model, no network), each
in a workspace of its own (``tgneo-docs…``, emptied first), so nothing else in that database is read or touched.
What a run prints is shown as a user would see it on a terminal (stdout and stderr in the order written), with
only what differs from run to run or machine to machine replaced (:func:`mask`):

* ids minted per run (UUIDs, so trace URIs and Neo4j element ids): ``5c9bd80d-…``, the same placeholder for the
  same id within a block, in order of first appearance;
* times: timestamps ``YYYY-MM-DDThh:mm:ss.ssssssZ``, durations ``…ms`` / ``…s``, process ids ``pid …``;
* where the run happened: the recipe's workspace is shown as the one its shown command names (``default`` when it
  names none, and then no ``--workspace`` in the hints either), the docs server's ports as the defaults
  (Bolt 7687, Browser 7474, tgneo 8888), a temporary directory as ``/tmp/…``.

Shortening is the recipe's too (e.g. the Quickstart keeps the first two selected edges and then ``…``), never by
hand. ``tests/test_docs.py`` runs ``--check`` against the test suite's Neo4j. After a change to what a command
prints, run ``scripts/docs.py`` and commit README.md.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
BIN = Path(sys.executable).parent
"""Where this interpreter's ``tgneo`` is (the project's ``.venv/bin`` when run as ``.venv/bin/python``)."""
WORKSPACE = "tgneo-docs"
"""The recipes' workspace (others add a suffix): emptied before they run, shown as the command's own."""
POLONIUM = "Which element discovered by Marie Curie was named after her native country?"
MARKER = re.compile(r"^<!-- docs: ([a-z0-9-]+) -->\n```[^\n]*\n(.*?)^```$", re.M | re.S)
PLACEHOLDERS = ("5c9bd80d", "4e5b0946", "f3f2e5f3", "5a4dbc32", "34cacf8f", "d256adcd", "9172b769", "78f3942a")
"""What the n-th distinct UUID of a block is shown as (its first eight hex digits, then ``-…``)."""
UUID = re.compile(r"(?<![0-9a-f])[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![0-9a-f])")
TIMESTAMP = re.compile(r"\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?")
DURATION = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?= ?(?:ms|s)\b)")
PID = re.compile(r"\bpid \d+")


class DocsError(Exception):
    """A recipe could not run, or README.md's markers do not match the recipes."""


def mask(text: str) -> str:
    """``text`` with what changes from run to run replaced (module docstring); the same id, the same placeholder."""
    seen: dict[str, str] = {}

    def placeholder(match: re.Match[str]) -> str:
        if match.group(0) not in seen:
            n = len(seen)
            seen[match.group(0)] = (PLACEHOLDERS[n] if n < len(PLACEHOLDERS) else f"{n:08x}") + "-…"
        return seen[match.group(0)]

    text = UUID.sub(placeholder, text)
    text = TIMESTAMP.sub("YYYY-MM-DDThh:mm:ss.ssssssZ", text)
    text = DURATION.sub("…", text)
    return PID.sub("pid …", text)


def free_port() -> int:
    """A TCP port nothing listens on now (for the demo's server)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Run:
    """One recipe's commands: their environment, and how their output is shown."""

    workspace: str
    shown_workspace: str = "default"
    replacements: list[tuple[str, str]] = field(default_factory=list)

    @cached_property
    def env(self) -> dict[str, str]:
        """This environment, less what would change the output (a configured LLM, another scope, a server to ask),
        plus the Neo4j to use, the offline LLM, the recipe's workspace and this interpreter's ``tgneo`` first on
        PATH (scripts/demo.sh with ``TGNEO_BOOTSTRAP=0`` runs that one, installing nothing)."""
        if not os.environ.get("NEO4J_URI"):
            raise DocsError("NEO4J_URI is unset: the recipes run against a real Neo4j (NEO4J_URI, NEO4J_USERNAME, "
                            "NEO4J_PASSWORD)")  # fmt: skip
        keep = {k: v for k, v in os.environ.items()
                if not k.startswith(("TGNEO_", "OPENAI_", "OTEL_", "TRUSTGRAPH_")) and k != "VIRTUAL_ENV"}  # fmt: skip
        if "TGNEO_HOME" in os.environ:
            keep["TGNEO_HOME"] = os.environ["TGNEO_HOME"]
        return {**keep, "PATH": f"{BIN}{os.pathsep}{keep.get('PATH', '')}", "TGNEO_LLM": "offline",
                "TGNEO_WORKSPACE": self.workspace, "COLUMNS": "200"}  # fmt: skip

    def tgneo(self, *args: str, cwd: Path | None = None, ok: bool = True, stderr: bool = True) -> str:
        """``tgneo ARGS`` as a user runs it; stdout and (with ``stderr``) stderr as written, together."""
        result = subprocess.run(
            [str(BIN / "tgneo"), *args], env=self.env, cwd=cwd or ROOT, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT if stderr else subprocess.PIPE, text=True, timeout=600, check=False,
        )  # fmt: skip
        if ok and result.returncode != 0:
            raise DocsError(f"tgneo {shlex.join(args)} failed ({result.returncode}):\n{result.stdout[-3000:]}")
        return result.stdout

    def tgneo_apart(self, *args: str, cwd: Path | None = None) -> tuple[str, str]:
        """``tgneo ARGS``'s stdout and stderr, apart (for an example that shows only one of them)."""
        result = subprocess.run([str(BIN / "tgneo"), *args], env=self.env, cwd=cwd or ROOT, capture_output=True,
                                text=True, timeout=600, check=False)  # fmt: skip
        if result.returncode != 0:
            raise DocsError(f"tgneo {shlex.join(args)} failed ({result.returncode}):\n{result.stderr[-3000:]}")
        return result.stdout, result.stderr

    def empty(self) -> None:
        """Drop every collection of this run's workspace, so what it loads is loaded anew."""
        listed = json.loads(self.tgneo("collections", "--json", stderr=False))
        for entry in listed["collections"]:
            self.tgneo("collections", "drop", str(entry["collection"]), "--yes")

    def show(self, text: str, masked: bool = True) -> str:
        """``text`` as the README shows it: this run's workspace as the shown one, then (unless what it shows is
        fixed, e.g. imported) :func:`mask`."""
        for actual, shown in self.replacements:
            text = text.replace(actual, shown)
        if self.shown_workspace == "default":
            text = text.replace(f" --workspace {self.workspace}", "")
            text = text.replace(f"?workspace={self.workspace}&collection=default", "")
        text = text.replace(self.workspace, self.shown_workspace)
        return "\n".join(line.rstrip() for line in (mask(text) if masked else text).splitlines())  # no padding


def command(args: Sequence[str]) -> str:
    """How a command is shown: ``$ tgneo …``, quoted as a shell needs."""
    return "$ " + shlex.join(args)


def trace_of(output: str) -> str:
    """The trace's URI from ``tgneo ask``'s ``trace:`` line."""
    found = re.search(r"^trace: (\S+)", output, re.M)
    if not found:
        raise DocsError(f"no trace: line in\n{output[-2000:]}")
    return found.group(1)


@dataclass(frozen=True)
class Demo:
    """What ``scripts/demo.sh`` printed (stdout and stderr together) up to its server's start, and its run."""

    output: str
    run: Run
    streamed: str
    """What the demo's server streamed for :data:`HTTP_QUESTION` (its NDJSON, as ``curl -N`` prints it)."""
    browser: str
    """``tgneo browser`` (against the demo's server) as shown, its trace the demo's answer."""


HTTP_QUESTION = {"query": "Who discovered polonium?", "entity-limit": 20}
"""The README's ``curl`` example's request body (the recipe adds its workspace)."""


class Recipes:
    """Every recipe's runs; the demo's run is shared by the recipes that show parts of it."""

    def __init__(self) -> None:
        self._demo: Demo | None = None
        self._pip_run: tuple[Run, str, str, str, str] | None = None

    def demo(self) -> Demo:
        """``scripts/demo.sh`` from the clone's root, as a newcomer runs it (but on the docs Neo4j, in the docs
        workspace, emptied first so that the sample is loaded anew), until its server answers."""
        if self._demo is not None:
            return self._demo
        port = free_port()
        uri = os.environ.get("NEO4J_URI", "")
        run = Run(WORKSPACE, replacements=[
            (f"  Neo4j           {uri}\n",
             "  Neo4j Browser   http://127.0.0.1:7474/browser/   (user neo4j, password: tgneo db env)\n"),
            (f" --url http://127.0.0.1:{port}", ""), (f"127.0.0.1:{port}", "127.0.0.1:8888"),
        ])  # fmt: skip  # the docs server shown as the local one a newcomer's demo starts (NEO4J_URI unset)
        run.empty()
        env = {**run.env, "TGNEO_BOOTSTRAP": "0", "TGNEO_PORT": str(port)}
        with tempfile.TemporaryFile("w+") as output:
            demo = subprocess.Popen(["bash", str(ROOT / "scripts" / "demo.sh")], cwd=ROOT, env=env, stdout=output,
                                    stderr=subprocess.STDOUT, text=True)  # fmt: skip
            try:
                _wait_for(f"http://127.0.0.1:{port}/readyz", demo, 600)
                browser = ["browser", "--url", f"http://127.0.0.1:{port}"]  # before any other question is asked
                lines, _ = run.tgneo_apart(*browser)
                # Neo4j Browser's URL is the docs server's: shown as the local default one's
                lines = re.sub(r"\Ahttp://[^/\s]+/browser/$", "http://127.0.0.1:7474/browser/", lines, flags=re.M)
                lines = lines.replace(f"workspace={urllib.parse.quote(run.workspace)}&", "")
                shown_browser = "\n".join([command(["tgneo", *browser]), lines.rstrip()])
                body = json.dumps({**HTTP_QUESTION, "workspace": run.workspace}).encode()
                request = urllib.request.Request(f"http://127.0.0.1:{port}/api/v1/graph-rag", body,
                                                 {"Content-Type": "application/json"})  # fmt: skip
                with urllib.request.urlopen(request, timeout=300) as answer:
                    streamed = answer.read().decode()
            finally:
                demo.terminate()
                demo.wait(timeout=60)
            output.seek(0)
            printed = output.read()
        if demo.returncode not in (0, -15, 143) or "trace: " not in printed:
            raise DocsError(f"scripts/demo.sh failed ({demo.returncode}):\n{printed[-3000:]}")
        self._demo = Demo(printed, run, streamed, shown_browser)
        return self._demo

    def quickstart(self) -> str:
        """What the demo prints from its question on, through its closing lines: the Focus shortened to its first
        two edges, a long list of seed entities to its first five."""
        demo = self.demo()
        text = demo.output[demo.output.index("== tgneo ask -x") :]
        closing = text.index("  In Neo4j Browser:")
        text = text[: text.index("\n\n", closing)]
        return demo.run.show("\n".join(_shorten(text.splitlines())))

    def http(self) -> str:
        """A question asked over HTTP of the demo's server, as ``curl -N`` prints its NDJSON stream, shortened
        (:func:`_pick`): the first explain message, the first piece of the answer, the last explain message and the
        final message, each to its telling fields; the messages between as one ``…`` line."""
        demo = self.demo()
        lines = demo.streamed.splitlines()
        messages = [json.loads(line) for line in lines]
        explains = [i for i, m in enumerate(messages) if m.get("message_type") == "explain"]
        chunks = [i for i, m in enumerate(messages) if m.get("message_type") == "chunk" and m.get("response")]
        first, answer, last = explains[0], chunks[0], explains[-1]
        curl = f"curl -N localhost:8888/api/v1/graph-rag -d {shlex.quote(json.dumps(HTTP_QUESTION))}"
        explained = ("message_type", "explain_id", "explain_graph", "explain_triples")
        final = ("message_type", "response", "end_of_session", "sources", "in_token", "out_token", "model", "trace",
                 "citations")  # fmt: skip
        shown = [curl, _pick(lines[first], explained), "…" + " " * 51 + "# Grounding, Exploration, Focus: each as it "
                 "commits", _pick(lines[answer], ("message_type", "response")), _pick(lines[last], explained[:2]),
                 _pick(lines[-1], final)]  # fmt: skip
        return demo.run.show("\n".join(shown))

    def browser(self) -> str:
        """``tgneo browser``'s lines (stdout) for the demo's answer, with the demo's server running."""
        demo = self.demo()
        return demo.run.show(demo.browser)

    def load_documents(self) -> str:
        """The line ``tgneo load sample`` ends with, from the demo (the sample loaded into an empty collection)."""
        demo = self.demo()
        (line,) = [line for line in demo.output.splitlines() if re.match(r"\d+ documents loaded", line)]
        return demo.run.show(line)

    def otel_out(self) -> str:
        """A question asked, its trace exported as OTLP/JSON spans."""
        run = self.demo().run
        asked = run.tgneo("ask", POLONIUM)
        uri = trace_of(asked)
        with tempfile.TemporaryDirectory() as folder:
            export = ["export", uri, "--format", "otlp-json", "-o", "spans.json"]
            exported = run.tgneo(*export, cwd=Path(folder))
        lines = [command(["tgneo", "ask", POLONIUM]), "…", *[line for line in asked.splitlines() if
                 line.startswith("trace: ")], command(["tgneo", *export]), exported.rstrip()]  # fmt: skip
        return run.show("\n".join(lines))

    def trace_diff(self) -> str:
        """The demo's question asked again with ``-o edge_limit=3``, and the two answers compared."""
        run = self.demo().run
        a = trace_of(run.tgneo("ask", POLONIUM))
        b = trace_of(run.tgneo("ask", POLONIUM, "-o", "edge_limit=3"))
        diff = run.tgneo("trace", "diff", a, b)
        return run.show("\n".join([command(["tgneo", "trace", "diff", a, b]), *_diff_shortened(diff.splitlines())]))

    def stale(self) -> str:
        """A user's notes loaded, a question answered from them, the note removed: the answer is marked stale."""
        run = Run(f"{WORKSPACE}-stale")
        run.empty()
        # A document's IRI is a digest of its file's absolute path: the same folder everywhere, the same IRI.
        folder = Path("/tmp/tgneo-docs")
        shutil.rmtree(folder, ignore_errors=True)
        (folder / "notes").mkdir(parents=True)
        shutil.copy(ROOT / "tgneo" / "ingest" / "sample" / "marie-curie.md", folder / "notes" / "marie-curie.md")
        try:
            run.tgneo("load", "documents", "notes/", cwd=folder)
            uri = trace_of(run.tgneo("ask", POLONIUM))
            shown: list[str] = []
            for args in (["load", "remove", "notes/marie-curie.md"], ["traces", "list", "--stale"]):
                shown += [command(["tgneo", *args]), run.tgneo(*args, cwd=folder).rstrip()]
            shown += [command(["tgneo", "trace", "show", uri]) + " | head -2",
                      *run.tgneo("trace", "show", uri).splitlines()[:2]]  # fmt: skip
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        return run.show("\n".join(shown))

    def _pip(self) -> tuple[Run, str, str, str, str]:
        """pip's topic guides loaded, and a question asked of them: (run, load command's last line, the question,
        its stdout, its stderr). The guides are copied to the same folder everywhere (their documents' IRIs are
        digests of their paths) and loaded from there by the path the README shows."""
        if self._pip_run is not None:
            return self._pip_run
        run = Run(f"{WORKSPACE}-pip")
        run.empty()
        folder = Path("/tmp/tgneo-docs-pip")
        shutil.rmtree(folder, ignore_errors=True)
        corpus = Path("scripts/bench/quality/pip-24.2-topics")
        shutil.copytree(ROOT / corpus, folder / corpus)
        try:
            _, loaded = run.tgneo_apart("load", "documents", str(corpus), "--collection", "pip", cwd=folder)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        question = "Which command shows the directory pip uses for its cache?"
        out, err = run.tgneo_apart("ask", "-x", "--collection", "pip", question)
        self._pip_run = (run, loaded.rstrip().splitlines()[-1], question, out, err)
        return self._pip_run

    def answer_quality(self) -> str:
        """The pip example of "Answer quality": the guides loaded, the question asked, the answer (stdout)."""
        run, loaded, question, out, _ = self._pip()
        corpus = "scripts/bench/quality/pip-24.2-topics"
        shown = [command(["tgneo", "load", "documents", corpus, "--collection", "pip"]), loaded,
                 command(["tgneo", "ask", "-x", "--collection", "pip", question]), out.rstrip()]  # fmt: skip
        return run.show("\n".join(shown))

    def answer_quality_evidence(self) -> str:
        """The same answer's stderr from its answer sentences on (the steps before are left out)."""
        run, _, _, _, err = self._pip()
        return run.show(err[err.index("Answer sentences and their evidence:") :].rstrip())

    def prune(self) -> str:
        """A retention dry run over traces TrustGraph recorded in June 2025 (the tests' fixture, imported): their
        ids and times are the fixture's, so nothing is masked."""
        run = Run(f"{WORKSPACE}-prune")
        run.empty()
        fixture = "tests/data/trustgraph_sessions.nq"
        shown: list[str] = []
        for args in (["import", fixture], ["traces", "prune", "--older-than", "30d"]):
            shown += [command(["tgneo", *args]), run.tgneo(*args).rstrip()]
        return run.show("\n".join(shown), masked=False)

    def operations(self) -> str:
        """A document removed by URI from a collection, its answer's trace pruned, the workspace checked."""
        run = Run(f"{WORKSPACE}-ops", shown_workspace="ops")
        run.empty()
        scope = ["--workspace", run.workspace, "--collection", "demo"]
        run.tgneo("load", "sample", *scope)
        run.tgneo("ask", POLONIUM, *scope)
        polonium = "https://trustgraph.ai/doc/bae39ffbc67895492ac5e475af22c569"
        shown: list[str] = []
        for args in (["load", "remove", polonium, *scope], ["traces", "prune", "--keep", "0", "--yes", *scope],
                     ["traces", "check", "--workspace", run.workspace]):  # fmt: skip
            shown += [command(["tgneo", *args]), run.tgneo(*args, ok=False).rstrip()]
        return run.show("\n".join(shown))


def _pick(line: str, keys: Sequence[str]) -> str:
    """A JSON message's line with only ``keys`` (those it has, in that order; a list of messages' items shown as
    ``[…]`` unless it is ``sources``), then ``…}`` when it has others."""
    message = json.loads(line)

    def value(key: str) -> str:
        if isinstance(message[key], list) and key != "sources":
            return "[…]"
        return json.dumps(message[key], ensure_ascii=False, separators=(",", ":"))

    shown = [f"{json.dumps(k)}:{value(k)}" for k in keys if k in message]
    return "{" + ",".join(shown) + (",…}" if set(message) - set(keys) else "}")


def _wait_for(url: str, process: subprocess.Popen[str], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise DocsError(f"scripts/demo.sh ended ({process.returncode}) before its server answered")
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:
                if answer.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.5)
    raise DocsError(f"scripts/demo.sh's server did not answer {url} within {seconds:.0f} s")


def _shorten(lines: list[str]) -> Iterator[str]:
    """The Quickstart's shortening: a Focus keeps its first two edges (three lines each) then ``    …``; a seed
    entity list longer than five names keeps five then ``…``."""
    edges = 0
    for line in lines:
        if line.startswith("[") and not line.startswith("[Focus]"):
            edges = 0
        if line.startswith("    Seed entities: "):
            names = line.removeprefix("    Seed entities: ").split(", ")
            yield "    Seed entities: " + ", ".join(names[:5] + (["…"] if len(names) > 5 else []))
            continue
        if line.startswith("    Edge: ("):
            edges += 1
            if edges == 3:
                yield "    …"
        if edges >= 3 and line.startswith(("    Edge: (", "      ")):
            continue
        yield line


def _diff_shortened(lines: list[str]) -> Iterator[str]:
    """``trace diff``'s lines, each list of changed items cut to its first item (two lines) and ``  …``."""
    kept = 0
    for line in lines:
        if not line.startswith("  "):
            kept = 0
            yield line
            continue
        kept += 1
        if kept <= 2:
            yield line
        elif kept == 3:
            yield "  …"


RECIPES: dict[str, Callable[[Recipes], str]] = {
    "quickstart": Recipes.quickstart,
    "load-documents": Recipes.load_documents,
    "http": Recipes.http,
    "browser": Recipes.browser,
    "otel-out": Recipes.otel_out,
    "trace-diff": Recipes.trace_diff,
    "stale": Recipes.stale,
    "answer-quality": Recipes.answer_quality,
    "answer-quality-evidence": Recipes.answer_quality_evidence,
    "prune": Recipes.prune,
    "operations": Recipes.operations,
}
"""Every recipe, by the name its README marker gives."""


def regenerate(text: str, only: set[str] | None = None) -> str:
    """``text`` (README.md) with every marked block (or those of ``only``) replaced by what its recipe prints now.

    Raises:
        DocsError: a marker names no recipe, a recipe has no marker, or a recipe failed.
    """
    named = [m.group(1) for m in MARKER.finditer(text)]
    unknown = sorted(set(named) - set(RECIPES))
    if unknown:
        raise DocsError(f"README.md names recipes scripts/docs.py does not have: {', '.join(unknown)}")
    missing = sorted(set(RECIPES) - set(named))
    if missing:
        raise DocsError(f"recipes no README.md marker names (<!-- docs: NAME --> before a fence): {', '.join(missing)}")
    recipes = Recipes()
    made: dict[str, str] = {}

    def replace(match: re.Match[str]) -> str:
        name = match.group(1)
        if only is not None and name not in only:
            return match.group(0)
        if name not in made:
            made[name] = RECIPES[name](recipes).rstrip("\n")
        head = match.group(0)[: match.start(2) - match.start(0)]
        return f"{head}{made[name]}\n```"

    return MARKER.sub(replace, text)


@contextmanager
def _timed(label: str) -> Iterator[None]:
    began = time.monotonic()
    yield
    print(f"{label} in {time.monotonic() - began:.0f} s", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 with a diff when README differs")
    parser.add_argument("--readme", type=Path, default=README, help="the file to regenerate (default: README.md)")
    parser.add_argument("--only", action="append", choices=sorted(RECIPES), help="run only this recipe (repeatable)")
    args = parser.parse_args(argv)
    text = args.readme.read_text(encoding="utf-8")
    try:
        with _timed("recipes ran"):
            new = regenerate(text, set(args.only) if args.only else None)
    except DocsError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.check:
        if new == text:
            return 0
        sys.stdout.writelines(difflib.unified_diff(text.splitlines(True), new.splitlines(True), str(args.readme),
                                                   f"{args.readme} (regenerated)"))  # fmt: skip
        print(f"{args.readme} differs from what scripts/docs.py writes: run scripts/docs.py", file=sys.stderr)
        return 1
    if new != text:
        args.readme.write_text(new, encoding="utf-8")
        print(f"{args.readme}: regenerated", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
