"""A tgneo app plus one WebSocket echo route, served by tgneo's production server in a subprocess.

Used by tests/test_serve.py to prove that the Gunicorn worker tgneo ships really serves flask-sock
WebSockets (not just plain HTTP).
"""

from __future__ import annotations

import sys

from flask import Flask
from flask_sock import Sock

from tgneo.web import create_app
from tgneo.web.serve import serve


def factory() -> Flask:
    app = create_app()

    @Sock(app).route("/test/echo")  # type: ignore[untyped-decorator]
    def echo(ws) -> None:  # type: ignore[no-untyped-def]
        while True:
            message = ws.receive()
            ws.send(f"echo:{message}")

    return app


if __name__ == "__main__":
    serve(factory, port=int(sys.argv[1]), threads=4)
