"""The recorder: one transaction per step, write before emit, idempotent, and nothing half-written."""

from __future__ import annotations

from typing import Any

import pytest

from tests import scenarios
from tgneo.errors import BadRequest, InvalidEntity, ParentNotFound, RecordingFailed, StoreUnavailable
from tgneo.explain import entities as ent
from tgneo.explain.events import ExplainEvent
from tgneo.explain.recorder import Recorder
from tgneo.kinds import SessionKind
from tgneo.provision.server import free_port
from tgneo.store import Store
from tgneo.stream import wire
from tgneo.vocab import GRAPH_RETRIEVAL


def count(store: Store, collection: str, label: str = "TgResource") -> int:
    with store.driver.session(database=store.database) as session:
        record = session.run(
            "MATCH (n {collection: $c}) WHERE $label IN labels(n) RETURN count(n) AS n", c=collection, label=label
        ).single()
    assert record is not None
    return int(record["n"])


def node(store: Store, collection: str, uri: str) -> dict[str, Any]:
    with store.driver.session(database=store.database) as session:
        record = session.run(
            "MATCH (n:TgResource {collection: $c, uri: $uri}) RETURN labels(n) AS labels, properties(n) AS props",
            c=collection,
            uri=uri,
        ).single()
    assert record is not None, f"{uri} was not written"
    return {"labels": set(record["labels"]), **record["props"]}


def record_all(recorder: Recorder, steps: list[scenarios.Step]) -> None:
    for step, contents in steps:
        recorder.record(step, contents)


def test_a_step_becomes_a_labeled_node_with_native_properties(store: Store, collection: str) -> None:
    steps = scenarios.graphrag()
    record_all(Recorder(store, "w", collection), steps[:2])
    grounding = node(store, collection, steps[1][0].uri)
    assert {"Tgneo", "TgResource", "TgExplain", "ProvEntity", "Grounding"} <= grounding["labels"]
    assert grounding["concept"] == ["marie curie", "discoveries"]
    assert grounding["inToken"] == 12 and grounding["outToken"] == 5 and grounding["llmModel"] == "mock-llm"
    assert grounding["graph"] == GRAPH_RETRIEVAL and grounding["workspace"] == "w"


def test_question_time_is_stored_as_a_datetime(store: Store, collection: str) -> None:
    from neo4j.time import DateTime

    question = scenarios.graphrag()[0][0]
    Recorder(store, "w", collection).record(question)
    assert isinstance(node(store, collection, question.uri)["startedAtTime"], DateTime)


def test_selected_edges_are_reified_statements(store: Store, collection: str) -> None:
    steps = scenarios.graphrag()
    record_all(Recorder(store, "w", collection), steps[:4])
    with store.driver.session(database=store.database) as session:
        rows = session.run(
            "MATCH (:Focus {collection: $c})-[:SELECTED_EDGE]->(sel:EdgeSelection)-[:EDGE]->(st:TgStatement)"
            "-[:SUBJECT]->(s:TgResource) RETURN sel.score AS score, st.p AS p, s.uri AS s ORDER BY score DESC",
            c=collection,
        ).data()
    assert [r["score"] for r in rows] == [0.93, 0.71]
    assert rows[0]["p"] == str(scenarios.DISCOVERED) and rows[0]["s"] == str(scenarios.CURIE)


def test_one_statement_node_per_triple_shared_by_every_reference(store: Store, collection: str) -> None:
    recorder = Recorder(store, "w", collection)
    corpus = scenarios.corpus()
    record_all(recorder, corpus.steps)
    record_all(recorder, scenarios.graphrag())
    record_all(recorder, scenarios.graphrag())  # a second session selecting the same edges
    with store.driver.session(database=store.database) as session:
        refs = session.run(
            "MATCH (st:TgStatement {collection: $c, p: $p, o: $o}) "
            "RETURN count(st) AS nodes, COUNT { (st)<-[:EDGE]-() } AS edges, "
            "COUNT { (st)<-[:CONTAINS]-() } AS contains",
            c=collection,
            p=str(scenarios.DISCOVERED),
            o=str(scenarios.RADIUM),
        ).single()
    assert refs is not None
    assert (refs["nodes"], refs["edges"], refs["contains"]) == (1, 2, 1)


def test_the_event_is_emitted_only_after_the_step_is_durable(store: Store, collection: str) -> None:
    seen: list[tuple[ExplainEvent, dict[str, Any]]] = []

    def sink(event: ExplainEvent) -> None:  # runs in the recorder, after commit: the node must exist
        seen.append((event, node(store, collection, event.explain_id)))

    question = scenarios.graphrag()[0][0]
    Recorder(store, "w", collection, sinks=[sink]).record(question)
    event, stored = seen[0]
    assert stored["query"] == "What did Marie Curie discover?"
    message = wire.encode(event, SessionKind.GRAPH_RAG)
    assert message["message_type"] == "explain" and message["explain_graph"] == GRAPH_RETRIEVAL
    assert len(message["explain_triples"]) == len(question.triples())


def test_rerecording_a_step_is_idempotent(store: Store, collection: str) -> None:
    recorder = Recorder(store, "w", collection)
    steps = scenarios.graphrag()
    record_all(recorder, steps)
    before = (count(store, collection), count(store, collection, "TgStatement"))
    record_all(recorder, steps)
    assert (count(store, collection), count(store, collection, "TgStatement")) == before


def test_a_step_whose_parent_was_never_recorded_writes_nothing(store: Store, collection: str) -> None:
    steps = scenarios.graphrag()
    events: list[ExplainEvent] = []
    recorder = Recorder(store, "w", collection, sinks=[events.append])
    with pytest.raises(ParentNotFound, match=steps[2][0].uri):  # the focus' parent, the exploration, is missing
        recorder.record(steps[3][0])
    assert count(store, collection) == 0 and count(store, collection, "TgStatement") == 0
    assert events == []


@pytest.mark.whole_database  # changes what every test of the database meets (conftest.py)
def test_a_failure_mid_step_rolls_the_whole_step_back(store: Store, collection: str) -> None:
    """A constraint trips on the step's last write (its content); the step's node must not survive.

    The constraint covers only the two documents this test marks (a uniqueness constraint ignores
    nodes without its properties), so equal texts elsewhere in the database — two chunks, two answers
    — cannot stop it from being created.
    """
    recorder = Recorder(store, "w", collection)
    steps = scenarios.graphrag()
    record_all(recorder, steps[:4])
    synthesis, contents = steps[4]
    clash = {**contents, "urn:test:other-document": next(iter(contents.values()))}
    name = f"test_rollback_{collection.replace('-', '_')}"
    with store.driver.session(database=store.database) as session:
        session.run(
            "UNWIND $uris AS uri CREATE (:TgResource {workspace: 'w', collection: $c, uri: uri, kind: 'iri', "
            "rollbackMark: $c})",
            uris=list(clash), c=collection,
        ).consume()  # fmt: skip
        session.run(f"CREATE CONSTRAINT {name} FOR (n:TgContent) REQUIRE (n.rollbackMark, n.text) IS UNIQUE").consume()
    try:
        with pytest.raises(RecordingFailed, match="rolled back"):
            recorder.record(synthesis, clash)
    finally:
        with store.driver.session(database=store.database) as session:
            session.run(f"DROP CONSTRAINT {name}").consume()
    assert count(store, collection, "Synthesis") == 0
    assert count(store, collection, "TgContent") == 0


def test_neo4j_down_raises_store_unavailable_and_emits_nothing(collection: str) -> None:
    events: list[ExplainEvent] = []
    with Store(f"bolt://127.0.0.1:{free_port()}", ("neo4j", "x"), connect_timeout=1) as down:
        with pytest.raises(StoreUnavailable):
            Recorder(down, "w", collection, sinks=[events.append]).record(scenarios.graphrag()[0][0])
    assert events == []


def test_workspaces_are_isolated(store: Store, collection: str) -> None:
    question = scenarios.graphrag()[0][0]
    Recorder(store, "alice", collection).record(question)
    with pytest.raises(ParentNotFound):  # bob cannot even derive from alice's question
        Recorder(store, "bob", collection).record(scenarios.graphrag()[1][0].__class__(
            uri="urn:trustgraph:prov:grounding:x", question=question.uri))  # fmt: skip


@pytest.mark.parametrize("bad", ["", "  "])
def test_a_recorder_needs_a_workspace_and_collection(store: Store, bad: str) -> None:
    with pytest.raises(BadRequest, match="workspace: must be a non-empty string"):
        Recorder(store, bad, "c")


def test_only_entities_can_be_recorded(store: Store, collection: str) -> None:
    with pytest.raises(InvalidEntity, match="not an explainability entity"):
        Recorder(store, "w", collection).record("urn:x")  # type: ignore[arg-type]


def test_every_scenario_kind_records(store: Store, collection: str) -> None:
    recorder = Recorder(store, "w", collection)
    corpus = scenarios.corpus()
    record_all(recorder, corpus.steps)
    for steps in (scenarios.graphrag(), scenarios.docrag(corpus.chunk), scenarios.react(), scenarios.plan(),
                  scenarios.supervisor()):  # fmt: skip
        record_all(recorder, steps)
    assert count(store, collection, "Question") == 6  # five sessions and one sub-agent session
    assert count(store, collection, "Error") == 1
    assert isinstance(scenarios.react()[2][0], ent.Analysis)
