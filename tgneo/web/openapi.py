"""``GET /openapi.json``: the HTTP API described from the same tables the routes use.

Question bodies come from :data:`tgneo.stream.options.REQUEST_FIELDS` (the very table the endpoints
validate with), formats from :data:`tgneo.rdf.formats.FORMATS`, named queries from
:data:`tgneo.store.named.READ_QUERIES`; ``tests/test_trace_api.py`` checks that every route of the app
is described here and nothing else is. WebSocket routes cannot be described in OpenAPI 3.0; they are
listed under ``x-websockets``.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify

from tgneo.kinds import AgentPattern, SessionKind
from tgneo.rdf.export_profiles import EXPORT_PROFILES
from tgneo.rdf.formats import FORMATS
from tgneo.scope import MAX_NAME_CHARS
from tgneo.store.named import READ_QUERIES
from tgneo.stream.options import OPTION_CEILINGS, REQUEST_FIELDS
from tgneo.version import __version__

bp = Blueprint("openapi", __name__)

WEBSOCKETS = {
    "/api/v1/socket": "TrustGraph's gateway protocol: an auth frame, then multiplexed request envelopes "
    "(graph-rag, document-rag, agent, triples, librarian).",
    "/api/v1/stream": 'Questions: one {"service", "request", "workspace"?} per frame; the messages one per frame.',
    "/api/v1/flow/{flow}/import/triples": "TrustGraph's bulk triple import (tg-load-turtle); ?workspace=&token=.",
}

_NAME = {"type": "string", "minLength": 1, "maxLength": MAX_NAME_CHARS}
_ERROR = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["type", "message"],
            "properties": {"type": {"type": "string"}, "message": {"type": "string"}},
        }
    },
}


def _json(schema: dict[str, Any]) -> dict[str, Any]:
    return {"application/json": {"schema": schema}}


def _errors(*statuses: int) -> dict[str, Any]:
    reasons = {
        400: "bad input (the message names the field)",
        401: "a token is required",
        403: "another workspace",
        404: "not found",
        406: "unsupported format",
        409: "conflict",
        413: "too large",
        415: "unsupported media type",
        502: "the model provider failed (nothing was recorded)",
        503: "Neo4j unreachable",
        504: "query timed out",
    }
    error = _json({"$ref": "#/components/schemas/Error"})
    return {str(s): {"description": reasons[s], "content": error} for s in statuses}


def _param(name: str, where: str = "query", schema: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    return {"name": name, "in": where, "required": where == "path", "schema": schema or _NAME, **extra}


_SCOPE = [_param("workspace"), _param("collection")]
_COMMON = (400, 401, 403, 503)


def _question_schema(service: str) -> dict[str, Any]:
    fields = REQUEST_FIELDS[service]
    props: dict[str, Any] = {
        fields.question: {"type": "string", "minLength": 1, "maxLength": 4000},
        "collection": _NAME,
        "workspace": _NAME,
        "graph-profile": {
            "type": "string",
            "description": "answer over the graph another tool wrote: a built-in profile (neo4j-graphrag, "
            "llm-graph-builder, langchain) or one the server was configured with (TGNEO_GRAPHS); default: the "
            "collection's own (TGNEO_GRAPHS), else tgneo's",
        },
        "verify": {
            "oneOf": [{"type": "boolean"}, {"type": "integer", "minimum": 2, "maximum": 64}],
            "description": "once answered, check whether the answer depends on the evidence it cites (true, or the "
            "most re-runs of the answering stage); a Verification explain message follows the answer and the final "
            "message carries its `verification` summary (verdict, sufficient, model, items)",
        },
    }
    for wire_name, option in fields.options.items():
        if option == "pattern":
            props[wire_name] = {"type": "string", "enum": [p.value for p in AgentPattern]}
        else:
            props[wire_name] = {"type": "integer", "minimum": 1, "maximum": OPTION_CEILINGS[option]}
    for ignored in sorted(fields.ignored):
        props[ignored] = {"description": "accepted and ignored, as TrustGraph does"}
    for unsupported in sorted(fields.unsupported):
        props[unsupported] = {"type": "array", "maxItems": 0, "description": "not supported: send it empty"}
    return {"type": "object", "required": [fields.question], "properties": props, "additionalProperties": False}


def _question(service: str) -> dict[str, Any]:
    kind = REQUEST_FIELDS[service].kind
    final = kind.final_flag
    return {
        "post": {
            "summary": f"Ask {service}: explain messages, then answer chunks, then the final message ({final})",
            "parameters": [_param("timestamps", schema={"type": "boolean"})],
            "requestBody": {"required": True, "content": _json(_question_schema(service))},
            "responses": {
                "200": {
                    "description": "the stream: NDJSON, or SSE with Accept: text/event-stream",
                    "content": {"application/x-ndjson": {"schema": {"type": "string"}},
                                "text/event-stream": {"schema": {"type": "string"}}},
                },
                **_errors(*_COMMON, 409, 413),
            },
        }
    }  # fmt: skip


def spec() -> dict[str, Any]:
    """The OpenAPI 3.0 document of this server."""
    rdf_types = sorted({t for f in FORMATS.values() for t in f.media_types})
    paths: dict[str, Any] = {
        "/healthz": {"get": {"summary": "The process is alive", "responses": {"200": {"description": "alive"}}}},
        "/readyz": {
            "get": {
                "summary": "Neo4j is reachable",
                "responses": {"200": {"description": "ready"}, **_errors(503)},
            }
        },
        "/openapi.json": {"get": {"summary": "This document", "responses": {"200": {"description": "OpenAPI 3.0"}}}},
        **{f"/api/v1/{service}": _question(service) for service in REQUEST_FIELDS},
        "/api/v1/traces": {
            "get": {
                "summary": "Trace roots, newest first",
                "parameters": [
                    *_SCOPE,
                    _param("type", schema={"type": "string", "enum": list(SessionKind.names())}),
                    _param("since", schema={"type": "string", "format": "date-time"}),
                    _param("limit", schema={"type": "integer", "minimum": 1, "maximum": 1000}),
                    _param("cursor", schema={"type": "string", "maxLength": 2000}),
                    _param("stale", schema={"type": "boolean"},
                           description="only answers whose source documents were replaced or removed since"),
                ],
                "responses": {"200": {"description": "a page of traces (each with stale_at and held)",
                                      "content": _json({"type": "object"})},
                              **_errors(*_COMMON)},
            }
        },
        "/api/v1/traces/diff": {
            "get": {
                "summary": "What changed between two answers: concepts, entities, edges, chunks, tool calls, "
                           "sentences, usage",
                "parameters": [
                    _param("a", schema={"type": "string", "minLength": 1, "maxLength": 4000}, required=True),
                    _param("b", schema={"type": "string", "minLength": 1, "maxLength": 4000}, required=True),
                    *_SCOPE,
                    _param("b_collection", schema={"type": "string"},
                           description="the collection of b, when it is not a's (same workspace)"),
                ],
                "responses": {"200": {"description": "the comparison", "content": _json({"type": "object"})},
                              **_errors(*_COMMON, 404)},
            }
        },
        **{f"/api/v1/traces/{verb}": {
            "post": {
                "summary": summary,
                "requestBody": {"required": True, "content": _json({
                    "type": "object", "required": ["uris"],
                    "properties": {"uris": {"type": "array", "minItems": 1, "maxItems": 1000,
                                            "items": {"type": "string", "minLength": 1}},
                                   "workspace": _NAME, "collection": _NAME}})},
                "responses": {"200": {"description": "each trace: found, held, pruning",
                                      "content": _json({"type": "object"})}, **_errors(*_COMMON)},
            }
        } for verb, summary in (("hold", "Put a legal hold on traces (never pruned)"),
                                ("release", "Lift the legal hold of traces"))},
        "/api/v1/traces/prune": {
            "post": {
                "summary": "Delete traces by a retention policy (a dry run unless dry_run is false; "
                           "neither older_than nor keep: the stored policy)",
                "requestBody": {"required": True, "content": _json({
                    "type": "object",
                    "properties": {"older_than": {"type": "string", "pattern": "^[0-9]+[smhdw]$"},
                                   "keep": {"type": "integer", "minimum": 0},
                                   "dry_run": {"type": "boolean", "default": True},
                                   "workspace": _NAME, "collection": _NAME}})},
                "responses": {"200": {"description": "what would go, or what went",
                                      "content": _json({"type": "object"})}, **_errors(*_COMMON)},
            }
        },
        "/api/v1/traces/policy": {
            "get": {
                "summary": "The collection's stored retention policy (null when it has none)",
                "parameters": [*_SCOPE],
                "responses": {"200": {"description": "the policy", "content": _json({"type": "object"})},
                              **_errors(*_COMMON)},
            },
            "put": {
                "summary": "Store the collection's retention policy, or clear it",
                "requestBody": {"required": True, "content": _json({
                    "type": "object",
                    "properties": {"older_than": {"type": "string", "pattern": "^[0-9]+[smhdw]$"},
                                   "keep": {"type": "integer", "minimum": 0},
                                   "clear": {"type": "boolean"},
                                   "workspace": _NAME, "collection": _NAME}})},
                "responses": {"200": {"description": "the stored policy", "content": _json({"type": "object"})},
                              **_errors(*_COMMON)},
            },
        },
        "/api/v1/traces/{uri}": {
            "get": {
                "summary": "A whole trace: JSON, or RDF by Accept or ?format=",
                "parameters": [
                    _param("uri", "path", {"type": "string", "minLength": 1}),
                    *_SCOPE,
                    _param("format", schema={"type": "string", "enum": ["json", *FORMATS]}),
                    _param("profile", schema={"type": "string", "enum": list(EXPORT_PROFILES)}),
                    _param("quoted", schema={"type": "string", "enum": ["star", "triple-term", "reification"]},
                           description="quoted triples in RDF: default reification (prov), star (trustgraph)"),
                    _param("max_steps", schema={"type": "integer", "minimum": 1, "maximum": 10_000}),
                ],
                "responses": {
                    "200": {"description": "the trace",
                            "content": {"application/json": {"schema": {"type": "object"}},
                                        **{t: {"schema": {"type": "string"}} for t in rdf_types}}},
                    **_errors(*_COMMON, 404, 406),
                },
            }
        },
        "/api/v1/traces/{uri}/verify": {
            "post": {
                "summary": "Check a stored answer: does it depend on the evidence it cites? (recorded in its trace)",
                "parameters": [_param("uri", "path", {"type": "string", "minLength": 1}), *_SCOPE],
                "requestBody": {"required": False, "content": _json({
                    "type": "object", "additionalProperties": False,
                    "properties": {"budget": {"oneOf": [{"type": "boolean"},
                                                        {"type": "integer", "minimum": 2, "maximum": 64}]},
                                   "workspace": _NAME, "collection": _NAME}})},
                "responses": {
                    "200": {"description": "the check's summary and its Verification step's triples",
                            "content": _json({"type": "object"})},
                    **_errors(*_COMMON, 404, 502),
                },
            }
        },
        "/api/v1/content/{uri}": {
            "get": {
                "summary": "A librarian text (answer, thought, observation, page, chunk)",
                "parameters": [_param("uri", "path", {"type": "string", "minLength": 1}), *_SCOPE],
                "responses": {"200": {"description": "the text", "content": _json({"type": "object"})},
                              **_errors(*_COMMON, 404)},
            }
        },
        "/api/v1/rdf": {
            "post": {
                "summary": "Import RDF (quoted triples included); 400 names the line and column of bad input",
                "parameters": [*_SCOPE, _param("format", schema={"type": "string", "enum": list(FORMATS)}),
                               _param("base", schema={"type": "string", "format": "uri", "maxLength": 4000})],
                "requestBody": {"required": True, "content": {t: {"schema": {"type": "string"}} for t in rdf_types}},
                "responses": {"200": {"description": "imported", "content": _json({"type": "object"})},
                              **_errors(*_COMMON, 409, 413, 415)},
            }
        },
        "/api/v1/queries/{name}": {
            "post": {
                "summary": "Run a named read-only Cypher query in a read transaction (timeout, row limit)",
                "parameters": [_param("name", "path", {"type": "string", "enum": list(READ_QUERIES)})],
                "requestBody": {"required": True, "content": _json({
                    "type": "object", "additionalProperties": False,
                    "properties": {"params": {"type": "object"}, "collection": _NAME, "workspace": _NAME},
                })},
                "responses": {"200": {"description": "rows", "content": _json({"type": "object"})},
                              **_errors(*_COMMON, 404, 504)},
            }
        },
        "/v1/traces": {
            "post": {
                "summary": "OpenTelemetry in (OTLP/HTTP): spans, kept until each span tree is whole, recorded as "
                "traces in the token's workspace and the named collection (X-Tgneo-Collection or ?collection=)",
                "parameters": [*_SCOPE, _param("X-Tgneo-Collection", "header"), _param("X-Tgneo-Workspace", "header")],
                "requestBody": {"required": True, "content": {
                    "application/x-protobuf": {"schema": {"type": "string", "format": "binary"}},
                    "application/json": {"schema": {"type": "object", "properties": {
                        "resourceSpans": {"type": "array", "items": {"type": "object"}}}}},
                }},
                "responses": {"200": {"description": "an ExportTraceServiceResponse (partialSuccess names a span "
                                      "tree that could not be recorded; its spans are kept)",
                                      "content": _json({"type": "object"})},
                              **_errors(*_COMMON, 413)},
            }
        },
        "/api/v1/librarian": _trustgraph("TrustGraph's librarian: get-document-content", ["operation", "document-id"]),
        "/api/v1/collection-management": _trustgraph("TrustGraph's collection management: list-collections",
                                                     ["operation"]),
        "/api/v1/document-stream": {
            "get": {
                "summary": "A librarian document's bytes (tg-get-document-content)",
                "parameters": [_param("document-id", schema={"type": "string", "minLength": 1, "maxLength": 4000},
                                      required=True), _param("workspace")],
                "responses": {"200": {"description": "the bytes",
                                      "content": {"text/plain": {"schema": {"type": "string"}}}},
                              **_errors(*_COMMON, 404)},
            }
        },
        "/api/v1/flow/{flow}/service/{service}": {
            "post": {
                "summary": "TrustGraph's non-streaming flow services: graph-rag, document-rag, agent, triples",
                "parameters": [_param("flow", "path"),
                               _param("service", "path", {"type": "string", "enum": [*REQUEST_FIELDS, "triples"]})],
                "requestBody": {"required": True, "content": _json({"type": "object"})},
                "responses": {"200": {"description": "the final payload (or a TrustGraph error object)",
                                      "content": _json({"type": "object"})},
                              **_errors(*_COMMON, 404, 409, 413)},
            }
        },
        **_pages(),
    }  # fmt: skip
    return {
        "openapi": "3.0.3",
        "info": {"title": "tgneo", "version": __version__,
                 "description": "Explainable GraphRAG, Document RAG and agents, natively in Neo4j; "
                                "TrustGraph's gateway protocol."},
        "components": {
            "schemas": {"Error": _ERROR},
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
        "security": [{"bearer": []}, {}],
        "paths": paths,
        "x-websockets": WEBSOCKETS,
    }  # fmt: skip


def _trustgraph(summary: str, required: list[str]) -> dict[str, Any]:
    body = {
        "type": "object",
        "required": required,
        "properties": {"operation": {"type": "string"}, "workspace": _NAME,
                       "document-id": {"type": "string", "minLength": 1, "maxLength": 4000}},
    }  # fmt: skip
    return {
        "post": {
            "summary": summary,
            "requestBody": {"required": True, "content": _json(body)},
            "responses": {
                "200": {"description": "TrustGraph's answer, or its error", "content": _json({"type": "object"})},
                **_errors(*_COMMON, 413),
            },
        }
    }


def _page(summary: str, media_type: str, *parameters: dict[str, Any]) -> dict[str, Any]:
    return {
        "get": {
            "summary": summary,
            "security": [{}],
            "parameters": list(parameters),
            "responses": {"200": {"description": summary, "content": {media_type: {"schema": {"type": "string"}}}},
                          "400": {"description": "bad input", "content": _json({"$ref": "#/components/schemas/Error"})},
                          "404": {"description": "not found"}},
        }
    }  # fmt: skip


def _pages() -> dict[str, Any]:
    """The open pages: Neo4j Browser's style sheet and guide, and the trace viewer (its data comes from the API)."""
    uri = {"type": "string", "minLength": 1, "maxLength": 4000}
    return {
        "/browser/style.grass": _page("Neo4j Browser style sheet (GraSS) for traces: :style <url>", "text/plain"),
        "/browser/guide.html": _page("Neo4j Browser guide running the named queries: :play <url>", "text/html",
                                     *_SCOPE, _param("trace", schema=uri), _param("document", schema=uri)),
        "/ui/": _page("The live trace viewer: ask and watch each step arrive", "text/html"),
        "/ui/trace/{uri}": _page("A stored trace as a layered DAG", "text/html", _param("uri", "path", uri)),
        "/ui/diff": _page("Two answers side by side (?a=URI&b=URI)", "text/html"),
        "/ui/static/{filename}": _page("The viewer's scripts, styles and vendored libraries", "text/plain",
                                       _param("filename", "path", {"type": "string", "minLength": 1})),
    }  # fmt: skip


@bp.get("/openapi.json")
def openapi() -> Response:
    """The OpenAPI document of this server."""
    return jsonify(spec())
