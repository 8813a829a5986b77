"""Collections as a user manages them: a mistyped one is refused before anything is written, `tgneo
collections` lists what each holds, and `tgneo collections drop` removes one and nothing else."""

from __future__ import annotations

import json
import uuid

import pytest
import requests

from tests.clirun import tgneo
from tests.conftest import Neo4jServer
from tests.ingesting import query
from tests.serving import Served
from tgneo.engines import Request, build_engine
from tgneo.errors import EmptyCollection
from tgneo.ingest.loader import load_documents
from tgneo.ingest.sample import QUESTIONS, sources
from tgneo.kinds import SessionKind
from tgneo.llm.offline import OfflineLLM
from tgneo.store import Store
from tgneo.store.collections import list_collections

W = f"test-ws-collections-{uuid.uuid4().hex[:8]}"


def nodes_of(store: Store, workspace: str, collection: str) -> int:
    rows = query(store, "MATCH (n {workspace: $w, collection: $c}) RETURN count(n) AS n", w=workspace, c=collection)
    return int(rows[0]["n"])


@pytest.fixture(scope="module")
def loaded(store: Store) -> str:
    collection = f"test-coll-{uuid.uuid4().hex[:8]}"
    assert load_documents(store, OfflineLLM(), W, collection, sources()).loaded == 4
    return collection


@pytest.mark.parametrize("kind", list(SessionKind))
def test_asking_a_collection_that_holds_nothing_is_an_error_naming_the_known_ones_and_writes_nothing(
    store: Store, loaded: str, kind: SessionKind
) -> None:
    typo = f"no-such-collection-{uuid.uuid4().hex[:6]}"
    engine = build_engine(kind, store, OfflineLLM())
    with pytest.raises(EmptyCollection, match=f"collection '{typo}' holds no documents") as refused:
        next(iter(engine.answer(Request(QUESTIONS[0].text, W, typo))))
    assert loaded in str(refused.value) and "nothing was asked or recorded" in str(refused.value)
    assert nodes_of(store, W, typo) == 0
    assert typo not in {c.collection for c in list_collections(store, W)}


def test_the_cli_refuses_a_mistyped_collection_with_one_error_line(neo4j_server: Neo4jServer, loaded: str) -> None:
    typo = f"no-such-collection-{uuid.uuid4().hex[:6]}"
    result = tgneo(neo4j_server, "ask", "--workspace", W, "--collection", typo, "Who?", ok=False)
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.startswith("error: ") and loaded in result.stderr, result.stderr
    listed = tgneo(neo4j_server, "collections", "--workspace", W, "--json").stdout
    assert typo not in {c["collection"] for c in json.loads(listed)["collections"]}


def test_the_api_answers_404_for_a_collection_that_holds_nothing(served: Served) -> None:
    a = served.a
    typo = f"no-such-collection-{uuid.uuid4().hex[:6]}"
    response = requests.post(f"{served.base}/api/v1/graph-rag", headers=a.headers, timeout=60,
                             json={"query": "Who?", "collection": typo})  # fmt: skip
    assert response.status_code == 404, response.text
    error = response.json()["error"]
    assert error["type"] == "EmptyCollection" and "holds no documents" in error["message"]


def test_collections_lists_each_collection_with_what_it_holds(neo4j_server: Neo4jServer, loaded: str) -> None:
    shown = json.loads(tgneo(neo4j_server, "collections", "--workspace", W, "--json").stdout)
    (mine,) = [c for c in shown["collections"] if c["collection"] == loaded]
    assert mine["documents"] == 4 and mine["chunks"] > 0 and mine["statements"] > 0
    table = tgneo(neo4j_server, "collections", "--workspace", W).stdout
    assert loaded in table and "statements" in table


def test_drop_removes_one_collection_and_leaves_another_with_the_same_entities_intact(
    neo4j_server: Neo4jServer, store: Store
) -> None:
    doomed, kept = (f"test-drop-{name}-{uuid.uuid4().hex[:6]}" for name in ("doomed", "kept"))
    for collection in (doomed, kept):  # the same documents: the same entity IRIs in both collections
        assert load_documents(store, OfflineLLM(), W, collection, sources()).loaded == 4
    list(build_engine(SessionKind.GRAPH_RAG, store, OfflineLLM()).answer(Request(QUESTIONS[0].text, W, doomed)))
    before = nodes_of(store, W, kept)
    refused = tgneo(neo4j_server, "collections", "drop", doomed, "--workspace", W, ok=False, stdin="n\n")
    assert refused.returncode == 1 and "Delete" in refused.stderr
    assert nodes_of(store, W, doomed) > 0  # said no: nothing deleted
    dropped = tgneo(neo4j_server, "collections", "drop", doomed, "--workspace", W, "--yes")
    assert "dropped" in dropped.stderr
    assert nodes_of(store, W, doomed) == 0
    assert nodes_of(store, W, kept) == before
    assert doomed not in {c.collection for c in list_collections(store, W)}


def test_dropping_a_collection_that_does_not_exist_names_the_ones_that_do(
    neo4j_server: Neo4jServer, loaded: str
) -> None:
    result = tgneo(neo4j_server, "collections", "drop", "no-such-one", "--workspace", W, "--yes", ok=False)
    assert result.returncode == 1 and result.stderr.startswith("error: no collection 'no-such-one'")
    assert loaded in result.stderr and len(result.stderr.splitlines()) == 1
