"""The ``openai`` provider against a real OpenAI-compatible server on loopback (tests/openai_server.py).

The server's answers are computed from what it received (the question echoed, words counted as
tokens, the model name suffixed, vectors from the text), so each test proves both what the provider
sent and what it read back. Misbehaviour — errors, stalls, garbage — is scripted on the server; the
provider's timeouts are small, and tests assert the error, never the clock.
"""

from __future__ import annotations

import logging
import math
import re
import socket
from collections.abc import Callable, Generator, Iterator

import pytest

from tests.llm_tasks import QUESTION, task
from tests.openai_server import SERVED_SUFFIX, OpenAIServer, answer_to, raw_vector, serve, token_count, words_of
from tgneo.config import Settings
from tgneo.errors import ConfigError
from tgneo.llm.base import STAGES, Completion, LLMError
from tgneo.llm.openai_provider import DEFAULT_EMBEDDING_MODEL, PLACEHOLDER_API_KEY, PROBE_TEXT, OpenAILLM
from tgneo.llm.prompts import render
from tgneo.llm.registry import get_llm

CHAT = "/v1/chat/completions"
EMBEDDINGS = "/v1/embeddings"
GROUNDING = task("grounding")
ANSWER = f"You asked: {QUESTION}"
"""What the server answers to GROUNDING (``answer_to``)."""
STALL_TIMEOUT = 1.0
"""How long the provider waits on a server that stalls on purpose (the error is asserted, not the time)."""


@pytest.fixture
def server() -> Iterator[OpenAIServer]:
    with serve() as running:
        yield running


def provider(server: OpenAIServer, *, api_key: str | None = None, timeout: float = 30.0, retries: int = 2) -> OpenAILLM:
    """A provider pointed at ``server``, with the server's key unless told otherwise."""
    return OpenAILLM(
        model="gpt-test",
        base_url=server.url,
        api_key=server.api_key if api_key is None else api_key,
        embedding_model="embed-test",
        timeout=timeout,
        retries=retries,
    )


@pytest.fixture
def llm(server: OpenAIServer) -> Iterator[OpenAILLM]:
    with provider(server) as built:
        yield built


def drain(stream: Generator[str, None, Completion]) -> tuple[list[str], Completion]:
    """Every piece of ``stream`` and its return value."""
    pieces: list[str] = []
    while True:
        try:
            pieces.append(next(stream))
        except StopIteration as done:
            return pieces, done.value


@pytest.fixture
def refused_url() -> Iterator[str]:
    """A loopback URL whose port is bound but not listening, so connecting to it is refused."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        yield f"http://127.0.0.1:{sock.getsockname()[1]}/v1"


# complete()


def test_complete_sends_the_rendered_prompt_as_the_only_user_message(server: OpenAIServer, llm: OpenAILLM) -> None:
    llm.complete(GROUNDING)
    [request] = server.requests_to(CHAT)
    assert request.body["messages"] == [{"role": "user", "content": render(GROUNDING)}]


def test_complete_asks_for_the_configured_model_with_the_api_key(server: OpenAIServer, llm: OpenAILLM) -> None:
    llm.complete(GROUNDING)
    [request] = server.requests_to(CHAT)
    assert request.body["model"] == "gpt-test"
    assert request.headers["authorization"] == "Bearer sk-test"


def test_complete_returns_the_servers_answer(llm: OpenAILLM) -> None:
    completion = llm.complete(GROUNDING)
    assert completion.text == ANSWER


def test_complete_reports_the_token_counts_the_server_reports(llm: OpenAILLM) -> None:
    completion = llm.complete(GROUNDING)
    assert completion.in_tokens == token_count(render(GROUNDING))
    assert completion.out_tokens == token_count(ANSWER)


def test_complete_names_the_model_the_server_answered_with(llm: OpenAILLM) -> None:
    assert llm.complete(GROUNDING).model == "gpt-test" + SERVED_SUFFIX


def test_complete_names_the_configured_model_when_the_server_names_none(server: OpenAIServer, llm: OpenAILLM) -> None:
    server.fail_next("no-model")
    assert llm.complete(GROUNDING).model == "gpt-test"


@pytest.mark.parametrize("stage", STAGES)
def test_every_stage_is_asked_with_its_rendered_prompt(server: OpenAIServer, llm: OpenAILLM, stage: str) -> None:
    completion = llm.complete(task(stage))
    assert completion.text == answer_to(render(task(stage)))
    assert server.requests_to(CHAT)[0].body["messages"][0]["content"] == render(task(stage))


# stream()


def test_stream_yields_the_answer_piece_by_piece_and_returns_it_whole(llm: OpenAILLM) -> None:
    pieces, completion = drain(llm.stream(GROUNDING))
    assert pieces == words_of(ANSWER)
    assert "".join(pieces) == completion.text == ANSWER


def test_stream_asks_for_usage_and_reads_it_from_the_final_chunk(server: OpenAIServer, llm: OpenAILLM) -> None:
    _, completion = drain(llm.stream(GROUNDING))
    [request] = server.requests_to(CHAT)
    assert request.body["stream"] is True
    assert request.body["stream_options"] == {"include_usage": True}
    assert completion.in_tokens == token_count(render(GROUNDING))
    assert completion.out_tokens == token_count(ANSWER)


def test_stream_names_the_model_the_server_answered_with(llm: OpenAILLM) -> None:
    _, completion = drain(llm.stream(GROUNDING))
    assert completion.model == "gpt-test" + SERVED_SUFFIX


def test_stream_without_usage_counts_zero_tokens_rather_than_inventing_them(
    server: OpenAIServer, llm: OpenAILLM
) -> None:
    server.usage_in_stream = False
    _, completion = drain(llm.stream(GROUNDING))
    assert completion.text == ANSWER
    assert (completion.in_tokens, completion.out_tokens) == (0, 0)


def test_stream_without_usage_says_so_in_the_log(
    server: OpenAIServer, llm: OpenAILLM, caplog: pytest.LogCaptureFixture
) -> None:
    server.usage_in_stream = False
    with caplog.at_level(logging.WARNING, logger="tgneo.llm.openai_provider"):
        drain(llm.stream(GROUNDING))
    assert f"{server.url}/chat/completions reported no token usage" in caplog.text


def test_closing_a_stream_early_hangs_up_on_the_server(server: OpenAIServer, llm: OpenAILLM) -> None:
    server.fail_next("endless")
    stream = llm.stream(GROUNDING)
    assert [next(stream) for _ in range(3)] == [" word0", " word1", " word2"]
    stream.close()
    assert server.hung_up.wait(timeout=60), "the server kept streaming to a closed generator"


def test_a_stream_that_stalls_midway_is_an_llm_error_after_the_pieces_it_sent(server: OpenAIServer) -> None:
    server.fail_next("stall-mid-stream")
    with provider(server, timeout=STALL_TIMEOUT, retries=0) as llm:
        stream = llm.stream(GROUNDING)
        assert next(stream) == "You"
        with pytest.raises(
            LLMError, match=rf"was silent longer than TGNEO_LLM_TIMEOUT={STALL_TIMEOUT:g} s \(mid-stream"
        ):
            next(stream)


def test_a_refused_stream_is_an_llm_error_naming_the_server(server: OpenAIServer) -> None:
    with provider(server, api_key="sk-wrong") as llm, pytest.raises(LLMError, match=f"{server.url}.* HTTP 401"):
        next(llm.stream(GROUNDING))


# embed() and dimensions


def test_embed_returns_unit_vectors_in_the_direction_the_server_answered(llm: OpenAILLM) -> None:
    texts = ["polonium", "radium", "Marie Curie"]
    embeddings = llm.embed(texts)
    for text, vector in zip(texts, embeddings.vectors, strict=True):
        raw = raw_vector(text, 6)
        norm = math.sqrt(sum(x * x for x in raw))
        assert vector == pytest.approx([x / norm for x in raw])
        assert math.sqrt(sum(x * x for x in vector)) == pytest.approx(1.0)


def test_embed_keeps_input_order_when_the_server_answers_out_of_order(llm: OpenAILLM) -> None:
    first, second = llm.embed(["aaaa", "zzzz"]).vectors
    assert first == llm.embed(["aaaa"]).vectors[0]
    assert second == llm.embed(["zzzz"]).vectors[0]


def test_embed_asks_for_the_embedding_model_in_floats(server: OpenAIServer, llm: OpenAILLM) -> None:
    embeddings = llm.embed(["polonium"])
    [request] = server.requests_to(EMBEDDINGS)
    assert (request.body["model"], request.body["encoding_format"]) == ("embed-test", "float")
    assert embeddings.model == "embed-test"


def test_embed_sends_large_inputs_in_batches_of_128(server: OpenAIServer, llm: OpenAILLM) -> None:
    texts = [f"text number {n}" for n in range(300)]
    embeddings = llm.embed(texts)
    assert [r.body["input"] for r in server.requests_to(EMBEDDINGS)] == [texts[:128], texts[128:256], texts[256:]]
    assert embeddings.vectors[299] == llm.embed(["text number 299"]).vectors[0]


def test_embed_reports_the_token_counts_the_server_reports(llm: OpenAILLM) -> None:
    assert llm.embed(["polonium is radioactive", "radium"]).in_tokens == 4


def test_dimensions_are_learnt_from_the_first_answer(server: OpenAIServer, llm: OpenAILLM) -> None:
    assert llm.embed(["polonium"]).dimensions == 6
    assert llm.dimensions == 6
    assert len(server.requests_to(EMBEDDINGS)) == 1


def test_dimensions_asked_first_probe_the_server_once(server: OpenAIServer, llm: OpenAILLM) -> None:
    assert (llm.dimensions, llm.dimensions) == (6, 6)
    assert [r.body["input"] for r in server.requests_to(EMBEDDINGS)] == [[PROBE_TEXT]]


def test_a_vector_of_another_length_is_an_llm_error(server: OpenAIServer, llm: OpenAILLM) -> None:
    llm.embed(["polonium"])
    server.dimensions = 8
    with pytest.raises(LLMError, match="8-dimensional vector after 6-dimensional ones"):
        llm.embed(["radium"])


# failures: every one is an LLMError naming the server


def test_a_stalled_server_is_an_llm_error_after_the_timeout(server: OpenAIServer) -> None:
    server.always = "stall"
    with provider(server, timeout=STALL_TIMEOUT, retries=0) as llm, pytest.raises(LLMError) as raised:
        llm.complete(GROUNDING)
    assert str(raised.value) == (
        f"{server.url}/chat/completions was silent longer than TGNEO_LLM_TIMEOUT={STALL_TIMEOUT:g} s "
        "(no retries, TGNEO_LLM_RETRIES=0)"
    )


def test_a_stall_is_retried(server: OpenAIServer) -> None:
    server.fail_next("stall")
    with provider(server, timeout=STALL_TIMEOUT, retries=1) as llm:
        assert llm.complete(GROUNDING).text == ANSWER
    assert len(server.requests_to(CHAT)) == 2


@pytest.mark.parametrize("status", ["500", "429"])
def test_a_transient_error_is_retried(server: OpenAIServer, llm: OpenAILLM, status: str) -> None:
    server.fail_next(status)
    assert llm.complete(GROUNDING).text == ANSWER
    assert len(server.requests_to(CHAT)) == 2


def test_a_lasting_server_error_is_an_llm_error_after_the_retries(server: OpenAIServer, llm: OpenAILLM) -> None:
    server.always = "500"
    with pytest.raises(LLMError) as raised:
        llm.complete(GROUNDING)
    assert str(raised.value) == (
        f"{server.url}/chat/completions answered HTTP 500: the model is overloaded (with up to 2 retries)"
    )
    assert len(server.requests_to(CHAT)) == 3


def test_a_wrong_api_key_is_an_llm_error_naming_the_server(server: OpenAIServer) -> None:
    with provider(server, api_key="sk-wrong") as llm, pytest.raises(LLMError) as raised:
        llm.complete(GROUNDING)
    assert str(raised.value) == (
        f"{server.url}/chat/completions answered HTTP 401: Incorrect API key provided — check OPENAI_API_KEY"
    )
    assert len(server.requests_to(CHAT)) == 1  # a refusal is not retried


def completing(llm: OpenAILLM) -> object:
    return llm.complete(GROUNDING)


def streaming(llm: OpenAILLM) -> object:
    return drain(llm.stream(GROUNDING))


def embedding(llm: OpenAILLM) -> object:
    return llm.embed(["polonium"])


@pytest.mark.parametrize(
    ("fault", "call", "message"),
    [
        pytest.param("garbage", completing, r"/chat/completions answered malformed JSON \(Expecting value\): "
                     r"'<html>this is not JSON'$", id="a body that is not JSON"),
        pytest.param("garbage", embedding, r"/embeddings answered malformed JSON", id="embeddings that are not JSON"),
        pytest.param("html", completing, r"/chat/completions answered something that is not a chat completion: "
                     r"'<html>Welcome to nginx", id="a web page"),
        pytest.param("no-choices", completing, r"/chat/completions answered with no choices$", id="no choices"),
        pytest.param("not-a-stream", streaming, r"/chat/completions answered the stream with no server-sent events$",
                     id="a stream without events"),
    ],
)  # fmt: skip
def test_an_answer_that_is_not_an_openai_answer_is_an_llm_error_naming_the_url(
    server: OpenAIServer, llm: OpenAILLM, fault: str, call: Callable[[OpenAILLM], object], message: str
) -> None:
    server.fail_next(fault)
    with pytest.raises(LLMError, match=re.escape(server.url) + message):
        call(llm)


def test_a_refused_connection_is_an_llm_error_naming_the_server(refused_url: str) -> None:
    with OpenAILLM(model="gpt-test", base_url=refused_url, retries=0) as llm, pytest.raises(LLMError) as raised:
        llm.complete(GROUNDING)
    assert str(raised.value).startswith(f"cannot talk to {refused_url}/chat/completions: ")
    assert "refused" in str(raised.value).lower()


def test_a_base_url_without_v1_is_an_llm_error_that_says_where_to_look(server: OpenAIServer) -> None:
    with OpenAILLM(model="gpt-test", base_url=server.url.removesuffix("/v1"), api_key=server.api_key) as llm:
        with pytest.raises(
            LLMError, match=r"answered HTTP 404: .* check .*OPENAI_BASE_URL \(most servers end it in /v1\)"
        ):
            llm.complete(GROUNDING)


# configuration


def test_an_empty_api_key_sends_the_placeholder(server: OpenAIServer) -> None:
    server.api_key = PLACEHOLDER_API_KEY
    with provider(server, api_key="") as llm:
        llm.complete(GROUNDING)
    assert server.requests_to(CHAT)[0].headers["authorization"] == f"Bearer {PLACEHOLDER_API_KEY}"


def test_the_openai_provider_needs_a_model() -> None:
    with pytest.raises(ConfigError, match="TGNEO_LLM=openai needs TGNEO_LLM_MODEL"):
        get_llm(Settings.from_env({"TGNEO_LLM": "openai"}))


@pytest.mark.parametrize(
    ("variable", "value"),
    [("OPENAI_BASE_URL", "localhost:11434/v1"), ("TGNEO_LLM_TIMEOUT", "0"), ("TGNEO_LLM_RETRIES", "-1")],
)
def test_an_unusable_setting_is_a_config_error_naming_it(variable: str, value: str) -> None:
    with pytest.raises(ConfigError, match=f"^{variable}="):
        get_llm(Settings.from_env({"TGNEO_LLM": "openai", "TGNEO_LLM_MODEL": "gpt-test", variable: value}))


def test_get_llm_builds_the_openai_provider_from_the_environment(server: OpenAIServer) -> None:
    environ = {
        "TGNEO_LLM": "openai",
        "TGNEO_LLM_MODEL": "llama3.1:8b",
        "TGNEO_EMBEDDING_MODEL": "nomic-embed-text",
        "OPENAI_BASE_URL": server.url,
        "OPENAI_API_KEY": "sk-test",
        "TGNEO_LLM_TIMEOUT": "7.5",
        "TGNEO_LLM_RETRIES": "1",
    }
    llm = get_llm(Settings.from_env(environ))
    assert isinstance(llm, OpenAILLM)
    with llm:
        assert (llm.name, llm.model, llm.embedding_model, llm.base_url) == (
            "openai", "llama3.1:8b", "nomic-embed-text", server.url
        )  # fmt: skip
        assert (llm.timeout, llm.retries) == (7.5, 1)
        assert llm.complete(GROUNDING).model == "llama3.1:8b" + SERVED_SUFFIX


def test_the_defaults_are_openais_url_and_embedding_model(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)  # the package reads it too when none is given
    with OpenAILLM.from_settings(Settings(llm="openai", llm_model="gpt-4o-mini")) as llm:
        assert (llm.base_url, llm.embedding_model) == ("https://api.openai.com/v1", DEFAULT_EMBEDDING_MODEL)
