"""Graph profiles' rules that hold on every engine and every road (issue 50, items 6–8).

* **One rule for a missing vector index**: a required vector index of theirs that the database lacks is refused by
  GraphRAG, Document RAG and the agent alike, before anything is recorded, naming the index and the remedy — unless
  tgneo's side index stands in for it, and then each of them answers over it, with a warning.
* **An agent keeps what one tool found when another fails**: the failure is that tool's Observation (an Error),
  the answer is what the other tool found.
* **Every fallback warns**, on every question and every road: the Python API, ``tgneo ask``, HTTP, the gateway
  socket (and TrustGraph's own CLI still reads that stream).
* **"labels there:"** lists the user's labels, sorted, each whole, never tgneo's own.

Their graph is a few nodes under labels and types of each test's own (a profile file names them), written in the
session's database as their tool would (plain Cypher: these shapes need no library of theirs), and deleted
afterwards, with the vector index a test made for it and what tgneo recorded in the test's collection.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import requests
from websockets.sync.client import connect as ws_connect

import tgneo
from tests.clirun import tgneo as tgneo_cli
from tests.conftest import Neo4jServer
from tests.serving import running, serve_cmd, tg
from tgneo.engines import Request, build_engine
from tgneo.errors import ProfileError
from tgneo.explain.events import AgentMessage, AnswerChunk, ErrorEvent, Event, ExplainEvent, SessionEnd, WarningEvent
from tgneo.graph_profiles import GraphProfile, load_profile
from tgneo.ingest.side_index import build_side_index
from tgneo.kinds import SessionKind
from tgneo.llm.offline import OfflineLLM
from tgneo.owned import owned_labels
from tgneo.provision.server import free_port
from tgneo.scope import DEFAULT_SCOPE
from tgneo.store import Store
from tgneo.store.foreign import SHOWN_NAMES, clear_checks
from tgneo.stream.wire import decode, encode
from tgneo.vocab import TG

W = "test-profile-rules"
QUESTION = "What was polonium named after?"
ANSWER = "Polonium was named after Poland."
KINDS = [SessionKind.GRAPH_RAG, SessionKind.DOC_RAG, SessionKind.AGENT]
IDS = [k.wire for k in KINDS]
DIMENSIONS = 128
"""Their embedding model's dimensions: never the offline embedder's."""
TEXTS = [
    "Polonium was named after Poland. Marie Curie discovered polonium in 1898.",
    "Radium glows faintly in the dark. Marie Curie and Pierre Curie discovered radium.",
]
FACTS = [("Polonium", "NAMED_AFTER", "Poland"), ("Marie Curie", "DISCOVERED", "Polonium"),
         ("Marie Curie", "DISCOVERED", "Radium"), ("Pierre Curie", "DISCOVERED", "Radium")]  # fmt: skip
NAMES = sorted({n for s, _, o in FACTS for n in (s, o)})


@dataclass(frozen=True)
class Their:
    """A graph of theirs: the profile file naming it, that profile, its labels, and the vector index it names."""

    path: Path
    profile: GraphProfile
    labels: dict[str, str]
    vector_index: str


def _run(store: Store, cypher: str, **params: Any) -> list[dict[str, Any]]:
    with store.driver.session(database=store.database) as session:
        return [r.data() for r in session.run(cypher, params)]


def _vector(i: int) -> list[float]:
    return [((i * 7 + j) % 13 + 1) / 13 for j in range(DIMENSIONS)]


def _names(tag: str) -> tuple[dict[str, str], str, str, str]:
    """Labels, the mentions and part-of types and a vector index name of this test's own (``Aa…``: the user's
    labels a refusal lists are sorted, so these come first)."""
    labels = {"entity": f"AaRuleEntity{tag}", "chunk": f"AaRuleChunk{tag}", "document": f"AaRuleDocument{tag}"}
    return labels, f"RULE_MENTIONS_{tag}", f"RULE_PART_OF_{tag}", f"rule_vectors_{tag}"


def _facts(store: Store, entity: str, key: str) -> None:
    """The facts between their entities, each a relationship of its own type."""
    for s, p, o in FACTS:
        _run(store, "MATCH (s:$($entity)), (o:$($entity)) WHERE s[$key] = $s AND o[$key] = $o CREATE (s)-[:$($p)]->(o)",
             entity=entity, key=key, s=s, o=o, p=p)  # fmt: skip


@pytest.fixture
def cleanup(store: Store, collection: str) -> Iterator[list[tuple[dict[str, str], str | None]]]:
    """What a test wrote as their tool (labels, a vector index), deleted afterwards with what tgneo recorded in the
    test's collection."""
    made: list[tuple[dict[str, str], str | None]] = []
    try:
        yield made
    finally:
        for labels, index in made:
            for label in labels.values():
                _run(store, "MATCH (n:$($label)) DETACH DELETE n", label=label)
            if index is not None:
                _run(store, f"DROP INDEX `{index}` IF EXISTS")
        for workspace in (W, DEFAULT_SCOPE):  # the server's test records in the default workspace
            _run(store, "MATCH (n:Tgneo {workspace: $w, collection: $c}) DETACH DELETE n", w=workspace, c=collection)
        clear_checks()


def _chunked(store: Store, tmp_path: Path, cleanup: list[tuple[dict[str, str], str | None]], *, index: bool) -> Their:
    """neo4j-graphrag's shape, ``(:Entity {name})-[:MENTIONS]->(:Chunk {text, index, embedding})-[:PART_OF]->
    (:Document {path})`` and the facts between the entities, under a profile file naming its chunks' vector index
    (required: the profile does not list it as optional); ``index``: whether that index exists (their model's
    :data:`DIMENSIONS`)."""
    labels, mentions, part_of, vectors = _names(uuid.uuid4().hex[:8])
    cleanup.append((labels, vectors))
    path = tmp_path / "their-graph.toml"
    path.write_text(
        f'extends = "neo4j-graphrag"\nmentions = "{mentions}"\n[entity]\nlabel = "{labels["entity"]}"\n'
        f'[chunk]\nlabel = "{labels["chunk"]}"\npart_of = "{part_of}"\nvector_index = "{vectors}"\n'
        f'[document]\nlabel = "{labels["document"]}"\n',
        encoding="utf-8",
    )
    _run(store, "CREATE (:$($document) {path: 'notes.md'})", document=labels["document"])
    for i, text in enumerate(TEXTS):
        _run(store, "MATCH (d:$($document)) CREATE (:$($chunk) {text: $text, index: $i, embedding: $vector})"
                    "-[:$($part_of)]->(d)", document=labels["document"], chunk=labels["chunk"], text=text, i=i,
             vector=_vector(i), part_of=part_of)  # fmt: skip
    for name in NAMES:
        _run(store, "CREATE (e:$($entity) {name: $name}) WITH e MATCH (c:$($chunk)) WHERE c.text CONTAINS $name "
                    "CREATE (e)-[:$($mentions)]->(c)", entity=labels["entity"], chunk=labels["chunk"], name=name,
             mentions=mentions)  # fmt: skip
    _facts(store, labels["entity"], "name")
    if index:
        _run(
            store,
            f"CREATE VECTOR INDEX `{vectors}` FOR (c:`{labels['chunk']}`) ON c.embedding OPTIONS "
            f"{{indexConfig: {{`vector.dimensions`: {DIMENSIONS}, `vector.similarity_function`: 'cosine'}}}}",
        )
    clear_checks()
    return Their(path, load_profile(str(path)), labels, vectors)


@pytest.fixture
def unindexed(store: Store, tmp_path: Path, cleanup: list[tuple[dict[str, str], str | None]]) -> Their:
    """Their chunked graph whose chunks' vector index, which the profile requires, was never made (or dropped)."""
    return _chunked(store, tmp_path, cleanup, index=False)


@pytest.fixture
def indexed(store: Store, tmp_path: Path, cleanup: list[tuple[dict[str, str], str | None]]) -> Their:
    """Their chunked graph with its chunks' vector index: 128-dimensional, which the offline embedder cannot ask."""
    return _chunked(store, tmp_path, cleanup, index=True)


@pytest.fixture
def unchunked(store: Store, tmp_path: Path, cleanup: list[tuple[dict[str, str], str | None]]) -> Their:
    """LangChain's ``add_graph_documents`` shape alone: ``(:Document {id, source, text})-[:MENTIONS]->(:Entity {id})``,
    with no chunks (the profile's chunk label is on no node), so Document RAG has nothing to read and GraphRAG does."""
    labels, mentions, _, _ = _names(uuid.uuid4().hex[:8])
    cleanup.append((labels, None))
    path = tmp_path / "their-documents.toml"
    path.write_text(
        f'extends = "langchain"\nmentions = "{mentions}"\n[entity]\nlabel = "{labels["entity"]}"\n'
        f'[chunk]\nlabel = "{labels["chunk"]}"\n[document]\nlabel = "{labels["document"]}"\n',
        encoding="utf-8",
    )
    for i, text in enumerate(TEXTS):
        _run(store, "CREATE (:$($document) {id: $id, source: $source, text: $text})", document=labels["document"],
             id=f"notes-{i}", source="notes.md", text=text)  # fmt: skip
    for name in NAMES:
        _run(store, "CREATE (e:$($entity) {id: $name}) WITH e MATCH (d:$($document)) WHERE d.text CONTAINS $name "
                    "CREATE (d)-[:$($mentions)]->(e)", entity=labels["entity"], document=labels["document"],
             name=name, mentions=mentions)  # fmt: skip
    _facts(store, labels["entity"], "id")
    clear_checks()
    return Their(path, load_profile(str(path)), labels, "")


def ask(
    store: Store, kind: SessionKind, their: Their, collection: str, question: str = QUESTION, **options: Any
) -> list[Event]:
    engine = build_engine(kind, store, OfflineLLM())
    return list(engine.answer(Request(question, W, collection, options, graph=their.profile)))


def _end(events: list[Event]) -> SessionEnd:
    errors = [e for e in events if isinstance(e, ErrorEvent)]
    assert not errors, errors[0].message
    (end,) = [e for e in events if isinstance(e, SessionEnd)]
    return end


def _recorded(store: Store, collection: str) -> int:
    return int(_run(store, "MATCH (n:Tgneo {workspace: $w, collection: $c}) RETURN count(n) AS n", w=W,
                    c=collection)[0]["n"])  # fmt: skip


def _side_warning(their: Their) -> str:
    """How the warning begins when tgneo's side index finds their chunks."""
    return (
        f"graph profile {their.profile.name!r}: their chunks (:{their.labels['chunk']}) are found by tgneo's side index"
    )


# ------------------------------------------------------------------ one rule for a missing vector index (item 6)
@pytest.mark.parametrize("kind", KINDS, ids=IDS)
def test_a_missing_required_vector_index_is_refused_by_every_engine_alike_before_anything_is_recorded(
    store: Store, unindexed: Their, collection: str, kind: SessionKind
) -> None:
    with pytest.raises(ProfileError) as refused:
        ask(store, kind, unindexed, collection)
    message = str(refused.value)
    assert "\n" not in message
    assert f"chunk.vector_index names the vector index '{unindexed.vector_index}', which does not exist" in message
    assert f"tgneo load index --graph {unindexed.path} --workspace {W} --collection {collection}" in message
    assert _recorded(store, collection) == 0


@pytest.mark.parametrize("kind", KINDS, ids=IDS)
def test_with_the_side_index_every_engine_answers_over_a_missing_vector_index_warning_first(
    store: Store, unindexed: Their, collection: str, kind: SessionKind
) -> None:
    build_side_index(store, OfflineLLM(), unindexed.profile, W, collection)
    events = ask(store, kind, unindexed, collection)
    end = _end(events)
    assert "notes.md" in {s.title for s in end.sources}, end.sources
    warnings = [e.message for e in events if isinstance(e, WarningEvent)]
    said = f"{_side_warning(unindexed)} (their vector index '{unindexed.vector_index}' does not exist)"
    assert [w for w in warnings if w.startswith(said)] == warnings and len(warnings) == 1, warnings
    assert isinstance(events[0], WarningEvent), "the rule is said before the first step is recorded"


@pytest.mark.parametrize(
    ("pattern", "question"),
    [
        ("react", QUESTION),
        # a part of the question no tool answered is not answered by the words of a failed tool's error
        ("plan-then-execute", "What was polonium named after, and which label does the database lack?"),
    ],
    ids=["react", "plan-then-execute"],
)
def test_an_agent_answers_with_what_the_knowledge_graph_found_when_the_document_tool_fails(
    store: Store, unchunked: Their, collection: str, pattern: str, question: str
) -> None:
    events = ask(store, SessionKind.AGENT, unchunked, collection, question, pattern=pattern)
    _end(events)
    answer = "".join(e.text for e in events if isinstance(e, AnswerChunk))
    assert ANSWER in answer and "could not find" not in answer.lower() and "Error" not in answer, answer
    failed = [e.text for e in events if isinstance(e, AgentMessage) and e.message_type == "observation"
              and e.text.startswith("Error: document-query:")]  # fmt: skip
    assert failed and f"chunk.label names the label '{unchunked.labels['chunk']}'" in failed[0], failed
    if pattern == "react":  # a ReAct Observation records the failure as tg:toolError
        errors = [q for e in events if isinstance(e, ExplainEvent) for q in e.triples if q.p == TG.toolError]
        assert errors and str(errors[0].o).startswith("document-query:"), errors


# ------------------------------------------------------------------ "labels there:" (item 8)
def test_the_labels_a_refusal_lists_are_the_users_sorted_and_whole_never_tgneos(
    store: Store, unchunked: Their, collection: str
) -> None:
    before = {r["label"] for r in _run(store, "CALL db.labels() YIELD label RETURN label")}
    with pytest.raises(ProfileError) as refused:
        ask(store, SessionKind.DOC_RAG, unchunked, collection)
    after = {r["label"] for r in _run(store, "CALL db.labels() YIELD label RETURN label")}
    found = re.search(r"\(labels there: (.*)\)$", str(refused.value))
    assert found, refused.value
    listed, _, more = found.group(1).partition(" and ")
    names = listed.split(", ")
    assert not set(names) & set(owned_labels()), names
    assert set(names) <= before | after, "every name is a whole label of the database"
    assert names == sorted(names, key=lambda n: (n.casefold(), n))
    assert {unchunked.labels["entity"], unchunked.labels["document"]} <= set(names)
    assert len(names) <= SHOWN_NAMES and (not more or re.fullmatch(r"\d+ more", more)), more


# ------------------------------------------------------------------ every fallback warns, on every road (item 7)
def test_a_warning_is_a_message_of_its_own_that_trustgraphs_clients_read_as_empty_text() -> None:
    for kind in SessionKind:
        message = encode(WarningEvent("graph profile 'x': their chunks are found by tgneo's side index"), kind)
        assert message["message_type"] == "warning" and message[kind.final_flag] is False
        assert message.get("response", "") == "" and "content" not in message
        assert decode(message, kind) == WarningEvent("graph profile 'x': their chunks are found by tgneo's side index")


def test_the_python_api_warns_of_the_side_index_standing_in_for_their_vector_index_on_every_question(
    neo4j_server: Neo4jServer, indexed: Their, collection: str
) -> None:
    """Document RAG over their 128-dimensional index, which the offline embedder cannot ask: the side index finds
    their chunks, and says so every time."""
    said = (f"{_side_warning(indexed)} (their vector index '{indexed.vector_index}' holds {DIMENSIONS}-dimensional "
            f"vectors, but the configured embedder")  # fmt: skip
    with tgneo.connect(settings=neo4j_server.settings(), workspace=W, collection=collection) as tg_:
        tg_.index_graph(str(indexed.path))
        for _ in range(2):
            answer = tg_.ask(QUESTION, "document-rag", graph=str(indexed.path))
            assert (
                ANSWER in answer.text
                and [w for w in answer.warnings if w.startswith(said)] == list(answer.warnings)
                and len(answer.warnings) == 1
            ), answer.warnings
        streamed = list(tg_.stream(QUESTION, "document-rag", graph=str(indexed.path)))
    assert [e for e in streamed if isinstance(e, WarningEvent)] == [WarningEvent(answer.warnings[0])]


def test_tgneo_ask_prints_the_fallback_warning_once(
    neo4j_server: Neo4jServer, store: Store, indexed: Their, collection: str
) -> None:
    build_side_index(store, OfflineLLM(), indexed.profile, W, collection)
    asked = tgneo_cli(neo4j_server, "ask", QUESTION, "--engine", "document-rag", "--graph", str(indexed.path),
                      "--workspace", W, "--collection", collection)  # fmt: skip
    assert ANSWER in asked.stdout
    assert asked.stderr.count(f"warning: {_side_warning(indexed)} (their vector index") == 1, asked.stderr


def test_http_and_the_gateway_socket_carry_the_fallback_warning_on_every_question(
    neo4j_server: Neo4jServer, store: Store, indexed: Their, collection: str
) -> None:
    """``tgneo serve`` maps the collection to their graph (``TGNEO_GRAPHS``), as TrustGraph's clients reach it;
    TrustGraph's own ``tg-invoke-document-rag`` still reads the stream."""
    build_side_index(store, OfflineLLM(), indexed.profile, DEFAULT_SCOPE, collection)
    port = free_port()
    env = {**neo4j_server.env(), "TGNEO_GRAPHS": f"{collection}={indexed.path}"}
    env.pop("TGNEO_TOKENS", None)
    warning = f"{_side_warning(indexed)} (their vector index '{indexed.vector_index}' holds"
    with running(serve_cmd(port, "--workers", "1"), env, port) as base:
        for _ in range(2):
            streamed = requests.post(f"{base}/api/v1/document-rag", json={"query": QUESTION, "collection": collection},
                                     timeout=120)  # fmt: skip
            messages = [json.loads(line) for line in streamed.text.splitlines() if line.strip()]
            assert streamed.status_code == 200 and "error" not in messages[-1], messages[-1]
            warned = [m["warning"] for m in messages if m["message_type"] == "warning"]
            assert len(warned) == 1 and warned[0].startswith(warning), warned
        with ws_connect(f"{base.replace('http://', 'ws://')}/api/v1/socket", open_timeout=10, ping_interval=None) as ws:
            ws.send(json.dumps({"type": "auth", "token": ""}))
            assert json.loads(ws.recv(timeout=10))["type"] == "auth-ok"
            ws.send(json.dumps({"id": "q", "service": "document-rag", "flow": "default",
                                "request": {"query": QUESTION, "collection": collection}}))  # fmt: skip
            frames: list[dict[str, Any]] = []
            while not (frames and frames[-1]["complete"]):
                frames.append(json.loads(ws.recv(timeout=120)))
        assert "error" not in frames[-1], frames[-1]
        warned = [f["response"]["warning"] for f in frames if f["response"].get("message_type") == "warning"]
        assert len(warned) == 1 and warned[0].startswith(warning), warned
        tg_env = {k: v for k, v in env.items() if not k.startswith("TRUSTGRAPH_")} | {"TRUSTGRAPH_URL": base + "/"}
        theirs = tg("tg-invoke-document-rag", "-C", collection, "-q", QUESTION, env=tg_env)
        assert theirs.returncode == 0 and "Exception" not in theirs.stderr + theirs.stdout, theirs.stderr
        assert ANSWER in theirs.stdout
