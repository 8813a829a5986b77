"""Neo4j Browser as a trace explorer: the style sheet covers every label with real properties, the
guide loads from tgneo's server as Browser fetches it (CORS), and every runnable block in it runs
against Neo4j, its ``:param`` lines evaluated as Browser evaluates them, returning rows for a
recorded trace; the provisioned ``neo4j.conf`` lets Browser fetch from tgneo; ``tgneo browser``."""

from __future__ import annotations

import html
import os
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import requests

from tests.clirun import tgneo
from tests.conftest import Neo4jServer
from tests.ingesting import query
from tests.neo4j_browser import parse_grass
from tests.serving import Served
from tgneo.browser.style import NODE_STYLES, REL_COLORS, grass
from tgneo.engines import GraphRag, Request
from tgneo.engines.verify import DEFAULT_BUDGET
from tgneo.explain.events import ExplainEvent
from tgneo.ingest.sample import QUESTIONS
from tgneo.llm.offline import OfflineLLM
from tgneo.mapping import PROP_BY_NAME
from tgneo.provision import LocalNeo4j
from tgneo.store import Store
from tgneo.store.named import run_named
from tgneo.tracetree import NECESSARY
from tgneo.vocab import Rel

ISSUE_LABELS = (
    "Question Grounding Exploration Focus EdgeSelection Synthesis Analysis Thought Observation Error Conclusion "
    "Plan StepResult Decomposition Finding TgStatement TgSubgraph TgChunk TgPage TgDocument TgResource "
    "Verification Counterfactual"
).split()
STRUCTURAL_PROPS = {"uri", "name", "text", "s", "p", "o"}
"""Properties the graph model itself stores beside the mapped ones (docs/graph-model.md)."""
ORIGIN = "http://127.0.0.1:7474"
OPTIONAL_CAPTION_PROPS = {("node.Counterfactual", "necessity")}
"""Caption properties only some nodes of a label have (a re-run's necessity: a leave-one-out's only); Browser shows
nothing for a property a node lacks."""


@pytest.fixture(scope="module")
def recorded(served: Served, store: Store) -> dict[str, str]:
    """A verified GraphRAG trace in tenant a's collection (which holds the sample corpus), and one of its documents."""
    a = served.a
    asked = Request(QUESTIONS[0].text, a.workspace, a.collection, {}, verify=DEFAULT_BUDGET)
    events = list(GraphRag(store, OfflineLLM()).answer(asked))
    trace = next(e for e in events if isinstance(e, ExplainEvent)).explain_id
    rows = run_named(store, "answer_documents", a.workspace, a.collection, {"uri": trace}).rows
    return {"workspace": a.workspace, "collection": a.collection, "trace": trace, "document": rows[0]["document"]}


def caption_props(caption: str) -> list[str]:
    return re.findall(r"\{([^{}]*)\}", caption)


def test_the_style_sheet_has_a_rule_for_every_explainability_label() -> None:
    sheet = grass()
    for label in ISSUE_LABELS:
        assert re.search(rf"^node\.{label} \{{", sheet, re.M), label


def test_browsers_grass_parser_reads_every_rule_of_the_sheet() -> None:
    """Browser's parser knows no comments: anything outside braces would join the next selector."""
    rules = parse_grass(grass())
    assert list(rules) == ["node", "relationship", *(s.selector for s in NODE_STYLES),
                           *(f"relationship.{r}" for r in REL_COLORS)]  # fmt: skip
    assert rules["node.Exploration"]["caption"] == "{edgeCount} edges explored"


def test_every_caption_names_a_stored_property() -> None:
    for style in NODE_STYLES:
        for prop in caption_props(style.caption):
            assert prop in PROP_BY_NAME or prop in STRUCTURAL_PROPS, (style.selector, prop)
        assert ":" not in style.caption and ";" not in style.caption  # Browser splits declarations on them


def test_the_caption_browser_picks_for_each_node_of_a_trace_has_its_values(
    recorded: dict[str, str], store: Store
) -> None:
    """Browser applies the last rule whose labels a node has; that rule's caption properties are on the node."""
    nodes = query(store, """
        MATCH (:TgResource {workspace: $w, collection: $c, uri: $t})<-[:WAS_DERIVED_FROM]-*(s:TgExplain)
        CALL (s) {
          RETURN s AS n
          UNION
          MATCH p = (s)-[:SELECTED_EDGE]->()-[:EDGE]->()<-[:CONTAINS]-()-[:WAS_DERIVED_FROM]->{1,8}(:TgDocument)
          UNWIND nodes(p) AS n RETURN n
          UNION
          MATCH (s)-[:SELECTED_EDGE]->()-[:EDGE]->()-[:SUBJECT|OBJECT]->(n) RETURN n
        }
        RETURN DISTINCT labels(n) AS labels, properties(n) AS props
    """, w=recorded["workspace"], c=recorded["collection"], t=recorded["trace"])  # fmt: skip
    seen: set[str] = set()
    for node in nodes:
        rule = [s for s in NODE_STYLES if set(s.labels) <= set(node["labels"])][-1]
        seen.add(rule.selector)
        for prop in caption_props(rule.caption):
            if (rule.selector, prop) not in OPTIONAL_CAPTION_PROPS:
                assert node["props"].get(prop) not in (None, ""), (rule.selector, prop, node["labels"])
    assert {"node.TgStatement", "node.TgDocument", "node.TgChunk", "node.TgSubgraph", "node.TgResource"} <= seen
    assert {"node.Verification", "node.Counterfactual"} <= seen


def test_the_style_sheet_is_served_to_another_origin(served: Served) -> None:
    response = requests.get(f"{served.base}/browser/style.grass", headers={"Origin": ORIGIN}, timeout=10)
    assert response.status_code == 200 and response.headers["Access-Control-Allow-Origin"] == "*"
    assert response.text == grass()


def test_browser_preflight_for_the_guide_is_allowed(served: Served) -> None:
    """Browser sends Pragma and Cache-Control with a guide request, so Chromium asks first."""
    preflight = {"Origin": ORIGIN, "Access-Control-Request-Method": "GET",
                 "Access-Control-Request-Headers": "pragma,cache-control"}  # fmt: skip
    response = requests.options(f"{served.base}/browser/guide.html", timeout=10, headers=preflight)
    allowed = {h.strip().lower() for h in response.headers["Access-Control-Allow-Headers"].split(",")}
    assert response.status_code == 200 and {"pragma", "cache-control"} <= allowed
    assert response.headers["Access-Control-Allow-Origin"] == "*"


def test_the_guide_loads_without_a_token_with_slides_and_runnable_blocks(served: Served) -> None:
    response = requests.get(f"{served.base}/browser/guide.html", headers={"Origin": ORIGIN}, timeout=10)
    assert response.status_code == 200 and response.headers["Content-Type"].startswith("text/html")
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    assert response.text.count("<slide") == 10
    assert f":style {served.base}/browser/style.grass" in response.text


def runnable_blocks(page: str) -> list[str]:
    return [html.unescape(b) for b in re.findall(r'<pre class="[^"]*\brunnable\b[^"]*">(.*?)</pre>', page, re.S)]


def query_slides(page: str) -> list[tuple[str, str]]:
    """Each query slide's two blocks: its ``:param`` lines, then the query (after the ``:style`` block)."""
    blocks = runnable_blocks(page)
    assert blocks[0].startswith(":style ") and len(blocks) == 19
    pairs = list(zip(blocks[1::2], blocks[2::2], strict=True))
    assert all(p.startswith(":param ") and not q.startswith(":") for p, q in pairs)
    return pairs


def run_block(store: Store, slide: tuple[str, str]) -> list[dict[str, Any]]:
    """Run a slide as Neo4j Browser does: each ``:param name => expr`` is ``RETURN expr AS name``, then the query."""
    param_block, cypher = slide
    params: dict[str, Any] = {}
    for statement in (s.strip() for s in re.split(r";\s*(?:\n|$)", param_block) if s.strip()):
        match = re.fullmatch(r":param (\w+) => (.*)", statement, re.S)
        assert match, statement
        params[match.group(1)] = query(store, f"RETURN {match.group(2)} AS value")[0]["value"]
    return query(store, cypher, **params)


def test_every_query_in_the_guide_runs_with_its_params_and_finds_the_recorded_trace(
    served: Served, store: Store, recorded: dict[str, str]
) -> None:
    params = {k: recorded[k] for k in ("workspace", "collection", "trace", "document")}
    page = requests.get(f"{served.base}/browser/guide.html", params=params, timeout=10).text
    slides = query_slides(page)
    rows = [run_block(store, s) for s in slides]
    empty = [i for i, found in enumerate(rows, start=1) if not found]
    assert empty == [6] and "error_observations" in page  # no agent tool failed in this collection
    assert recorded["trace"] in {row["question"] for row in rows[0]}
    # the question, its four steps, the check and its six re-runs
    assert len(rows[1]) == 5 + 1 + 6 and any(row["sources"] for row in rows[1])
    assert recorded["document"] in {row["document"] for row in rows[2]}
    (check,) = rows[3]  # the answer's verification, with the selections it could not do without
    assert check["verdict"] == "supported" and check["model"] == "tgneo-offline"
    necessity = {n["selection"]: n["necessity"] for n in check["necessity"]}
    # each path: verification -COUNTERFACTUAL-> re-run -ABLATED-> selection -EDGE-> the fact it brought
    necessary = {path[4]["uri"] for path in check["necessary"]}
    assert necessary == {s for s, value in necessity.items() if value >= NECESSARY} != set()
    assert all(path[1::2] == ["COUNTERFACTUAL", "ABLATED", "EDGE"] and path[6]["s"] for path in check["necessary"])
    assert recorded["trace"] in {row["question"] for row in rows[4]}
    assert rows[6] and rows[7]
    assert rows[8] and not {row["fact"][1] for row in rows[8]} & {r.value for r in Rel}  # facts: typed relationships


def test_the_guide_quotes_parameters_it_is_given(served: Served, store: Store) -> None:
    page = requests.get(f"{served.base}/browser/guide.html", params={"collection": "it's \\ odd"}, timeout=10).text
    param_block = query_slides(page)[0][0]
    literal = param_block.splitlines()[1].split(" => ")[1].rstrip(";")
    assert query(store, f"RETURN {literal} AS c")[0]["c"] == "it's \\ odd"


def test_the_provisioned_conf_lets_browser_fetch_from_tgneo(tmp_path: Path) -> None:
    conf = LocalNeo4j(tmp_path, "conf-check").neo4j_conf()
    line = next(x for x in conf.splitlines() if x.startswith("browser.remote_content_hostname_whitelist="))
    assert {"127.0.0.1", "localhost"} <= set(line.split("=", 1)[1].split(","))


def test_tgneo_browser_prints_the_browser_url_and_exactly_what_to_type(
    neo4j_server: Neo4jServer, recorded: dict[str, str]
) -> None:
    result = tgneo(neo4j_server, "browser", "--neo4j-browser", "http://127.0.0.1:7474/browser/",
                   "--url", "http://127.0.0.1:8888", "--workspace", recorded["workspace"],
                   "--collection", recorded["collection"], "--instance", "no-such-instance")  # fmt: skip
    browser_url, style, play = result.stdout.splitlines()
    assert browser_url == "http://127.0.0.1:7474/browser/"
    assert style == ":style http://127.0.0.1:8888/browser/style.grass"
    assert play.startswith(":play http://127.0.0.1:8888/browser/guide.html?workspace=")
    assert requests.utils.quote(recorded["trace"], safe="") in play  # the newest trace, found in Neo4j
    assert "tgneo serve" in result.stderr  # nothing answers on 8888 in the tests


def test_tgneo_browser_prints_the_browser_of_the_local_instance_neo4j_uri_reaches(
    neo4j_server: Neo4jServer, recorded: dict[str, str]
) -> None:
    # --instance names no server: the Browser port must come from the instance NEO4J_URI reaches
    result = tgneo(neo4j_server, "browser", "--url", "http://127.0.0.1:8888", "--workspace", recorded["workspace"],
                   "--collection", recorded["collection"], "--instance", "no-such-instance")  # fmt: skip
    printed = result.stdout.splitlines()[0]
    fallback = f"http://{urlsplit(neo4j_server.uri).hostname}:7474/browser/"
    # tgneo's own instance (ports picked at random), or one NEO4J_URI reaches that the fixture found too
    found_locally = neo4j_server.origin == "local" or (
        neo4j_server.origin == "env" and neo4j_server.http_url is not None and not os.environ.get("NEO4J_BROWSER_URL")
    )
    if found_locally:
        assert printed == neo4j_server.browser_url and printed != fallback
    elif neo4j_server.origin == "testcontainers" or neo4j_server.http_url is None:
        assert printed == fallback  # no local instance stands behind it: Browser's default port
    else:  # NEO4J_BROWSER_URL given to the tests: tgneo finds the instance itself, or falls back
        assert printed in (neo4j_server.browser_url, fallback)
    assert requests.utils.quote(recorded["trace"], safe="") in result.stdout  # and it read that server


def test_tgneo_browser_says_when_it_cannot_read_neo4j_and_still_prints_the_lines(tmp_path: Path) -> None:
    from tgneo.provision.server import free_port

    env = {**os.environ, "NEO4J_URI": f"bolt://127.0.0.1:{free_port()}", "NEO4J_PASSWORD": "x",
           "TGNEO_HOME": str(tmp_path)}  # fmt: skip
    result = tgneo(None, "browser", "--url", "http://127.0.0.1:8888", env=env)
    assert len(result.stdout.splitlines()) == 3 and result.stdout.splitlines()[1].startswith(":style ")
    assert "could not read the newest trace" in result.stderr and "unreachable" in result.stderr
    assert "no trace in" not in result.stderr  # not mistaken for an empty collection
