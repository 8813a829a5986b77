"""Flask extensions, created without an app and attached in ``create_app`` (the factory pattern)."""

from flask_sock import Sock

sock = Sock()
