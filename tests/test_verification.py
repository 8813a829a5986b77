"""The counterfactual check: an answer's dependence on its evidence, told apart, recorded as provenance, shown.

Every test runs the real engines on the sample corpus in the session's Neo4j. The models that ignore their context
are the offline provider wrapped (``tests/context_models.py``): one answering from memory (the same text whatever
it is handed), one adding a sentence of its own to an answer drawn from the evidence.
"""

from __future__ import annotations

import json
import re
import uuid
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from rdflib import Graph

import tgneo
from tests.clirun import tgneo as run_tgneo
from tests.conftest import Neo4jServer
from tests.context_models import INVENTED, Embellishing, Remembering
from tests.installing import installed
from tests.serving import open_serving
from tgneo.engines.verify import SAME, Budget, Item, check
from tgneo.ingest.loader import load_documents
from tgneo.ingest.sample import QUESTIONS, sources
from tgneo.llm.base import Completion
from tgneo.llm.offline import OfflineLLM
from tgneo.rdf.ontology import graph_of, validate
from tgneo.store import Store
from tgneo.store.rdf_export import export_quads
from tgneo.tracetree import NECESSARY

W = "test-verification"
POLONIUM = QUESTIONS[0].text
ENGINES = ("graph-rag", "document-rag", "agent")


@pytest.fixture(scope="module")
def sample(store: Store) -> str:
    collection = f"test-verify-{uuid.uuid4().hex[:8]}"
    assert load_documents(store, OfflineLLM(), W, collection, sources()).loaded == 4
    return collection


@pytest.fixture
def tg(neo4j_server: Neo4jServer, sample: str) -> Iterator[tgneo.Connection]:
    with tgneo.connect(settings=neo4j_server.settings(), workspace=W, collection=sample) as connection:
        yield connection


def connected(neo4j_server: Neo4jServer, sample: str, llm: OfflineLLM) -> tgneo.Connection:
    return tgneo.connect(settings=neo4j_server.settings(), workspace=W, collection=sample, llm=llm)


def edge_of(tg: tgneo.Connection, trace_uri: str, selection: str) -> str:
    """How the Focus of the trace names the selected edge ``selection``: ``(s, p, o)`` in labels."""
    focus = tg.trace(trace_uri).step("Focus")
    assert focus is not None
    for edge in focus.edges:
        if edge["selection"] == selection:
            st = edge["statement"]
            return f"({st['s_label']}, {st['p_label']}, {st['o_label']})"
    raise AssertionError(f"{selection} is not a selected edge of {trace_uri}")


# ------------------------------------------------------------------------------------------ it tells them apart


@pytest.mark.parametrize("engine", ENGINES)
def test_an_answer_quoting_its_evidence_is_supported(tg: tgneo.Connection, engine: str) -> None:
    answer = tg.ask(POLONIUM, engine=engine, verify=True)
    assert answer.verification is not None
    assert answer.verification.verdict == "supported", answer.verification
    assert answer.verification.sufficient and answer.verification.stands_without == ()
    assert answer.verification.model == "tgneo-offline"


@pytest.mark.parametrize("engine", ENGINES)
def test_the_same_answer_from_memory_is_not_supported(
    neo4j_server: Neo4jServer, sample: str, tg: tgneo.Connection, engine: str
) -> None:
    """The remembering model gives the offline provider's own answer, citing the same evidence: citations cannot
    tell them apart, the counterfactuals can."""
    offline = tg.ask(POLONIUM, engine=engine)
    with connected(neo4j_server, sample, Remembering()) as remembering:
        answer = remembering.ask(POLONIUM, engine=engine, verify=True)
    assert answer.text == offline.text
    assert [len(c.evidence) > 0 for c in answer.citations] == [len(c.evidence) > 0 for c in offline.citations]
    assert answer.verification is not None and answer.verification.verdict == "unsupported", answer.verification
    assert answer.verification.model == "remembering"


def test_a_made_up_sentence_is_named_and_the_answer_is_partly_supported(neo4j_server: Neo4jServer, sample: str) -> None:
    with connected(neo4j_server, sample, Embellishing()) as embellishing:
        answer = embellishing.ask(POLONIUM, engine="graph-rag", verify=True)
    assert answer.text.endswith(INVENTED)
    checked = answer.verification
    assert checked is not None and checked.verdict == "partly", checked
    invented = [c.index for c in answer.citations if c.sentence == INVENTED]
    assert list(checked.stands_without) == invented, "only the made-up sentence stands without evidence"


def test_the_edge_the_answer_quotes_is_necessary_and_an_unused_one_is_not(tg: tgneo.Connection) -> None:
    answer = tg.ask(POLONIUM, engine="graph-rag", verify=16)  # a budget that reaches the uncited selections too
    assert answer.verification is not None
    named = {edge_of(tg, answer.trace_uri, i.iri): i.necessity for i in answer.verification.items}
    assert named["(Polonium, named after, Poland)"] >= NECESSARY
    assert max(named.values()) == named["(Polonium, named after, Poland)"]
    cited = {e.uri for c in answer.citations for e in c.evidence}
    unused = [i for i in answer.verification.items if i.iri not in cited and i.necessity == 0.0]
    assert unused, f"a selected edge no sentence uses was left out without changing the answer: {named}"


def test_the_budget_bounds_the_reruns_and_the_most_cited_go_first(tg: tgneo.Connection) -> None:
    answer = tg.ask(POLONIUM, engine="graph-rag", verify=3)
    checked = answer.verification
    assert checked is not None and len(checked.items) == 1, "3 re-runs: without, only, and one leave-one-out"
    trace = tg.trace(answer.trace_uri)
    (verification,) = trace.verifications
    assert verification.properties["calls"] == 3
    cited_texts = {e.text for c in answer.citations for e in c.evidence}
    focus = trace.step("Focus")
    assert focus is not None
    evidence = {e["selection"]: e["statement"]["sources"][0]["evidence"] for e in focus.edges}
    assert evidence[checked.items[0].iri] in cited_texts, "the one leave-one-out the budget allows is of a cited item"


# -------------------------------------------------------------------------------------- the judge, on its own


def test_the_judge_says_a_rerun_that_rephrases_nothing_preserved_the_answer() -> None:
    items = [Item("urn:x:a", {}, "Polonium was named after Poland."), Item("urn:x:b", {}, "Radium glows.")]

    def answer(given: Any) -> Completion:
        return Completion(" ".join(i.text for i in given), 1, 1, "echo", 0)

    checked = check("Polonium was named after Poland.", items, [["urn:x:a"]], answer, None, Budget(4))
    assert checked.verdict == "supported" and checked.necessity == {"urn:x:a": 1.0, "urn:x:b": 0.0}
    assert checked.sufficiency == 1.0 and 0 < SAME <= 1


# ------------------------------------------------------------------------------------------ recorded as PROV


def test_the_check_is_a_step_derived_from_the_answer_with_its_counterfactuals(tg: tgneo.Connection) -> None:
    answer = tg.ask(POLONIUM, engine="graph-rag", verify=True)
    trace = tg.trace(answer.trace_uri)
    (verification,) = trace.verifications
    synthesis = trace.step("Synthesis")
    assert synthesis is not None and verification.parents == (synthesis.uri,)
    assert verification.properties["verdict"] == "supported" and verification.properties["llmModel"]
    assert "generatedAtTime" in verification.properties
    counterfactuals = [s for s in trace.steps if s.type == "Counterfactual"]
    assert len(counterfactuals) == verification.properties["calls"]
    spent = sum(cf.properties["inToken"] for cf in counterfactuals)
    assert spent > 0 and "inToken" not in verification.properties, "the check's cost is its re-runs', counted once"
    assert trace.totals.in_tokens == answer.in_tokens, "the trace's totals are what the question spent, check included"
    focus = trace.step("Focus")
    assert focus is not None
    selected = {e["selection"] for e in focus.edges}
    for cf in counterfactuals:
        assert cf.parents == (verification.uri,)
        ablated = {str(u) for u in cf_ablated(trace, cf.uri)}
        assert ablated and ablated <= selected, (ablated, selected)
        assert cf.documents and cf.documents[0]["text"] is not None, "each re-run's answer is in the librarian"
    assert trace.to_dict()["verification"]["uri"] == verification.uri
    assert answer.verification is not None and answer.verification.uri == verification.uri


def cf_ablated(trace: tgneo.Trace, uri: str) -> list[str]:
    """The selections a counterfactual step left out (or kept alone), as the trace reader gives them."""
    step = next(s for s in trace.to_dict()["steps"] if s["uri"] == uri)
    return list(step.get("ablated", []))


def test_the_counterfactuals_point_at_the_selection_nodes_of_the_trace(store: Store, tg: tgneo.Connection) -> None:
    answer = tg.ask(POLONIUM, engine="document-rag", verify=True)
    rows = store.driver.execute_query(
        "MATCH (v:Verification)-[:COUNTERFACTUAL]->(cf:Counterfactual)-[:ABLATED]->(x) "
        "WHERE v.workspace = $w AND v.collection = $c AND v.uri STARTS WITH $answer "
        "RETURN DISTINCT labels(x) AS labels, [(f:Focus)-[:SELECTED_CHUNK]->(x) | f.uri] AS focus",
        w=W, c=tg.collection, answer=answer.trace_uri,
    ).records  # fmt: skip
    assert rows and all("ChunkSelection" in r["labels"] and r["focus"] for r in rows)


def test_the_prov_export_of_a_verified_trace_passes_the_shapes_and_reads_in_rdflib_and_prov(
    store: Store, tg: tgneo.Connection
) -> None:
    import prov.model
    import pyoxigraph

    answer = tg.ask(POLONIUM, engine="graph-rag", verify=True)
    quads = export_quads(store, W, tg.collection, answer.trace_uri, "prov")
    conforms, _, report = validate(graph_of(quads))
    assert conforms, report
    turtle = tg.export(answer.trace_uri, format="turtle", profile="prov")
    graph = Graph().parse(data=turtle, format="turtle")
    assert any("Verification" in str(o) for _, _, o in graph)
    assert len(list(pyoxigraph.parse(turtle.encode(), pyoxigraph.RdfFormat.TURTLE))) == len(graph)
    trig = tg.export(answer.trace_uri, format="trig", profile="prov")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # rdflib's own, raised inside the prov package
        document = prov.model.ProvDocument.deserialize(content=trig, format="rdf", rdf_format="trig")
    records = [r for b in [document, *document.bundles] for r in b.get_records()]
    assert answer.verification is not None
    found = {getattr(r.identifier, "uri", None) for r in records}
    assert answer.verification.uri in found, "the prov package reads the Verification entity"
    trustgraph = tg.export(answer.trace_uri, format="turtle", profile="trustgraph")
    assert "Verification" not in trustgraph and "Counterfactual" not in trustgraph


# -------------------------------------------------------------------------------------------- after the fact


def test_trace_verify_checks_a_stored_answer_and_trace_show_prints_the_latest_verdict(
    neo4j_server: Neo4jServer, tg: tgneo.Connection
) -> None:
    answer = tg.ask(POLONIUM, engine="graph-rag")
    env = {**neo4j_server.env(), "TGNEO_WORKSPACE": W}
    checked = run_tgneo(None, "trace", "verify", answer.trace_uri, env=env)
    assert "Verification: supported by its evidence" in checked.stderr
    assert re.search(r"necessary 0\.\d\d  \S+", checked.stderr)
    as_json = json.loads(run_tgneo(None, "trace", "verify", answer.trace_uri, "--json", env=env).stdout)
    assert as_json["verification"]["verdict"] == "supported"
    assert {"verdict", "sufficient", "model", "items"} <= set(as_json["verification"])
    assert len(tg.trace(answer.trace_uri).verifications) == 2, "a check adds a Verification; the first stays"
    shown = run_tgneo(None, "trace", "show", answer.trace_uri, env=env)
    assert "VERIFIED: supported by its evidence" in shown.stdout and "necessary" in shown.stdout


def test_a_stored_answer_is_checked_by_the_configured_model_which_the_check_names(
    neo4j_server: Neo4jServer, sample: str, tg: tgneo.Connection
) -> None:
    """An offline answer re-run after the fact by another provider: the check runs on that provider and says so."""
    answer = tg.ask(POLONIUM, engine="document-rag")
    with connected(neo4j_server, sample, Embellishing()) as other:
        found = other.verify(answer.trace_uri)
    assert found.model == "embellishing"
    assert found.verdict == "supported", "its re-runs drop what the answer drew from the evidence left out"


def test_the_http_api_checks_a_stored_answer(
    neo4j_server: Neo4jServer, store: Store, tg: tgneo.Connection, sample: str
) -> None:
    answer = tg.ask(POLONIUM, engine="document-rag")
    with open_serving(neo4j_server.env(), store, f"{W}-http-unused") as base:
        url = f"{base}/api/v1/traces/{requests.utils.quote(answer.trace_uri, safe='')}/verify"
        found = requests.post(url, json={"workspace": W, "collection": sample, "budget": 4}, timeout=120)
        assert found.status_code == 200, found.text
        body = found.json()
        assert body["verification"]["verdict"] == "supported"
        assert all(0.0 <= i["necessity"] <= 1.0 for i in body["verification"]["items"])
        assert body["explain_id"] == body["verification"]["uri"]
        bad = requests.post(url, json={"workspace": W, "collection": sample, "budget": 1}, timeout=60)
        assert bad.status_code == 400 and "budget" in bad.json()["error"]["message"]
        missing = requests.post(url.replace("question%3A", "question%3A0"), json={"workspace": W}, timeout=60)
        assert missing.status_code == 404


def test_a_budget_below_two_is_refused_before_anything_is_asked(tg: tgneo.Connection) -> None:
    with pytest.raises(tgneo.BadRequest, match="verify: true, false or the most re-runs"):
        tg.ask(POLONIUM, verify=1)


# ------------------------------------------------------------------------------------------- from the CLI


def test_ask_verify_on_the_demo_question_prints_supported_and_marks_the_polonium_edge_necessary(
    neo4j_server: Neo4jServer, sample: str
) -> None:
    env = {**neo4j_server.env(), "TGNEO_WORKSPACE": W, "TGNEO_COLLECTION": sample}
    result = run_tgneo(None, "ask", "-x", "--verify", POLONIUM, env=env)
    assert "Verification: supported by its evidence" in result.stderr
    (line,) = [x for x in result.stderr.splitlines() if "(Polonium, named after, Poland)" in x and "necessary" in x]
    assert line.strip().startswith("necessary "), line
    assert "[Verification]" in result.stderr, "the check streams as an explain event after the answer"
    assert result.stderr.index("[Synthesis]") < result.stderr.index("[Verification]")


def test_ask_verify_with_a_model_answering_from_memory_prints_not_supported(
    neo4j_server: Neo4jServer, sample: str, tmp_path: Path
) -> None:
    site = installed(tmp_path / "site", "tgneo-context-models", {"tgneo.providers": {
        "remembering": "tests.context_models:remembering", "embellishing": "tests.context_models:embellishing",
    }})  # fmt: skip
    root = Path(__file__).resolve().parent.parent
    env = {**neo4j_server.env(), "TGNEO_WORKSPACE": W, "TGNEO_COLLECTION": sample, "TGNEO_LLM": "remembering",
           "PYTHONPATH": f"{site}:{root}"}  # fmt: skip
    result = run_tgneo(None, "ask", "-x", "--verify", POLONIUM, env=env)
    assert "Verification: not supported by its evidence" in result.stderr
    assert "judged by re-running remembering" in result.stderr
