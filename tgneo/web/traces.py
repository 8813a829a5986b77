"""Traces: ``GET /api/v1/traces`` (newest first, filters, cursor pages), ``GET /api/v1/traces/{uri}`` and
``GET /api/v1/traces/diff?a=&b=`` (what changed between two answers), ``POST /api/v1/traces/{uri}/verify`` (the
counterfactual check of a stored answer, recorded in its trace), and retention:
``POST /api/v1/traces/prune``, ``/hold``, ``/release`` and ``GET|PUT /api/v1/traces/policy`` (recorded in
the audit log, ``store.audit``).

A trace is JSON by default — the whole of ``tgneo.store.traces.get_trace``: steps, selected edges with
labels and source chains, chunks, tool calls, texts, totals — and RDF when ``Accept`` names an RDF
media type or ``?format=`` an RDF format (:func:`trace_rdf`, ``?profile=prov|trustgraph``).
Percent-encode the URI in the path. Everything is read in the caller's workspace only: another
workspace's trace is not found (404).
"""

from __future__ import annotations

from dataclasses import asdict

from flask import Blueprint, Response, jsonify, request

from tgneo.engines.verify import budget_of
from tgneo.errors import BadRequest
from tgneo.kinds import SessionKind
from tgneo.rdf.export_profiles import DEFAULT_EXPORT_PROFILE, EXPORT_PROFILES, ExportProfile
from tgneo.rdf.formats import FORMATS, Format, get_format
from tgneo.rdf.writer import QUOTED_MODES, default_quoted, write
from tgneo.scope import name_or_default
from tgneo.service.verification import verify_trace
from tgneo.store.rdf_export import export_quads
from tgneo.store.retention import (
    Policy,
    StoredPolicy,
    age_text,
    candidates,
    hold,
    parse_age,
    prune,
    release,
    set_policy,
    stored_policies,
)
from tgneo.store.traces import MAX_TRACE_STEPS, get_trace, list_traces
from tgneo.stream import wire
from tgneo.timestamps import parse_iso
from tgneo.tracediff import diff
from tgneo.web.app_state import app_state
from tgneo.web.auth import current_access
from tgneo.web.bodies import arg_flag, arg_int, arg_scope, arg_text, json_body

bp = Blueprint("traces", __name__)
RDF_MEDIA_TYPES = tuple(t for f in FORMATS.values() for t in f.media_types)


def scope() -> tuple[str, str]:
    """The workspace (``?workspace=``, checked against the token) and collection (``?collection=``)."""
    workspace = current_access().resolve(arg_text("workspace"))
    return workspace, arg_scope("collection")


@bp.get("/api/v1/traces")
def traces() -> Response:
    """Trace roots, newest first: ``?type=graphrag|docrag|agent&since=ISO&limit=N&cursor=…&stale=true``."""
    workspace, collection = scope()
    kind = arg_text("type")
    if kind is not None:
        SessionKind.parse(kind)
    since_text = arg_text("since", max_chars=64)
    since = None
    if since_text is not None:
        try:
            since = parse_iso(since_text)
        except ValueError:
            raise BadRequest(f"since: {since_text!r} is not an ISO 8601 time (e.g. 2025-06-01T00:00:00Z)") from None
    page = list_traces(
        app_state().store, workspace, collection, type=kind, since=since, limit=arg_int("limit", 50, 1, 1000),
        cursor=arg_text("cursor", max_chars=2000), stale=arg_flag("stale"),
    )  # fmt: skip
    return jsonify({"traces": page.traces, "next_cursor": page.next_cursor})


@bp.get("/api/v1/traces/diff")
def traces_diff() -> Response:
    """What changed between two answers (``tgneo.tracediff``): ``?a=URI&b=URI[&b_collection=…]``."""
    workspace, collection = scope()
    a, b = arg_text("a", max_chars=4000), arg_text("b", max_chars=4000)
    if not a or not b:
        raise BadRequest("a and b: the URIs of the two traces to compare are both required")
    other = arg_scope("b_collection") if "b_collection" in request.args else collection
    store = app_state().store
    return jsonify(diff(get_trace(store, workspace, collection, a), get_trace(store, workspace, other, b)))


def _operator() -> str:
    """Who the audit log names for an API call: the token's workspace, or ``local`` without tokens."""
    access = current_access()
    return f"token of workspace {access.workspace}" if access.workspace is not None else "local"


def _uris(body: dict[str, object]) -> list[str]:
    uris = body.get("uris")
    if not isinstance(uris, list) or not uris or not all(isinstance(u, str) and u.strip() for u in uris):
        raise BadRequest("uris: a non-empty list of trace URIs is required")
    if len(uris) > 1000:
        raise BadRequest(f"uris: {len(uris)} URIs; at most 1000 at once")
    return [str(u) for u in uris]


def _body_scope(body: dict[str, object]) -> tuple[str, str]:
    return current_access().resolve(body.get("workspace")), name_or_default(body.get("collection"), "collection")


@bp.post("/api/v1/traces/hold")
@bp.post("/api/v1/traces/release")
def traces_hold() -> Response:
    """Put a legal hold on traces, or lift it: ``{"uris": [...], "collection": …}``."""
    body = json_body()
    workspace, collection = _body_scope(body)
    act = hold if request.path.endswith("/hold") else release
    results = act(app_state().store, workspace, collection, _uris(body), who=_operator())
    return jsonify({"traces": [asdict(r) for r in results]})


def _policy(body: dict[str, object]) -> Policy | None:
    """The policy ``older_than`` and ``keep`` of a body describe, or ``None`` when it gives neither."""
    older_than, keep = body.get("older_than"), body.get("keep")
    if older_than is not None and not isinstance(older_than, str):
        raise BadRequest("older_than: an age such as 90m, 12h, 30d or 2w")
    if keep is not None and (not isinstance(keep, int) or isinstance(keep, bool)):
        raise BadRequest("keep: a whole number of traces to keep")
    if older_than is None and keep is None:
        return None
    return Policy(parse_age(older_than) if older_than else None, keep)


def _policy_json(stored: StoredPolicy | None) -> dict[str, object] | None:
    if stored is None:
        return None
    age = stored.policy.max_age
    return {"older_than": age_text(age) if age is not None else None, "keep": stored.policy.max_traces,
            "describe": stored.policy.describe(), "set_at": stored.set_at, "set_by": stored.set_by}  # fmt: skip


@bp.post("/api/v1/traces/prune")
def traces_prune() -> Response:
    """Delete traces by a retention policy: ``{"older_than": "30d", "keep": N, "dry_run": true}`` (a dry run
    unless ``dry_run`` is false; neither limit: the collection's stored policy)."""
    body = json_body()
    workspace, collection = _body_scope(body)
    dry_run = body.get("dry_run", True)
    if not isinstance(dry_run, bool):
        raise BadRequest("dry_run: true or false")
    store = app_state().store
    policy = _policy(body)
    if policy is None:
        stored = stored_policies(store, workspace, collection)
        if not stored:
            raise BadRequest("give older_than, keep, or both: this collection has no stored retention policy")
        policy = stored[0].policy
    if dry_run:
        found = candidates(store, workspace, collection, policy)
        return jsonify({"dry_run": True, "policy": policy.describe(), "traces": [asdict(c) for c in found]})
    report = prune(store, workspace, collection, policy, who=_operator())
    return jsonify({"dry_run": False, "policy": policy.describe(), **asdict(report)})


@bp.get("/api/v1/traces/policy")
def traces_policy() -> Response:
    """The collection's stored retention policy (``{"policy": null}`` when it has none)."""
    workspace, collection = scope()
    stored = stored_policies(app_state().store, workspace, collection)
    return jsonify({"policy": _policy_json(stored[0] if stored else None)})


@bp.put("/api/v1/traces/policy")
def traces_policy_set() -> Response:
    """Store the collection's retention policy, ``{"older_than": "90d", "keep": N}``, or clear it,
    ``{"clear": true}``; what a scheduled prune (``tgneo serve --prune-every``) applies."""
    body = json_body()
    workspace, collection = _body_scope(body)
    clear = body.get("clear", False)
    if not isinstance(clear, bool):
        raise BadRequest("clear: true or false")
    policy = _policy(body)
    if clear == (policy is not None):
        raise BadRequest("give older_than, keep or both to store a policy, or clear: true to remove it")
    store = app_state().store
    set_policy(store, workspace, collection, policy, who=_operator())
    stored = stored_policies(store, workspace, collection)
    return jsonify({"policy": _policy_json(stored[0] if stored else None)})


@bp.get("/api/v1/traces/<path:uri>")
def trace(uri: str) -> Response:
    """One whole trace: JSON (steps, edges, sources, totals), or RDF by content negotiation."""
    workspace, collection = scope()
    fmt = requested_format()
    if fmt is not None:
        return trace_rdf(workspace, collection, uri, fmt)
    max_steps = arg_int("max_steps", MAX_TRACE_STEPS, 1, MAX_TRACE_STEPS)
    return jsonify(get_trace(app_state().store, workspace, collection, uri, max_steps))


@bp.post("/api/v1/traces/<path:uri>/verify")
def trace_verify(uri: str) -> Response:
    """Check a stored answer after the fact (``{"budget": N}`` optional): re-run its answering stage without its cited
    evidence, with it alone and without each item; record the Verification; answer its summary (verdict, sufficient,
    model, items) and the Verification's explain triples."""
    body = json_body() if request.get_data() else {}
    workspace, collection = _body_scope(body) if body else scope()
    budget = budget_of(body.get("budget", True), "budget")
    if budget is None:
        raise BadRequest("budget: true or the most re-runs of the answering stage (at least 2)")
    runtime = app_state().runtime
    _, summary, event = verify_trace(runtime.store, runtime.llm(), workspace, collection, uri, budget)
    triples = [wire.encode_quad(q) for q in event.triples]
    return jsonify({"verification": wire.encode_verification(summary), "explain_id": event.explain_id,
                    "explain_graph": event.explain_graph, "explain_triples": triples})  # fmt: skip


def profile_arg() -> ExportProfile:
    """``?profile=`` (``prov`` by default)."""
    value = request.args.get("profile", DEFAULT_EXPORT_PROFILE)
    if value not in EXPORT_PROFILES:
        raise BadRequest(f"profile: {value!r} is not one of {', '.join(EXPORT_PROFILES)}")
    return value


def requested_format() -> Format | None:
    """The RDF format ``?format=`` or ``Accept`` asks for; ``None`` when JSON is wanted (the default)."""
    name = request.args.get("format")
    if name is not None:
        return None if name == "json" else get_format(name)
    best = request.accept_mimetypes.best_match(["application/json", *RDF_MEDIA_TYPES], default="application/json")
    return None if best == "application/json" else get_format(best)


def trace_rdf(workspace: str, collection: str, uri: str, fmt: Format) -> Response:
    """One trace (the root ``uri`` and every step derived from it) as RDF in ``fmt``.

    Turtle and N-Triples have no named graphs: their export is the merge of the trace's graphs (as
    TrustGraph's ``tg-graph-to-turtle`` does, and ``tgneo export``); N-Quads, TriG and JSON-LD keep them.
    ``?quoted=`` spells quoted triples as ``tgneo export --quoted`` does, with the same default.
    """
    profile = profile_arg()
    quoted = request.args.get("quoted") or default_quoted(profile)
    if quoted not in QUOTED_MODES:
        raise BadRequest(f"quoted: {quoted!r} is not one of {', '.join(QUOTED_MODES)}")
    quads = export_quads(app_state().store, workspace, collection, uri, profile)
    if not fmt.named_graphs:
        quads = [q._replace(g="") for q in quads]
    parts: list[str] = []
    write(quads, fmt, parts.append, quoted, as_entities=profile == "prov")  # tgneo export's writer and defaults
    return Response("".join(parts), mimetype=fmt.media_type)
