"""The Flask application: the ``create_app()`` factory, its blueprints and one error handler."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask

from tgneo.config import Settings
from tgneo.store import Store
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
        store: an open ``Store``; one is created from ``settings`` when omitted and closed at exit.

    Returns:
        The Flask app with JSON error handling, flask-sock attached and the health blueprint
        (``/healthz``, ``/readyz``) registered.
    """
    app = Flask(__name__)
    app.config.from_mapping(JSON_SORT_KEYS=False)
    if test_config:
        app.config.from_mapping(test_config)
    settings = settings or Settings.from_env()
    app.extensions["tgneo.settings"] = settings
    app.extensions["tgneo.store"] = store or Store.from_settings(settings)
    sock.init_app(app)
    register_error_handlers(app)

    from tgneo.web import health

    app.register_blueprint(health.bp)
    return app
