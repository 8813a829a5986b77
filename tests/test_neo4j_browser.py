"""tgneo's style sheet and guide inside the real Neo4j Browser — the jar the test server serves at
``/browser/`` — driven in headless Chromium (Debian's, via Playwright) exactly as a person would:
log in, type the ``:style`` and ``:play`` lines ``tgneo browser`` prints, click the guide's blocks.

The HTTP-level tests (``test_browser_assets.py``) prove the assets are served; these prove Browser
accepts them: the guide's slides show, the sheet Browser then uses is the one served (its GraSS
parser is stricter than CSS), and the trace graph is drawn with tgneo's colours and captions. They
need the server's HTTP port: the session fixture knows it (see ``tests/conftest.py``) and a test
fails, never skips, when it does not or when Browser or tgneo does not answer. Screenshots go to
``test-artifacts/``.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
import requests
from playwright.sync_api import Browser, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browsing import chromium, screenshot_path
from tests.clirun import tgneo
from tests.conftest import Neo4jServer
from tests.ingesting import query
from tests.neo4j_browser import DrawnNode, Neo4jBrowser, parse_grass, slide_counter
from tests.serving import open_serving
from tgneo.browser.guide import QUERY_SLIDES
from tgneo.browser.style import NODE_STYLES, REL_COLORS, grass
from tgneo.engines import GraphRag, Request
from tgneo.engines.verify import DEFAULT_BUDGET
from tgneo.explain.events import ExplainEvent
from tgneo.ingest.loader import load_documents
from tgneo.ingest.sample import QUESTIONS, sources
from tgneo.llm.offline import OfflineLLM
from tgneo.store import Store
from tgneo.vocab import Label, Rel

WORKSPACE = f"test-ws-nb-{uuid.uuid4().hex[:8]}"
COLLECTION = f"test-nb-{uuid.uuid4().hex[:8]}"


@dataclass(frozen=True)
class Setup:
    """Browser's URL, tgneo's, the recorded trace, and the two lines ``tgneo browser`` printed for it."""

    browser_url: str
    tgneo_url: str
    trace: str
    style: str
    play: str


@pytest.fixture(scope="module")
def setup(neo4j_server: Neo4jServer, store: Store) -> Iterator[Setup]:
    """The sample corpus and one verified GraphRAG trace in a fresh collection, ``tgneo serve`` (no tokens), and
    ``tgneo browser``'s lines for them; fails when the server's Browser URL is unknown or does not answer."""
    browser_url = neo4j_server.browser_url
    if browser_url is None:
        pytest.fail(
            f"no Neo4j Browser URL for the {neo4j_server.origin} server {neo4j_server.uri}: "
            "set NEO4J_BROWSER_URL (e.g. http://127.0.0.1:7474/browser/)",
            pytrace=False,
        )
    assert requests.get(browser_url, timeout=10).status_code == 200, browser_url
    assert load_documents(store, OfflineLLM(), WORKSPACE, COLLECTION, sources()).loaded == 4
    asked = Request(QUESTIONS[0].text, WORKSPACE, COLLECTION, {}, verify=DEFAULT_BUDGET)
    events = GraphRag(store, OfflineLLM()).answer(asked)
    trace = next(e for e in list(events) if isinstance(e, ExplainEvent)).explain_id
    with open_serving(neo4j_server.env(), store, WORKSPACE) as base:
        printed = tgneo(neo4j_server, "browser", "--url", base, "--neo4j-browser", browser_url,
                        "--workspace", WORKSPACE, "--collection", COLLECTION).stdout.splitlines()  # fmt: skip
        assert printed[0] == browser_url and trace.split(":")[-1] in printed[2], printed
        yield Setup(browser_url, base, trace, printed[1], printed[2])


@pytest.fixture(scope="module")
def chrome() -> Iterator[Browser]:
    with chromium() as b:
        yield b


@pytest.fixture
def nb(chrome: Browser, neo4j_server: Neo4jServer, setup: Setup) -> Iterator[Neo4jBrowser]:
    """A fresh tab (so no style or params from another test) logged in to the session's Neo4j."""
    context = chrome.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    browser = Neo4jBrowser(page)
    browser.connect(setup.browser_url, neo4j_server.uri, neo4j_server.username, neo4j_server.password)
    yield browser
    context.close()


def palette() -> set[str]:
    return {s.color.upper() for s in NODE_STYLES}


def test_the_guide_played_from_tgneo_shows_its_slides(nb: Neo4jBrowser, setup: Setup) -> None:
    frame = nb.play(setup.play)
    guide = nb.guide()
    try:
        guide.get_by_role("heading", name="Explainability traces in Neo4j").wait_for()
    except PlaywrightTimeout:
        pytest.fail(f"{setup.play} showed no guide; its frame reads: {frame.inner_text()[:800]!r}")
    assert slide_counter(guide) == (1, 1 + len(QUERY_SLIDES))
    assert guide.locator("pre.runnable:visible").inner_text().strip() == setup.style  # the same line to type
    nb.page.screenshot(path=screenshot_path("neo4j-browser-guide"))
    for number, slide in enumerate(QUERY_SLIDES, start=2):
        guide.get_by_test_id("nextSlide").click()
        guide.get_by_role("heading", name=slide.title).wait_for()
        assert slide_counter(guide) == (number, 1 + len(QUERY_SLIDES))
        blocks = guide.locator("pre.runnable:visible")
        assert blocks.count() == 2 and blocks.first.inner_text().strip().startswith(":param workspace => ")


def test_the_style_sheet_browser_uses_after_style_is_the_one_served(nb: Neo4jBrowser, setup: Setup) -> None:
    """``:style`` without an argument prints the sheet Browser holds; rule for rule, it is tgneo's."""
    loaded = nb.run(setup.style)
    loaded.get_by_text("node.Question").wait_for()
    shown = nb.run(":style")
    shown.get_by_text("node.Question").wait_for()
    held = parse_grass(shown.get_by_test_id("frameContents").inner_text())
    assert set(held) == {"node", "relationship", *(s.selector for s in NODE_STYLES),
                         *(f"relationship.{r}" for r in REL_COLORS)}  # fmt: skip
    assert held == parse_grass(grass())
    assert held["node.Question"]["caption"] == "{query}" and held["node"]["diameter"] == "50px"


def test_the_guide_draws_the_trace_with_tgneo_colours_and_captions(
    nb: Neo4jBrowser, setup: Setup, store: Store
) -> None:
    nb.run(setup.style).get_by_text("node.Question").wait_for()
    nb.play(setup.play)
    guide = nb.guide()
    guide.get_by_test_id("nextSlide").click()
    guide.get_by_test_id("nextSlide").click()
    guide.get_by_role("heading", name="One trace, as a graph").wait_for()
    params, cypher = guide.locator("pre.runnable:visible").all()
    params.click()  # a click puts the block in the editor, the run button runs it
    done = nb.run_editor().locator("[data-testid=multi-statement-list-icon][title='Status: success']")
    expect(done).to_have_count(3)  # workspace, collection, uri
    cypher.click()
    graph = nb.run_editor()
    nodes = nb.drawn_nodes(graph)
    nb.page.screenshot(path=screenshot_path("neo4j-browser-trace-graph"))
    question = query(store, "MATCH (q:Question {uri: $u}) RETURN q.query AS text", u=setup.trace)[0]["text"]
    titles = [r["t"] for r in query(store, "MATCH (d:TgDocument {workspace: $w, collection: $c}) RETURN d.title AS t",
                                    w=WORKSPACE, c=COLLECTION)]  # fmt: skip

    def coloured(label: Label) -> list[DrawnNode]:
        color = next(s.color for s in NODE_STYLES if s.labels == (label,)).upper()
        return [n for n in nodes if n.fill == color]

    assert {n.fill for n in nodes} <= palette(), {n.fill for n in nodes} - palette()
    assert [n.shows(question) for n in coloured(Label.QUESTION)] == [True]
    assert coloured(Label.DOCUMENT) and all(any(n.shows(t) for t in titles) for n in coloured(Label.DOCUMENT))
    assert any(n.caption.endswith("edges explored") for n in coloured(Label.EXPLORATION))
    assert len(coloured(Label.STATEMENT)) >= 1 and len(nodes) > 20
    rel_colours = set(graph.evaluate("""f => [...f.querySelectorAll('g.relationship path.b-outline')]
        .map(p => (p.getAttribute('fill') || '').toUpperCase())"""))  # fmt: skip
    served = {c.upper() for c in REL_COLORS.values()} | {parse_grass(grass())["relationship"]["color"].upper()}
    assert rel_colours and rel_colours <= served and len(rel_colours) > 2, rel_colours


def test_the_verification_slide_draws_the_check_with_its_verdict_and_the_selections_it_needed(
    nb: Neo4jBrowser, setup: Setup, store: Store
) -> None:
    nb.run(setup.style).get_by_text("node.Question").wait_for()
    nb.play(setup.play)
    guide = nb.guide()
    title = next(slide.title for slide in QUERY_SLIDES if slide.query == "answer_verification")
    while not guide.get_by_role("heading", name=title).is_visible():
        guide.get_by_test_id("nextSlide").click()
    params, cypher = guide.locator("pre.runnable:visible").all()
    params.click()
    done = nb.run_editor().locator("[data-testid=multi-statement-list-icon][title='Status: success']")
    expect(done).to_have_count(4)  # workspace, collection, uri, necessary
    cypher.click()
    graph = nb.run_editor()
    nodes = nb.drawn_nodes(graph)
    nb.page.screenshot(path=screenshot_path("neo4j-browser-verification"))
    verdict = query(store, "MATCH (v:Verification {workspace: $w, collection: $c}) RETURN v.verdict AS verdict",
                    w=WORKSPACE, c=COLLECTION)[0]["verdict"]  # fmt: skip

    def coloured(label: Label) -> list[DrawnNode]:
        color = next(s.color for s in NODE_STYLES if s.labels == (label,)).upper()
        return [n for n in nodes if n.fill == color]

    assert [n.shows(verdict) for n in coloured(Label.VERIFICATION)] == [True]
    reruns = coloured(Label.COUNTERFACTUAL)  # the leave-one-outs that found a selection necessary
    assert reruns and all(re.match(r"0\.\d+ leave", n.caption) for n in reruns), [n.caption for n in reruns]
    assert coloured(Label.EDGE_SELECTION) and coloured(Label.STATEMENT) and coloured(Label.SYNTHESIS)
    rel_colours = set(graph.evaluate("""f => [...f.querySelectorAll('g.relationship path.b-outline')]
        .map(p => (p.getAttribute('fill') || '').toUpperCase())"""))  # fmt: skip
    assert {REL_COLORS[r].upper() for r in (Rel.COUNTERFACTUAL, Rel.ABLATED)} <= rel_colours, rel_colours
