"""The Flask application: the ``create_app()`` factory, its blueprints and one error handler.

The URL map, one blueprint per resource (``tgneo.web.openapi`` describes every route):

    GET  /healthz  /readyz  /openapi.json                         health (open), openapi
    POST /api/v1/graph-rag | document-rag | agent                 questions (NDJSON / SSE)
    WS   /api/v1/stream                                           questions over a WebSocket
    GET  /api/v1/traces  /api/v1/traces/{uri}                     traces (JSON, or RDF)
    GET  /api/v1/content/{uri}                                    content (librarian texts)
    POST /api/v1/rdf                                              rdf (import)
    POST /api/v1/queries/{name}                                   queries (named, read-only)
    WS   /api/v1/socket                                           gateway (TrustGraph's protocol)
    WS   /api/v1/flow/{flow}/import/triples                       rdf (tg-load-turtle)
    POST /api/v1/librarian  /api/v1/collection-management         librarian (TrustGraph REST)
    GET  /api/v1/document-stream
    POST /api/v1/flow/{flow}/service/{service}

    POST /v1/traces                                               otlp (OpenTelemetry in: OTLP/HTTP)

    GET  /browser/style.grass  /browser/guide.html                browser (Neo4j Browser's :style and :play; open)
    GET  /ui/  /ui/trace/{uri}  /ui/static/{filename}             ui (the trace viewer; its data comes from the API)
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from typing import Any

from flask import Flask

from tgneo.config import Settings
from tgneo.service.access import parse_tokens
from tgneo.service.runtime import Runtime
from tgneo.store import Store
from tgneo.store.retention import Schedule, parse_age
from tgneo.web import auth
from tgneo.web.app_state import AppState
from tgneo.web.bodies import MAX_RDF_BYTES, MAX_SOCKET_MESSAGE
from tgneo.web.errors import register_error_handlers
from tgneo.web.extensions import sock


def create_app(
    test_config: Mapping[str, Any] | None = None,
    *,
    settings: Settings | None = None,
    store: Store | None = None,
) -> Flask:
    """Build the tgneo web application.

    Args:
        test_config: Flask config values that override the defaults (tests).
        settings: tgneo settings; read from the environment when omitted.
        store: an open ``Store``, which stays the caller's to close; when omitted, the app opens one from
            ``settings`` and closes it when the process exits (or earlier, should the app be collected:
            flask-sock's extension keeps the newest app alive).

    Returns:
        The Flask app with JSON error handling, token authentication (``TGNEO_TOKENS``), flask-sock
        attached and every blueprint of the URL map above registered.

    Raises:
        ConfigError: ``TGNEO_TOKENS`` is malformed.
    """
    app = Flask(__name__, static_folder=None)
    app.config.from_mapping(
        JSON_SORT_KEYS=False,
        MAX_CONTENT_LENGTH=MAX_RDF_BYTES,
        SOCK_SERVER_OPTIONS={"max_message_size": MAX_SOCKET_MESSAGE},
    )
    if test_config:
        app.config.from_mapping(test_config)
    app.url_map.merge_slashes = False  # a percent-encoded IRI in the path keeps its "//"
    settings = settings or Settings.from_env()
    tokens = parse_tokens(settings.tokens)
    if store is None:
        store = Store.from_settings(settings)
        weakref.finalize(app, store.close)  # at the latest at exit (weakref.finalize runs its callbacks then)
    app.extensions["tgneo.settings"] = settings
    app.extensions["tgneo.store"] = store
    runtime = Runtime(store, settings)
    weakref.finalize(app, runtime.close)  # its spans still queued for OTLP export go out before the app does
    app.extensions["tgneo"] = AppState(settings, runtime, tokens)
    if settings.prune_every:
        schedule = Schedule(store, parse_age(settings.prune_every), settings.home).start()
        app.extensions["tgneo.retention"] = schedule
        weakref.finalize(app, schedule.stop)
    sock.init_app(app)
    register_error_handlers(app)
    auth.init_app(app, tokens)

    from tgneo.web import browser, content, gateway, health, librarian, openapi, queries, questions, rdf, traces, ui
    from tgneo.web import otlp_receive as otlp

    for module in (health, openapi, questions, traces, content, rdf, queries, gateway, librarian, browser, ui, otlp):
        app.register_blueprint(module.bp)
    return app
