"""The README's main command, `scripts/demo.sh`, run as a user runs it: sample loaded, one question
explained with its sources and trace, then the server up (here against the test Neo4j, in a test collection)."""

from __future__ import annotations

import subprocess
import time
import uuid
from pathlib import Path

import pytest
import requests

from tests.conftest import Neo4jServer
from tgneo.ingest.sample import QUESTIONS
from tgneo.provision.server import free_port

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parent.parent


def test_the_demo_loads_the_sample_explains_an_answer_and_serves(neo4j_server: Neo4jServer) -> None:
    port = free_port()
    env = {**neo4j_server.env(), "TGNEO_PORT": str(port), "TGNEO_COLLECTION": f"test-demo-{uuid.uuid4().hex[:8]}"}
    demo = subprocess.Popen(
        ["bash", str(ROOT / "scripts" / "demo.sh")], cwd=ROOT, env=env, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 600
        ready = None
        while time.monotonic() < deadline and demo.poll() is None:
            try:
                ready = requests.get(f"http://127.0.0.1:{port}/readyz", timeout=2)
                break
            except requests.ConnectionError:
                time.sleep(1)
        assert ready is not None and ready.status_code == 200, "the demo's server never became ready"
    finally:
        demo.terminate()
        out, err = demo.communicate(timeout=60)
    assert out.startswith("Polonium was named after Poland, the native country of Marie Curie.\n")  # the answer first
    for line in ("[GraphRagQuestion]", "[Focus]", "Edge: (", "Sources:", "trace: urn:trustgraph:question:",
                 "tgneo API       http://127.0.0.1:", "More questions the sample answers:"):  # fmt: skip
        assert line in err, line
    assert "Traceback" not in err
    more = err.split("More questions the sample answers:")[1]
    asked = out.split("\n")[0]
    assert f'tgneo ask -x "{QUESTIONS[0].text}"' not in more and asked  # not the question just asked
    assert f'tgneo ask -x "{QUESTIONS[1].text}"' in more


def test_installing_tgneo_editable_prints_no_setuptools_warning_block(tmp_path: Path) -> None:
    """The first run of the demo installs tgneo editable into .venv; setuptools must not print its block about
    "folders with the same name as your package" among the demo's own progress lines (it does so for a
    package it cannot place with a single path entry)."""
    import sys

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True)
    python = str(venv / "bin" / "python")
    # the build backend pyproject.toml names, from PyPI (as pip's isolated build gets it)
    subprocess.run([python, "-m", "pip", "install", "-q", "setuptools>=77", "wheel"], check=True, capture_output=True)
    build = subprocess.run(
        [python, "-c", f"from setuptools import build_meta; print(build_meta.build_editable({str(tmp_path)!r}))"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert build.returncode == 0, build.stderr[-2000:]
    said = " ".join((build.stdout + build.stderr).split())
    assert build.stdout.strip().endswith(".whl") and "same name as your package" not in said
    assert "Editable installation" not in said
