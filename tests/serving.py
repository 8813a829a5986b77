"""Real servers for the tests: ``tgneo serve`` in a subprocess on a free port, and who may use it."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import requests

from tests.ingesting import query
from tests.openai_server import OpenAIServer
from tgneo.store import Store

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = Path(sys.executable).parent


@contextmanager
def running(args: list[str], env: dict[str, str], port: int, log: list[str] | None = None) -> Iterator[str]:
    """Run a server subprocess until it answers /healthz; yield its base URL; stop it (SIGTERM).

    ``log``, when given, receives the server's output lines after it stopped. The output goes to a file,
    never a pipe: nobody reads a pipe while the server runs, and once its buffer is full (a session's worth
    of JSON access-log lines) every request thread blocks writing its log line and the server hangs.
    """
    output = tempfile.TemporaryFile(mode="w+", encoding="utf-8")
    proc = subprocess.Popen(args, env=env, cwd=ROOT, stdout=output, stderr=subprocess.STDOUT, text=True)

    def printed() -> str:
        output.seek(0)
        return output.read()

    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                raise AssertionError(f"server exited early:\n{printed()}")
            try:
                if requests.get(f"{base}/healthz", timeout=1).status_code == 200:
                    break
            except (requests.ConnectionError, requests.Timeout):  # not listening yet, or too busy starting to answer
                pass
            if time.monotonic() > deadline:
                raise AssertionError("server did not answer /healthz within 60s")
            time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if log is not None:
            log.extend(printed().splitlines())
        output.close()


def serve_cmd(port: int, *extra: str) -> list[str]:
    from tests.clirun import TGNEO

    return [*TGNEO, "serve", "--port", str(port), *extra]


@contextmanager
def open_serving(env: Mapping[str, str], store: Store, workspace: str) -> Iterator[str]:
    """``tgneo serve`` without ``TGNEO_TOKENS`` (it trusts loopback callers, as the pages a person opens
    do); yields its base URL; deletes ``workspace``'s nodes afterwards, whatever the test wrote there."""
    from tgneo.provision.server import free_port

    port = free_port()
    try:
        with running(
            serve_cmd(port, "--workers", "1"), {k: v for k, v in env.items() if k != "TGNEO_TOKENS"}, port
        ) as base:
            yield base
    finally:
        query(store, "MATCH (n {workspace: $w}) DETACH DELETE n", w=workspace)


@dataclass(frozen=True)
class Tenant:
    """A workspace with its token and a collection holding the sample corpus."""

    token: str
    workspace: str
    collection: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def tg_env(self, base: str) -> dict[str, str]:
        """Environment for TrustGraph's CLI: its URL and this tenant's token."""
        env = {k: v for k, v in os.environ.items() if not k.startswith("TRUSTGRAPH_")}
        return {**env, "TRUSTGRAPH_URL": base + "/", "TRUSTGRAPH_TOKEN": self.token}


@dataclass(frozen=True)
class Served:
    """A running server with two tenants (``a``, ``b``) that must never see each other."""

    base: str
    a: Tenant
    b: Tenant

    @property
    def ws(self) -> str:
        return self.base.replace("http://", "ws://")


SLOW_MODEL_SECONDS = 0.3
"""How long the ``slow_served`` fixture's model takes for each chat answer."""


@dataclass(frozen=True)
class SlowServed(Served):
    """A running server whose LLM is a slow loopback model (``model``: what it received, its delay)."""

    model: OpenAIServer

    def chat_requests(self) -> int:
        return len(self.model.requests_to("/v1/chat/completions"))


def new_tenant(name: str) -> Tenant:
    tag = uuid.uuid4().hex[:8]
    return Tenant(f"tok-{name}-{uuid.uuid4().hex}", f"test-ws-{name}-{tag}", f"test-serving-{tag}")


def tg(command: str, *args: str, env: dict[str, str], timeout: float = 180) -> subprocess.CompletedProcess[str]:
    """Run one of TrustGraph's own ``tg-*`` commands (trustgraph-cli 2.11.1, unmodified)."""
    return subprocess.run(
        [str(VENV_BIN / command), *args], env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
