"""Retention and legal hold against a real Neo4j: ``tgneo traces prune|hold|release`` and ``store.retention``.

Each test loads the sample corpus into its own collection and asks real questions, so the traces
pruned are the engines' own (steps, edge and chunk selections, thoughts, answer sentences, texts).
"""

from __future__ import annotations

import json
import threading
import uuid
from pathlib import Path

import pytest
import requests

from tests.clirun import invoke as tgneo  # in this process: these tests check what the commands print and store
from tests.conftest import Neo4jServer
from tests.ingesting import query
from tests.serving import Served, Tenant
from tgneo.engines import DocRag, GraphRag, Request
from tgneo.errors import BadRequest, TraceNotFound
from tgneo.explain.events import SessionEnd
from tgneo.ingest.loader import load_documents
from tgneo.ingest.sample import QUESTIONS, sources
from tgneo.llm.offline import OfflineLLM
from tgneo.store import Store
from tgneo.store.retention import Policy, candidates, hold, parse_age, prune, release
from tgneo.store.traces import get_trace

W = f"test-ws-retention-{uuid.uuid4().hex[:8]}"


def loaded(store: Store) -> str:
    collection = f"test-retention-{uuid.uuid4().hex[:8]}"
    assert load_documents(store, OfflineLLM(), W, collection, sources()).loaded == 4
    return collection


def ask(store: Store, collection: str, n: int = 0, engine: type = GraphRag) -> str:
    end = list(engine(store, OfflineLLM()).answer(Request(QUESTIONS[n % len(QUESTIONS)].text, W, collection)))[-1]
    assert isinstance(end, SessionEnd) and end.trace
    return end.trace


def counts(store: Store, collection: str) -> dict[str, int]:
    rows = query(store, """
        MATCH (n {workspace: $w, collection: $c})
        RETURN sum(CASE WHEN n:TgStatement THEN 1 ELSE 0 END) AS statements,
               sum(CASE WHEN n:TgSource THEN 1 ELSE 0 END) AS sources,
               sum(CASE WHEN n:TgExplain THEN 1 ELSE 0 END) AS explain,
               sum(CASE WHEN n:TgContent AND NOT n:TgSource THEN 1 ELSE 0 END) AS texts,
               count(n) AS nodes""", w=W, c=collection)  # fmt: skip
    return {k: int(v) for k, v in rows[0].items()}


def test_a_dry_run_lists_what_would_go_and_deletes_nothing(neo4j_server: Neo4jServer, store: Store) -> None:
    collection = loaded(store)
    oldest, middle, newest = ask(store, collection, 0), ask(store, collection, 1), ask(store, collection, 2)
    before = counts(store, collection)
    result = tgneo(neo4j_server, "traces", "prune", "--keep", "1", "--workspace", W, "--collection", collection)
    listed = [line.split()[-1] for line in result.stdout.splitlines()]
    assert listed == [oldest, middle] and newest not in result.stdout
    assert "would delete 2 trace(s), 10 step(s), beyond the newest 1" in result.stderr and "--yes" in result.stderr
    assert counts(store, collection) == before


def test_prune_deletes_a_traces_steps_selections_and_texts_but_never_the_graph_or_its_sources(
    neo4j_server: Neo4jServer, store: Store
) -> None:
    collection = loaded(store)
    empty = counts(store, collection)
    gone = [ask(store, collection, 0), ask(store, collection, 1, DocRag)]
    kept = ask(store, collection, 2)
    whole = get_trace(store, W, collection, kept)
    scope = ("--workspace", W, "--collection", collection)
    result = tgneo(neo4j_server, "traces", "prune", "--keep", "1", "--yes", *scope)
    assert "deleted 2 trace(s)" in result.stderr
    for uri in gone:
        with pytest.raises(TraceNotFound):
            get_trace(store, W, collection, uri)
    assert get_trace(store, W, collection, kept) == whole
    after = counts(store, collection)
    assert (after["statements"], after["sources"]) == (empty["statements"], empty["sources"])
    assert after["explain"] == len(whole["steps"]) + sum(
        len(s.get("edges", [])) + len(s.get("chunks", [])) + len(s.get("sentences", [])) + len(s.get("hits", []))
        for s in whole["steps"]
    ) + sum(1 for s in whole["steps"] if s["type"] == "Thought")  # what is left is the kept trace, whole


def test_an_age_policy_deletes_only_traces_started_before_it(store: Store) -> None:
    collection = loaded(store)
    old, recent = ask(store, collection, 0), ask(store, collection, 1)
    query(store, "MATCH (q:Question {workspace: $w, collection: $c, uri: $u}) "
                 "SET q.startedAtTime = datetime() - duration('P40D')", w=W, c=collection, u=old)  # fmt: skip
    policy = Policy(max_age=parse_age("30d"))
    assert [c.uri for c in candidates(store, W, collection, policy)] == [old]
    report = prune(store, W, collection, policy, who="test")
    assert (report.traces, report.held) == (1, [])
    assert get_trace(store, W, collection, recent)["uri"] == recent


def test_a_held_trace_survives_concurrent_prunes_and_goes_once_released(store: Store) -> None:
    collection = loaded(store)
    traces = [ask(store, collection, n) for n in range(6)]
    held = traces[1:3]
    assert all(r.held for r in hold(store, W, collection, held, who="auditor"))
    whole = {uri: get_trace(store, W, collection, uri) for uri in held}
    everything = Policy(max_traces=0)
    errors: list[BaseException] = []

    def pruning() -> None:
        try:
            prune(store, W, collection, everything, who="test", slice_size=3)
        except BaseException as e:  # noqa: BLE001 - the test reports any failure of any thread
            errors.append(e)

    threads = [threading.Thread(target=pruning) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not errors, errors
    for uri in held:
        assert get_trace(store, W, collection, uri) == whole[uri]
    for uri in set(traces) - set(held):
        with pytest.raises(TraceNotFound):
            get_trace(store, W, collection, uri)
    assert candidates(store, W, collection, everything) == []
    release(store, W, collection, held, who="auditor")
    assert [c.uri for c in candidates(store, W, collection, everything)] == sorted(held, key=traces.index)


def test_a_hold_racing_a_prune_either_keeps_the_trace_whole_or_is_refused(store: Store) -> None:
    collection = loaded(store)
    for n in range(4):
        uri = ask(store, collection, n)
        steps = len(get_trace(store, W, collection, uri)["steps"])
        results = []
        prune_thread = threading.Thread(target=prune, args=(store, W, collection, Policy(max_traces=0)),
                                        kwargs={"who": "test", "slice_size": 2})  # fmt: skip
        prune_thread.start()
        results = hold(store, W, collection, [uri], who="auditor")
        prune_thread.join(timeout=120)
        (result,) = results
        if result.held:
            assert len(get_trace(store, W, collection, uri)["steps"]) == steps  # never held half-deleted
            release(store, W, collection, [uri], who="auditor")
            prune(store, W, collection, Policy(max_traces=0), who="test")
        else:
            assert result.pruning or not result.found
        with pytest.raises(TraceNotFound):
            get_trace(store, W, collection, uri)


def test_every_prune_hold_and_release_is_in_the_audit_log(
    neo4j_server: Neo4jServer, store: Store, tmp_path: Path
) -> None:
    collection = loaded(store)
    first, second = ask(store, collection, 0), ask(store, collection, 1)
    log = tmp_path / "audit.jsonl"
    env = {**neo4j_server.env(), "TGNEO_AUDIT_LOG": str(log)}
    scope = ("--workspace", W, "--collection", collection)
    tgneo(None, "traces", "hold", second, *scope, env=env)
    tgneo(None, "traces", "prune", "--keep", "0", "--yes", *scope, env=env)
    tgneo(None, "traces", "release", second, *scope, env=env)
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert [r["action"] for r in records] == ["hold", "prune", "release"]
    assert records[0]["traces"] == [second] and records[2]["traces"] == [second]
    assert records[1]["traces"] == 1 and records[1]["policy"] == "beyond the newest 0"
    assert all(r["who"] and r["time"].endswith("Z") and r["workspace"] == W for r in records)
    with pytest.raises(TraceNotFound):
        get_trace(store, W, collection, first)


@pytest.mark.parametrize("text", ["", "30", "30x", "0d", "-1d", "1.5h"])
def test_an_age_that_is_not_a_whole_number_of_units_is_refused_naming_the_forms(text: str) -> None:
    with pytest.raises(BadRequest, match="90m, 12h, 30d, 2w"):
        parse_age(text)


def test_prune_without_a_policy_is_a_usage_error(neo4j_server: Neo4jServer) -> None:
    result = tgneo(neo4j_server, "traces", "prune", ok=False)
    assert result.returncode == 2 and "--older-than AGE, --keep N, or both" in result.stderr


def test_the_api_holds_prunes_and_releases_within_the_tokens_workspace(served: Served, store: Store) -> None:
    b = served.b
    collection = f"{b.collection}-retention"
    assert load_documents(store, OfflineLLM(), b.workspace, collection, sources()).loaded == 4
    asked = []
    for n in range(2):
        end = list(GraphRag(store, OfflineLLM()).answer(Request(QUESTIONS[n].text, b.workspace, collection)))[-1]
        assert isinstance(end, SessionEnd) and end.trace
        asked.append(end.trace)
    old, kept = asked

    def post(tenant: Tenant, verb: str, body: dict[str, object]) -> requests.Response:
        return requests.post(f"{served.base}/api/v1/traces/{verb}", json={"collection": collection, **body},
                             headers=tenant.headers, timeout=120)  # fmt: skip

    assert post(served.a, "hold", {"uris": [kept]}).json()["traces"][0]["found"] is False  # not tenant a's
    assert post(b, "hold", {"uris": [kept]}).json()["traces"] == [
        {"uri": kept, "found": True, "pruning": False, "held": True}
    ]
    dry = post(b, "prune", {"keep": 0}).json()
    assert dry["dry_run"] is True and [t["uri"] for t in dry["traces"]] == [old]
    done = post(b, "prune", {"keep": 0, "dry_run": False}).json()
    assert (done["traces"], done["held"]) == (1, []) and done["nodes"] > 5
    assert get_trace(store, b.workspace, collection, kept)["uri"] == kept
    with pytest.raises(TraceNotFound):
        get_trace(store, b.workspace, collection, old)
    post(b, "release", {"uris": [kept]})
    assert [t["uri"] for t in post(b, "prune", {"keep": 0}).json()["traces"]] == [kept]


@pytest.mark.parametrize(
    ("verb", "body", "named"),
    [("hold", {}, "uris"), ("hold", {"uris": "urn:x"}, "uris"), ("prune", {}, "older_than, keep"),
     ("prune", {"older_than": "soon"}, "90m, 12h"), ("prune", {"keep": "all"}, "keep"),
     ("prune", {"keep": 1, "dry_run": "no"}, "dry_run")],
)  # fmt: skip
def test_the_api_refuses_a_bad_retention_request_naming_the_field(
    served: Served, verb: str, body: dict[str, object], named: str
) -> None:
    response = requests.post(f"{served.base}/api/v1/traces/{verb}", json=body, headers=served.b.headers, timeout=60)
    assert response.status_code == 400 and named in response.json()["error"]["message"]


# ---------------------------------------------------------------------------- stored policies, schedule
def test_a_stored_policy_is_what_prune_applies_when_given_no_limits(
    neo4j_server: Neo4jServer, store: Store, tmp_path: Path
) -> None:
    collection = loaded(store)
    old, new = ask(store, collection, 0), ask(store, collection, 1)
    env = {**neo4j_server.env(), "TGNEO_AUDIT_LOG": str(tmp_path / "audit.jsonl")}
    scope = ("--workspace", W, "--collection", collection)
    assert "has no retention policy" in tgneo(None, "traces", "policy", *scope, env=env).stderr
    refused = tgneo(None, "traces", "prune", "--yes", *scope, env=env, ok=False)
    assert refused.returncode == 2 and "no stored retention policy" in refused.stderr

    shown = tgneo(None, "traces", "policy", "--keep", "1", "--older-than", "90d", *scope, env=env).stdout
    assert "delete traces older than 90d or beyond the newest 1" in shown
    assert "would delete 1 trace(s)" in tgneo(None, "traces", "prune", *scope, env=env).stderr
    assert "deleted 1 trace(s)" in tgneo(None, "traces", "prune", "--yes", *scope, env=env).stderr
    with pytest.raises(TraceNotFound):
        get_trace(store, W, collection, old)
    assert get_trace(store, W, collection, new)["uri"] == new

    tgneo(None, "traces", "policy", "--clear", *scope, env=env)
    assert "has no retention policy" in tgneo(None, "traces", "policy", *scope, env=env).stderr
    actions = [json.loads(line)["action"] for line in (tmp_path / "audit.jsonl").read_text().splitlines()]
    assert actions == ["policy", "prune", "policy"]


def test_the_schedule_prunes_every_collection_by_its_own_policy_and_keeps_held_traces(
    store: Store, tmp_path: Path
) -> None:
    from tgneo.store.retention import Schedule, set_policy

    first, second = loaded(store), loaded(store)
    held, gone_first = ask(store, first, 0), ask(store, first, 1)
    gone_second, kept = ask(store, second, 0), [ask(store, second, 1), ask(store, second, 2)]
    hold(store, W, first, [held], who="auditor")
    set_policy(store, W, first, Policy(max_traces=0), who="test")
    set_policy(store, W, second, Policy(max_traces=2), who="test")
    assert Schedule(store, parse_age("1h"), tmp_path).run_once()
    assert get_trace(store, W, first, held)["held"] is True
    for uri, collection in ((gone_first, first), (gone_second, second)):
        with pytest.raises(TraceNotFound):
            get_trace(store, W, collection, uri)
    assert [get_trace(store, W, second, uri)["uri"] for uri in kept] == kept
    set_policy(store, W, first, None, who="test")
    set_policy(store, W, second, None, who="test")


def test_a_schedule_round_waits_its_turn_when_another_process_holds_the_lock(store: Store, tmp_path: Path) -> None:
    import fcntl

    from tgneo.store.retention import Schedule

    schedule = Schedule(store, parse_age("1h"), tmp_path)
    with open(tmp_path / "retention.lock", "a") as other:
        fcntl.flock(other, fcntl.LOCK_EX)
        assert schedule.run_once() is False
    assert schedule.run_once() is True


def test_a_server_started_with_prune_every_prunes_by_the_stored_policy_on_its_own(
    neo4j_server: Neo4jServer, store: Store, tmp_path: Path
) -> None:
    import time

    from tests.serving import running, serve_cmd
    from tgneo.provision.server import free_port
    from tgneo.store.retention import set_policy

    collection = loaded(store)
    old, new = ask(store, collection, 0), ask(store, collection, 1)
    set_policy(store, W, collection, Policy(max_traces=1), who="test")
    port = free_port()
    env = {**neo4j_server.env(), "TGNEO_HOME": str(tmp_path), "TGNEO_AUDIT_LOG": str(tmp_path / "audit.jsonl")}
    try:
        with running(serve_cmd(port, "--workers", "2", "--prune-every", "1s"), env, port):
            deadline = time.monotonic() + 90
            while time.monotonic() < deadline:
                try:
                    get_trace(store, W, collection, old)
                except TraceNotFound:
                    break
                time.sleep(0.5)
            else:
                pytest.fail("the server did not prune by its schedule within 90 s")
        assert get_trace(store, W, collection, new)["uri"] == new
        pruned = [json.loads(line) for line in (tmp_path / "audit.jsonl").read_text().splitlines()]
        assert any(e["action"] == "prune" and e["traces"] == 1 and "schedule" in e["who"] for e in pruned)
    finally:
        set_policy(store, W, collection, None, who="test")


def test_a_bad_schedule_is_refused_before_the_server_starts(neo4j_server: Neo4jServer) -> None:
    result = tgneo(neo4j_server, "serve", "--port", "1", "--prune-every", "soon", ok=False)
    assert result.returncode == 1 and "age 'soon'" in result.stderr


def test_the_api_stores_shows_applies_and_clears_a_policy(served: Served, store: Store) -> None:
    b = served.b
    collection = f"{b.collection}-policy"
    assert load_documents(store, OfflineLLM(), b.workspace, collection, sources()).loaded == 4
    old = list(GraphRag(store, OfflineLLM()).answer(Request(QUESTIONS[0].text, b.workspace, collection)))[-1]
    new = list(GraphRag(store, OfflineLLM()).answer(Request(QUESTIONS[1].text, b.workspace, collection)))[-1]
    assert isinstance(old, SessionEnd) and isinstance(new, SessionEnd)
    url = f"{served.base}/api/v1/traces/policy"

    def put(tenant: Tenant, body: dict[str, object]) -> requests.Response:
        return requests.put(url, json={"collection": collection, **body}, headers=tenant.headers, timeout=60)

    assert requests.get(url, params={"collection": collection}, headers=b.headers, timeout=60).json() == {
        "policy": None
    }
    stored = put(b, {"keep": 1}).json()["policy"]
    assert (stored["keep"], stored["older_than"], stored["set_by"]) == (1, None, f"token of workspace {b.workspace}")
    other = requests.get(url, params={"collection": collection}, headers=served.a.headers, timeout=60)
    assert other.json() == {"policy": None}  # another workspace's collection of the same name
    pruned = requests.post(f"{served.base}/api/v1/traces/prune", json={"collection": collection, "dry_run": False},
                           headers=b.headers, timeout=120).json()  # fmt: skip
    assert pruned["traces"] == 1 and pruned["policy"] == "beyond the newest 1"
    with pytest.raises(TraceNotFound):
        get_trace(store, b.workspace, collection, old.trace or "")
    assert put(b, {"clear": True}).json() == {"policy": None}
    for body, named in (({}, "clear: true"), ({"keep": 1, "clear": True}, "clear: true"),
                        ({"older_than": "soon"}, "age 'soon'"), ({"clear": "yes"}, "clear")):  # fmt: skip
        response = put(b, body)
        assert response.status_code == 400 and named in response.json()["error"]["message"], body
