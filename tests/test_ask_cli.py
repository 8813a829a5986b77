"""`tgneo ask` as a user runs it: the answer alone on stdout, the steps on stderr, raw messages with --json."""

from __future__ import annotations

import json
import shlex
import uuid

import pytest

from tests.clirun import tgneo
from tests.conftest import Neo4jServer
from tgneo.ingest.loader import load_documents
from tgneo.ingest.sample import QUESTIONS, sources
from tgneo.llm.offline import OfflineLLM
from tgneo.store import Store

POLONIUM = QUESTIONS[0].text


@pytest.fixture(scope="module")
def sample(store: Store) -> str:
    collection = f"test-ask-{uuid.uuid4().hex[:8]}"
    assert load_documents(store, OfflineLLM(), "w", collection, sources()).loaded == 4
    return collection


def test_ask_prints_the_answer_on_stdout_and_with_x_every_step_on_stderr(
    neo4j_server: Neo4jServer, sample: str
) -> None:
    result = tgneo(neo4j_server, "ask", POLONIUM, "-x", "--workspace", "w", "--collection", sample)
    assert result.stdout.startswith("Polonium was named after Poland, the native country of Marie Curie.")  # the answer
    assert result.stdout.count("\n") == 1  # alone, on one line: the steps went to stderr
    for step in ("[GraphRagQuestion]", "[Grounding]", "[Exploration]", "[Focus]", "[Synthesis]"):
        assert step in result.stderr
    assert "Edge: (Polonium, named after, Poland)" in result.stderr
    # each answer sentence with its evidence, back to chunk, section and document
    assert "[1] Polonium was named after Poland, the native country of Marie Curie." in result.stderr
    assert "← “Polonium was named after Poland, the native country of Marie Curie.”" in result.stderr
    assert "Polonium and radium › " in result.stderr and "(urn:chunk:" in result.stderr
    assert "Sources:" in result.stderr and "  - Polonium and radium (https://trustgraph.ai/doc/" in result.stderr
    trace = result.stderr.strip().splitlines()[-1]
    assert trace.startswith("trace: urn:trustgraph:question:")


def test_the_trace_hint_names_the_workspace_and_collection_so_trace_show_finds_it_as_printed(
    neo4j_server: Neo4jServer, sample: str
) -> None:
    result = tgneo(neo4j_server, "ask", POLONIUM, "--workspace", "w", "--collection", sample)
    hint = result.stderr.strip().splitlines()[-1].removeprefix("trace: ")
    assert hint.endswith(f" --workspace w --collection {sample}")
    shown = tgneo(neo4j_server, "trace", "show", *shlex.split(hint))  # pasted after `tgneo trace show`, as printed
    assert "Synthesis" in shown.stdout


def test_the_trace_hint_names_a_collection_given_by_tgneo_collection(neo4j_server: Neo4jServer, sample: str) -> None:
    """The shell a user pastes the hint into may not have the variable: the hint carries the collection."""
    env = {**neo4j_server.env(), "TGNEO_WORKSPACE": "w", "TGNEO_COLLECTION": sample}
    result = tgneo(None, "ask", POLONIUM, env=env)
    assert result.stderr.strip().splitlines()[-1].endswith(f" --workspace w --collection {sample}")


def test_ask_json_prints_trustgraph_messages_one_per_line(neo4j_server: Neo4jServer, sample: str) -> None:
    result = tgneo(neo4j_server, "ask", "What is 1934 - 1867?", "--engine", "agent", "--json", "--workspace", "w",
                   "--collection", sample)  # fmt: skip
    messages = [json.loads(line) for line in result.stdout.splitlines()]
    assert messages[0]["message_type"] == "explain" and messages[0]["explain_id"].startswith("urn:trustgraph:agent:")
    assert {"thought", "observation", "answer", "explain"} <= {m["message_type"] for m in messages}
    assert messages[-1]["end_of_dialog"] is True and all(not m["end_of_dialog"] for m in messages[:-1])
    assert "".join(m.get("content", "") for m in messages if m["message_type"] == "answer") == "1934 - 1867 = 67."


def test_ask_refuses_a_pattern_for_a_rag_engine_and_an_empty_question(neo4j_server: Neo4jServer) -> None:
    wrong = tgneo(neo4j_server, "ask", POLONIUM, "--pattern", "react", ok=False)
    assert wrong.returncode == 2 and "only the agent engine has patterns" in wrong.stderr
    empty = tgneo(neo4j_server, "ask", "  ", ok=False)
    assert empty.returncode == 1 and empty.stderr.strip() == "error: question: must not be empty"
    option = tgneo(neo4j_server, "ask", POLONIUM, "-o", "edge_limit=many", ok=False)
    assert option.returncode == 2 and "'many' is not a whole number" in option.stderr


def test_a_missing_profile_file_is_named_as_missing(neo4j_server: Neo4jServer) -> None:
    result = tgneo(neo4j_server, "ask", POLONIUM, "--graph", "my-graph.toml", ok=False)
    assert result.returncode == 2 and "graph profile 'my-graph.toml': no such file: my-graph.toml" in result.stderr


def test_an_empty_collection_s_hint_names_the_workspace(neo4j_server: Neo4jServer, collection: str) -> None:
    result = tgneo(neo4j_server, "ask", POLONIUM, "--workspace", "w", "--collection", collection, ok=False)
    assert f"`tgneo load documents PATH --workspace w --collection {collection}`" in result.stderr
