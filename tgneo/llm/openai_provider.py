"""The ``openai`` provider: any OpenAI-compatible server — OpenAI, vLLM, Ollama, llama.cpp's server.

It speaks the two endpoints every such server implements, through the official ``openai`` package:

- ``POST {base}/chat/completions`` — one user message, the stage's rendered prompt
  (:func:`tgneo.llm.prompts.render`), and the model name. Nothing else is sent (no system message, no
  temperature, no token limit), so the server's defaults apply and the prompt file is the whole
  instruction. :meth:`OpenAILLM.stream` adds ``stream: true`` and
  ``stream_options: {"include_usage": true}``.
- ``POST {base}/embeddings`` — up to :data:`EMBED_BATCH` texts per request, ``encoding_format:
  "float"`` (llama.cpp and older Ollama builds do not speak the package's default, base64).

Token counts are the server's own: ``usage.prompt_tokens`` and ``usage.completion_tokens`` of the
answer, or of the final usage chunk of a stream. tgneo never estimates them: a server that reports no
usage (some llama.cpp and Ollama builds omit it from streams) yields ``in_tokens == out_tokens == 0``,
which cannot be a real count — every prompt tgneo sends is at least one token — so 0 reads as "not
reported", and a warning is logged. ``model`` is the name the server answered with (OpenAI answers
``gpt-4o-mini-2024-07-18`` when asked for ``gpt-4o-mini``), else the configured one. ``duration_ms``
is the wall time of the whole call, retries included.

Every failure becomes :class:`~tgneo.llm.base.LLMError` with a one-line message naming the URL that
failed and what happened; no ``openai`` exception escapes. ``TGNEO_LLM_TIMEOUT`` bounds how long the
server may stay silent — to connect, before it answers, and between two pieces of a stream — so a
stalled server is an error, never a hang, while a long answer that keeps streaming is not cut off.
The package itself retries (``TGNEO_LLM_RETRIES`` times, exponential back-off, honouring
``Retry-After``) connection failures, timeouts, 408, 409, 429 and 5xx before the first byte of an
answer; a stream that breaks after pieces were yielded is not retried, since those pieces are
already with the caller.
"""

from __future__ import annotations

import json
import logging
import math
import time
from collections.abc import Generator, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

import openai

from tgneo.errors import ConfigError
from tgneo.llm.base import LLM, Completion, Embeddings, LLMError, Task
from tgneo.llm.prompts import render

if TYPE_CHECKING:
    from openai.types.chat import ChatCompletionMessageParam

    from tgneo.config import Settings

__all__ = ["DEFAULT_EMBEDDING_MODEL", "EMBED_BATCH", "PLACEHOLDER_API_KEY", "OpenAILLM"]

log = logging.getLogger(__name__)

DEFAULT_EMBEDDING_MODEL = "text-embedding-3-small"
"""OpenAI's small embedding model (1536 dimensions); local servers name their own (``nomic-embed-text``)."""

PLACEHOLDER_API_KEY = "tgneo-no-key"
"""Sent as the bearer token when ``OPENAI_API_KEY`` is empty: the package refuses to run without a key,
local servers (Ollama, vLLM, llama.cpp) ignore it, and a server log that shows it says why."""

EMBED_BATCH = 128
"""Texts per embeddings request: well under every server's input limit (OpenAI takes 2048)."""

PROBE_TEXT = "dimensions"
"""What :attr:`OpenAILLM.dimensions` embeds when asked before any :meth:`OpenAILLM.embed` call."""

_RETRIED_STATUSES = (408, 409, 429)


class OpenAILLM(LLM):
    """Chat completions, streams and embeddings from an OpenAI-compatible server (module docstring).

    Build it with :meth:`from_settings` (what :func:`tgneo.llm.registry.get_llm` does) or directly.
    Call :meth:`close` (or use it as a context manager) to release its pooled connections.

    Raises:
        ConfigError: no chat model, a base URL that is not ``http(s)://``, a timeout that is not
            positive or a negative retry count; the message names the environment variable.
    """

    name = "openai"

    def __init__(
        self,
        *,
        model: str | None,
        base_url: str | None = None,
        api_key: str | None = None,
        embedding_model: str | None = None,
        timeout: float = 60.0,
        retries: int = 2,
        batch_size: int = EMBED_BATCH,
        embeddings_only: bool = False,
    ) -> None:
        if not model and not embeddings_only:
            raise ConfigError(
                "TGNEO_LLM=openai needs TGNEO_LLM_MODEL: the chat model to ask (e.g. gpt-4o-mini, llama3.1:8b)"
            )
        if base_url and not base_url.startswith(("http://", "https://")):
            raise ConfigError(f"OPENAI_BASE_URL={base_url!r} is not an http:// or https:// URL")
        if not timeout > 0:
            raise ConfigError(f"TGNEO_LLM_TIMEOUT={timeout!r} must be a positive number of seconds")
        if retries < 0:
            raise ConfigError(f"TGNEO_LLM_RETRIES={retries!r} must be 0 or more")
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, not {batch_size}")
        self.model = model or ""
        self.embeddings_only = embeddings_only
        self.embedding_model = embedding_model or DEFAULT_EMBEDDING_MODEL
        self.timeout = timeout
        self.retries = retries
        self.batch_size = batch_size
        self._client = openai.OpenAI(
            api_key=api_key or PLACEHOLDER_API_KEY,
            base_url=base_url or None,  # unset: the package's default, https://api.openai.com/v1
            timeout=timeout,
            max_retries=retries,
        )
        self.base_url = str(self._client.base_url).rstrip("/")
        self._dimensions: int | None = None

    @classmethod
    def from_settings(cls, settings: Settings, *, embeddings_only: bool = False) -> OpenAILLM:
        """The provider ``TGNEO_LLM=openai`` configures (see docs/configuration.md, "LLM providers"); with
        ``embeddings_only`` (``TGNEO_EMBEDDING_PROVIDER=openai`` beside another chat provider) no chat model is
        needed, and asking it to complete a task is a :class:`~tgneo.errors.ConfigError`."""
        return cls(
            model=None if embeddings_only else settings.llm_model,
            embeddings_only=embeddings_only,
            base_url=settings.openai_base_url,
            api_key=settings.openai_api_key,
            embedding_model=settings.embedding_model,
            timeout=settings.llm_timeout,
            retries=settings.llm_retries,
        )

    def close(self) -> None:
        """Close the pooled HTTP connections; the provider cannot be used afterwards."""
        self._client.close()

    def __enter__(self) -> OpenAILLM:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def dimensions(self) -> int:
        """The vectors' length, as the server's first answer showed it.

        A model's dimension is not something the API states, so it is learnt from the first
        :meth:`embed` call; asked before any, it embeds :data:`PROBE_TEXT` once to find out.
        """
        if self._dimensions is None:
            return self.embed([PROBE_TEXT]).dimensions
        return self._dimensions

    def complete(self, task: Task) -> Completion:
        messages = self._messages(task)
        started = time.perf_counter()
        url = self._url("chat/completions")
        with self._failures(url):
            reply = self._client.chat.completions.create(model=self.model, messages=messages)
        text = _content(reply, url)
        in_tokens, out_tokens = _usage(getattr(reply, "usage", None), url)
        return Completion(text, in_tokens, out_tokens, _served_model(reply) or self.model, _ms(started))

    def stream(self, task: Task) -> Generator[str, None, Completion]:
        messages = self._messages(task)
        started = time.perf_counter()
        url = self._url("chat/completions")
        with self._failures(url):
            chunks = self._client.chat.completions.create(
                model=self.model, messages=messages, stream=True, stream_options={"include_usage": True}
            )
        pieces: list[str] = []
        usage: object = None
        served = ""
        chunk_count = 0
        try:
            with self._failures(url, retried=False):
                for chunk in chunks:
                    chunk_count += 1
                    served = served or _served_model(chunk)
                    usage = getattr(chunk, "usage", None) or usage
                    piece = _delta(chunk)
                    if piece:
                        pieces.append(piece)
                        yield piece
        finally:
            chunks.close()  # also when the caller closes this generator early: the server stops sending
        if not chunk_count:  # e.g. a server that ignores "stream" and answers one JSON body
            raise LLMError(f"{url} answered the stream with no server-sent events")
        in_tokens, out_tokens = _usage(usage, url)
        return Completion("".join(pieces), in_tokens, out_tokens, served or self.model, _ms(started))

    def embed(self, texts: Sequence[str]) -> Embeddings:
        """One unit vector per text, :data:`EMBED_BATCH` texts a request, in the order given.

        An empty ``texts`` sends nothing, unless the dimensions are not known yet (then the probe).

        Raises:
            LLMError: as :meth:`complete`, or the server answered vectors of another length than before.
        """
        started = time.perf_counter()
        url = self._url("embeddings")
        vectors: list[list[float]] = []
        in_tokens = 0
        for at in range(0, len(texts), self.batch_size):
            batch = list(texts[at : at + self.batch_size])
            with self._failures(url):
                reply = self._client.embeddings.create(model=self.embedding_model, input=batch, encoding_format="float")
            vectors += _vectors(reply, len(batch), url)
            in_tokens += _int(getattr(getattr(reply, "usage", None), "prompt_tokens", 0))
        for vector in vectors:
            self._check_dimensions(len(vector), url)
        dimensions = self._dimensions if self._dimensions is not None else self.dimensions
        return Embeddings([_normalised(v) for v in vectors], self.embedding_model, dimensions, in_tokens, _ms(started))

    def _check_dimensions(self, length: int, url: str) -> None:
        """Every vector of one embedding model has one length; another length means another model answered."""
        if self._dimensions is None:
            self._dimensions = length
        elif length != self._dimensions:
            raise LLMError(
                f"{url} answered a {length}-dimensional vector after {self._dimensions}-dimensional ones "
                f"(did the model behind TGNEO_EMBEDDING_MODEL={self.embedding_model} change?)"
            )

    def _messages(self, task: Task) -> list[ChatCompletionMessageParam]:
        if self.embeddings_only:
            raise ConfigError(
                f"this openai provider only embeds (TGNEO_EMBEDDING_PROVIDER=openai); it cannot answer {task.stage!r}"
            )
        return [{"role": "user", "content": render(task)}]

    def _url(self, endpoint: str) -> str:
        return f"{self.base_url}/{endpoint}"

    @contextmanager
    def _failures(self, url: str, *, retried: bool = True) -> Iterator[None]:
        """Turn whatever the package or the wire raises into one-line :class:`LLMError`s naming ``url``.

        ``retried`` says whether the package retried this call (a request) or not (reading a stream).
        """
        retries = _retries(self.retries) if retried else "mid-stream, not retried"
        try:
            yield
        except openai.APITimeoutError as e:
            raise LLMError(f"{url} was silent longer than TGNEO_LLM_TIMEOUT={self.timeout:g} s ({retries})") from e
        except openai.APIConnectionError as e:
            cause = _one_line(str(e.__cause__ or e))
            raise LLMError(f"cannot talk to {url}: {cause} ({retries})") from e
        except openai.APIStatusError as e:
            again = f" ({retries})" if e.status_code in _RETRIED_STATUSES or e.status_code >= 500 else ""
            raise LLMError(f"{url} answered HTTP {e.status_code}: {_detail(e)}{again}{_hint(e.status_code)}") from e
        except openai.OpenAIError as e:
            raise LLMError(f"{url} failed: {_one_line(str(e))}") from e
        except json.JSONDecodeError as e:
            raise LLMError(f"{url} answered malformed JSON ({e.msg}): {_one_line(repr(e.doc[:80]))}") from e
        except ValueError as e:  # JSON of a shape the package cannot read
            raise LLMError(f"{url} answered JSON that is not an OpenAI answer: {_one_line(str(e))}") from e


def _retries(count: int) -> str:
    if count == 0:
        return "no retries, TGNEO_LLM_RETRIES=0"
    return f"with up to {count} {'retry' if count == 1 else 'retries'}"


def _one_line(text: str, limit: int = 240) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _detail(error: openai.APIStatusError) -> str:
    """The server's own words: its ``error.message``, else the start of its body."""
    prefix = f"Error code: {error.status_code}"
    message = error.message.removeprefix(prefix).removeprefix(" - ")
    if not message and isinstance(error.body, str):
        message = error.body
    return _one_line(message) or "(no message)"


def _hint(status: int) -> str:
    if status in (401, 403):
        return " — check OPENAI_API_KEY"
    if status == 404:
        return " — check TGNEO_LLM_MODEL / TGNEO_EMBEDDING_MODEL and OPENAI_BASE_URL (most servers end it in /v1)"
    return ""


def _int(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def _usage(usage: object, url: str) -> tuple[int, int]:
    """``(prompt_tokens, completion_tokens)`` as the server reported them; ``(0, 0)`` when it did not."""
    in_tokens = _int(getattr(usage, "prompt_tokens", None))
    out_tokens = _int(getattr(usage, "completion_tokens", None))
    if not in_tokens:
        log.warning("%s reported no token usage; in_tokens and out_tokens are recorded as 0", url)
    return in_tokens, out_tokens


def _served_model(reply: object) -> str:
    model = getattr(reply, "model", None)
    return model if isinstance(model, str) else ""


def _first_choice(reply: object, url: str) -> object:
    choices = getattr(reply, "choices", None)
    if not isinstance(choices, list):
        got = reply[:80] if isinstance(reply, str) else type(reply).__name__
        raise LLMError(f"{url} answered something that is not a chat completion: {_one_line(repr(got))}")
    if not choices:
        raise LLMError(f"{url} answered with no choices")
    return choices[0]


def _content(reply: object, url: str) -> str:
    """The text of the first choice; an answer without one is an error, not an empty string."""
    message = getattr(_first_choice(reply, url), "message", None)
    content = getattr(message, "content", None)
    if not isinstance(content, str):
        refusal = getattr(message, "refusal", None)
        why = f"refused: {_one_line(refusal)}" if isinstance(refusal, str) and refusal else "no message content"
        raise LLMError(f"{url} answered with {why}")
    return content


def _delta(chunk: object) -> str:
    """The text a stream chunk adds (nothing for role, finish and usage chunks)."""
    choices = getattr(chunk, "choices", None)
    if not isinstance(choices, list) or not choices:
        return ""
    content = getattr(getattr(choices[0], "delta", None), "content", None)
    return content if isinstance(content, str) else ""


def _vectors(reply: object, expected: int, url: str) -> list[list[float]]:
    """The vectors of one embeddings answer in input order (by ``index``), checked to be finite numbers."""
    data = getattr(reply, "data", None)
    if not isinstance(data, list) or len(data) != expected:
        got = len(data) if isinstance(data, list) else "no"
        raise LLMError(f"{url} answered {got} vectors for {expected} texts")
    indexed: dict[int, list[float]] = {}
    for position, item in enumerate(data):
        index = getattr(item, "index", position)
        vector = getattr(item, "embedding", None)
        if not isinstance(vector, list) or not vector or not all(_is_number(x) for x in vector):
            raise LLMError(f"{url} answered a vector that is not a list of numbers at index {index}")
        indexed[index if isinstance(index, int) else position] = [float(x) for x in vector]
    if sorted(indexed) != list(range(expected)):
        raise LLMError(f"{url} answered vectors with indexes {sorted(indexed)} for {expected} texts")
    return [indexed[i] for i in range(expected)]


def _is_number(x: object) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x)


def _normalised(vector: list[float]) -> list[float]:
    """``vector`` scaled to length 1 (cosine similarity becomes a dot product); all zeros stays all zeros."""
    norm = math.sqrt(sum(v * v for v in vector))
    return [v / norm for v in vector] if norm else vector


def _ms(started: float) -> int:
    return int((time.perf_counter() - started) * 1000)
