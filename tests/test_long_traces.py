"""A trace of any length comes back whole — from the reader, the CLI and export — or says it was cut."""

from __future__ import annotations

import pytest

from tests import scenarios
from tests.clirun import tgneo
from tests.conftest import Neo4jServer
from tgneo.explain.recorder import Recorder
from tgneo.rdf.star import parse
from tgneo.store import Store
from tgneo.store.rdf_export import export_quads
from tgneo.store.traces import get_trace, list_traces

ITERATIONS = 40  # 82 steps in one chain, 81 derivations deep: deeper than any fixed bound we once had


@pytest.fixture
def long_trace(store: Store, collection: str) -> list[scenarios.Step]:
    steps = scenarios.long_react(ITERATIONS)
    recorder = Recorder(store, "w", collection)
    for step, contents in steps:
        recorder.record(step, contents)
    return steps


def test_a_long_trace_reads_back_with_every_step(
    store: Store, collection: str, long_trace: list[scenarios.Step]
) -> None:
    trace = get_trace(store, "w", collection, long_trace[0][0].uri)
    assert len(trace["steps"]) == 2 * ITERATIONS + 2
    assert {s["uri"] for s in trace["steps"]} == {step.uri for step, _ in long_trace}
    assert trace["steps"][-1]["type"] == "Conclusion" and trace["steps"][-1]["depth"] == 2 * ITERATIONS + 1
    assert trace["truncated"] is False


def test_a_trace_longer_than_the_bound_is_marked_truncated(
    store: Store, collection: str, long_trace: list[scenarios.Step]
) -> None:
    trace = get_trace(store, "w", collection, long_trace[0][0].uri, max_steps=10)
    assert len(trace["steps"]) == 10 and trace["truncated"] is True
    assert trace["total_steps"] == 2 * ITERATIONS + 2
    assert [s["depth"] for s in trace["steps"]] == list(range(10))  # the first steps, in order


def test_export_of_a_long_trace_has_every_quad(store: Store, collection: str, long_trace: list[scenarios.Step]) -> None:
    expected = {quad for step, _ in long_trace for quad in step.triples()}
    assert set(export_quads(store, "w", collection, long_trace[0][0].uri, "trustgraph")) == expected


def test_trace_show_ends_with_the_conclusion(
    neo4j_server: Neo4jServer, collection: str, long_trace: list[scenarios.Step]
) -> None:
    shown = tgneo(neo4j_server, "trace", "show", long_trace[0][0].uri, "--workspace", "w", "--collection", collection)
    assert "Conclusion" in shown.stdout and long_trace[-1][0].uri in shown.stdout


def test_the_cli_exports_every_quad_of_a_long_trace(
    neo4j_server: Neo4jServer, collection: str, long_trace: list[scenarios.Step]
) -> None:
    expected = {quad for step, _ in long_trace for quad in step.triples()}
    exported = tgneo(
        neo4j_server, "export", long_trace[0][0].uri, "--workspace", "w", "--collection", collection,
        "--profile", "trustgraph",
    )  # fmt: skip
    assert set(parse(exported.stdout, "nquads")) == expected


def test_list_traces_counts_every_step_of_each_trace(
    store: Store, collection: str, long_trace: list[scenarios.Step]
) -> None:
    recorder = Recorder(store, "w", collection)
    graphrag = scenarios.graphrag()
    for step, contents in graphrag:
        recorder.record(step, contents)
    counts = {t["uri"]: t["steps"] for t in list_traces(store, "w", collection).traces}
    assert counts == {long_trace[0][0].uri: 2 * ITERATIONS + 2, graphrag[0][0].uri: 5}
