#!/usr/bin/env python3
"""Regenerate the console examples of README.md and the manual (docs/*.md) from real runs, so that none can go stale.

A generated block is marked in a page (:data:`PAGES`) by an HTML comment naming its recipe, on the line before its
fence::

    <!-- docs: quickstart -->
    ```
    …what the recipe printed…
    ```

Nothing else is touched, and nothing is found by guessing: a marker names a recipe of :data:`RECIPES`, a recipe
no marker of the pages names (or a marker naming no recipe) is an error.

    scripts/docs.py            run every recipe and write the blocks into the pages
    scripts/docs.py --check    write nothing; exit 1 with a diff when a page differs
    scripts/docs.py --only otel-out

The recipes run the real commands (``tgneo``, ``scripts/demo.sh``) as subprocesses with the offline LLM
(deterministic: no model, no network) on private local servers, each a new database started as a user starts one
(``tgneo db start --instance …``: free ports, 1g heap, 512m page cache) and stopped at the end, never on the Neo4j of
``NEO4J_URI``: what a question finds through the indexes, which span every workspace of a database, moves with what
else that database holds. ``tgneo-docs`` holds most recipes, each in a workspace of its own (``tgneo-docs…``, emptied
first); ``tgneo-docs-pip`` holds pip's guides alone (a full-text hit's rank moves with every document the index holds
or held). The recipes that show a graph written by another tool (LangChain's ``add_graph_documents``,
neo4j-graphrag's ``Neo4jWriter``), which needs APOC, run on ``tgneo-docs-apoc`` (``--plugin apoc``), emptied before
each of them: the manual's own ``my_graph.py``, a neo4j-graphrag graph of pip's guides,
``scripts/examples/explain_pipelines.py`` (its model the loopback OpenAI-compatible stand-in of
``tests/openai_server.py``: no network, no key). TrustGraph's ``tg-invoke-graph-rag -x`` asks the demo's server.
What a run prints is shown as a user would see it on a terminal (stdout and stderr in the order written), with
only what differs from run to run or machine to machine replaced (:func:`mask`):

* ids minted per run (UUIDs, so trace URIs and Neo4j element ids): ``5c9bd80d-…``, the same placeholder for the
  same id within a block, in order of first appearance; an element id's number and the digest naming another
  tool's chunk's Subgraph as ``…``;
* times: timestamps ``YYYY-MM-DDThh:mm:ss.ssssssZ``, durations ``…ms`` / ``…s``, process ids ``pid …``;
* where the run happened: the recipe's workspace is shown as the one its shown command names (``default`` when it
  names none, and then no ``--workspace`` in the hints either), the docs server's ports as the defaults
  (Bolt 7687, Browser 7474, tgneo 8888), a temporary directory as ``/tmp/…``.

Shortening is the recipe's too (e.g. the Quickstart keeps the first two selected edges and then ``…``), never by
hand. ``tests/test_docs.py`` runs ``--check``. After a change to what a command
prints, run ``scripts/docs.py`` and commit the pages it rewrote.
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
PAGES = (ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")))
"""Every page a marker may be in: the README, then the manual."""
BIN = Path(sys.executable).parent
"""Where this interpreter's ``tgneo`` is (the project's ``.venv/bin`` when run as ``.venv/bin/python``)."""
WORKSPACE = "tgneo-docs"
"""The recipes' workspace (others add a suffix): emptied before they run, shown as the command's own."""
POLONIUM = "Which element discovered by Marie Curie was named after her native country?"
PIP_QUESTION = "Which command shows the directory pip uses for its cache?"
MARKER = re.compile(r"^<!-- docs: ([a-z0-9-]+) -->\n```[^\n]*\n(.*?)^```$", re.M | re.S)
PLACEHOLDERS = ("5c9bd80d", "4e5b0946", "f3f2e5f3", "5a4dbc32", "34cacf8f", "d256adcd", "9172b769", "78f3942a")
"""What the n-th distinct UUID of a block is shown as (its first eight hex digits, then ``-…``)."""
UUID = re.compile(r"(?<![0-9a-f])[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![0-9a-f])")
TIMESTAMP = re.compile(r"\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?")
DURATION = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?= ?(?:ms|s)\b)")
PID = re.compile(r"\bpid \d+")
ELEMENT_NUMBER = re.compile(r"(?<=[0-9a-f]{8}-…)(:|%3A)\d+\b")
"""The number after a masked UUID in a Neo4j element id (``4:UUID:139``): allotted per run as well."""
ELEMENT_DIGEST = re.compile(r"(?<=/subgraph/neo4j-)[0-9a-f]{16,}")
"""The digest naming the Subgraph of another tool's chunk: a digest of the chunk's element id, so per run too."""


class DocsError(Exception):
    """A recipe could not run, or the pages' markers do not match the recipes."""


def mask(text: str) -> str:
    """``text`` with what changes from run to run replaced (module docstring); the same id, the same placeholder."""
    seen: dict[str, str] = {}

    def placeholder(match: re.Match[str]) -> str:
        if match.group(0) not in seen:
            n = len(seen)
            seen[match.group(0)] = (PLACEHOLDERS[n] if n < len(PLACEHOLDERS) else f"{n:08x}") + "-…"
        return seen[match.group(0)]

    text = ELEMENT_DIGEST.sub("…", ELEMENT_NUMBER.sub(r"\1…", UUID.sub(placeholder, text)))
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
    neo4j: dict[str, str] = field(default_factory=dict)
    """The ``NEO4J_*`` of the recipes' private server to use (none for ``tgneo db`` commands, which need none)."""

    @cached_property
    def env(self) -> dict[str, str]:
        """This environment, less what would change the output (a configured LLM, another scope, a server to ask),
        plus the Neo4j to use, the offline LLM, the recipe's workspace and this interpreter's ``tgneo`` first on
        PATH (scripts/demo.sh with ``TGNEO_BOOTSTRAP=0`` runs that one, installing nothing)."""
        keep = {k: v for k, v in os.environ.items()
                if not k.startswith(("TGNEO_", "OPENAI_", "OTEL_", "TRUSTGRAPH_")) and k != "VIRTUAL_ENV"}  # fmt: skip
        if "TGNEO_HOME" in os.environ:
            keep["TGNEO_HOME"] = os.environ["TGNEO_HOME"]
        return {**keep, "PATH": f"{BIN}{os.pathsep}{keep.get('PATH', '')}", "TGNEO_LLM": "offline",
                "TGNEO_WORKSPACE": self.workspace, "COLUMNS": "200", **self.neo4j}  # fmt: skip

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
        """``text`` as the manual shows it: this run's workspace as the shown one, then (unless what it shows is
        fixed, e.g. imported) :func:`mask`."""
        for actual, shown in self.replacements:
            text = text.replace(actual, shown)
        if self.shown_workspace == "default":
            text = text.replace(f" --workspace {self.workspace}", "")
            text = text.replace(f"?workspace={self.workspace}&collection=default", "")
        text = text.replace(self.workspace, self.shown_workspace)
        return "\n".join(line.rstrip() for line in (mask(text) if masked else text).splitlines())  # no padding


def command(args: Sequence[str]) -> str:
    """How a command is shown: ``$ tgneo …``, quoted as a shell needs (an argument holding an apostrophe in
    double quotes, as a user types it, when nothing in it is special there)."""

    def quoted(arg: str) -> str:
        if "'" in arg and not set('"$`\\!') & set(arg):
            return f'"{arg}"'
        return shlex.quote(arg)

    return "$ " + " ".join(quoted(arg) for arg in args)


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
    trustgraph: str
    """What TrustGraph's ``tg-invoke-graph-rag -x`` printed against the demo's server (stdout and stderr)."""


HTTP_QUESTION = {"query": "Who discovered polonium?", "entity-limit": 20}
"""The manual's ``curl`` example's request body (the recipe adds its workspace)."""


class Recipes:
    """Every recipe's runs; the demo's run is shared by the recipes that show parts of it."""

    def __init__(self, pages: str = "") -> None:
        self.pages = pages
        """The pages' text: the recipes that run a script the manual shows take it from there."""
        self._demo: Demo | None = None
        self._pip_run: tuple[Run, str, str, str, str] | None = None
        self._pip_trees: tuple[str, str] = ("", "")
        self._started: list[str] = []
        self._apoc: dict[str, str] | None = None
        self._own: dict[str, str] | None = None
        self._apoc_ports = (0, 0)
        self._pipelines: tuple[Run, str, dict[str, str]] | None = None

    def own(self) -> dict[str, str]:
        """The ``NEO4J_*`` of the recipes' own private server (:data:`OWN_INSTANCE`, a new database each run) for
        every recipe that needs neither APOC nor a database to itself. Not ``NEO4J_URI``'s: seed entities and
        chunks are read from indexes that span every workspace (``overfetch`` hits, then this collection's kept),
        so which of them a question finds, and how many edges it explores, moves with what else that database
        holds (CI's shared test database holds the whole suite's copies of the sample). Started once."""
        if self._own is None:
            self._own = self._new_server(OWN_INSTANCE, (free_port(), free_port()))
        return self._own

    def apoc(self) -> dict[str, str]:
        """The ``NEO4J_*`` of the recipes' private server with APOC (which LangChain's ``Neo4jGraph`` and
        neo4j-graphrag's ``Neo4jWriter`` need), started as a user starts one, ``tgneo db start --plugin apoc``, in an
        instance of its own (:data:`APOC_INSTANCE`, emptied first: a new database) on free ports; stopped by
        :meth:`close`. Started once, for every recipe that needs it."""
        if self._apoc is None:
            self._apoc_ports = (free_port(), free_port())
            self._apoc = self._new_server(APOC_INSTANCE, self._apoc_ports, "--plugin", "apoc")
        return self._apoc

    def _new_server(self, instance: str, ports: tuple[int, int], *args: str) -> dict[str, str]:
        """Start ``instance`` as a new database (its directory removed first) on ``ports``; its ``NEO4J_*``."""
        from tgneo.config import default_home

        base = Run("default")
        base.tgneo("db", "stop", "--instance", instance)  # a run cut short left it running
        shutil.rmtree(default_home() / "instances" / instance, ignore_errors=True)
        base.tgneo("db", "start", "--instance", instance, *args, "--bolt-port", str(ports[0]), "--http-port",
                   str(ports[1]), "--heap", "1g", "--pagecache", "512m")  # fmt: skip
        self._started.append(instance)
        found: dict[str, str] = {}
        exports = base.tgneo("db", "env", "--instance", instance, stderr=False)
        for word in shlex.split(exports.removeprefix("export ")):
            key, _, value = word.partition("=")
            found[key] = value
        return found

    def close(self) -> None:
        """Stop the private servers the recipes started."""
        for instance in self._started:
            Run("default").tgneo("db", "stop", "--instance", instance)
        self._started.clear()
        self._apoc = self._own = None

    def db_status(self) -> str:
        """``tgneo db status`` of the private server started with ``--plugin apoc``, shown as the default instance
        (its name, ``~/.cache/tgneo``, ports 7687 and 7474)."""
        self.apoc()
        from tgneo.config import default_home

        bolt, http = self._apoc_ports
        run = Run("default", replacements=[
            (str(default_home()), "~/.cache/tgneo"), (APOC_INSTANCE, "default"),
            (f"127.0.0.1:{bolt}", "127.0.0.1:7687"), (f"127.0.0.1:{http}", "127.0.0.1:7474"),
        ])  # fmt: skip
        return run.show("\n".join([command(["tgneo", "db", "status"]),
                                   run.tgneo("db", "status", "--instance", APOC_INSTANCE).rstrip()]))  # fmt: skip

    def _their_run(self) -> Run:
        """A run on the private server, emptied of everything (theirs and tgneo's, their indexes too), so that
        each recipe there sees only the graph it writes, whichever ran before."""
        run = Run("default", neo4j=self.apoc())
        _python(run, WIPE)
        return run

    def langchain(self) -> str:
        """The manual's LangChain walk-through on the private server: its ``my_graph.py`` (the manual's Python
        block, as written) run, then its ``tgneo load index`` and ``tgneo ask`` commands as it shows them."""
        run = self._their_run()
        section = self.pages[self.pages.index("**From an empty machine, with LangChain.**") :]
        commands = re.search(r"```bash\n(.*?)```", section, re.S)
        script = re.search(r"```python\n(.*?)```", section, re.S)
        if not commands or not script:
            raise DocsError("the manual's LangChain walk-through lost its bash or its python block")
        with tempfile.TemporaryDirectory() as folder:
            (Path(folder) / "my_graph.py").write_text(script.group(1), encoding="utf-8")
            _python(run, "", Path(folder) / "my_graph.py")
        shown: list[str] = []
        for line in commands.group(1).splitlines():
            args = shlex.split(line, comments=True)
            if args[:1] == ["tgneo"] and args[1:2] in (["load"], ["ask"]):
                shown += [command(args), run.tgneo(*args[1:]).rstrip()]
        return run.show("\n".join(shown))

    def python_api(self) -> str:
        """The Python API page's first example, as written, on the bundled sample (``tg.load_sample()`` for its
        ``tg.load(["docs/"])``, the sample's first question for pip's): what it prints."""
        run = Run(f"{WORKSPACE}-api", neo4j=self.own())
        run.empty()
        section = self.pages[self.pages.index("# The Python API") :]
        script = re.search(r"```python\n(.*?)```", section, re.S)
        if not script:
            raise DocsError("docs/python-api.md lost its first example")
        code = script.group(1).replace('tg.load(["docs/"])', "tg.load_sample()")
        code = re.sub(r'tg\.ask\("[^"]*"', f"tg.ask({POLONIUM!r}", code)
        if "load_sample" not in code or POLONIUM not in code:
            raise DocsError("docs/python-api.md's first example no longer loads and asks as the recipe expects")
        return run.show(_python(run, code).rstrip())

    def pip_kg(self) -> str:
        """A graph neo4j-graphrag wrote of pip's topic guides (its own components, as the tests write it:
        ``tests/foreign_graphs.py``), asked before and after tgneo's side index, a trace shown, Document RAG."""
        run = self._their_run()
        _python(run, PIP_KG)
        question = PIP_QUESTION
        scope = ["--graph", "neo4j-graphrag", "--collection", "pip-kg"]
        shown: list[str] = []
        asked = run.tgneo("ask", question, *scope)
        shown += [command(["tgneo", "ask", question, *scope]), *_first_lines(asked, 2)]
        loaded = run.tgneo("load", "index", *scope)
        shown += [command(["tgneo", "load", "index", *scope]), loaded.rstrip()]
        explained = run.tgneo("ask", question, "-x", *scope)
        shown += [command(["tgneo", "ask", question, "-x", *scope]), *_shorten_answer(explained.splitlines())]
        uri = trace_of(explained)
        tree = run.tgneo("trace", "show", uri, "--collection", "pip-kg")
        shown += [command(["tgneo", "trace", "show", uri, "--collection", "pip-kg"]), *_first_edge(tree)]
        docrag = ["ask", "How do I disable pip's cache?", "--engine", "document-rag", *scope]
        shown += [command(["tgneo", *docrag]), run.tgneo(*docrag).rstrip()]
        return run.show("\n".join(shown))

    def _pipeline_run(self) -> tuple[Run, str, dict[str, str]]:
        """``scripts/examples/explain_pipelines.py`` on the private server, its model the loopback stand-in (no
        ``OPENAI_BASE_URL``): (run, what it printed, each road's trace show)."""
        if self._pipelines is None:
            run = self._their_run()
            printed = _python(run, "", ROOT / "scripts" / "examples" / "explain_pipelines.py")
            traces = re.findall(r"^trace: +(\S+)", printed, re.M)
            shows = {uri: run.tgneo("trace", "show", uri, "--collection", "pipelines") for uri in traces}
            self._pipelines = (run, printed, shows)
        return self._pipelines

    def _pipeline(self, n: int, show: bool) -> str:
        run, printed, shows = self._pipeline_run()
        sessions = re.findall(r"^answer:[^\n]*\ntrace: +\S+\n(?:sources:[^\n]*\n)?", printed, re.M)
        session = sessions[n].rstrip()
        shown = [session]
        if show:
            uri = trace_of(session.replace("trace:   ", "trace: "))
            shown += ["", command(["tgneo", "trace", "show", uri, "--collection", "pipelines"]),
                      shows[uri].rstrip()]  # fmt: skip
        return run.show("\n".join(shown))

    def pipeline_graphrag(self) -> str:
        """neo4j-graphrag's ``GraphRAG`` wrapped in ``ExplainedGraphRAG``: its answer and its trace."""
        return self._pipeline(0, show=True)

    def pipeline_langchain(self) -> str:
        """The LangChain chain with ``TgneoCallbackHandler``: its answer."""
        return self._pipeline(1, show=False)

    def pipeline_otel(self) -> str:
        """The chain under OpenInference, exported to ``tgneo serve``'s ``/v1/traces``: its answer and its trace."""
        return self._pipeline(2, show=True)

    def trustgraph_cli(self) -> str:
        """What TrustGraph's ``tg-invoke-graph-rag -x`` prints against the demo's server, shortened
        (:func:`_shorten_listing`)."""
        demo = self.demo()
        return demo.run.show("\n".join(_shorten_listing(demo.trustgraph.lstrip("\n").splitlines())))

    def retrieval_chunks(self) -> str:
        """Why Document RAG found its chunks: ``trace show``'s retrieval hits for a question over pip's guides."""
        run, *_ = self._pip()
        return run.show("\n".join(_hits(self._pip_trees[0], "chunk(s)")))

    def retrieval_seeds(self) -> str:
        """Why GraphRAG's seeds were chosen: ``trace show``'s retrieval hits for the pip example's answer."""
        run, *_ = self._pip()
        return run.show("\n".join(_hits(self._pip_trees[1], "seed entity(ies)")))

    def demo(self) -> Demo:
        """``scripts/demo.sh`` from the clone's root, as a newcomer runs it (but on the docs Neo4j, in the docs
        workspace, emptied first so that the sample is loaded anew), until its server answers."""
        if self._demo is not None:
            return self._demo
        port = free_port()
        own = self.own()
        uri = own["NEO4J_URI"]
        run = Run(WORKSPACE, neo4j=own, replacements=[
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
                # TrustGraph's own CLI names the workspace with -w (the manual's command leaves it to its default)
                invoked = subprocess.run(
                    [str(BIN / "tg-invoke-graph-rag"), "-u", f"http://127.0.0.1:{port}/", "-w", run.workspace, "-x",
                     "-q", POLONIUM], env=run.env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                    text=True, timeout=300, check=False,
                )  # fmt: skip
                if invoked.returncode != 0:
                    raise DocsError(f"tg-invoke-graph-rag failed ({invoked.returncode}):\n{invoked.stdout[-3000:]}")
            finally:
                demo.terminate()
                demo.wait(timeout=60)
            output.seek(0)
            printed = output.read()
        if demo.returncode not in (0, -15, 143) or "trace: " not in printed:
            raise DocsError(f"scripts/demo.sh failed ({demo.returncode}):\n{printed[-3000:]}")
        self._demo = Demo(printed, run, streamed, shown_browser, invoked.stdout)
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
        run = Run(f"{WORKSPACE}-stale", neo4j=self.own())
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
        digests of their paths) and loaded from there by the path the manual shows."""
        if self._pip_run is not None:
            return self._pip_run
        # On a new database of its own: a full-text hit's rank (Lucene's BM25) depends on every document the
        # database's index holds or held (deleted ones count until Lucene merges them away), so the same question
        # ranks differently beside other data, as in CI's shared test database.
        run = Run(f"{WORKSPACE}-pip", neo4j=self._new_server(PIP_INSTANCE, (free_port(), free_port())))
        folder = Path("/tmp/tgneo-docs-pip")
        shutil.rmtree(folder, ignore_errors=True)
        corpus = Path("scripts/bench/quality/pip-24.2-topics")
        shutil.copytree(ROOT / corpus, folder / corpus)
        try:
            _, loaded = run.tgneo_apart("load", "documents", str(corpus), "--collection", "pip", cwd=folder)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        question = PIP_QUESTION
        out, err = run.tgneo_apart("ask", "-x", "--collection", "pip", question)
        chunks = trace_of(run.tgneo("ask", "--engine", "document-rag", "--collection", "pip", PIP_QUESTION))
        self._pip_trees = (run.tgneo("trace", "show", chunks, "--collection", "pip"),
                           run.tgneo("trace", "show", trace_of(out + err), "--collection", "pip"))  # fmt: skip
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
        run = Run(f"{WORKSPACE}-prune", neo4j=self.own())
        run.empty()
        fixture = "tests/data/trustgraph_sessions.nq"
        shown: list[str] = []
        for args in (["import", fixture], ["traces", "prune", "--older-than", "30d"]):
            shown += [command(["tgneo", *args]), run.tgneo(*args).rstrip()]
        return run.show("\n".join(shown), masked=False)

    def operations(self) -> str:
        """A document removed by URI from a collection, its answer's trace pruned, the workspace checked."""
        run = Run(f"{WORKSPACE}-ops", shown_workspace="ops", neo4j=self.own())
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


APOC_INSTANCE = "tgneo-docs-apoc"
"""The recipes' private local server with APOC (``tgneo db start --instance …``)."""
OWN_INSTANCE = "tgneo-docs"
"""The recipes' own private local server, a new database each run (:meth:`Recipes.own`)."""
PIP_INSTANCE = "tgneo-docs-pip"
"""The pip examples' private local server, a new database each run (:meth:`Recipes._pip`)."""
WIPE = """
import os
from neo4j import GraphDatabase
auth = (os.environ["NEO4J_USERNAME"], os.environ["NEO4J_PASSWORD"])
with GraphDatabase.driver(os.environ["NEO4J_URI"], auth=auth) as driver:
    with driver.session() as session:
        session.run("MATCH (n) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS").consume()
    for kind in ("CONSTRAINT", "INDEX"):
        names = driver.execute_query(f"SHOW {kind}ES YIELD name, type WHERE NOT name STARTS WITH 'tgneo_' "
                                     "AND type <> 'LOOKUP' RETURN name" if kind == "INDEX" else
                                     "SHOW CONSTRAINTS YIELD name WHERE NOT name STARTS WITH 'tgneo_' RETURN name")
        for record in names.records:
            driver.execute_query(f"DROP {kind} `{record['name']}` IF EXISTS")
"""
"""Empties the private server (a recipe's own graph only, whichever recipe ran there before)."""
PIP_KG = """
import os
from neo4j import GraphDatabase
from tests.foreign_graphs import DIMENSIONS, PIP_TOPICS, read_corpus, their_embedding, write_neo4j_graphrag
auth = (os.environ["NEO4J_USERNAME"], os.environ["NEO4J_PASSWORD"])
with GraphDatabase.driver(os.environ["NEO4J_URI"], auth=auth) as driver:
    write_neo4j_graphrag(driver, read_corpus(sorted(PIP_TOPICS.glob("*.md"))), their_embedding, DIMENSIONS)
"""
"""pip's topic guides written by neo4j-graphrag's own components, fed the facts tgneo's offline extractor reads,
with 1536-dimensional chunk vectors of a model tgneo does not have (what the tests' graph profiles run on)."""


def _python(run: Run, code: str, script: Path | None = None) -> str:
    """This interpreter running ``code`` (or ``script``) from the clone's root in ``run``'s environment: its stdout."""
    args = [sys.executable, str(script)] if script else [sys.executable, "-c", code]
    result = subprocess.run(args, env={**run.env, "PYTHONPATH": str(ROOT)}, cwd=ROOT, capture_output=True, text=True,
                            timeout=600, check=False)  # fmt: skip
    if result.returncode != 0:
        raise DocsError(f"{shlex.join(args[:2])} failed ({result.returncode}):\n{result.stderr[-3000:]}")
    return result.stdout


def _first_lines(text: str, n: int) -> list[str]:
    lines = text.rstrip().splitlines()
    return lines[:n] + (["…"] if len(lines) > n else [])


def _shorten_answer(lines: list[str]) -> Iterator[str]:
    """``ask -x`` shortened: a Focus keeps its first edge, the answer sentences their first (then ``  …``)."""
    sentences = 0
    for line in _shorten(lines, edges_kept=1):
        if re.match(r"  \[\d+\] ", line):
            sentences += 1
            if sentences == 2:
                yield "  …"
        if sentences >= 2 and line.startswith("  ") and not line.startswith("  - "):
            continue
        yield line


def _first_edge(tree: str) -> list[str]:
    """``trace show``'s first selected edge with the lines under it, after ``…``."""
    lines = tree.rstrip().splitlines()
    first = next((i for i, line in enumerate(lines) if " score " in line and "(" in line), None)
    if first is None:
        raise DocsError(f"no selected edge in\n{tree[-2000:]}")
    depth = len(lines[first]) - len(lines[first].lstrip("│ "))
    under = [line for line in lines[first + 1 : first + 3] if len(line) - len(line.lstrip("│ ")) > depth]
    return ["…", lines[first], *under]


def _shorten_listing(lines: list[str]) -> Iterator[str]:
    """``tg-invoke-graph-rag -x`` shortened: a list of concepts or seed entities to its first item and ``…``, the
    Focus's edges to their first two (with their concept lines), then ``      …``."""
    mode, count = "", 0
    for line in lines:
        if re.match(r"    (Concepts|Seed entities): \d+$", line) or line.startswith("    Focused on "):
            mode, count = ("edges" if line.startswith("    Focused") else "list"), 0
        elif mode == "list" and line.startswith("      - "):
            count += 1
            if count == 1:
                yield line + " …"
            continue
        elif mode == "edges" and line.startswith("      "):
            count += line.startswith("      Edge: ")
            if count <= 2:
                yield line
            elif count == 3 and line.startswith("      Edge: "):
                yield "      …"
            continue
        else:
            mode = ""
        yield line


def _hits(tree: str, what: str, kept: int = 4) -> list[str]:
    """``trace show``'s list of retrieval hits (``found N {what}: …``) out of its tree: its first ``kept`` hits,
    then ``└── …``."""
    lines = tree.splitlines()
    at = next((i for i, line in enumerate(lines) if "── found " in line and f" {what}: " in line), None)
    if at is None:
        raise DocsError(f"no 'found … {what}' in\n{tree[-2000:]}")
    indent = lines[at].index("found ")
    hits = [line[indent:] for line in lines[at + 1 :] if line[indent:].startswith(("├── #", "└── #"))]
    return [lines[at][indent:], *(LUCENE_SCORE.sub(r"\1(…)", hit) for hit in hits[:kept]), "└── …"]


LUCENE_SCORE = re.compile(r"(full text #\d+ )\([\d.]+\)")
"""A full-text hit's score: Lucene's BM25 weighs a word by how rare it is in the whole index, every workspace and
collection of the database, so the same question scores differently beside other data (CI's shared test database
holds the whole suite's). Its rank, which the fused score is made of, stays."""


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


def _shorten(lines: list[str], edges_kept: int = 2) -> Iterator[str]:
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
            if edges == edges_kept + 1:
                yield "    …"
        if edges > edges_kept and line.startswith(("    Edge: (", "      ")):
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
    "trustgraph-cli": Recipes.trustgraph_cli,
    "langchain": Recipes.langchain,
    "pip-kg": Recipes.pip_kg,
    "pipeline-graphrag": Recipes.pipeline_graphrag,
    "pipeline-langchain": Recipes.pipeline_langchain,
    "pipeline-otel": Recipes.pipeline_otel,
    "retrieval-chunks": Recipes.retrieval_chunks,
    "retrieval-seeds": Recipes.retrieval_seeds,
    "db-status": Recipes.db_status,
    "python-api": Recipes.python_api,
}
"""Every recipe, by the name its marker gives."""


def regenerate(
    pages: dict[Path, str], only: set[str] | None = None, made: dict[str, str] | None = None
) -> dict[Path, str]:
    """``pages`` (their texts by path) with every marked block (or those of ``only``) replaced by what its recipe
    prints now (or by what ``made`` holds for it: the recipes' blocks, filled in as they run).

    Raises:
        DocsError: a marker names no recipe, a recipe has no marker, or a recipe failed.
    """
    named = [m.group(1) for text in pages.values() for m in MARKER.finditer(text)]
    unknown = sorted(set(named) - set(RECIPES))
    if unknown:
        raise DocsError(f"the pages name recipes scripts/docs.py does not have: {', '.join(unknown)}")
    missing = sorted(set(RECIPES) - set(named))
    if missing:
        raise DocsError(f"recipes no page's marker names (<!-- docs: NAME --> before a fence): {', '.join(missing)}")
    recipes = Recipes("\n".join(pages.values()))
    made = {} if made is None else made

    def replace(match: re.Match[str]) -> str:
        name = match.group(1)
        if only is not None and name not in only:
            return match.group(0)
        if name not in made:
            made[name] = RECIPES[name](recipes).rstrip("\n")
        head = match.group(0)[: match.start(2) - match.start(0)]
        return f"{head}{made[name]}\n```"

    try:
        return {path: MARKER.sub(replace, text) for path, text in pages.items()}
    finally:
        recipes.close()


@contextmanager
def _timed(label: str) -> Iterator[None]:
    began = time.monotonic()
    yield
    print(f"{label} in {time.monotonic() - began:.0f} s", file=sys.stderr)


def _read(paths: Sequence[Path]) -> dict[Path, str]:
    return {path: path.read_text(encoding="utf-8") for path in paths}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 with a diff when a page differs")
    parser.add_argument("--only", action="append", choices=sorted(RECIPES), help="run only this recipe (repeatable)")
    args = parser.parse_args(argv)
    pages = _read(PAGES)
    only = set(args.only) if args.only else None
    made: dict[str, str] = {}
    try:
        with _timed("recipes ran"):
            new = regenerate(pages, only, made)
        now = _read(PAGES)
        if not args.check and now != pages:  # edited while the recipes ran: the blocks go into the edited text
            new = regenerate(now, only, made)
            pages = now
    except DocsError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    changed = [path for path in PAGES if new[path] != pages[path]]
    if args.check:
        for path in changed:
            name = str(path.relative_to(ROOT))
            sys.stdout.writelines(difflib.unified_diff(pages[path].splitlines(True), new[path].splitlines(True), name,
                                                       f"{name} (regenerated)"))  # fmt: skip
        if changed:
            print("the pages differ from what scripts/docs.py writes: run scripts/docs.py", file=sys.stderr)
            return 1
        return 0
    for path in changed:
        path.write_text(new[path], encoding="utf-8")
        print(f"{path.relative_to(ROOT)}: regenerated", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
