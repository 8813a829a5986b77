"""TrustGraph's requests served whole, whichever road they came by: questions, triples, librarian texts.

A question arrives as TrustGraph's service body (``{"query": …, "collection": …, "entity-limit": …}``)
over HTTP (NDJSON, SSE), the question WebSocket, the gateway socket or TrustGraph's non-streaming
REST path; :func:`start_question` validates it, fixes the workspace the caller may use and starts the
engine, and :func:`final_answer` runs one to its end for the non-streaming path. ``triples`` and
``get-document-content`` are answered the same way on the gateway socket and over REST.
"""

from __future__ import annotations

import base64
from collections.abc import Generator, Mapping
from typing import Any

from tgneo.engines import Request
from tgneo.engines.verify import budget_of
from tgneo.errors import BadRequest, NotFound
from tgneo.explain.events import AnswerChunk
from tgneo.kinds import SessionKind
from tgneo.scope import name_or_default
from tgneo.service.access import Access
from tgneo.service.runtime import Runtime
from tgneo.store.driver import Store
from tgneo.store.librarian import get_text
from tgneo.store.triples import find_triples
from tgneo.stream import wire
from tgneo.stream.options import translate
from tgneo.stream.wire import Message

GRAPH_PROFILE = "graph-profile"
"""tgneo's request field naming the graph profile to answer over (TrustGraph's own ``graph`` means another thing)."""
VERIFY = "verify"
"""tgneo's request field asking for the counterfactual check of the answer: ``true``, or the most re-runs (≥ 2)."""
URI_CHARS = 4000
"""The longest document id a librarian request may name."""


def start_question(
    runtime: Runtime, access: Access, service: str, body: Mapping[str, Any], *, timestamps: bool = False
) -> tuple[SessionKind, Generator[Message, None, None]]:
    """Validate a question and start its engine; the first message is already being produced.

    Args:
        runtime: the process's store, LLM and engines.
        access: who asks (the workspace a token fixes).
        service: ``graph-rag``, ``document-rag`` or ``agent``.
        body: the service request, plus an optional ``workspace``, ``graph-profile`` and ``verify``.
        timestamps: add ``committed_at`` to explain messages.

    Raises:
        BadRequest: the body, a field or the workspace is refused (nothing was recorded).
        Forbidden: the token's workspace is not the one named.
    """
    workspace = access.resolve(body.get("workspace"))
    ask = translate(service, {k: v for k, v in body.items() if k not in ("workspace", GRAPH_PROFILE, VERIFY)})
    graph = runtime.profile(ask.collection, body.get(GRAPH_PROFILE))
    request = Request(ask.question, workspace, ask.collection, ask.options, graph, budget_of(body.get(VERIFY), VERIFY))
    return ask.kind, runtime.ask(ask.kind, request, timestamps=timestamps)


def final_answer(runtime: Runtime, access: Access, service: str, body: Mapping[str, Any]) -> dict[str, Any]:
    """Run a question to its end; its final message carrying the whole answer, or TrustGraph's error.

    The answer is in ``response`` (and, for the agent, also in ``answer``, which TrustGraph's REST
    agent client reads).
    """
    kind, messages = start_question(runtime, access, service, body)
    answer: list[str] = []
    last: Message = {}
    for message in messages:
        event = wire.decode(message, kind)
        if isinstance(event, AnswerChunk):
            answer.append(event.text)
        last = message
    if "error" in last:
        return {"error": last["error"]}
    text = "".join(answer)
    return {**last, "response": text, "answer": text} if kind is SessionKind.AGENT else {**last, "response": text}


def triples(store: Store, workspace: str, request: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The wire triples answering a ``triples`` request (a pattern, a ``collection``) in ``workspace``."""
    pattern = wire.decode_pattern(request)
    collection = name_or_default(request.get("collection"), "collection")
    return [wire.encode_quad(q) for q in find_triples(store, workspace, collection, pattern)]


def operation(body: Mapping[str, Any], known: tuple[str, ...]) -> str:
    """The ``operation`` of a librarian or collection-management request, one of ``known``."""
    value = body.get("operation")
    if value not in known:
        raise BadRequest(f"operation: {value!r} is not supported; tgneo serves {', '.join(known)}")
    return str(value)


def document_content(store: Store, workspace: str, body: Mapping[str, Any]) -> dict[str, Any]:
    """``get-document-content``: the librarian text of ``document-id``, base64-encoded, or TrustGraph's error."""
    operation(body, ("get-document-content",))
    document = body.get("document-id")
    if not isinstance(document, str) or not document.strip() or len(document) > URI_CHARS:
        raise BadRequest(f"document-id: required, a non-empty string of at most {URI_CHARS} characters")
    try:
        text = get_text(store, workspace, document)
    except NotFound as e:
        return {"error": {"type": "request-error", "message": str(e)}}
    return {"content": base64.b64encode(text.text.encode()).decode()}
