"""`tgneo ask --url`: the same answer and explain view, from a running server instead of in-process."""

from __future__ import annotations

import json
import os

from tests.clirun import tgneo
from tests.serving import Served
from tgneo.ingest.sample import QUESTIONS

NO_NEO4J = {k: v for k, v in os.environ.items() if not k.startswith("NEO4J_")}
"""The client needs no database: only the server talks to Neo4j."""


def test_ask_url_streams_the_answer_and_the_readable_steps(served: Served) -> None:
    a = served.a
    result = tgneo(None, "ask", QUESTIONS[0].text, "-x", "--url", served.base, "--token", a.token,
                   "--workspace", a.workspace, "--collection", a.collection, env=NO_NEO4J)  # fmt: skip
    assert "Polonium" in result.stdout
    for line in ("[GraphRagQuestion]", "[Grounding]", "Edge: (Polonium, named after, Poland)", "Sources:",
                 "trace: urn:trustgraph:question:"):  # fmt: skip
        assert line in result.stderr, result.stderr


def test_ask_url_json_prints_the_server_s_messages(served: Served) -> None:
    a = served.a
    result = tgneo(None, "ask", "What is 2 + 3?", "--engine", "agent", "--json", "--url", served.base,
                   "--token", a.token, "--collection", a.collection, env=NO_NEO4J)  # fmt: skip
    messages = [json.loads(line) for line in result.stdout.splitlines()]
    assert messages[0]["message_type"] == "explain" and messages[-1]["end_of_dialog"] is True


def test_ask_url_without_a_token_is_one_error_line(served: Served) -> None:
    result = tgneo(None, "ask", "Who?", "--url", served.base, ok=False, env=NO_NEO4J)
    assert result.returncode == 1
    assert result.stderr.startswith("error: ") and "401" in result.stderr and "Traceback" not in result.stderr
