"""Stale answers against a real Neo4j: when a document is replaced or removed, exactly the traces that
selected an edge or a chunk from it are marked stale, in the transaction that changes it, and they say
so everywhere a trace is read: ``traces list --stale``, ``trace show``, the trace API and PROV export.

The traces are the engines' own answers over the sample corpus; which traces used which document is
read from each trace before the change, so the expected stale set is never written by hand.
"""

from __future__ import annotations

import json
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests

from tests.clirun import invoke as tgneo  # in this process: these tests check what the commands print and store
from tests.conftest import Neo4jServer
from tests.ingesting import query
from tests.serving import Served
from tgneo.engines import DocRag, GraphRag, Request
from tgneo.errors import BadRequest
from tgneo.explain.events import SessionEnd
from tgneo.ingest.loader import load_documents
from tgneo.ingest.sample import QUESTIONS, sources
from tgneo.ingest.sources import Source
from tgneo.llm.offline import OfflineLLM
from tgneo.native import STRUCTURE_KEYS
from tgneo.rdf.ontology import graph_of, validate
from tgneo.store import Store
from tgneo.store.documents import remove_document
from tgneo.store.health import half_written, residue, sweep_residue
from tgneo.store.queries import Q
from tgneo.store.rdf_export import export_quads
from tgneo.store.retention import Policy, prune
from tgneo.store.traces import get_trace, list_traces
from tgneo.vocab import PROV, TGNEO

W = f"test-ws-stale-{uuid.uuid4().hex[:8]}"


def loaded(store: Store, workspace: str = W) -> str:
    collection = f"test-stale-{uuid.uuid4().hex[:8]}"
    assert load_documents(store, OfflineLLM(), workspace, collection, sources()).loaded == 4
    return collection


def ask(store: Store, collection: str, n: int, engine: type = GraphRag, workspace: str = W) -> str:
    request = Request(QUESTIONS[n % len(QUESTIONS)].text, workspace, collection)
    end = list(engine(store, OfflineLLM()).answer(request))[-1]
    assert isinstance(end, SessionEnd) and end.trace
    return end.trace


def documents_used(trace: dict[str, object]) -> set[str]:
    """The documents a trace's selected edges were extracted from and its selected chunks belong to."""
    used: set[str] = set()
    for step in trace["steps"]:  # type: ignore[attr-defined]
        for edge in step.get("edges", []):
            used |= {source["chain"][-1]["uri"] for source in edge["statement"]["sources"]}
        for chunk in step.get("chunks", []):
            used |= set((chunk.get("chunk") or {}).get("chain", []))
    return used


def stale_uris(store: Store, collection: str, workspace: str = W) -> set[str]:
    return {t["uri"] for t in list_traces(store, workspace, collection, stale=True).traces}


def edited(source: Source) -> Source:
    """The same document (same IRI) with one sentence added: a new version to load over the old."""
    data = source.read() + b"\n\nThis paragraph was added in a later revision of the document.\n"
    return Source(source.name, source.iri, lambda: data)


def test_replacing_a_document_marks_exactly_the_answers_that_used_it_stale(store: Store) -> None:
    collection = loaded(store)
    traces = [ask(store, collection, n) for n in range(3)] + [ask(store, collection, 0, DocRag)]
    used = {uri: documents_used(get_trace(store, W, collection, uri)) for uri in traces}
    by_document = {s.document_uri: s for s in sources()}
    # a document some answers used and some did not, so the test tells marked from unmarked
    target = next(d for d in sorted(by_document) if 0 < sum(d in u for u in used.values()) < len(traces))
    expected = {uri for uri, docs in used.items() if target in docs}
    assert stale_uris(store, collection) == set()

    report = load_documents(store, OfflineLLM(), W, collection, [edited(by_document[target])])
    assert (report.replaced, report.stale) == (1, len(expected))
    assert stale_uris(store, collection) == expected
    for uri in traces:
        stale = get_trace(store, W, collection, uri)["stale"]
        if uri not in expected:
            assert stale == []
            continue
        assert [(c["change"], c["document"]) for c in stale] == [("replaced", target)]
        selections = {x["selection"] for x in (*stale[0]["edges"], *stale[0]["chunks"])}
        assert selections and stale[0]["label"].endswith(" replaced")


def test_loading_an_unchanged_document_again_marks_nothing(store: Store) -> None:
    collection = loaded(store)
    ask(store, collection, 0)
    report = load_documents(store, OfflineLLM(), W, collection, sources())
    assert (report.unchanged, report.stale) == (4, 0)
    assert stale_uris(store, collection) == set()


def test_removing_a_document_keeps_the_trace_whole_and_says_which_evidence_is_gone(store: Store) -> None:
    collection = loaded(store)
    uri = ask(store, collection, 0)
    before = get_trace(store, W, collection, uri)
    document = sorted(documents_used(before))[0]
    change = remove_document(store, W, collection, document)
    assert change.found and change.stale_traces == 1 and change.retracted > 0
    after = get_trace(store, W, collection, uri)
    assert [s["uri"] for s in after["steps"]] == [s["uri"] for s in before["steps"]]
    assert [e["selection"] for s in after["steps"] for e in s.get("edges", [])] == [
        e["selection"] for s in before["steps"] for e in s.get("edges", [])
    ]
    [stale] = after["stale"]
    assert (stale["change"], stale["document"]) == ("removed", document)
    assert stale["edges"] and any(not e["asserted"] for e in stale["edges"])
    assert not remove_document(store, W, collection, document).found  # removed once, not twice


def test_replacing_then_removing_records_both_changes_oldest_first(store: Store) -> None:
    collection = loaded(store)
    uri = ask(store, collection, 0)
    document = sorted(documents_used(get_trace(store, W, collection, uri)))[0]
    source = next(s for s in sources() if s.document_uri == document)
    load_documents(store, OfflineLLM(), W, collection, [edited(source)])
    remove_document(store, W, collection, document)
    changes = get_trace(store, W, collection, uri)["stale"]
    assert [c["change"] for c in changes] == ["replaced", "removed"]
    listed = next(t for t in list_traces(store, W, collection, stale=True).traces if t["uri"] == uri)
    assert listed["stale_at"] == changes[-1]["at"]


def test_a_stale_trace_exports_prov_invalidation_in_the_prov_profile_only(store: Store) -> None:
    collection = loaded(store)
    uri = ask(store, collection, 0)
    document = sorted(documents_used(get_trace(store, W, collection, uri)))[0]
    remove_document(store, W, collection, document)
    trace = get_trace(store, W, collection, uri)
    invalidated = {x["selection"] for c in trace["stale"] for x in (*c["edges"], *c["chunks"])}
    answer = next(s["uri"] for s in trace["steps"] if s["type"] == "Synthesis")

    prov = export_quads(store, W, collection, uri, "prov")
    links = {(str(q.s), str(q.o)) for q in prov if q.p == PROV.wasInvalidatedBy}
    change = trace["stale"][0]["uri"]
    assert {s for s, o in links if o == change} == invalidated | {answer}
    assert any(str(q.s) == change and q.p == TGNEO.change and str(q.o) == "removed" for q in prov)
    conforms, _, report = validate(graph_of(prov))
    assert conforms, report

    plain = export_quads(store, W, collection, uri, "trustgraph")
    assert not any(q.p == PROV.wasInvalidatedBy or str(q.s) == change for q in plain)


def test_the_document_change_shape_refuses_a_change_without_a_kind(store: Store) -> None:
    collection = loaded(store)
    uri = ask(store, collection, 0)
    remove_document(store, W, collection, sorted(documents_used(get_trace(store, W, collection, uri)))[0])
    prov = [q for q in export_quads(store, W, collection, uri, "prov") if q.p != TGNEO.change]
    conforms, _, report = validate(graph_of(prov))
    assert not conforms and "tgneo:DocumentChange has exactly one tgneo:change" in report


def test_pruning_a_stale_trace_deletes_its_change_records(store: Store) -> None:
    collection = loaded(store)
    uri = ask(store, collection, 0)
    remove_document(store, W, collection, sorted(documents_used(get_trace(store, W, collection, uri)))[0])
    changes = "MATCH (c:DocumentChange {workspace: $w, collection: $c}) RETURN count(c) AS n"
    assert query(store, changes, w=W, c=collection)[0]["n"] == 1
    assert prune(store, W, collection, Policy(max_traces=0), who="test").traces == 1
    assert query(store, changes, w=W, c=collection)[0]["n"] == 0


def test_the_cli_removes_a_file_by_its_path_and_lists_and_shows_the_stale_answer(
    neo4j_server: Neo4jServer, store: Store, tmp_path: Path
) -> None:
    collection = f"test-stale-cli-{uuid.uuid4().hex[:8]}"
    scope = ("--workspace", W, "--collection", collection)
    folder = tmp_path / "docs"
    folder.mkdir()
    for source in sources():
        (folder / source.name).write_bytes(source.read())
    tgneo(neo4j_server, "load", "documents", str(folder), *scope)
    uri = ask(store, collection, 0)
    used = documents_used(get_trace(store, W, collection, uri))
    path = next(p for p in sorted(folder.iterdir()) if Source.from_path(p).document_uri in used)

    removed = tgneo(neo4j_server, "load", "remove", str(path), *scope)
    assert Source.from_path(path).document_uri in removed.stdout
    assert "1 answer(s) marked stale" in removed.stderr and "traces list --stale" in removed.stderr

    listed = json.loads(tgneo(neo4j_server, "traces", "list", "--stale", "--json", *scope).stdout)
    assert [t["uri"] for t in listed["traces"]] == [uri] and listed["traces"][0]["stale_at"]
    table = tgneo(neo4j_server, "traces", "list", *scope).stdout
    assert "stale" in table
    shown = tgneo(neo4j_server, "trace", "show", uri, *scope).stdout
    assert "STALE since" in shown and "removed" in shown and "(source removed)" in shown

    again = tgneo(neo4j_server, "load", "remove", str(path), *scope, ok=False)
    assert again.returncode == 1 and "no document" in again.stderr


def test_the_api_lists_stale_traces_and_returns_why_within_the_tokens_workspace(served: Served, store: Store) -> None:
    b = served.b
    collection = loaded(store, b.workspace)
    asked = [ask(store, collection, n, workspace=b.workspace) for n in range(3)]
    used = {uri: documents_used(get_trace(store, b.workspace, collection, uri)) for uri in asked}
    document = next(d for d in sorted(set().union(*used.values())) if sum(d in u for u in used.values()) < 3)
    expected = {uri for uri in asked if document in used[uri]}
    uri, fresh = sorted(expected)[0], next(u for u in asked if u not in expected)
    remove_document(store, b.workspace, collection, document)

    def get(path: str, **params: str) -> requests.Response:
        return requests.get(f"{served.base}{path}", params={"collection": collection, **params},
                            headers=b.headers, timeout=60)  # fmt: skip

    listed = get("/api/v1/traces", stale="true").json()["traces"]
    assert {t["uri"] for t in listed} == expected
    every = {t["uri"]: t["stale_at"] for t in get("/api/v1/traces").json()["traces"]}
    assert every[fresh] is None and every[uri] == next(t["stale_at"] for t in listed if t["uri"] == uri)
    trace = get(f"/api/v1/traces/{requests.utils.quote(uri, safe='')}").json()
    assert [c["document"] for c in trace["stale"]] == [document]
    assert get("/api/v1/traces", stale="perhaps").status_code == 400
    other = requests.get(f"{served.base}/api/v1/traces", params={"collection": collection, "stale": "true"},
                         headers=served.a.headers, timeout=60)  # fmt: skip
    assert other.status_code == 200 and other.json()["traces"] == []


RETRACTED = """
MATCH (st:TgStatement {workspace: $w, collection: $c})
WHERE size(coalesce(st.asserted_in, [])) = 0 AND NOT EXISTS { (st)<-[:CONTAINS]-() }
RETURN st.id AS id, EXISTS { (st)<--() } AS referenced ORDER BY id
"""
ASSERTED = """
CALL () {
  MATCH (:TgResource {workspace: $w, collection: $c})-[r]->() WHERE r.iri IS NOT NULL RETURN count(r) AS facts
}
CALL () {
  MATCH (n:TgResource {workspace: $w, collection: $c})
  RETURN sum(size([k IN keys(n) WHERE NOT k STARTS WITH '_' AND NOT k IN $reserved])) AS values
}
RETURN facts + values AS n
"""


def test_pruning_the_last_trace_that_quoted_removed_evidence_deletes_that_evidence_and_nothing_else(
    store: Store,
) -> None:
    workspace = f"test-ws-residue-{uuid.uuid4().hex[:8]}"
    collection = loaded(store, workspace)
    first, second = ask(store, collection, 0, workspace=workspace), ask(store, collection, 0, workspace=workspace)
    document = sorted(documents_used(get_trace(store, workspace, collection, first)))[0]
    assert remove_document(store, workspace, collection, document).retracted > 0
    kept = query(store, RETRACTED, w=workspace, c=collection)
    assert kept and all(r["referenced"] for r in kept)  # retracted, but quoted by the two traces
    asserted = query(store, ASSERTED, w=workspace, c=collection, reserved=STRUCTURE_KEYS)[0]["n"]

    # the older trace goes; the newer one still quotes the same edges, so they stay
    assert prune(store, workspace, collection, Policy(max_traces=1), who="test").traces == 1
    assert query(store, RETRACTED, w=workspace, c=collection) == kept
    assert residue(store, workspace) == [] and half_written(store, workspace) == []
    assert get_trace(store, workspace, collection, second)["stale"]

    report = prune(store, workspace, collection, Policy(max_traces=0), who="test")
    assert report.traces == 1 and report.swept >= len(kept)
    assert query(store, RETRACTED, w=workspace, c=collection) == []
    assert residue(store, workspace) == [] and half_written(store, workspace) == []
    kg = query(store, ASSERTED, w=workspace, c=collection, reserved=STRUCTURE_KEYS)[0]["n"]
    assert kg == asserted  # the graph itself untouched


def unswept(store: Store) -> tuple[str, str]:
    """A new workspace whose one trace quoted a removed document's edges and was then deleted as tgneo
    did before prunes swept (its slices only), leaving that evidence behind as garbage."""
    workspace = f"test-ws-residue-{uuid.uuid4().hex[:8]}"
    collection = loaded(store, workspace)
    uri = ask(store, collection, 0, workspace=workspace)
    trace = get_trace(store, workspace, collection, uri)
    remove_document(store, workspace, collection, sorted(documents_used(trace))[0])
    scope = {"workspace": workspace, "collection": collection}
    members = [r["uri"] for r in store.read(Q.prune_members, **scope, uri=uri)]
    store.write(Q.prune_slice, **scope, uri=uri, uris=members, final=True)
    return workspace, collection


def test_traces_check_names_the_garbage_an_unswept_prune_left_and_sweep_deletes_it(
    neo4j_server: Neo4jServer, store: Store, tmp_path: Path
) -> None:
    workspace, collection = unswept(store)
    asserted = query(store, ASSERTED, w=workspace, c=collection, reserved=STRUCTURE_KEYS)[0]["n"]
    left = residue(store, workspace)
    assert {r.kind for r in left} == {"statement", "resource"} and {r.collection for r in left} == {collection}

    env = {**neo4j_server.env(), "TGNEO_AUDIT_LOG": str(tmp_path / "audit.jsonl")}
    found = tgneo(None, "traces", "check", "--workspace", workspace, env=env, ok=False)
    assert found.returncode == 1 and f"{len(left)} garbage node(s)" in found.stderr
    assert {line.split()[-1] for line in found.stdout.splitlines() if line.startswith("garbage")} == {
        r.key for r in left
    }
    swept = tgneo(None, "traces", "check", "--workspace", workspace, "--sweep", env=env)
    assert "healthy" in swept.stderr and residue(store, workspace) == []
    assert query(store, RETRACTED, w=workspace, c=collection) == []
    assert query(store, ASSERTED, w=workspace, c=collection, reserved=STRUCTURE_KEYS)[0]["n"] == asserted
    [record] = [json.loads(line) for line in (tmp_path / "audit.jsonl").read_text().splitlines()]
    assert record["action"] == "sweep" and record["swept"] >= len(left) and record["workspace"] == workspace


def test_traces_check_skips_a_collection_whose_import_is_unfinished(store: Store) -> None:
    workspace, collection = unswept(store)
    assert residue(store, workspace)
    journal = "CREATE (:TgImport {workspace: $w, collection: $c, id: 'unfinished', state: 'running'})"
    query(store, journal, w=workspace, c=collection)
    assert residue(store, workspace) == []
    assert sweep_residue(store, workspace, who="test") == 0


def test_the_health_checks_refuse_a_blank_workspace_or_collection_by_name(store: Store) -> None:
    for call, named in (
        (lambda: residue(store, ""), "workspace"),
        (lambda: residue(store, W, " "), "collection"),
        (lambda: half_written(store, ""), "workspace"),
        (lambda: sweep_residue(store, "", who="test"), "workspace"),
    ):
        with pytest.raises(BadRequest, match=f"^{named}: must be a non-empty string"):
            call()


def test_concurrent_sweeps_delete_the_garbage_once_and_count_each_node_once(store: Store) -> None:
    workspace, _ = unswept(store)
    nodes = "MATCH (n {workspace: $w}) RETURN count(n) AS n"
    before = query(store, nodes, w=workspace)[0]["n"]
    assert residue(store, workspace)
    with ThreadPoolExecutor(8) as pool:
        swept = list(pool.map(lambda _: sweep_residue(store, workspace, who="test"), range(8)))
    assert residue(store, workspace) == [] and half_written(store, workspace) == []
    assert sum(swept) == before - query(store, nodes, w=workspace)[0]["n"] > 0
