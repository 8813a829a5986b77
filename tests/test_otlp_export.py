"""tgneo traces out as OpenTelemetry spans: ``tgneo export --format otlp-json`` and ``OTEL_EXPORTER_OTLP_*``.

Questions are asked for real (the CLI, the runtime, the offline model or a real OpenAI-compatible server on
loopback), the traces read back from Neo4j, and what leaves tgneo is parsed into OpenTelemetry's own
``ExportTraceServiceRequest`` — the JSON with protobuf's JSON mapping after this file's own hex → base64 step,
the bytes the OpenTelemetry SDK's exporter POSTs with ``FromString`` — then held against the stored trace: a span
per step naming its PROV entity, parents as derived, tokens as counted. The endpoint is a real HTTP server on
loopback (tests/otlp_endpoint.py); the SDK's retries, compression, batching and exit flush are in
tests/test_otlp_export_sdk.py.
"""

from __future__ import annotations

import base64
import json
import logging
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from google.protobuf import json_format
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue
from opentelemetry.proto.trace.v1.trace_pb2 import Span, SpanFlags, Status

from tests.clirun import tgneo
from tests.conftest import Neo4jServer
from tests.ingesting import hold_a_fact
from tests.otlp_endpoint import OtlpEndpoint, otlp_endpoint
from tgneo.config import Settings
from tgneo.engines import Request
from tgneo.engines.verify import DEFAULT_BUDGET
from tgneo.errors import ConfigError
from tgneo.ingest.loader import load_documents
from tgneo.ingest.sample import QUESTIONS, sources
from tgneo.kinds import SessionKind
from tgneo.llm.offline import OfflineLLM
from tgneo.llm.openai_provider import OpenAILLM
from tgneo.otlp.export import otlp_json
from tgneo.otlp.export_http import OtlpTarget, parse_headers
from tgneo.service.runtime import Runtime
from tgneo.store import Store
from tgneo.store.traces import get_trace

W = f"test-ws-otlp-{uuid.uuid4().hex[:8]}"
POLONIUM = QUESTIONS[0].text
ARITHMETIC = "What is 1934 - 1867?"


@pytest.fixture(scope="module")
def sample(store: Store) -> str:
    collection = f"test-otlp-{uuid.uuid4().hex[:8]}"
    assert load_documents(store, OfflineLLM(), W, collection, sources()).loaded == 4
    return collection


# --------------------------------------------------------------------------------------------------
# reading OTLP as a backend does, with this file's own decoding of OTLP/JSON's hex ids


def parse_otlp_json(body: dict[str, Any]) -> ExportTraceServiceRequest:
    """OTLP/JSON as OpenTelemetry's protobuf message (strict: an unknown field or a bad value fails)."""

    def ids_to_base64(node: Any) -> Any:
        if isinstance(node, dict):
            out = {}
            for key, value in node.items():
                if key in ("traceId", "spanId", "parentSpanId"):
                    raw = bytes.fromhex(value)
                    assert value == raw.hex(), f"{key} {value!r} is not lowercase hex"
                    out[key] = base64.b64encode(raw).decode()
                else:
                    out[key] = ids_to_base64(value)
            return out
        if isinstance(node, list):
            return [ids_to_base64(v) for v in node]
        return node

    return json_format.ParseDict(ids_to_base64(body), ExportTraceServiceRequest())


def plain(value: AnyValue) -> Any:
    which = value.WhichOneof("value")
    if which == "array_value":
        return [plain(v) for v in value.array_value.values]
    return getattr(value, which)


def attributes(span: Span) -> dict[str, Any]:
    return {kv.key: plain(kv.value) for kv in span.attributes}


def spans_of(request: ExportTraceServiceRequest) -> list[Span]:
    return [span for rs in request.resource_spans for ss in rs.scope_spans for span in ss.spans]


def without_sdk_flags(request: ExportTraceServiceRequest) -> ExportTraceServiceRequest:
    """``request`` less the one thing the SDK's encoder adds to every span and link it sends (and tgneo's mapping
    does not have): OTLP's ``flags`` saying the parent's remoteness is known (and that it is not remote)."""
    copy = ExportTraceServiceRequest()
    copy.CopyFrom(request)
    for span in spans_of(copy):
        assert span.flags == SpanFlags.SPAN_FLAGS_CONTEXT_HAS_IS_REMOTE_MASK, span.name
        span.ClearField("flags")
        for link in span.links:
            assert link.flags == SpanFlags.SPAN_FLAGS_CONTEXT_HAS_IS_REMOTE_MASK, span.name
            link.ClearField("flags")
    return copy


def by_entity(spans: list[Span]) -> dict[str, Span]:
    found: dict[str, Span] = {}
    for span in spans:
        entity = attributes(span)["tgneo.prov.entity"]
        assert entity not in found, f"two spans for {entity}"
        found[entity] = span
    return found


def ns(iso: str) -> int:
    """ISO 8601 ``…Z`` as Unix nanoseconds (microsecond text, as tgneo stores it)."""
    seconds, _, fraction = iso.removesuffix("Z").partition(".")
    from datetime import UTC, datetime

    whole = int(datetime.fromisoformat(seconds).replace(tzinfo=UTC).timestamp())
    return whole * 10**9 + int(fraction.ljust(9, "0")[:9])


def assert_spans_match(trace: dict[str, Any], spans: list[Span], workspace: str, collection: str) -> dict[str, Span]:
    """The spans are the trace: one per step, its parent's span as parent, its tokens, the trace's ids."""
    spans_by = by_entity(spans)
    assert set(spans_by) == {s["uri"] for s in trace["steps"]}
    session = uuid.UUID(trace["uri"].rsplit(":", 1)[1])
    for step in trace["steps"]:
        span = spans_by[step["uri"]]
        attrs = attributes(span)
        assert span.trace_id == session.bytes, "one OTel trace per tgneo trace, its id the session's UUID"
        assert len(span.span_id) == 8 and any(span.span_id)
        assert attrs["tgneo.prov.type"] == step["type"]
        assert (attrs["tgneo.trace"], attrs["tgneo.workspace"], attrs["tgneo.collection"]) == (
            trace["uri"],
            workspace,
            collection,
        )
        if step["uri"] == trace["uri"]:
            assert span.parent_span_id == b""
            assert span.start_time_unix_nano == ns(trace["startedAtTime"])
            assert attrs["gen_ai.operation.name"] == "invoke_agent"
            assert attrs["gen_ai.conversation.id"] == str(session)
        else:
            assert span.parent_span_id == spans_by[step["parents"][0]].span_id, step["uri"]
        assert span.end_time_unix_nano >= span.start_time_unix_nano > 0
        props = step["properties"]
        assert attrs.get("gen_ai.usage.input_tokens") == props.get("inToken"), step["uri"]
        assert attrs.get("gen_ai.usage.output_tokens") == props.get("outToken"), step["uri"]
        if "llmModel" in props:
            assert attrs["gen_ai.request.model"] == attrs["gen_ai.response.model"] == props["llmModel"]
    assert sum(attributes(s).get("gen_ai.usage.input_tokens", 0) for s in spans) == trace["totals"]["inToken"] > 0
    assert sum(attributes(s).get("gen_ai.usage.output_tokens", 0) for s in spans) == trace["totals"]["outToken"] > 0
    return spans_by


def asked(neo4j_server: Neo4jServer, collection: str, question: str, engine: str) -> str:
    """Ask with ``tgneo ask --json``; the trace's root URI (the first explain message's entity)."""
    result = tgneo(neo4j_server, "ask", question, "--engine", engine, "--json", "--workspace", W,
                   "--collection", collection)  # fmt: skip
    messages = [json.loads(line) for line in result.stdout.splitlines()]
    return str(next(m for m in messages if m["message_type"] == "explain")["explain_id"])


# --------------------------------------------------------------------------------------------------
# tgneo export --format otlp-json


def test_export_otlp_json_gives_each_step_of_a_graphrag_and_an_agent_trace_as_a_span(
    neo4j_server: Neo4jServer, store: Store, sample: str, tmp_path: Path
) -> None:
    graphrag = asked(neo4j_server, sample, POLONIUM, "graph-rag")
    agent = asked(neo4j_server, sample, ARITHMETIC, "agent")
    out = tmp_path / "spans.json"
    result = tgneo(neo4j_server, "export", graphrag, agent, "--format", "otlp-json", "-o", str(out),
                   "--workspace", W, "--collection", sample)  # fmt: skip
    text = out.read_text(encoding="utf-8")
    assert text.endswith("\n") and text.count("\n") == 1, "one request on one line (the otlpjsonfile form)"
    body = json.loads(text)
    request = parse_otlp_json(body)
    assert len(request.resource_spans) == 2
    for resource_spans in request.resource_spans:
        resource = {kv.key: plain(kv.value) for kv in resource_spans.resource.attributes}
        assert resource["service.name"] == "tgneo"
        assert [ss.scope.name for ss in resource_spans.scope_spans] == ["tgneo"]
    traces = [get_trace(store, W, sample, uri) for uri in (graphrag, agent)]
    total = sum(len(t["steps"]) for t in traces)
    assert result.stderr.strip() == f"exported {total} spans of 2 traces to {out}"

    # GraphRAG: invoke_agent → chat Grounding → retrieval Exploration → chat Focus (its edges, scored) → Synthesis
    spans = spans_of(request)
    rag_trace, agent_trace = traces
    rag = assert_spans_match(rag_trace, [s for s in spans if s.trace_id == spans[0].trace_id], W, sample)
    steps = {s["type"]: s for s in rag_trace["steps"]}
    assert rag[graphrag].name == "invoke_agent graph-rag" and attributes(rag[graphrag])["gen_ai.agent.name"] == (
        "graph-rag"
    )
    exploration = attributes(rag[steps["Exploration"]["uri"]])
    assert exploration["gen_ai.operation.name"] == "retrieval"
    seeds = json.loads(exploration["gen_ai.retrieval.documents"])
    assert [d["id"] for d in seeds] == [e["uri"] for e in steps["Exploration"]["entities"]]
    focus = attributes(rag[steps["Focus"]["uri"]])
    assert focus["gen_ai.operation.name"] == "chat"
    kept = json.loads(focus["gen_ai.retrieval.documents"])
    assert kept == [{"id": e["statement"]["id"], "score": e["score"]} for e in steps["Focus"]["edges"]] != []
    synthesis = attributes(rag[steps["Synthesis"]["uri"]])
    answer = json.loads(synthesis["gen_ai.output.messages"])[0]["parts"][0]["content"]
    assert answer.startswith("Polonium was named after Poland, the native country of Marie Curie.")
    assert rag[steps["Synthesis"]["uri"]].kind == Span.SPAN_KIND_CLIENT
    assert all(s.status.code == Status.STATUS_CODE_UNSET for s in rag.values())

    # the agent: the calculator call is an execute_tool span with its arguments and what it returned
    ag = assert_spans_match(agent_trace, [s for s in spans if s.trace_id != spans[0].trace_id], W, sample)
    (analysis,) = [s for s in agent_trace["steps"] if s["type"] == "Analysis"]
    tool = attributes(ag[analysis["uri"]])
    assert ag[analysis["uri"]].name == "execute_tool calculator"
    assert (tool["gen_ai.operation.name"], tool["gen_ai.tool.name"]) == ("execute_tool", "calculator")
    assert json.loads(tool["gen_ai.tool.call.arguments"]) == {"expression": "1934 - 1867"}
    assert tool["gen_ai.tool.call.result"] == "67"
    (observation,) = [s for s in agent_trace["steps"] if s["type"] == "Observation"]
    assert attributes(ag[observation["uri"]])["gen_ai.tool.call.result"] == "67"

    # to stdout, the same trace gives the same spans, byte for byte (ids and times derive from the trace)
    alone = tgneo(neo4j_server, "export", agent, "--format", "otlp-json", "--workspace", W, "--collection", sample)
    assert json.loads(alone.stdout) == {"resourceSpans": [body["resourceSpans"][1]]}
    assert alone.stderr.strip() == f"exported {len(agent_trace['steps'])} spans of 1 trace from workspace {W!r}, " \
        f"collection {sample!r}"  # fmt: skip


def test_export_otlp_json_without_a_trace_uri_is_refused_in_one_line(neo4j_server: Neo4jServer, sample: str) -> None:
    result = tgneo(neo4j_server, "export", "--format", "otlp-json", "--workspace", W, "--collection", sample, ok=False)
    assert result.returncode != 0 and result.stdout == ""
    assert result.stderr.strip().splitlines() == [
        "error: --format otlp-json exports traces: name at least one trace URI (tgneo traces list)"
    ]
    unknown = tgneo(neo4j_server, "export", "urn:trustgraph:question:nope", "--format", "otlp-json",
                    "--workspace", W, "--collection", sample, ok=False)  # fmt: skip
    assert unknown.returncode != 0 and len(unknown.stderr.strip().splitlines()) == 1
    assert "no trace 'urn:trustgraph:question:nope'" in unknown.stderr


# --------------------------------------------------------------------------------------------------
# OTEL_EXPORTER_OTLP_ENDPOINT: the runtime exports each answered trace through the OpenTelemetry SDK


@pytest.fixture
def collector() -> Iterator[OtlpEndpoint]:
    with otlp_endpoint() as endpoint:
        yield endpoint


def answer(runtime: Runtime, kind: SessionKind, question: str, collection: str, **options: Any) -> list[dict[str, Any]]:
    return list(runtime.ask(kind, Request(question, W, collection, options)))


def test_the_runtime_posts_each_answered_trace_as_protobuf_to_the_otlp_endpoint(
    neo4j_server: Neo4jServer, store: Store, sample: str, collector: OtlpEndpoint
) -> None:
    settings = neo4j_server.settings(otlp_endpoint=collector.url + "/", otlp_headers="x-api-key=s3cret%2Ftoken")
    runtime = Runtime(store, settings, llm=OfflineLLM())
    messages = answer(runtime, SessionKind.GRAPH_RAG, POLONIUM, sample)
    runtime.close()  # the SDK's batch processor sends what it holds
    post = collector.next()
    assert post.path == "/v1/traces" and post.headers["content-type"] == "application/x-protobuf"
    assert post.headers["x-api-key"] == "s3cret/token"
    request = post.request()
    trace = get_trace(store, W, sample, messages[-1]["trace"])
    assert_spans_match(trace, spans_of(request), W, sample)
    assert sum(attributes(s).get("gen_ai.usage.input_tokens", 0) for s in spans_of(request)) == messages[-1]["in_token"]
    # the bytes are what `tgneo export --format otlp-json` describes, as protobuf: one mapping, two encodings
    assert without_sdk_flags(request) == parse_otlp_json(otlp_json(trace))


def test_a_verified_answer_exports_its_check_as_a_span_around_one_chat_span_per_re_run(
    neo4j_server: Neo4jServer, store: Store, sample: str, collector: OtlpEndpoint
) -> None:
    runtime = Runtime(store, neo4j_server.settings(otlp_endpoint=collector.url), llm=OfflineLLM())
    messages = list(runtime.ask(SessionKind.GRAPH_RAG, Request(POLONIUM, W, sample, {}, verify=DEFAULT_BUDGET)))
    runtime.close()
    request = collector.next().request()
    final = messages[-1]
    trace = get_trace(store, W, sample, final["trace"])
    checked = trace["verification"]
    assert checked is not None and checked["uri"] == final["verification"]["uri"]
    spans = by_entity(spans_of(request))
    assert set(spans) == {s["uri"] for s in trace["steps"]}
    steps = {s["uri"]: s for s in trace["steps"]}

    # the check: a span under the answer's, with what it found, and no usage of its own …
    span = spans[checked["uri"]]
    attrs = attributes(span)
    (answer,) = steps[checked["uri"]]["parents"]
    assert steps[answer]["type"] == "Synthesis" and span.parent_span_id == spans[answer].span_id
    assert span.name == "Verification" and span.kind == Span.SPAN_KIND_INTERNAL
    assert (
        attrs["tgneo.verification.verdict"],
        attrs["tgneo.verification.sufficiency"],
        attrs["tgneo.verification.model"],
    ) == (checked["verdict"], checked["sufficiency"], checked["model"])
    assert attrs["tgneo.verification.calls"] == steps[checked["uri"]]["properties"]["calls"] == 6
    assert attrs.get("tgneo.verification.stands_without", []) == checked["stands_without"]
    assert not {k for k in attrs if k.startswith("gen_ai.")}
    assert span.end_time_unix_nano == ns(steps[checked["uri"]]["properties"]["generatedAtTime"])

    # … around one chat span per re-run, each with its model, tokens and answer, a leave-one-out with its item
    reruns = [s for s in trace["steps"] if s["type"] == "Counterfactual"]
    assert len(reruns) == 6
    necessity = {}
    for rerun in reruns:
        child = spans[rerun["uri"]]
        got = attributes(child)
        assert child.parent_span_id == span.span_id and child.name == "chat Counterfactual"
        assert child.kind == Span.SPAN_KIND_CLIENT and got["gen_ai.operation.name"] == "chat"
        assert span.start_time_unix_nano <= child.start_time_unix_nano <= child.end_time_unix_nano
        assert child.end_time_unix_nano <= span.end_time_unix_nano
        props = rerun["properties"]
        assert got["gen_ai.usage.input_tokens"] == props["inToken"] and got["gen_ai.request.model"] == props["llmModel"]
        assert got["tgneo.counterfactual.ablation"] == props["ablation"]
        assert got["tgneo.counterfactual.ablated"] == rerun["ablated"]
        assert got["tgneo.counterfactual.preserved"] == props["preserved"]
        said = json.loads(got["gen_ai.output.messages"])[0]["parts"][0]["content"]
        assert said == rerun["documents"][0]["text"]
        if props["ablation"] == "leave-one-out":
            necessity[got["tgneo.counterfactual.item"]] = got["tgneo.counterfactual.necessity"]
        else:
            assert "tgneo.counterfactual.item" not in got and "tgneo.counterfactual.necessity" not in got
    assert necessity == checked["necessity"] == {i["iri"]: i["necessity"] for i in final["verification"]["items"]}
    # usage adds up to what the answer and its check spent, each model call counted once
    assert sum(attributes(s).get("gen_ai.usage.input_tokens", 0) for s in spans.values()) == final["in_token"]
    assert sum(attributes(s).get("gen_ai.usage.output_tokens", 0) for s in spans.values()) == final["out_token"]

    # one mapping, two encodings; and `tgneo export --format otlp-json` gives the same spans every time
    assert without_sdk_flags(request) == parse_otlp_json(otlp_json(trace))
    exported = [tgneo(neo4j_server, "export", final["trace"], "--format", "otlp-json", "--workspace", W,
                      "--collection", sample).stdout for _ in range(2)]  # fmt: skip
    assert exported[0] == exported[1] and json.loads(exported[0]) == otlp_json(trace)


def test_a_failed_answer_is_exported_too_with_its_errors_as_error_spans(
    neo4j_server: Neo4jServer, store: Store, collection: str, collector: OtlpEndpoint, prose_model: OpenAILLM
) -> None:
    hold_a_fact(store, W, collection)
    runtime = Runtime(store, neo4j_server.settings(otlp_endpoint=collector.url), llm=prose_model)
    # an agent on a model that answers prose reads no step from it: each iteration records an Error observation
    messages = answer(runtime, SessionKind.AGENT, "What did Marie Curie discover?", collection, pattern="react")
    assert runtime.exporter is not None and runtime.exporter.flush()
    request = collector.next().request()
    root = next(m for m in messages if m["message_type"] == "explain")["explain_id"]
    trace = get_trace(store, W, collection, root)
    spans = by_entity(spans_of(request))
    assert set(spans) == {s["uri"] for s in trace["steps"]}
    errors = [s for s in trace["steps"] if "error" in s]
    assert errors, "the prose model's steps are recorded as errors"
    for step in trace["steps"]:
        status = spans[step["uri"]].status
        if "error" in step:
            assert status.code == Status.STATUS_CODE_ERROR and status.message == step["error"] != ""
            assert attributes(spans[step["uri"]])["error.type"] == "_OTHER"
        else:
            assert status.code == Status.STATUS_CODE_UNSET

    # a stage that fails ends the stream with an error message (the router reads no pattern from prose): what
    # was recorded, the question, still goes
    failed = answer(runtime, SessionKind.AGENT, "What did Marie Curie discover?", collection)
    assert "the router stage did not answer a JSON object" in failed[-1]["error"]["message"]
    runtime.close()
    (span,) = spans_of(collector.next().request())
    assert attributes(span)["tgneo.prov.entity"] == failed[-1]["trace"]
    assert span.name == "invoke_agent agent"


def test_an_unreachable_endpoint_costs_the_answer_nothing_but_a_warning(
    neo4j_server: Neo4jServer, store: Store, sample: str, caplog: pytest.LogCaptureFixture
) -> None:
    closed = OtlpEndpoint()  # bound, then closed: nothing listens on its port
    closed.server.server_close()
    runtime = Runtime(store, neo4j_server.settings(otlp_endpoint=closed.url), llm=OfflineLLM())
    with caplog.at_level(logging.WARNING, logger="tgneo.otlp"):
        messages = answer(runtime, SessionKind.AGENT, ARITHMETIC, sample)
        assert messages[-1]["end_of_dialog"] is True and "error" not in messages[-1]
        runtime.close()  # the SDK retries a refused connection with backoff until its timeout (10 s), then gives up
    steps = len(get_trace(store, W, sample, messages[-1]["trace"])["steps"])
    assert any(f"OTLP export of {steps} span(s) to {closed.url}/v1/traces failed" in r.getMessage()
               for r in caplog.records if r.name == "tgneo.otlp")  # fmt: skip


# --------------------------------------------------------------------------------------------------
# the pure parts: time, ids, settings


def test_spans_keep_the_instants_a_step_has_and_lay_the_others_end_to_end_by_their_durations() -> None:
    root = "urn:example:no-session-here"
    step = {"labels": [], "depth": 1, "type": "Analysis"}
    trace = {
        "uri": root, "workspace": "w", "collection": "c", "startedAtTime": "2025-06-01T10:00:00.123456789Z",
        "steps": [
            {"uri": root, "labels": ["AgentQuestion"], "depth": 0, "parents": [], "type": "AgentQuestion",
             "properties": {"query": "q"}},
            {**step, "uri": "urn:example:a", "parents": [root],
             "properties": {"llmDurationMs": 250, "toolDurationMs": 50}},
            {**step, "uri": "urn:example:b", "parents": ["urn:example:a", root], "properties": {
                "generatedAtTime": "2025-06-01T10:00:05Z", "llmDurationMs": 1000}},
            {**step, "uri": "urn:example:c", "parents": ["urn:example:b"], "properties": {}},
        ],
    }  # fmt: skip
    spans = by_entity(spans_of(parse_otlp_json(otlp_json(trace))))
    start = 1748772000 * 10**9 + 123456789
    times = {uri: (s.start_time_unix_nano, s.end_time_unix_nano) for uri, s in spans.items()}
    assert times["urn:example:a"] == (start, start + 300 * 10**6)  # from the question, for its durations
    end_b = 1748772005 * 10**9
    assert times["urn:example:b"] == (end_b - 10**9, end_b)  # its own end, its duration before it
    assert times["urn:example:c"] == (end_b, end_b)  # after b, no duration: an instant
    assert times[root] == (start, end_b)  # the question covers what derives from it
    assert [link.span_id for link in spans["urn:example:b"].links] == [spans[root].span_id]
    import hashlib

    assert spans[root].trace_id == hashlib.sha256(root.encode()).digest()[:16]  # no UUID in the root: its hash


def test_otlp_settings_are_opentelemetrys_own_variables_and_bad_ones_name_their_variable() -> None:
    def target(**env: str) -> OtlpTarget | None:
        return OtlpTarget.from_settings(Settings.from_env(env))

    base = target(OTEL_EXPORTER_OTLP_ENDPOINT="http://collector:4318", OTEL_EXPORTER_OTLP_HEADERS="a=1, b = x%3Dy")
    assert base == OtlpTarget("http://collector:4318/v1/traces", {"a": "1", "b": "x=y"})
    assert target(OTEL_EXPORTER_OTLP_ENDPOINT="http://collector:4318/") == OtlpTarget("http://collector:4318/v1/traces")
    # the traces URL is taken as it is, and wins; so do the traces headers
    both = target(OTEL_EXPORTER_OTLP_ENDPOINT="http://collector:4318", OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=
                  "https://otlp.example/api/traces", OTEL_EXPORTER_OTLP_HEADERS="a=1",
                  OTEL_EXPORTER_OTLP_TRACES_HEADERS="t=2")  # fmt: skip
    assert both == OtlpTarget("https://otlp.example/api/traces", {"t": "2"})
    # nothing set, or OpenTelemetry's own off switches: no export
    assert target() is None
    assert target(OTEL_EXPORTER_OTLP_ENDPOINT="http://collector:4318", OTEL_TRACES_EXPORTER="none") is None
    assert target(OTEL_EXPORTER_OTLP_ENDPOINT="http://collector:4318", OTEL_SDK_DISABLED="TRUE") is None
    assert target(OTEL_EXPORTER_OTLP_ENDPOINT="http://c:4318", OTEL_TRACES_EXPORTER="console,otlp") is not None
    # the deprecated names still name a target, as they did (their warning: tests/test_otlp_export_sdk.py)
    old = target(TGNEO_OTLP_ENDPOINT="http://old:4318/v1/traces", TGNEO_OTLP_HEADERS="k=v")
    assert old == OtlpTarget("http://old:4318/v1/traces", {"k": "v"})
    assert target(TGNEO_OTLP_ENDPOINT="http://old:4318", OTEL_EXPORTER_OTLP_ENDPOINT="http://new:4318") == OtlpTarget(
        "http://new:4318/v1/traces"
    )
    with pytest.raises(ConfigError, match="OTEL_EXPORTER_OTLP_ENDPOINT='collector:4318' is not an http"):
        target(OTEL_EXPORTER_OTLP_ENDPOINT="collector:4318")
    with pytest.raises(ConfigError, match="OTEL_EXPORTER_OTLP_TRACES_HEADERS: entry 2 is not key=value"):
        target(OTEL_EXPORTER_OTLP_ENDPOINT="http://c:4318", OTEL_EXPORTER_OTLP_TRACES_HEADERS="a=1,secret-no-equals")
    with pytest.raises(ConfigError, match="TGNEO_OTLP_HEADERS: entry 1 is not key=value"):
        parse_headers("=x", "TGNEO_OTLP_HEADERS")
