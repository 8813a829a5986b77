"""A real OpenAI-compatible HTTP server on loopback, for testing the ``openai`` provider over a socket.

It speaks the wire format the provider relies on — ``POST /v1/chat/completions`` as one JSON answer or
as Server-Sent Events (role chunk, one chunk per word, finish chunk, a usage chunk when
``stream_options.include_usage`` asks for it, ``data: [DONE]``), and ``POST /v1/embeddings`` (floats, or
base64 as the OpenAI SDK asks by default) — and
its answers are computed from each request by the simple rules below, so a test that checks an answer
proves what the provider sent as well as what it read:

- the answer to a prompt is ``"You asked: "`` and the line after its ``Question:`` line
  (:func:`answer_to`);
- a token is a whitespace-separated word: ``prompt_tokens`` counts the words of every message
  received, ``completion_tokens`` the words of the answer;
- the model that answers is the requested one with :data:`SERVED_SUFFIX`, as OpenAI answers a dated
  snapshot of the alias it was asked for;
- a text's vector is :func:`raw_vector` (deliberately not normalised), and embeddings are answered in
  reverse order with their ``index``, as the API allows;
- a request whose bearer token is not :attr:`OpenAIServer.api_key` is refused with 401;
- a request that offers ``tools`` is an agent's turn (:func:`tool_turn`): before any tool has answered, the
  model calls the first tool offered with the last user message as its first parameter, saying
  ``"I will look this up with {tool}."``; once a tool has answered, it answers ``"You asked: {question}
  The tool said: {the tool's first line}"``.

Tests script misbehaviour with :meth:`OpenAIServer.fail_next` (one request each) or
:attr:`OpenAIServer.always`: ``"500"``/``"429"`` (an error with ``retry-after-ms: 1`` so that retries
are quick), ``"stall"`` (accept the request, never answer), ``"stall-mid-stream"`` (stream one piece,
then go silent), ``"garbage"`` (200 with a JSON content type and a body that is not JSON), ``"html"``
(200 with a web page, as a web server at the wrong URL answers), ``"no-choices"``, ``"no-model"``,
``"not-a-stream"`` (answer a stream request with one JSON body), ``"endless"`` (stream until the
client hangs up, then set :attr:`OpenAIServer.hung_up`). :attr:`OpenAIServer.chat_delay` makes every chat
answer wait that many seconds first: a slow model, so that a question lasts long enough for a test to act
while it runs (close the stream, send another request) without racing the engine.
"""

from __future__ import annotations

import base64
import json
import re
import struct
import threading
import time
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tgneo.llm.offline.embedders import embedder

SERVED_SUFFIX = "-2024-07-18"
FAULTS = (
    "500",
    "429",
    "stall",
    "stall-mid-stream",
    "garbage",
    "html",
    "no-choices",
    "no-model",
    "not-a-stream",
    "endless",
)
STALL_LIMIT = 60.0
"""The longest a stalled handler waits before giving up on its own (teardown releases it sooner)."""


def answer_to(prompt: str) -> str:
    """What the server answers to ``prompt``: the question it was asked, repeated."""
    lines = prompt.splitlines()
    question = next((lines[i + 1] for i, line in enumerate(lines[:-1]) if line.strip() == "Question:"), lines[0])
    return f"You asked: {question.strip()}"


def text_of(message: dict[str, Any]) -> str:
    """A chat message's text: its ``content`` string, its text parts, or nothing (a tool call's message)."""
    content = message.get("content")
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return content or ""


def tool_turn(messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> tuple[str, list[dict[str, Any]]]:
    """An agent's turn (module docstring): the answer's text and the tool calls it makes (none once a tool answered)."""
    question = next((text_of(m) for m in reversed(messages) if m.get("role") == "user"), "")
    answered = [text_of(m) for m in messages if m.get("role") == "tool"]
    if answered:
        first = answered[-1].strip().splitlines()[0] if answered[-1].strip() else ""
        return f"You asked: {question} The tool said: {first}", []
    function = tools[0]["function"]
    parameter = next(iter(function.get("parameters", {}).get("properties", {})), "query")
    call = {"id": "call_1", "type": "function",
            "function": {"name": function["name"], "arguments": json.dumps({parameter: question})}}  # fmt: skip
    return f"I will look this up with {function['name']}.", [call]


OFFLINE_DIMENSIONS = embedder().dimensions
"""The default offline embedder's vector length: a server standing in for a model on the tests' shared database gives
vectors as long, since a vector index is database-wide and the offline tests fill it too."""


def token_count(text: str) -> int:
    """The server's tokenizer: whitespace-separated words."""
    return len(text.split())


def words_of(text: str) -> list[str]:
    """``text`` in the pieces the server streams: each word with the whitespace before it."""
    return re.findall(r"\s*\S+", text)


def raw_vector(text: str, dimensions: int) -> list[float]:
    """The server's unnormalised vector of ``text``: character codes summed by position modulo ``dimensions``."""
    return [1.0 + sum(ord(c) for c in text[i::dimensions]) for i in range(dimensions)]


@dataclass
class Received:
    """One request as the server read it."""

    path: str
    headers: dict[str, str]
    body: dict[str, Any]


@dataclass
class OpenAIServer:
    """The server's configuration, its script of faults and what it received (see the module docstring)."""

    api_key: str = "sk-test"
    dimensions: int = 6
    usage_in_stream: bool = True
    always: str | None = None
    chat_delay: float = 0.0
    received: list[Received] = field(default_factory=list)
    hung_up: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)
    url: str = ""
    _faults: deque[str] = field(default_factory=deque)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def fail_next(self, *faults: str) -> None:
        """Misbehave on the next requests, one fault each, in order."""
        unknown = set(faults) - set(FAULTS)
        assert not unknown, f"unknown faults {unknown}; known: {FAULTS}"
        self._faults.extend(faults)

    def requests_to(self, path: str) -> list[Received]:
        """The requests received on ``path`` (``/v1/chat/completions``, ``/v1/embeddings``), in order."""
        return [r for r in self.received if r.path == path]

    def _take(self, request: Received) -> str | None:
        with self._lock:
            self.received.append(request)
            return self._faults.popleft() if self._faults else self.always


class _Handler(BaseHTTPRequestHandler):
    server: _HTTPServer

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the tests read what was received from :attr:`OpenAIServer.received`."""

    def do_POST(self) -> None:  # noqa: N802  (http.server's naming)
        state = self.server.state
        length = int(self.headers.get("Content-Length", "0"))
        body = json.loads(self.rfile.read(length) or b"{}")
        request = Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
        fault = state._take(request)
        if self.headers.get("Authorization") != f"Bearer {state.api_key}":
            return self._error(401, "Incorrect API key provided", "invalid_api_key")
        if fault in ("500", "429"):
            return self._error(int(fault), "the model is overloaded", "server_error", {"retry-after-ms": "1"})
        if fault == "stall":
            state.release.wait(STALL_LIMIT)
            return None
        if fault == "garbage":
            return self._send(200, b"<html>this is not JSON", "application/json")
        if fault == "html":
            return self._send(200, b"<html>Welcome to nginx!</html>", "text/html")
        if self.path == "/v1/chat/completions":
            time.sleep(state.chat_delay)
            return self._chat(body, fault)
        if self.path == "/v1/embeddings":
            return self._embeddings(body)
        return self._error(404, f"no route {self.path}", "not_found")

    def _chat(self, body: dict[str, Any], fault: str | None) -> None:
        state = self.server.state
        prompt = "\n".join(text_of(m) for m in body["messages"])
        answer, calls = tool_turn(body["messages"], body["tools"]) if body.get("tools") else (answer_to(prompt), [])
        model = "" if fault == "no-model" else body["model"] + SERVED_SUFFIX
        usage = {
            "prompt_tokens": token_count(prompt),
            "completion_tokens": token_count(answer),
            "total_tokens": token_count(prompt) + token_count(answer),
        }
        if not body.get("stream") or fault == "not-a-stream":
            choices = [] if fault == "no-choices" else [_choice(answer, calls)]
            reply = {"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": model}
            return self._json(200, {**reply, "choices": choices, "usage": usage})
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        base = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": model}
        self._event({**base, "choices": [_delta({"role": "assistant", "content": ""})]})
        if fault == "endless":
            return self._until_hung_up(base)
        for n, word in enumerate(words_of(answer)):
            self._event({**base, "choices": [_delta({"content": word})]})
            if fault == "stall-mid-stream" and n == 0:
                state.release.wait(STALL_LIMIT)
                return None
        for n, call in enumerate(calls):
            self._event({**base, "choices": [_delta({"tool_calls": [{"index": n, **call}]})]})
        self._event({**base, "choices": [_delta({}, "tool_calls" if calls else "stop")]})
        if body.get("stream_options", {}).get("include_usage") and state.usage_in_stream:
            self._event({**base, "choices": [], "usage": usage})
        self.wfile.write(b"data: [DONE]\n\n")
        return None

    def _until_hung_up(self, base: dict[str, Any]) -> None:
        """Stream words until a write fails because the client closed the connection."""
        for n in range(100_000):
            try:
                self._event({**base, "choices": [_delta({"content": f" word{n}"})]})
            except (BrokenPipeError, ConnectionResetError):
                self.server.state.hung_up.set()
                return
            time.sleep(0.002)

    def _embeddings(self, body: dict[str, Any]) -> None:
        state = self.server.state
        encoding = body.get("encoding_format", "float")
        if encoding not in ("float", "base64"):
            return self._error(400, f"encoding_format {encoding!r} is not float or base64", "invalid_request_error")
        texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
        data = [
            {"object": "embedding", "index": i, "embedding": _encoded(raw_vector(text, state.dimensions), encoding)}
            for i, text in enumerate(texts)
        ]
        tokens = sum(token_count(t) for t in texts)
        usage = {"prompt_tokens": tokens, "total_tokens": tokens}
        return self._json(200, {"object": "list", "data": data[::-1], "model": body["model"], "usage": usage})

    def _event(self, payload: dict[str, Any]) -> None:
        self.wfile.write(b"data: " + json.dumps(payload).encode() + b"\n\n")
        self.wfile.flush()

    def _error(self, status: int, message: str, code: str, headers: dict[str, str] | None = None) -> None:
        error = {"error": {"message": message, "type": code, "param": None, "code": code}}
        self._send(status, json.dumps(error).encode(), "application/json", headers or {})

    def _json(self, status: int, payload: dict[str, Any]) -> None:
        self._send(status, json.dumps(payload).encode(), "application/json")

    def _send(self, status: int, data: bytes, content_type: str, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)


def _encoded(vector: list[float], encoding: str) -> list[float] | str:
    """A vector as OpenAI sends it: a list of floats, or (``base64``, the OpenAI SDK's default) little-endian
    float32s in base64."""
    return vector if encoding == "float" else base64.b64encode(struct.pack(f"<{len(vector)}f", *vector)).decode()


def _choice(answer: str, calls: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": answer, "refusal": None}
    if calls:
        message["tool_calls"] = list(calls)
    finish = "tool_calls" if calls else "stop"
    return {"index": 0, "message": message, "finish_reason": finish, "logprobs": None}


def _delta(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, state: OpenAIServer) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.state = state


@contextmanager
def serve(state: OpenAIServer | None = None) -> Iterator[OpenAIServer]:
    """Run the server on a free loopback port for the ``with`` block; ``state.url`` is its ``/v1`` base URL."""
    state = state or OpenAIServer()
    httpd = _HTTPServer(state)
    state.url = f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), name="openai-server", daemon=True)
    thread.start()
    try:
        yield state
    finally:
        state.release.set()  # stalled handlers return
        httpd.shutdown()
        httpd.server_close()
        thread.join()
