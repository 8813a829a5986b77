"""The README's main command, `scripts/demo.sh`, run as a user runs it: sample loaded, one question
explained with its sources and trace, then the server up (here against the test Neo4j, in a test collection)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests

from tests.conftest import Neo4jServer
from tgneo.ingest.sample import QUESTIONS
from tgneo.provision.server import free_port

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class DemoRun:
    """What one run of ``scripts/demo.sh`` printed, and the collection it used."""

    out: str
    err: str
    collection: str
    ready: bool


@pytest.fixture(scope="module")
def demo(neo4j_server: Neo4jServer) -> DemoRun:
    """``scripts/demo.sh`` run once, from the clone's root, until its server answers (then stopped). With
    ``TGNEO_BOOTSTRAP=0``: the test suite's own run of scripts/bootstrap.sh made .venv, which the demo's would only
    install into again (and the suite must not change the environment it runs in)."""
    port = free_port()
    collection = f"test-demo-{uuid.uuid4().hex[:8]}"
    env = {**neo4j_server.env(), "TGNEO_PORT": str(port), "TGNEO_COLLECTION": collection, "TGNEO_BOOTSTRAP": "0"}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"  # this .venv's tgneo, as is
    env.pop("VIRTUAL_ENV", None)  # as from a shell that has not activated .venv
    demo = subprocess.Popen(
        ["bash", str(ROOT / "scripts" / "demo.sh")], cwd=ROOT, env=env, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    ready = None
    try:
        deadline = time.monotonic() + 600
        while time.monotonic() < deadline and demo.poll() is None:
            try:
                ready = requests.get(f"http://127.0.0.1:{port}/readyz", timeout=2)
                break
            except requests.ConnectionError:
                time.sleep(1)
    finally:
        demo.terminate()
        out, err = demo.communicate(timeout=60)
    return DemoRun(out, err, collection, ready is not None and ready.status_code == 200)


def test_the_demo_loads_the_sample_explains_an_answer_and_serves(demo: DemoRun) -> None:
    assert demo.ready, f"the demo's server never became ready:\n{demo.err[-3000:]}"
    out, err = demo.out, demo.err
    assert out.startswith("Polonium was named after Poland, the native country of Marie Curie.")  # the answer first
    for line in ("[GraphRagQuestion]", "[Focus]", "Edge: (", "Sources:", "trace: urn:trustgraph:question:",
                 "tgneo API       http://127.0.0.1:", "More questions the sample answers:"):  # fmt: skip
        assert line in err, line
    assert "Traceback" not in err
    more = err.split("More questions the sample answers:")[1]
    asked = out.split("\n")[0]
    assert f'tgneo ask -x "{QUESTIONS[0].text}"' not in more and asked  # not the question just asked
    assert f'tgneo ask -x "{QUESTIONS[1].text}"' in more


def test_the_demo_s_closing_commands_work_as_printed_in_a_new_shell(neo4j_server: Neo4jServer, demo: DemoRun) -> None:
    """A new shell has neither .venv on its PATH nor the demo's TGNEO_* variables: the closing lines say how to
    put tgneo on the PATH, and carry the collection; run so, a printed question and the trace hint work."""
    (activate,) = [line.split(":  ", 1)[1] for line in demo.err.splitlines() if "put it on your PATH" in line]
    assert activate == "source .venv/bin/activate"
    question = next(line.strip() for line in demo.err.split("More questions the sample answers:")[1].splitlines()
                    if line.strip().startswith("tgneo ask -x"))  # fmt: skip
    assert question.endswith(f" --collection {demo.collection}")
    trace = next(line for line in demo.err.splitlines() if line.startswith("trace: ")).removeprefix("trace: ")
    fresh = {k: v for k, v in neo4j_server.env().items() if not k.startswith(("TGNEO_", "VIRTUAL_ENV"))}
    fresh["PATH"] = os.pathsep.join(p for p in fresh.get("PATH", "").split(os.pathsep) if ".venv" not in p)
    shell = subprocess.run(
        ["bash", "-c", f"{activate} && {question} && tgneo trace show {trace}"], cwd=ROOT, env=fresh,
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert shell.returncode == 0, shell.stderr[-2000:]
    assert shell.stdout.count("Synthesis") >= 1 and "trace: urn:trustgraph:question:" in shell.stderr


def test_installing_tgneo_editable_prints_no_setuptools_warning_block(tmp_path: Path) -> None:
    """The first run of the demo installs tgneo editable into .venv; setuptools must not print its block about
    "folders with the same name as your package" among the demo's own progress lines (it does so for a
    package it cannot place with a single path entry)."""
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
