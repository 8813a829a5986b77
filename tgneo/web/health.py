"""Liveness and readiness probes (for load balancers, docker-compose and Kubernetes)."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify

from tgneo.store import Store

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz() -> Response:
    """The process is alive (says nothing about Neo4j)."""
    return jsonify({"status": "ok"})


@bp.get("/readyz")
def readyz() -> Response:
    """Neo4j is reachable and accepts our credentials; 503 with a JSON error otherwise."""
    store: Store = current_app.extensions["tgneo.store"]
    store.verify()  # raises StoreUnavailable -> 503 through the error handler
    return jsonify({"status": "ready", "neo4j": {"uri": store.uri, **store.server_info()}})
