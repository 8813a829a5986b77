"""Property-based fuzzing over /openapi.json (schemathesis): no input makes the server answer 5xx.

Its own server, with one token for a workspace made for this run and deleted after it: the fuzzer's
questions are recorded like any others, in collections it makes up.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error

from tests.conftest import Neo4jServer
from tests.ingesting import query
from tests.serving import running, serve_cmd
from tgneo.ingest.loader import load_documents
from tgneo.ingest.sample import sources
from tgneo.llm.offline import OfflineLLM
from tgneo.provision.server import free_port
from tgneo.store import Store

TOKEN = f"fuzz-{uuid.uuid4().hex}"
WORKSPACE = f"test-ws-fuzz-{uuid.uuid4().hex[:8]}"


@pytest.fixture(scope="module")
def fuzzed(neo4j_server: Neo4jServer, store: Store) -> Iterator[str]:
    # the sample in the default collection, so that a generated question without a collection is answered
    assert load_documents(store, OfflineLLM(), WORKSPACE, "default", sources()).loaded == 4
    port = free_port()
    env = {**neo4j_server.env(), "TGNEO_TOKENS": f"{TOKEN}={WORKSPACE}"}
    try:
        with running(serve_cmd(port, "--workers", "1"), env, port) as base:
            yield base
    finally:
        query(store, "MATCH (n {workspace: $w}) DETACH DELETE n", w=WORKSPACE)


def test_no_input_makes_the_server_fail(fuzzed: str) -> None:
    """Every operation of the spec, with generated valid and invalid inputs: nothing answers 5xx."""
    api = schemathesis.openapi.from_url(f"{fuzzed}/openapi.json")
    headers = {"Authorization": f"Bearer {TOKEN}"}
    operations = [result.ok() for result in api.get_all_operations()]
    assert len(operations) == 28  # every operation of the spec (/api/v1/traces/policy has two; /v1/traces; verify)

    statuses: dict[str, list[int]] = {}
    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True,
                  database=None)  # fmt: skip
        def fuzz(case: schemathesis.Case) -> None:
            response = case.call(base_url=fuzzed, headers=headers, timeout=120)
            statuses.setdefault(case.operation.label, []).append(response.status_code)
            case.validate_response(response, checks=[not_a_server_error])

        fuzz()
    assert set(statuses) == {op.label for op in operations}
    assert sum(len(codes) for codes in statuses.values()) >= 5 * len(operations)
    answered = {label for label, codes in statuses.items() if 200 in codes}
    assert {"POST /api/v1/graph-rag", "GET /api/v1/traces", "POST /api/v1/queries/{name}"} <= answered, statuses
