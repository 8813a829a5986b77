"""The previous tgneo, run beside this one: a checkout of an earlier commit against a Neo4j of its own.

The benches compare the graph model before and after (issue 27) in one run, on one machine. The two
models cannot share a database: they name their indexes alike on different labels, and this tgneo
refuses a database of the old model until it is migrated. So the earlier tgneo gets a private local
server (instance ``bench-before``, free ports, the same Neo4j jars and settings as every local
instance), started for the run and stopped after it; its data is deleted by the bench that wrote it.

Make the checkout once, for example of the last commit of graph model 1::

    git worktree add /tmp/tgneo-model1 bfa5641

and pass ``--before /tmp/tgneo-model1``. The earlier code runs with this environment's packages, from
its own folder (so ``import tgneo`` finds its copy first).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from types import TracebackType
from typing import Any

from tgneo.config import default_home
from tgneo.provision import LocalNeo4j
from tgneo.provision.server import free_port

INSTANCE = "bench-before"


class Before:
    """A context: the earlier tgneo's checkout and a running private Neo4j for it."""

    def __init__(self, tree: Path) -> None:
        self.tree = tree.resolve()
        if not (self.tree / "tgneo" / "__init__.py").is_file():
            raise SystemExit(f"--before {tree}: not a tgneo checkout (no tgneo/__init__.py); see before.py")
        self.commit = subprocess.run(["git", "-C", str(self.tree), "rev-parse", "--short", "HEAD"], capture_output=True,
                                     text=True, check=False).stdout.strip() or "?"  # fmt: skip
        self._server: LocalNeo4j | None = None
        self._started = False
        self._env: dict[str, str] = {}

    def __enter__(self) -> Before:
        probe = LocalNeo4j(default_home(), INSTANCE)
        self._started = not probe.status().running
        server = (
            LocalNeo4j(default_home(), INSTANCE, bolt_port=free_port(), http_port=free_port(), auth=True)
            if self._started
            else probe
        )
        status = server.start(timeout=240)
        self._server = server
        instance = status.instance
        self._env = {**os.environ, "NEO4J_URI": instance.bolt_uri, "NEO4J_USERNAME": "neo4j",
                     "NEO4J_PASSWORD": instance.password() or "", "PYTHONPATH": str(self.tree)}  # fmt: skip
        self._env.pop("NEO4J_DATABASE", None)
        print(f"before: tgneo {self.commit} from {self.tree}, on its own Neo4j at {instance.bolt_uri}", flush=True)
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        if self._server is not None and self._started:
            self._server.stop()

    @property
    def env(self) -> dict[str, str]:
        """``NEO4J_*`` of the private server, and the checkout first on the path."""
        return dict(self._env)

    def run(self, args: list[str], timeout: float = 7200) -> tuple[float, str]:
        """Seconds and stdout of ``python ARGS`` run by the earlier tgneo (from its folder); fails loudly."""
        started = time.perf_counter()
        result = subprocess.run([sys.executable, *args], cwd=self.tree, env=self._env, capture_output=True, text=True,
                                timeout=timeout, check=False)  # fmt: skip
        seconds = time.perf_counter() - started
        if result.returncode != 0:
            raise SystemExit(f"before: python {' '.join(args)} failed:\n{result.stderr[-3000:]}")
        return seconds, result.stdout

    def bench(self, script: str, *args: str) -> dict[str, Any]:
        """The last JSON line of the earlier checkout's own ``scripts/bench/SCRIPT``."""
        _, out = self.run([f"scripts/bench/{script}", *args])
        result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
        return result

    def query(self, cypher: str, **params: Any) -> list[dict[str, Any]]:
        """Rows of one query on the private server (to count or delete what the earlier tgneo wrote)."""
        from neo4j import GraphDatabase

        env = self._env
        with GraphDatabase.driver(env["NEO4J_URI"], auth=(env["NEO4J_USERNAME"], env["NEO4J_PASSWORD"])) as driver:
            with driver.session() as session:
                return [record.data() for record in session.run(cypher, **params)]
