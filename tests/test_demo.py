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
