"""A real OpenTelemetry Collector for the tests: built from its Go modules (tests/otelcol/), run on loopback.

The Collector's releases ship as binaries on GitHub, which this project's machines cannot reach; its modules are on
the Go module proxy, which they can. ``tests/otelcol/`` is a distribution's main as the Collector's builder writes
one (OTLP receiver; otlphttp and debug exporters) with its ``go.sum``; :func:`collector_binary` builds it once per
source into ``$TGNEO_HOME/otelcol/`` with the machine's Go (Go 1.26, which the machine's image carries), and a
machine without Go fails the tests that need it, naming what is missing.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import yaml

from tests.serving import ROOT
from tgneo.config import default_home
from tgneo.provision.server import free_port

SOURCE = ROOT / "tests" / "otelcol"
BUILD_SECONDS = 1200
"""The longest the first build may take (module downloads included; about 4 minutes on a 2-core machine)."""


def collector_binary() -> Path:
    """The Collector built from ``tests/otelcol`` (once per version of its sources; later calls find it)."""
    digest = hashlib.sha256(b"".join((SOURCE / n).read_bytes() for n in ("main.go", "go.mod", "go.sum")))
    binary = default_home() / "otelcol" / digest.hexdigest()[:16] / "otelcol-tgneo-test"
    if binary.exists():
        return binary
    go = shutil.which("go") or ("/usr/local/go/bin/go" if Path("/usr/local/go/bin/go").exists() else None)
    assert go is not None, "building the OpenTelemetry Collector for these tests needs Go 1.26 (`go` on PATH)"
    binary.parent.mkdir(parents=True, exist_ok=True)
    partial = binary.with_suffix(".part")
    env = {**os.environ, "GOFLAGS": "-mod=readonly", "GOTOOLCHAIN": "local"}
    build = subprocess.run([go, "build", "-trimpath", "-o", str(partial), "."], cwd=SOURCE, env=env,
                           capture_output=True, text=True, timeout=BUILD_SECONDS, check=False)  # fmt: skip
    assert build.returncode == 0, f"go build of tests/otelcol failed:\n{build.stderr[-4000:]}"
    partial.replace(binary)
    return binary


@dataclass(frozen=True)
class RunningCollector:
    """A Collector process: its OTLP/HTTP receiver's base URL, and what it has logged so far."""

    base: str
    log_file: Path

    def log(self) -> str:
        return self.log_file.read_text(encoding="utf-8", errors="replace")

    def wait_for_log(self, text: str, timeout: float = 60) -> str:
        """The log once it holds ``text`` (a Collector exports in the background)."""
        deadline = time.monotonic() + timeout
        while text not in (seen := self.log()):
            assert time.monotonic() < deadline, f"the Collector did not log {text!r} within {timeout}s:\n{seen[-4000:]}"
            time.sleep(0.2)
        return seen


@contextmanager
def collector(exporters: dict[str, dict[str, object]]) -> Iterator[RunningCollector]:
    """A Collector whose traces pipeline takes OTLP/HTTP on a free loopback port and sends to ``exporters``.

    Args:
        exporters: the ``exporters`` section (e.g. ``{"otlphttp/a": {"endpoint": url}}``); every one of them is
            in the pipeline. Its own metrics are off (they would bind port 8888, ``tgneo serve``'s default).
    """
    port = free_port()
    config = {
        "receivers": {"otlp": {"protocols": {"http": {"endpoint": f"127.0.0.1:{port}"}}}},
        "exporters": exporters,
        "service": {
            "telemetry": {"metrics": {"level": "none"}, "logs": {"level": "info", "encoding": "console"}},
            "pipelines": {"traces": {"receivers": ["otlp"], "exporters": list(exporters)}},
        },
    }
    binary = collector_binary()
    with tempfile.TemporaryDirectory(prefix="otelcol-") as folder:
        config_file, log_file = Path(folder) / "config.yaml", Path(folder) / "collector.log"
        config_file.write_text(yaml.safe_dump(config), encoding="utf-8")
        with log_file.open("w", encoding="utf-8") as output:
            proc = subprocess.Popen([str(binary), "--config", f"file:{config_file}"], stdout=output,
                                    stderr=subprocess.STDOUT)  # fmt: skip
            running = RunningCollector(f"http://127.0.0.1:{port}", log_file)
            try:
                deadline = time.monotonic() + 60
                while not _listening(port):
                    assert proc.poll() is None, f"the Collector exited at start:\n{running.log()}"
                    assert time.monotonic() < deadline, f"the Collector did not listen within 60s:\n{running.log()}"
                    time.sleep(0.1)
                yield running
            finally:
                proc.terminate()
                try:
                    proc.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()


def _listening(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(0.5)
        return probe.connect_ex(("127.0.0.1", port)) == 0
