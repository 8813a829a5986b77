"""`tgneo serve`: a real server socket, a real client. Health, readiness, errors and WebSockets."""

from __future__ import annotations

import json
import subprocess
import sys
from contextlib import ExitStack

import pytest
import requests

from tests.clirun import TGNEO
from tests.conftest import Neo4jServer
from tests.serving import ROOT, running, serve_cmd
from tgneo.provision.server import free_port


def test_healthz_answers_while_the_process_lives(neo4j_server: Neo4jServer) -> None:
    port = free_port()
    with running(serve_cmd(port), neo4j_server.env(), port) as base:
        response = requests.get(f"{base}/healthz", timeout=5)
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_readyz_is_200_when_neo4j_is_reachable(neo4j_server: Neo4jServer) -> None:
    port = free_port()
    with running(serve_cmd(port), neo4j_server.env(), port) as base:
        response = requests.get(f"{base}/readyz", timeout=10)
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ready"
    assert body["neo4j"]["version"].startswith("5.26.")


def test_readyz_is_503_with_a_json_error_when_neo4j_is_unreachable(neo4j_server: Neo4jServer) -> None:
    port, nothing_there = free_port(), free_port()
    env = {**neo4j_server.env(), "NEO4J_URI": f"bolt://127.0.0.1:{nothing_there}", "TGNEO_NEO4J_CONNECT_TIMEOUT": "2"}
    with running(serve_cmd(port), env, port) as base:
        response = requests.get(f"{base}/readyz", timeout=30)
    assert response.status_code == 503
    error = response.json()["error"]
    assert error["type"] == "StoreUnavailable"
    assert f"127.0.0.1:{nothing_there}" in error["message"]


def test_unknown_routes_answer_json_404(neo4j_server: Neo4jServer) -> None:
    port = free_port()
    with running(serve_cmd(port), neo4j_server.env(), port) as base:
        response = requests.get(f"{base}/no/such/route", timeout=5)
    assert response.status_code == 404
    assert response.json()["error"]["type"] == "NotFound"


def test_serve_refuses_a_public_bind_without_tokens(neo4j_server: Neo4jServer) -> None:
    env = {k: v for k, v in neo4j_server.env().items() if k != "TGNEO_TOKENS"}
    result = subprocess.run(
        [*TGNEO, "serve", "--host", "0.0.0.0", "--port", str(free_port())],
        env=env, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert result.returncode == 1
    assert "TGNEO_TOKENS" in result.stderr


def test_the_production_server_serves_websockets(neo4j_server: Neo4jServer) -> None:
    """Gunicorn's gthread worker (what `tgneo serve` runs) carries flask-sock WebSockets end to end."""
    from websockets.sync.client import connect

    port = free_port()
    cmd = [sys.executable, "-m", "tests.ws_echo_app", str(port)]
    with running(cmd, {**neo4j_server.env(), "PYTHONPATH": str(ROOT)}, port):
        with connect(f"ws://127.0.0.1:{port}/test/echo", open_timeout=10) as ws:
            ws.send("hello")
            assert ws.recv(timeout=10) == "echo:hello"
            ws.send("again")
            assert ws.recv(timeout=10) == "echo:again"


def test_access_logs_are_json_lines_with_tokens_redacted(neo4j_server: Neo4jServer) -> None:
    port, log = free_port(), []
    env = {**neo4j_server.env(), "TGNEO_TOKENS": "sekrit=test-ws-log"}
    with running(serve_cmd(port), env, port, log) as base:
        requests.get(f"{base}/api/v1/traces", params={"token": "sekrit"}, timeout=10)
    records = [json.loads(line) for line in log if line.startswith("{")]
    traces = next(r for r in records if r["path"] == "/api/v1/traces")
    assert traces["status"] == 401 and traces["method"] == "GET" and traces["duration_ms"] >= 0
    assert "sekrit" not in "\n".join(log) and traces["query"] == "token=%2A%2A%2A"


def test_sigterm_closes_open_sockets_with_going_away(neo4j_server: Neo4jServer) -> None:
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    port = free_port()
    with ExitStack() as stack:
        with running(serve_cmd(port, "--workers", "1"), neo4j_server.env(), port) as base:
            ws = stack.enter_context(connect(base.replace("http", "ws") + "/api/v1/socket", open_timeout=10))
            ws.send(json.dumps({"type": "auth", "token": ""}))
            assert json.loads(ws.recv(timeout=10))["type"] == "auth-ok"
        # leaving `running` sent SIGTERM and waited for the server to stop
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1001


def test_an_app_closes_the_store_it_opened_when_the_process_exits() -> None:
    """``create_app``'s docstring promises it; the driver refuses sessions once closed."""
    script = """
import atexit

def after_exit():  # registered first, so it runs after the app's own exit hook
    try:
        store.driver.session()
        print("open")
    except Exception as e:
        print(type(e).__name__, e)

atexit.register(after_exit)
from tgneo.config import Settings
from tgneo.web import create_app
app = create_app(settings=Settings(neo4j_uri="bolt://127.0.0.1:1"))
store = app.extensions["tgneo.store"]
"""
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True)
    assert result.stdout.strip() == "DriverError Driver closed"
