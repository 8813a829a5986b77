"""``tgneo db migrate``: a database of graph model 1 moves in place to the native model, batched and resumable,
and every command refuses it until then.

The model-1 data is ``tests/data/model1.json.gz``: one collection as tgneo wrote it at commit bfa5641 (its last
model-1 version, from a worktree of that commit): two of the sample's documents loaded and one of them changed and
loaded again (so all three traces are stale), a file of awkward RDF imported (labels in two languages, a literal of
two types, a blank node, another named graph, a quoted-triple subject), and one question to each engine. Its nodes
and relationships were dumped as they were stored (embeddings left out, to keep the file small);
``tests/data/model1-trustgraph.nq.gz`` is what that version exported of the collection (``--profile trustgraph``).
"""

from __future__ import annotations

import gzip
import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.clirun import tgneo
from tests.conftest import Neo4jServer
from tests.ingesting import query
from tgneo.errors import NeedsMigration
from tgneo.ingest.index import index_collection
from tgneo.llm.offline import OfflineLLM
from tgneo.rdf.star import isomorphic, parse
from tgneo.store import Q, Store
from tgneo.store.migrate import Legacy, migrate
from tgneo.store.rdf_export import export_quads
from tgneo.store.traces import get_trace, list_traces
from tgneo.timestamps import parse_iso

DATA = Path(__file__).parent / "data"
pytestmark = pytest.mark.whole_database  # a model-1 mark makes every command on the database refuse (conftest.py)
MODEL1_INDEX = "tgneo_question_time"
"""One of the indexes model 1 installed on every start (on :Question), the mark of a model-1 database."""


def _decode(value: Any) -> Any:
    if isinstance(value, dict) and "$datetime" in value:
        return parse_iso(value["$datetime"])
    if isinstance(value, list):
        return [_decode(v) for v in value]
    return value


def plant_model1(store: Store, workspace: str, collection: str) -> None:
    """Write the model-1 collection, and the index model 1 installed, into the test database."""
    data = json.loads(gzip.open(DATA / "model1.json.gz").read())
    nodes = [{"labels": n["labels"], "props": {k: _decode(v) for k, v in n["props"].items()}} for n in data["nodes"]]
    with store.driver.session(database=store.database) as session:
        session.run(
            "UNWIND range(0, size($nodes) - 1) AS i "
            "CREATE (n:ModelOnePlanting {workspace: $w, collection: $c, planting: i}) "
            "SET n += $nodes[i].props, n:$($nodes[i].labels)",
            nodes=nodes, w=workspace, c=collection,
        ).consume()  # fmt: skip
        session.run(
            "UNWIND $rels AS r "
            "MATCH (a:ModelOnePlanting {workspace: $w, collection: $c, planting: r.from}) "
            "MATCH (b:ModelOnePlanting {workspace: $w, collection: $c, planting: r.to}) "
            "CREATE (a)-[x:$(r.type)]->(b) SET x += r.props",
            rels=data["rels"], w=workspace, c=collection,
        ).consume()  # fmt: skip
        session.run(
            "MATCH (n:ModelOnePlanting {workspace: $w, collection: $c}) REMOVE n:ModelOnePlanting, n.planting",
            w=workspace, c=collection,
        ).consume()  # fmt: skip
        on = "(n.workspace, n.collection, n.startedAtTime)"
        session.run(f"CREATE INDEX {MODEL1_INDEX} IF NOT EXISTS FOR (n:Question) ON {on}").consume()


@pytest.fixture
def model1(store: Store, neo4j_server: Neo4jServer) -> Iterator[tuple[str, str]]:
    """A workspace and collection of model 1 in the test database, which is then a model-1 database; the mark is
    gone again afterwards whatever the test did, so that the tests after it see a current database."""
    workspace, collection = f"test-ws-m1-{uuid.uuid4().hex[:8]}", f"test-m1-{uuid.uuid4().hex[:8]}"
    plant_model1(store, workspace, collection)
    try:
        yield workspace, collection
    finally:
        with Store.from_settings(neo4j_server.settings(), check_model=False) as cleanup:
            migrate(cleanup)


def model1_export() -> list[Any]:
    return parse(gzip.open(DATA / "model1-trustgraph.nq.gz").read().decode(), "nquads")


def test_every_command_refuses_a_model1_database_and_names_the_migration(
    neo4j_server: Neo4jServer, model1: tuple[str, str]
) -> None:
    workspace, collection = model1
    for command in (["traces", "list"], ["export"], ["load", "sample"], ["init-schema"]):
        scope = ["--workspace", workspace, "--collection", collection] if command[0] != "init-schema" else []
        result = tgneo(neo4j_server, *command, *scope, ok=False)
        assert result.returncode == 1, command
        assert "`tgneo db migrate`" in result.stderr and len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_migration_keeps_every_triple_and_trace_and_draws_the_facts_as_relationships(
    neo4j_server: Neo4jServer, store: Store, model1: tuple[str, str]
) -> None:
    workspace, collection = model1
    result = tgneo(neo4j_server, "db", "migrate")
    assert "migrated:" in result.stderr and "facts made native" in result.stderr
    assert isomorphic(export_quads(store, workspace, collection, profile="trustgraph"), model1_export())
    legacy = {label.value for label in Legacy}
    left = query(store, "MATCH (n {workspace: $w, collection: $c}) UNWIND labels(n) AS l RETURN DISTINCT l",
                 w=workspace, c=collection)  # fmt: skip
    assert not {r["l"] for r in left} & legacy
    assert query(store, "MATCH (n {workspace: $w, collection: $c}) WHERE NOT n:Tgneo RETURN n", w=workspace,
                 c=collection) == []  # fmt: skip
    facts = query(store, "MATCH (a {workspace: $w, collection: $c})-[:BORN_IN]->(b) RETURN a.name AS a, b.name AS b",
                  w=workspace, c=collection)  # fmt: skip
    assert {"a": "Marie Curie", "b": "Warsaw"} in facts
    traces = list_traces(store, workspace, collection, limit=10).traces
    assert len(traces) == 3 and all(t["stale_at"] for t in traces)
    for trace in traces:
        assert get_trace(store, workspace, collection, trace["uri"])["steps"]
    again = tgneo(neo4j_server, "db", "migrate")
    assert "already holds the current graph model" in again.stderr


def test_a_migration_killed_midway_is_refused_until_run_again_and_then_finishes_the_same(
    neo4j_server: Neo4jServer, store: Store, model1: tuple[str, str]
) -> None:
    workspace, collection = model1
    seen: list[str] = []

    def killed(step: str, done: int, total: int | None) -> None:
        seen.append(step)
        if seen.count("facts") == 3:
            raise KeyboardInterrupt  # the process dies between two batches of the facts step

    with Store.from_settings(neo4j_server.settings(), check_model=False) as migrating:
        with pytest.raises(KeyboardInterrupt):
            migrate(migrating, killed, batch=25)
    with Store.from_settings(neo4j_server.settings()) as fresh:
        with pytest.raises(NeedsMigration, match=r"did not finish \(it stopped at facts\); run `tgneo db migrate`"):
            fresh.read(Q.collections, workspace=workspace)
    with Store.from_settings(neo4j_server.settings(), check_model=False) as migrating:
        report = migrate(migrating, batch=25)
    assert report.facts > 0 and not report.already_current
    assert isomorphic(export_quads(store, workspace, collection, profile="trustgraph"), model1_export())


def test_a_migrated_collection_is_searched_and_answered_from(
    neo4j_server: Neo4jServer, store: Store, model1: tuple[str, str]
) -> None:
    from tgneo.engines import GraphRag, Request
    from tgneo.explain.events import AnswerChunk, SessionEnd

    workspace, collection = model1
    tgneo(neo4j_server, "db", "migrate")
    indexed = index_collection(store, OfflineLLM(), workspace, collection)  # the fixture carries no embeddings
    assert indexed.entities > 0
    events = list(GraphRag(store, OfflineLLM()).answer(Request("Where was Marie Curie born?", workspace, collection)))
    end, answer = events[-1], "".join(e.text for e in events if isinstance(e, AnswerChunk))
    assert isinstance(end, SessionEnd) and "Warsaw" in answer and end.sources
