"""Flask extensions, created without an app and attached in ``create_app`` (the factory pattern)."""

from flask_sock import Sock

sock = Sock()

POLL_SECONDS = 1.0
"""How often an idle socket looks up from ``receive`` to see whether the server is stopping."""
