"""``tgneo.connect()``: the Python front door loads, asks, streams, reads traces back and exports, as the CLI does.

Every test runs against the session's real Neo4j, with the offline provider unless it says otherwise; a test that
needs a model that ignores tgneo's offline rules uses the OpenAI-compatible server on loopback
(``tests/openai_server.py``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from rdflib import Graph

import tgneo
from tests.clirun import tgneo as run_tgneo
from tests.conftest import Neo4jServer
from tests.ingesting import CURIE, WARSAW, write
from tests.installing import installed
from tests.openai_server import OFFLINE_DIMENSIONS, OpenAIServer, serve
from tgneo.config import Settings
from tgneo.llm.registry import Paired, get_llm

QUESTION = "Who discovered polonium?"
MANUAL = Path(__file__).resolve().parent.parent / "docs" / "python-api.md"


@pytest.fixture
def tg(neo4j_server: Neo4jServer, collection: str, tmp_path: Path) -> Iterator[tgneo.Connection]:
    """A connection whose default collection holds two small documents."""
    with tgneo.connect(settings=neo4j_server.settings(), collection=collection) as connection:
        report = connection.load([write(tmp_path / "docs", {"curie.md": CURIE, "warsaw.txt": WARSAW})])
        assert report.loaded == 2 and not report.skipped, report
        yield connection


def test_one_import_loads_asks_and_reads_the_trace_back(tg: tgneo.Connection) -> None:
    answer = tg.ask(QUESTION, engine="graph-rag")
    assert isinstance(answer, tgneo.Answer)
    assert "polonium" in answer.text.lower()
    assert answer.trace_uri.startswith("urn:trustgraph:question:")
    assert [s.title for s in answer.sources] == ["Marie Curie"]
    assert answer.citations and all(c.supported for c in answer.citations)
    trace = tg.trace(answer.trace_uri)
    assert isinstance(trace, tgneo.Trace)
    assert [s.type for s in trace.steps] == ["GraphRagQuestion", "Grounding", "Exploration", "Focus", "Synthesis"]
    assert trace.question == QUESTION and trace.answer == answer.text
    assert trace.totals.in_tokens == answer.in_tokens and trace.totals.models == ("tgneo-offline",)
    focus = trace.step("Focus")
    assert focus is not None and focus.edges, "the Focus names the edges it selected"
    assert list(answer.steps) == [s.uri for s in trace.steps]


@pytest.mark.parametrize(
    ("engine", "root"), [("document-rag", "urn:trustgraph:docrag:"), ("agent", "urn:trustgraph:agent:")]
)
def test_every_engine_answers_through_the_same_call(tg: tgneo.Connection, engine: str, root: str) -> None:
    answer = tg.ask(QUESTION, engine=engine)
    assert answer.trace_uri.startswith(root) and "polonium" in answer.text.lower()
    assert tg.trace(answer.trace_uri).answer == answer.text


def test_stream_yields_typed_events_in_the_order_of_the_cli_json(tg: tgneo.Connection) -> None:
    events = list(tg.stream(QUESTION, engine="document-rag"))
    messages = list(tg.messages(QUESTION, engine="document-rag"))
    assert [type(e).__name__ for e in events] == [type(tgneo_event(m)).__name__ for m in messages], (
        "the typed events are the wire messages, decoded"
    )
    assert isinstance(events[0], tgneo.ExplainEvent) and isinstance(events[-1], tgneo.SessionEnd)
    assert any(isinstance(e, tgneo.AnswerChunk) for e in events)
    assert events[-1].trace == events[0].explain_id


def tgneo_event(message: dict[str, object]) -> object:
    from tgneo.kinds import SessionKind
    from tgneo.stream import wire

    return wire.decode(message, SessionKind.DOC_RAG)


def test_the_messages_are_the_lines_tgneo_ask_json_prints(
    tg: tgneo.Connection, neo4j_server: Neo4jServer, collection: str
) -> None:
    printed = run_tgneo(neo4j_server, "ask", QUESTION, "--engine", "document-rag", "--json", "--collection", collection)
    lines = [json.loads(line) for line in printed.stdout.splitlines()]
    ours = list(tg.messages(QUESTION, engine="document-rag"))
    assert [sorted(m) for m in ours] == [sorted(m) for m in lines]
    assert [m.get("response") for m in ours] == [m.get("response") for m in lines]


def test_a_trace_is_found_without_its_collection(tg: tgneo.Connection, neo4j_server: Neo4jServer) -> None:
    answer = tg.ask(QUESTION)
    with tgneo.connect(settings=neo4j_server.settings()) as elsewhere:  # default collection: not where it is
        assert elsewhere.trace(answer.trace_uri).collection == tg.collection
        with pytest.raises(tgneo.TraceNotFound):
            elsewhere.trace("urn:trustgraph:question:00000000-0000-4000-8000-000000000000")


def test_trace_show_without_collection_finds_it_and_says_where(tg: tgneo.Connection, neo4j_server: Neo4jServer) -> None:
    answer = tg.ask(QUESTION)
    shown = run_tgneo(neo4j_server, "trace", "show", answer.trace_uri)
    assert f"collection '{tg.collection}'" in shown.stderr
    assert "Synthesis" in shown.stdout


def test_export_gives_prov_o_that_rdflib_reads(tg: tgneo.Connection) -> None:
    answer = tg.ask(QUESTION)
    graph = Graph().parse(data=tg.export(answer.trace_uri, format="turtle"), format="turtle")
    question = [str(s) for s, _, _ in graph.triples((None, None, None)) if str(s) == answer.trace_uri]
    assert question, "the exported trace holds its question"


def test_bad_input_raises_typed_errors_under_one_root(tg: tgneo.Connection, tmp_path: Path) -> None:
    with pytest.raises(tgneo.BadRequest, match="unknown engine 'bogus'"):
        tg.ask(QUESTION, engine="bogus")
    with pytest.raises(tgneo.BadRequest, match="question: must not be empty"):
        tg.ask("   ")
    with pytest.raises(tgneo.EmptyCollection):
        tg.ask(QUESTION, collection=f"{tg.collection}-empty")
    with pytest.raises(tgneo.DocumentError, match="no such file or directory"):
        tg.load([tmp_path / "missing"])
    for error in (tgneo.BadRequest, tgneo.EmptyCollection, tgneo.DocumentError, tgneo.AnswerFailed, tgneo.LLMError):
        assert issubclass(error, tgneo.TgneoError)


def test_an_answer_that_fails_part_way_raises_naming_what_was_recorded(
    neo4j_server: Neo4jServer, collection: str, tmp_path: Path
) -> None:
    with serve(OpenAIServer(dimensions=OFFLINE_DIMENSIONS, always="500")) as model:
        settings = model_settings(neo4j_server, model, embedding_provider="offline")
        with tgneo.connect(settings=settings, collection=collection) as tg:
            with tgneo.connect(settings=neo4j_server.settings(), collection=collection) as offline:
                offline.load([write(tmp_path / "docs", {"curie.md": CURIE})])
            with pytest.raises(tgneo.AnswerFailed) as failed:
                tg.ask(QUESTION)
    assert failed.value.trace_uri is not None and failed.value.error_type == "llm-error"


def model_settings(neo4j_server: Neo4jServer, model: OpenAIServer, **overrides: object) -> Settings:
    """Settings asking the loopback server (as chat model, unless ``overrides`` say otherwise)."""
    given: dict[str, object] = {"llm": "openai", "llm_model": "test-model", "openai_base_url": model.url,
                                "openai_api_key": model.api_key, "llm_retries": 0}  # fmt: skip
    return neo4j_server.settings(**{**given, **overrides})


def test_a_hosted_chat_model_answers_over_a_collection_the_offline_embedder_indexed(
    tg: tgneo.Connection, neo4j_server: Neo4jServer
) -> None:
    """TGNEO_EMBEDDING_PROVIDER=offline beside TGNEO_LLM=openai: no re-embedding, and no text goes to the server's
    embeddings endpoint; the answer is the model's."""
    with serve(OpenAIServer(dimensions=OFFLINE_DIMENSIONS)) as model:
        settings = model_settings(neo4j_server, model, embedding_provider="offline")
        with tgneo.connect(settings=settings, collection=tg.collection) as hosted:
            answer = hosted.ask(QUESTION, engine="document-rag")
    assert answer.text.startswith("You asked: ")
    assert model.requests_to("/v1/chat/completions") and not model.requests_to("/v1/embeddings")
    assert answer.model is not None and "test-model" in answer.model


def test_the_embedding_provider_is_chosen_apart_from_the_chat_model(neo4j_server: Neo4jServer) -> None:
    with serve(OpenAIServer(dimensions=OFFLINE_DIMENSIONS)) as model:
        llm = get_llm(model_settings(neo4j_server, model, llm="offline", embedding_provider="openai",
                                     embedding_model="their-embedder"))  # fmt: skip
        assert isinstance(llm, Paired) and llm.model == "tgneo-offline" and llm.embedding_model == "their-embedder"
        vectors = llm.embed(["polonium"])
        assert model.requests_to("/v1/embeddings")[0].body["model"] == "their-embedder"
        assert len(vectors.vectors[0]) == OFFLINE_DIMENSIONS
        with pytest.raises(tgneo.ConfigError, match="TGNEO_EMBEDDING_PROVIDER='nowhere' is not a provider"):
            get_llm(neo4j_server.settings(embedding_provider="nowhere"))


def manual_example(heading: str) -> str:
    """The first Python block under ``heading`` in docs/python-api.md, as the manual shows it."""
    page = MANUAL.read_text()
    section = page[page.index(f"\n## {heading}\n") :]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match, f"docs/python-api.md lost its example under {heading!r}"
    return match.group(1)


def test_the_manuals_provider_example_registers_a_provider_that_answers(
    tg: tgneo.Connection, neo4j_server: Neo4jServer
) -> None:
    exec(compile(manual_example("Adding a provider"), "docs/python-api.md", "exec"), {})
    with tgneo.connect(settings=neo4j_server.settings(llm="shouting"), collection=tg.collection) as loud:
        answer = loud.ask(QUESTION)
    assert answer.text == answer.text.upper() and "POLONIUM" in answer.text
    assert answer.model == "shouting"


PLUGIN = '''
"""A user's package adding a provider and an engine to tgneo through entry points."""
from tgneo.engines import DocRag
from tgneo.llm.base import Completion
from tgneo.llm.offline import OfflineLLM


class Shouting(OfflineLLM):
    name = model = "plugin-shouting"

    def complete(self, task):
        done = super().complete(task)
        if task.stage != "docrag-synthesis":
            return done
        return Completion(done.text.upper(), done.in_tokens, done.out_tokens, self.model, done.duration_ms)


def make_shouting(settings):
    return Shouting(embedding_model=settings.embedding_model)


class FirstPassage(DocRag):
    """Document RAG that answers from the best passage alone."""

    def retrieve(self, session, concepts, limit):
        return super().retrieve(session, concepts, limit)[:1]
'''


def test_an_installed_package_adds_a_provider_and_an_engine_the_cli_finds(
    tg: tgneo.Connection, neo4j_server: Neo4jServer, tmp_path: Path
) -> None:
    site = installed(tmp_path / "site", "tgneo-test-plugin", {
        "tgneo.providers": {"plugin-shouting": "tgneo_test_plugin:make_shouting"},
        "tgneo.engines": {"first-passage": "tgneo_test_plugin:FirstPassage"},
    }, {"tgneo_test_plugin.py": PLUGIN})  # fmt: skip
    env = {**neo4j_server.env(), "PYTHONPATH": str(site), "TGNEO_LLM": "plugin-shouting"}
    result = run_tgneo(None, "ask", QUESTION, "--engine", "first-passage", "-x", "--collection", tg.collection,
                       env=env)  # fmt: skip
    assert "POLONIUM" in result.stdout and result.stdout == result.stdout.upper()
    assert "model plugin-shouting" in result.stderr
    (uri,) = re.findall(r"^trace: (\S+)", result.stderr, re.M)
    focus = tg.trace(uri).step("Focus")
    assert focus is not None and len(focus.chunks) == 1, "the plugin's engine kept the best passage alone"
    unknown = run_tgneo(None, "ask", QUESTION, "--engine", "first-passage", env=neo4j_server.env(), ok=False)
    assert unknown.returncode == 2 and "'first-passage' is not an engine" in unknown.stderr


def test_search_shows_what_retrieval_finds_without_asking(tg: tgneo.Connection) -> None:
    chunks = tg.search_chunks("polonium", limit=3)
    assert chunks and "polonium" in chunks[0].text.lower() and 0 <= chunks[0].score <= 1
    entities = tg.search_entities("Marie Curie", limit=5)
    assert entities and entities[0].name == "Marie Curie"
