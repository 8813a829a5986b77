"""OpenTelemetry in: ``POST /v1/traces`` on a running ``tgneo serve`` turns exported span trees into traces.

The spans come from the real things: the OpenTelemetry SDK's ``OTLPSpanExporter`` (protobuf over HTTP) fed by
OpenInference's real LangChain instrumentation of a LangChain chain over langchain-neo4j's ``Neo4jVector`` and a
tool-calling agent, both on the loopback OpenAI-compatible model; and OTLP/JSON bodies of OpenTelemetry GenAI spans
(``gen_ai.*``), sent out of order and in pieces as a collector may. The server is the session's ``tgneo serve``
(gunicorn, two workers, two tenants with tokens).
"""

from __future__ import annotations

import json
import os
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import requests
from langchain_neo4j import Neo4jVector
from openinference.instrumentation.langchain import LangChainInstrumentor
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor

from tests.clirun import tgneo
from tests.coexisting import rows
from tests.conftest import Neo4jServer
from tests.openai_server import SERVED_SUFFIX, OpenAIServer, token_count
from tests.serving import Served, Tenant, tg
from tests.test_langchain_adapter import QUESTION, agent, chat, rag_chain, search_pip_docs
from tests.test_langchain_adapter import model as model  # noqa: F401  (the loopback model fixture)
from tests.test_langchain_adapter import vectors as vectors  # noqa: F401  (Neo4jVector over pip's guides)
from tgneo.otlp.export import otlp_json
from tgneo.rdf.ontology import graph_of
from tgneo.rdf.ontology import validate as run_shapes
from tgneo.store import Store
from tgneo.store.otlp_receive import counts
from tgneo.store.rdf_export import stream_quads
from tgneo.store.traces import get_trace, list_traces

pytestmark = pytest.mark.filterwarnings(
    "ignore:The default returned 'id' field:DeprecationWarning",
    # openinference-instrumentation 0.1.72 reads a LangChain message's text the way langchain-core 1.x deprecates
    "ignore:Calling .text\\(\\) as a method is deprecated",
)


def exporter_for(served: Served, tenant: Tenant, collection: str) -> TracerProvider:
    """A tracer provider exporting each span as it ends (the SDK's own exporter) to the server, as ``tenant``."""
    headers = {"Authorization": f"Bearer {tenant.token}", "X-Tgneo-Collection": collection}
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(OTLPSpanExporter(endpoint=f"{served.base}/v1/traces",
                                                                     headers=headers, timeout=60)))  # fmt: skip
    return provider


@pytest.fixture
def instrumented(served: Served) -> Iterator[tuple[TracerProvider, str]]:
    """OpenInference's LangChain instrumentation on for one test, exporting to tenant a's fresh collection."""
    collection = f"otlp-{uuid.uuid4().hex[:8]}"
    provider = exporter_for(served, served.a, collection)
    instrumentor = LangChainInstrumentor()
    instrumentor.instrument(tracer_provider=provider)
    try:
        yield provider, collection
    finally:
        instrumentor.uninstrument()
        provider.shutdown()


def traces_in(store: Store, workspace: str, collection: str) -> list[dict[str, Any]]:
    page = list_traces(store, workspace, collection)
    return [get_trace(store, workspace, collection, t["uri"]) for t in page.traces]


def steps_of(trace: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [s for s in trace["steps"] if s["type"] == kind]


def test_an_openinference_instrumented_chain_becomes_a_document_rag_trace_with_its_sources(
    store: Store, served: Served, instrumented: tuple[TracerProvider, str], vectors: Neo4jVector,  # noqa: F811
    model: OpenAIServer,  # noqa: F811
) -> None:  # fmt: skip
    provider, collection = instrumented
    retrieved = vectors.similarity_search(QUESTION, k=3)  # what the chain's retriever finds (not a runnable: untraced)
    answer = rag_chain(vectors, chat(model)).invoke(QUESTION)
    provider.force_flush()
    (trace,) = [t for t in traces_in(store, served.a.workspace, collection) if t["type"] == "docrag"]
    assert trace["query"] == QUESTION
    (synthesis,) = steps_of(trace, "Synthesis")
    assert synthesis["properties"]["llmModel"] == "gpt-4o-mini" + SERVED_SUFFIX
    assert synthesis["properties"]["outToken"] == token_count(answer)
    (focus,) = steps_of(trace, "Focus")
    texts = sorted(c["chunk"]["text"] for c in focus["chunks"])
    assert texts == sorted(d.page_content for d in retrieved)
    documents = {c["chunk"]["chain"][-1] for c in focus["chunks"]}
    titles = rows(store.driver, "MATCH (d:TgDocument {workspace: $w, collection: $c}) WHERE d.uri IN $uris "
                  "RETURN d.title AS title", w=served.a.workspace, c=collection, uris=sorted(documents))  # fmt: skip
    assert sorted(r["title"] for r in titles) == sorted({d.metadata["source"] for d in retrieved})


def test_an_openinference_instrumented_agent_becomes_an_agent_trace(
    store: Store, served: Served, instrumented: tuple[TracerProvider, str], model: OpenAIServer,  # noqa: F811
) -> None:  # fmt: skip
    provider, collection = instrumented
    seen = len(model.requests_to("/v1/chat/completions"))
    agent(model, [search_pip_docs]).invoke({"input": QUESTION})
    provider.force_flush()
    first, last = model.requests_to("/v1/chat/completions")[seen:]
    (trace,) = traces_in(store, served.a.workspace, collection)
    assert trace["type"] == "agent"
    (analysis,) = steps_of(trace, "Analysis")
    assert analysis["properties"]["action"] == "search_pip_docs"
    assert json.loads(analysis["properties"]["arguments"]) == {"query": QUESTION}
    (conclusion,) = steps_of(trace, "Conclusion")
    # OpenInference names the model a streamed call asked for (its invocation parameters), not the one that answered
    assert conclusion["properties"]["llmModel"] in ("gpt-4o-mini", "gpt-4o-mini" + SERVED_SUFFIX)
    asked = "\n".join(m["content"] or "" for m in last.body["messages"])
    assert conclusion["properties"]["inToken"] == token_count(asked)
    assert analysis["properties"]["inToken"] == token_count(
        "\n".join(m["content"] or "" for m in first.body["messages"])
    )


# -- OTLP/JSON: OpenTelemetry's GenAI spans, as another SDK or a collector sends them ---------------------------


def ids() -> tuple[str, str, str, str, str]:
    """A trace id and four span ids (root, model call, tool call, final model call)."""
    return uuid.uuid4().hex, *(os.urandom(8).hex() for _ in range(4))  # type: ignore[return-value]


def attr(key: str, value: Any) -> dict[str, Any]:
    if isinstance(value, bool):
        return {"key": key, "value": {"boolValue": value}}
    if isinstance(value, int):
        return {"key": key, "value": {"intValue": str(value)}}
    return {"key": key, "value": {"stringValue": value}}


def span(
    trace: str, sid: str, parent: str, name: str, start: int, attrs: dict[str, Any], **extra: Any
) -> dict[str, Any]:
    t0 = 1_764_000_000_000_000_000 + start * 1_000_000
    return {"traceId": trace, "spanId": sid, "parentSpanId": parent, "name": name, "kind": 1,
            "startTimeUnixNano": str(t0), "endTimeUnixNano": str(t0 + 900_000),
            "attributes": [attr(k, v) for k, v in attrs.items()], **extra}  # fmt: skip


def genai_agent_spans(question: str) -> tuple[str, list[dict[str, Any]]]:
    """An agent's spans by OpenTelemetry's GenAI conventions: invoke_agent ⊃ chat, execute_tool, chat."""
    trace, root, first, tool, last = ids()
    asked = json.dumps([{"role": "user", "parts": [{"type": "text", "content": question}]}])
    said = json.dumps([{"role": "assistant", "parts": [{"type": "text", "content": "Looking in the docs."}]}])
    answered = json.dumps([{"role": "assistant", "parts": [{"type": "text", "content": "Run pip cache purge."}]}])
    return trace, [
        span(trace, root, "", "invoke_agent helper", 0, {"gen_ai.operation.name": "invoke_agent",
                                                         "gen_ai.output.messages": answered}),
        span(trace, first, root, "chat gpt-4o", 1, {"gen_ai.operation.name": "chat", "gen_ai.input.messages": asked,
             "gen_ai.output.messages": said, "gen_ai.response.model": "gpt-4o-2024-08-06",
             "gen_ai.usage.input_tokens": 31, "gen_ai.usage.output_tokens": 4}),
        span(trace, tool, root, "execute_tool search", 2, {"gen_ai.operation.name": "execute_tool",
             "gen_ai.tool.name": "search", "gen_ai.tool.call.arguments": '{"q": "clear cache"}',
             "gen_ai.tool.call.result": "pip cache purge clears the cache."}),
        span(trace, last, root, "chat gpt-4o", 3, {"gen_ai.operation.name": "chat",
             "gen_ai.output.messages": answered, "gen_ai.response.model": "gpt-4o-2024-08-06",
             "gen_ai.usage.input_tokens": 52, "gen_ai.usage.output_tokens": 5}),
    ]  # fmt: skip


def post(served: Served, tenant: Tenant | None, collection: str, spans: list[dict[str, Any]] | bytes,
         content_type: str = "application/json") -> requests.Response:  # fmt: skip
    body = spans if isinstance(spans, bytes) else json.dumps(
        {"resourceSpans": [{"resource": {"attributes": [attr("service.name", "helper")]},
                            "scopeSpans": [{"scope": {"name": "test"}, "spans": spans}]}]}
    ).encode()  # fmt: skip
    headers = {"Content-Type": content_type, "X-Tgneo-Collection": collection}
    if tenant is not None:
        headers["Authorization"] = f"Bearer {tenant.token}"
    return requests.post(f"{served.base}/v1/traces", data=body, headers=headers, timeout=60)


def test_genai_spans_become_an_agent_trace_with_their_tokens(store: Store, served: Served) -> None:
    collection = f"otlp-{uuid.uuid4().hex[:8]}"
    trace_id, spans = genai_agent_spans("How do I clear the cache?")
    answered = post(served, served.a, collection, spans)
    assert answered.status_code == 200 and answered.json() == {}, answered.text
    (trace,) = traces_in(store, served.a.workspace, collection)
    assert trace["query"] == "How do I clear the cache?" and trace_id[:8] in trace["uri"].replace("-", "")
    (analysis,) = steps_of(trace, "Analysis")
    assert analysis["properties"]["action"] == "search" and analysis["properties"]["inToken"] == 31
    (conclusion,) = steps_of(trace, "Conclusion")
    assert conclusion["properties"]["inToken"] == 52 and conclusion["properties"]["llmModel"] == "gpt-4o-2024-08-06"


def test_spans_of_tgneos_own_export_are_acknowledged_and_not_recorded_again_beside_a_pipelines(
    store: Store, served: Served
) -> None:
    """What a Collector forwarding every service's spans to tgneo serve brings: tgneo's own (instrumentation scope
    ``tgneo``, their trace already recorded when tgneo answered) beside a pipeline's, in one request."""
    collection = f"otlp-{uuid.uuid4().hex[:8]}"
    trace_id, spans = genai_agent_spans("How do I clear the cache?")
    root = f"urn:trustgraph:question:{uuid.uuid4()}"
    answered = {"uri": root, "workspace": "elsewhere", "collection": "default", "steps": [
        {"uri": root, "labels": ["GraphRagQuestion"], "parents": [], "type": "GraphRagQuestion",
         "properties": {"query": "Who named polonium?"}},
        {"uri": f"{root}/synthesis", "labels": [], "parents": [root], "type": "Synthesis",
         "properties": {"text": "Marie Curie."}},
    ]}  # fmt: skip
    own = otlp_json(answered)["resourceSpans"]
    theirs = {"resource": {"attributes": [attr("service.name", "helper")]},
              "scopeSpans": [{"scope": {"name": "test"}, "spans": spans}]}  # fmt: skip
    body = json.dumps({"resourceSpans": [*own, theirs]}).encode()
    response = post(served, served.a, collection, body)
    assert response.status_code == 200, response.text
    assert response.json() == {"partialSuccess": {"errorMessage": (
        "2 span(s) of tgneo's own export (instrumentation scope 'tgneo') not recorded again: tgneo recorded their "
        "traces when it answered them (tgneo export and tgneo import copy traces between stores)")}}  # fmt: skip
    (trace,) = traces_in(store, served.a.workspace, collection)
    assert trace_id[:8] in trace["uri"].replace("-", "") and trace["query"] == "How do I clear the cache?"
    kept = counts(store, served.a.workspace, collection)
    assert (kept.trees, kept.spans) == (1, len(spans))
    # alone, tgneo's own spans leave nothing behind: the same answer, nothing kept or recorded
    elsewhere = f"otlp-{uuid.uuid4().hex[:8]}"
    alone = post(served, served.a, elsewhere, json.dumps(otlp_json(answered)).encode())
    assert alone.status_code == 200 and alone.json() == response.json()
    assert traces_in(store, served.a.workspace, elsewhere) == []
    nothing = counts(store, served.a.workspace, elsewhere)
    assert (nothing.trees, nothing.spans, nothing.recorded) == (0, 0, 0)


def test_a_span_tree_sent_in_pieces_out_of_order_is_recorded_once_it_is_whole(store: Store, served: Served) -> None:
    collection = f"otlp-{uuid.uuid4().hex[:8]}"
    _, spans = genai_agent_spans("How do I clear the cache?")
    root, first, tool, last = spans
    assert post(served, served.a, collection, [last, tool]).status_code == 200
    assert traces_in(store, served.a.workspace, collection) == []  # no root yet: kept, not recorded
    assert post(served, served.a, collection, [first, root]).status_code == 200
    assert post(served, served.a, collection, [tool]).status_code == 200  # sent again (an exporter's retry)
    (trace,) = traces_in(store, served.a.workspace, collection)
    assert len(steps_of(trace, "Analysis")) == 1
    assert counts(store, served.a.workspace, collection).spans == 4


def test_a_late_span_records_the_tree_again_in_its_place(store: Store, served: Served) -> None:
    collection = f"otlp-{uuid.uuid4().hex[:8]}"
    trace_id, spans = genai_agent_spans("How do I clear the cache?")
    assert post(served, served.a, collection, spans).status_code == 200
    (before,) = traces_in(store, served.a.workspace, collection)
    root = spans[0]["spanId"]
    late = span(trace_id, os.urandom(8).hex(), root, "execute_tool fetch", 2,
                {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "fetch"}, status={"code": 2,
                 "message": "HTTP 503 from the docs server"})  # fmt: skip
    assert post(served, served.a, collection, [late]).status_code == 200
    (after,) = traces_in(store, served.a.workspace, collection)
    assert after["uri"] == before["uri"]
    assert sorted(s["properties"]["action"] for s in steps_of(after, "Analysis")) == ["fetch", "search"]
    assert any("HTTP 503" in str(s.get("error")) for s in steps_of(after, "Observation"))


def test_a_trace_from_spans_conforms_to_the_shapes(store: Store, served: Served) -> None:
    collection = f"otlp-{uuid.uuid4().hex[:8]}"
    assert post(served, served.a, collection, genai_agent_spans("How do I clear the cache?")[1]).status_code == 200
    (trace,) = traces_in(store, served.a.workspace, collection)
    conforms, _, report = run_shapes(graph_of(stream_quads(store, served.a.workspace, collection, [trace["uri"]],
                                                           "prov")))  # fmt: skip
    assert conforms, report


def test_trustgraphs_cli_shows_a_trace_from_spans(store: Store, served: Served) -> None:
    collection = f"otlp-{uuid.uuid4().hex[:8]}"
    assert post(served, served.a, collection, genai_agent_spans("How do I clear the cache?")[1]).status_code == 200
    (trace,) = traces_in(store, served.a.workspace, collection)
    shown = tg("tg-show-explain-trace", "-C", collection, trace["uri"], env=served.a.tg_env(served.base))
    assert shown.returncode == 0, shown.stderr
    assert "How do I clear the cache?" in shown.stdout and "search" in shown.stdout, shown.stdout


def test_spans_land_in_the_tokens_workspace_only(store: Store, served: Served) -> None:
    collection = f"otlp-{uuid.uuid4().hex[:8]}"
    assert post(served, served.b, collection, genai_agent_spans("Which index?")[1]).status_code == 200
    assert [t["query"] for t in traces_in(store, served.b.workspace, collection)] == ["Which index?"]
    assert traces_in(store, served.a.workspace, collection) == []
    listed = requests.get(f"{served.base}/api/v1/traces", params={"collection": collection},
                          headers={"Authorization": f"Bearer {served.a.token}"}, timeout=30)  # fmt: skip
    assert listed.status_code == 200 and listed.json()["traces"] == []


def test_spans_without_a_token_are_refused(store: Store, served: Served) -> None:
    collection = f"otlp-{uuid.uuid4().hex[:8]}"
    refused = post(served, None, collection, genai_agent_spans("Which index?")[1])
    assert refused.status_code == 401 and "token" in refused.json()["error"]["message"]
    assert counts(store, served.a.workspace, collection).spans == 0


@pytest.mark.parametrize(
    ("body", "content_type", "named"),
    [
        (b"\x0a\xff\xff\xff", "application/x-protobuf", "protobuf"),
        (b"{not json", "application/json", "not JSON"),
        (json.dumps({"resourceSpans": {}}).encode(), "application/json", "resourceSpans"),
        (b"{}", "text/plain", "Content-Type"),
    ],
    ids=["protobuf-garbage", "json-garbage", "not-a-list", "content-type"],
)
def test_a_malformed_payload_is_refused_naming_the_problem(
    served: Served, body: bytes, content_type: str, named: str
) -> None:
    refused = post(served, served.a, "default", body, content_type)
    assert refused.status_code == 400 and named in refused.json()["error"]["message"], refused.text


def test_a_batch_with_one_malformed_span_keeps_nothing_of_it(store: Store, served: Served) -> None:
    collection = f"otlp-{uuid.uuid4().hex[:8]}"
    spans = genai_agent_spans("Which index?")[1]
    spans[2]["spanId"] = "00" * 8
    refused = post(served, served.a, collection, spans)
    assert refused.status_code == 400 and "spans[2].spanId" in refused.json()["error"]["message"], refused.text
    assert counts(store, served.a.workspace, collection).spans == 0


def test_the_sdk_exporter_sends_protobuf_that_is_kept_in_the_named_collection(store: Store, served: Served) -> None:
    collection = f"otlp-{uuid.uuid4().hex[:8]}"
    provider = exporter_for(served, served.a, collection)
    tracer = provider.get_tracer("test")
    with tracer.start_as_current_span("invoke_agent helper") as root:
        root.set_attribute("gen_ai.operation.name", "invoke_agent")
        root.set_attribute("input.value", "Which index does pip use?")
        root.set_attribute("output.value", "PyPI.")
        with tracer.start_as_current_span("execute_tool lookup") as tool:
            tool.set_attribute("gen_ai.operation.name", "execute_tool")
            tool.set_attribute("gen_ai.tool.name", "lookup")
            time.sleep(0.01)
    provider.force_flush()
    provider.shutdown()
    (trace,) = traces_in(store, served.a.workspace, collection)
    assert trace["query"] == "Which index does pip use?"
    assert steps_of(trace, "Observation")[0]["properties"]["toolDurationMs"] >= 10
    assert counts(store, served.a.workspace, collection).recorded == 1


def test_one_trees_spans_sent_at_once_from_many_threads_add_up_to_one_whole_trace(store: Store, served: Served) -> None:
    collection = f"otlp-{uuid.uuid4().hex[:8]}"
    trace_id, root = uuid.uuid4().hex, os.urandom(8).hex()
    tools = [
        span(trace_id, os.urandom(8).hex(), root, f"execute_tool t{n}", n + 1,
             {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": f"t{n:02}"})
        for n in range(30)
    ]  # fmt: skip
    pieces = [[s] for s in [span(trace_id, root, "", "invoke_agent", 0, {"input.value": "Many tools?"}), *tools]]
    pieces += [[tools[0], tools[1]], [tools[2]]]  # an exporter's retries: the same spans again
    with ThreadPoolExecutor(max_workers=16) as pool:
        answers = list(pool.map(lambda piece: post(served, served.a, collection, piece), pieces))
    assert all(a.status_code == 200 for a in answers), [a.text for a in answers if a.status_code != 200]
    assert counts(store, served.a.workspace, collection).spans == 31
    (trace,) = traces_in(store, served.a.workspace, collection)
    assert sorted(s["properties"]["action"] for s in steps_of(trace, "Analysis")) == [f"t{n:02}" for n in range(30)]


def test_traces_from_spans_are_shown_diffed_held_pruned_and_exported_like_any_other(
    neo4j_server: Neo4jServer, store: Store, served: Served
) -> None:
    collection, ws = f"otlp-{uuid.uuid4().hex[:8]}", served.a.workspace
    first, second = genai_agent_spans("How do I clear the cache?")[1], genai_agent_spans("How do I clear the cache?")[1]
    second[2]["attributes"] = [attr("gen_ai.operation.name", "execute_tool"), attr("gen_ai.tool.name", "fetch")]
    for spans in (first, second):
        assert post(served, served.a, collection, spans).status_code == 200
    a, b = sorted(t["uri"] for t in traces_in(store, ws, collection))
    scope = ("--workspace", ws, "--collection", collection)
    assert "execute_tool" not in tgneo(neo4j_server, "trace", "show", a, *scope).stdout
    shown = (
        tgneo(neo4j_server, "trace", "show", a, *scope).stdout + tgneo(neo4j_server, "trace", "show", b, *scope).stdout
    )
    assert "search" in shown and "fetch" in shown
    changed = json.loads(tgneo(neo4j_server, "trace", "diff", a, b, *scope, "--json").stdout)
    assert "search" in json.dumps(changed) and "fetch" in json.dumps(changed)
    tgneo(neo4j_server, "traces", "hold", a, *scope)
    tgneo(neo4j_server, "traces", "prune", "--keep", "0", "--yes", *scope)
    assert [t["uri"] for t in traces_in(store, ws, collection)] == [a]  # the held one stays
    exported = tgneo(neo4j_server, "export", a, "--format", "turtle", *scope).stdout
    assert "prov:wasDerivedFrom" in exported or "wasDerivedFrom" in exported
