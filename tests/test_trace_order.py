"""The CLI's order is the trace's order: steps in derivation order (each after its parents, a sub-trace
whole under the iteration that called it), selected edges best score first — in ``trace show``, its
``--json`` and ``ask -x`` alike."""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

import pytest

from tests.clirun import tgneo
from tests.conftest import Neo4jServer
from tgneo.engines import Agent, GraphRag, Request
from tgneo.explain.events import SessionEnd
from tgneo.ingest.loader import load_documents
from tgneo.ingest.sample import QUESTIONS, sources
from tgneo.llm.offline import OfflineLLM
from tgneo.store import Store
from tgneo.store.traces import derivation_order

W = f"test-ws-order-{uuid.uuid4().hex[:8]}"
WIDE = {"edge_score_limit": 300, "edge_limit": 25}


def step(uri: str, *parents: str) -> dict[str, Any]:
    return {"uri": uri, "parents": list(parents)}


def test_derivation_order_follows_each_branch_to_its_end_and_puts_iteration_2_before_10() -> None:
    a = "urn:trustgraph:agent:s"
    steps = [
        step(f"{a}/i10", f"{a}/i2/observation"), step(f"{a}/i2/observation", "urn:sub/synthesis"),
        step("urn:sub/synthesis", "urn:sub/question"), step(f"{a}/i2", f"{a}/i1/observation"),
        step("urn:sub/question", f"{a}/i2"), step(f"{a}/i1/observation", f"{a}/i1"), step(f"{a}/i1", a), step(a),
    ]  # fmt: skip
    assert [s["uri"] for s in derivation_order(steps)] == [
        a, f"{a}/i1", f"{a}/i1/observation", f"{a}/i2", "urn:sub/question", "urn:sub/synthesis",
        f"{a}/i2/observation", f"{a}/i10",
    ]  # fmt: skip


def test_derivation_order_waits_for_every_parent_and_keeps_what_a_cycle_holds_back() -> None:
    steps = [step("s", "f1", "f2"), step("f2", "d"), step("f1", "d"), step("d"), step("x", "y"), step("y", "x")]
    assert [s["uri"] for s in derivation_order(steps)] == ["d", "f1", "f2", "s", "x", "y"]


@pytest.fixture(scope="module")
def sample(store: Store) -> str:
    collection = f"test-order-{uuid.uuid4().hex[:8]}"
    assert load_documents(store, OfflineLLM(), W, collection, sources()).loaded == 4
    return collection


def scores_in(text: str, pattern: str) -> list[float]:
    return [float(s) for s in re.findall(pattern, text)]


def test_trace_show_lists_selected_edges_best_first_in_text_and_json(
    neo4j_server: Neo4jServer, store: Store, sample: str
) -> None:
    events = list(GraphRag(store, OfflineLLM()).answer(Request(QUESTIONS[2].text, W, sample, WIDE)))
    end = events[-1]
    assert isinstance(end, SessionEnd) and end.trace
    args = ("trace", "show", end.trace, "--workspace", W, "--collection", sample)
    shown = scores_in(tgneo(neo4j_server, *args).stdout, r"\) score (\d+\.\d+)")
    assert len(shown) == 25 and shown == sorted(shown, reverse=True)
    data = json.loads(tgneo(neo4j_server, *args, "--json").stdout)
    (focus,) = [s for s in data["steps"] if s["type"] == "Focus"]
    assert [e["score"] for e in focus["edges"]] == sorted((e["score"] for e in focus["edges"]), reverse=True)


def test_ask_x_lists_selected_edges_best_first(neo4j_server: Neo4jServer, sample: str) -> None:
    options = [arg for key, value in WIDE.items() for arg in ("-o", f"{key}={value}")]
    result = tgneo(neo4j_server, "ask", "-x", *options, "--workspace", W, "--collection", sample, QUESTIONS[2].text)
    shown = scores_in(result.stderr, r"Score: (\d+\.\d+)")
    assert len(shown) == 25 and shown == sorted(shown, reverse=True)


def test_trace_show_json_lists_an_agent_s_steps_in_derivation_order(
    neo4j_server: Neo4jServer, store: Store, sample: str
) -> None:
    events = list(Agent(store, OfflineLLM()).answer(Request(QUESTIONS[2].text, W, sample, {"pattern": "react"})))
    end = events[-1]
    assert isinstance(end, SessionEnd) and end.trace
    data = json.loads(tgneo(neo4j_server, "trace", "show", end.trace, "--workspace", W, "--collection", sample,
                            "--json").stdout)  # fmt: skip
    position = {s["uri"]: i for i, s in enumerate(data["steps"])}
    for s in data["steps"]:
        assert all(position[p] < position[s["uri"]] for p in s["parents"] if p in position), s["uri"]
    types = [s["type"] for s in data["steps"]]
    assert types[0] == "AgentQuestion" and types[-1] == "Conclusion"
    sub = types.index("GraphRagQuestion")  # the sub-trace whole, right after the iteration that called it
    assert types[sub - 1] in ("Analysis", "Thought") and types[sub : sub + 5] == [
        "GraphRagQuestion", "Grounding", "Exploration", "Focus", "Synthesis"
    ]  # fmt: skip
