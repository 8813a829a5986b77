"""Faults survived, against real processes: Neo4j stopped and started under 20 streams and 4 imports,
``tgneo serve`` killed with SIGKILL mid-question, a short soak — and the health check that judges them.

The fault rounds are ``scripts/bench/chaos.py`` itself (run once, on its private Neo4j instance, so stopping that
Neo4j disturbs no other test; it needs nothing from the session, so it starts with the session,
:mod:`tests.head_start`, and runs beside the tests before these); each test below states one of its promises
against the figures it printed. The health check is tested on the shared server, with and without a
deliberately half-written step, so that a check that could not fail would be caught here.
"""

from __future__ import annotations

import json
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest

from tests.head_start import Command, finished
from tests.ingesting import query
from tgneo.engines import GraphRag, Request
from tgneo.ingest.loader import load_documents
from tgneo.ingest.sample import QUESTIONS, sources
from tgneo.llm.offline import OfflineLLM
from tgneo.store import Store
from tgneo.store.health import half_written

ROOT = Path(__file__).resolve().parents[1]
W = f"test-ws-faults-{uuid.uuid4().hex[:8]}"


CHAOS = Command(
    "chaos", (sys.executable, str(ROOT / "scripts/bench/chaos.py"), "--quick", "--soak-seconds", "20"), ROOT, 1500,
    drop=("NEO4J_",),
)  # fmt: skip
"""The chaos bench, on its own instance (no ``NEO4J_*`` in its environment)."""


@pytest.fixture(scope="module")
def chaos(request: pytest.FixtureRequest) -> dict[str, Any]:
    """The chaos bench's last line: restart and kill rounds, and a 20-second soak."""
    result = finished(request.config, CHAOS)
    lines = result.stdout.strip().splitlines()
    assert lines, f"the chaos bench printed nothing:\n{result.stderr[-3000:]}"
    figures: dict[str, Any] = json.loads(lines[-1])
    figures["stderr"] = result.stderr
    return figures


@pytest.mark.head_start(CHAOS)
def test_no_stream_hangs_when_neo4j_restarts_under_20_questions(chaos: dict[str, Any]) -> None:
    assert chaos["ratios"]["chaos_hung_streams"] == 0, chaos["stderr"][-2000:]


@pytest.mark.head_start(CHAOS)
def test_nothing_is_half_written_after_a_neo4j_restart_and_a_sigkill_of_serve(chaos: dict[str, Any]) -> None:
    assert chaos["ratios"]["chaos_half_written"] == 0, chaos["stderr"][-2000:]


@pytest.mark.head_start(CHAOS)
def test_each_import_cut_by_the_restart_committed_whole_or_left_nothing(chaos: dict[str, Any]) -> None:
    assert chaos["ratios"]["chaos_imports_partial"] == 0, chaos["stderr"][-2000:]


@pytest.mark.head_start(CHAOS)
def test_readyz_goes_red_while_neo4j_is_down_and_green_when_it_is_back(chaos: dict[str, Any]) -> None:
    assert chaos["ratios"]["chaos_readyz_red_then_green"] == 1


@pytest.mark.head_start(CHAOS)
def test_a_server_restarted_after_sigkill_answers_again(chaos: dict[str, Any]) -> None:
    assert chaos["ratios"]["chaos_answered_after_kill"] == 1


@pytest.mark.head_start(CHAOS)
def test_a_soak_loses_no_explain_event(chaos: dict[str, Any]) -> None:
    soak = chaos["absolute"]["soak"]
    assert soak["questions"] > 0 and soak["failed"] == 0
    assert chaos["ratios"]["soak_lost_events"] == 0
    assert chaos["ratios"]["soak_rss_growth"] > 0 and chaos["ratios"]["soak_p95_drift"] > 0  # measured, not asserted


def test_the_health_check_passes_answered_questions_and_names_a_half_written_step(store: Store) -> None:
    collection = f"test-faults-{uuid.uuid4().hex[:8]}"
    assert load_documents(store, OfflineLLM(), W, collection, sources()).loaded == 4
    list(GraphRag(store, OfflineLLM()).answer(Request(QUESTIONS[0].text, W, collection)))
    assert half_written(store, W) == []
    orphan = f"urn:trustgraph:prov:focus:{uuid.uuid4()}"
    query(store, """CREATE (:TgResource:TgExplain:ProvEntity:Focus
                     {workspace: $w, collection: $c, uri: $u, kind: 'iri', graph: 'urn:graph:retrieval'})""",
          w=W, c=collection, u=orphan)  # fmt: skip
    assert [(p.uri, p.problem) for p in half_written(store, W)] == [(orphan, "orphan step")]
    query(store, "MATCH (n:TgResource {workspace: $w, collection: $c, uri: $u}) DELETE n", w=W, c=collection, u=orphan)
    assert half_written(store, W) == []
