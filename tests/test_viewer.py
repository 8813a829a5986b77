"""The trace viewer in a real headless Chromium (Debian's, driven by Playwright): a stored trace shows
every step; a question asked on ``/ui/`` shows its steps in the order their explain messages arrive;
with ``TGNEO_TOKENS`` set the page asks for a token and then shows the trace. Screenshots are saved
to ``test-artifacts/``."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from urllib.parse import quote, urlencode

import pytest
from playwright.sync_api import Browser, Page

from tests.browsing import chromium, screenshot_path
from tests.conftest import Neo4jServer
from tests.serving import Served, open_serving
from tgneo.engines import GraphRag, Request
from tgneo.explain.events import ExplainEvent
from tgneo.ingest.loader import load_documents
from tgneo.ingest.sample import QUESTIONS, sources
from tgneo.llm.offline import OfflineLLM
from tgneo.store import Store
from tgneo.store.traces import get_trace

WORKSPACE = f"test-ws-viewer-{uuid.uuid4().hex[:8]}"
COLLECTION = f"test-viewer-{uuid.uuid4().hex[:8]}"
SCOPE = urlencode({"workspace": WORKSPACE, "collection": COLLECTION})


@pytest.fixture(scope="module")
def open_server(neo4j_server: Neo4jServer, store: Store) -> Iterator[str]:
    """``tgneo serve`` without tokens (it trusts loopback callers) over a collection with the sample corpus."""
    assert load_documents(store, OfflineLLM(), WORKSPACE, COLLECTION, sources()).loaded == 4
    with open_serving(neo4j_server.env(), store, WORKSPACE) as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as b:
        yield b


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    p = browser.new_page(viewport={"width": 1400, "height": 850})
    errors: list[str] = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    yield p
    p.close()
    assert not errors, errors


def record(store: Store, workspace: str, collection: str) -> str:
    events = GraphRag(store, OfflineLLM()).answer(Request(QUESTIONS[0].text, workspace, collection, {}))
    return next(e for e in list(events) if isinstance(e, ExplainEvent)).explain_id


def shown_steps(page: Page) -> list[str]:
    return [str(li.get_attribute("data-uri")) for li in page.locator("#steps li").all()]


def drawn(page: Page, uri: str) -> bool:
    """Whether the graph holds a visible node for ``uri`` inside the drawing area."""
    return bool(page.evaluate("""(uri) => {
        const cy = window.tgneoViewer.cy, node = cy.getElementById(uri);
        if (node.empty() || !node.visible()) return false;
        const p = node.renderedPosition();
        return p.x >= 0 && p.y >= 0 && p.x <= cy.width() && p.y <= cy.height();
    }""", uri))  # fmt: skip


def test_a_stored_trace_shows_every_step(open_server: str, store: Store, page: Page) -> None:
    uri = record(store, WORKSPACE, COLLECTION)
    trace = get_trace(store, WORKSPACE, COLLECTION, uri)
    page.goto(f"{open_server}/ui/trace/{quote(uri, safe='')}?{SCOPE}")
    page.wait_for_selector("#status[data-state=done]", timeout=30_000)
    assert shown_steps(page) == [s["uri"] for s in trace["steps"]]
    assert all(drawn(page, s["uri"]) for s in trace["steps"])
    page.locator("#steps li", has_text="Focus").click()
    page.wait_for_selector("#details pre.triples", timeout=10_000)
    assert "inToken" in page.locator("#details").inner_text()
    page.screenshot(path=screenshot_path("viewer-stored-trace"))


def test_the_answer_is_drawn_below_the_evidence_its_focus_selected(open_server: str, store: Store, page: Page) -> None:
    uri = record(store, WORKSPACE, COLLECTION)
    page.goto(f"{open_server}/ui/trace/{quote(uri, safe='')}?{SCOPE}")
    page.wait_for_selector("#status[data-state=done]", timeout=30_000)
    heights = page.evaluate("""() => {
        const cy = window.tgneoViewer.cy, y = (type) => cy.nodes(`[type = "${type}"]`).map((n) => n.position("y"));
        const x = (type) => cy.nodes(`[type = "${type}"]`).map((n) => n.position("x"));
        return { focus: y("Focus"), synthesis: y("Synthesis"), evidence: [...y("EdgeSelection"), ...y("Statement"),
                 ...y("Document")], focus_x: x("Focus"), synthesis_x: x("Synthesis") };
    }""")  # fmt: skip
    assert len(heights["focus"]) == 1 and len(heights["synthesis"]) == 1 and heights["evidence"]
    assert heights["focus"][0] < min(heights["evidence"])  # the evidence hangs below its Focus ...
    assert heights["synthesis"][0] > max(heights["evidence"])  # ... and the answer comes after all of it,
    assert abs(heights["synthesis_x"][0] - heights["focus_x"][0]) < 1  # in the column of the steps before it
    page.screenshot(path=screenshot_path("viewer-answer-below-evidence"))


def test_a_live_question_shows_its_steps_in_the_order_they_arrive(open_server: str, store: Store, page: Page) -> None:
    page.goto(f"{open_server}/ui/?{SCOPE}")
    page.evaluate("""() => { window.arrivals = [];
        new MutationObserver((changes) => { for (const c of changes) for (const n of c.addedNodes)
          if (n.dataset && n.dataset.uri) window.arrivals.push(n.dataset.uri); })
        .observe(document.getElementById("steps"), { childList: true }); }""")  # fmt: skip
    page.fill("#question", QUESTIONS[0].text)
    page.select_option("#service", "graph-rag")
    page.fill("#collection", COLLECTION)
    page.click("#ask")
    page.wait_for_selector("#status[data-state=done]", timeout=60_000)
    arrivals = page.evaluate("window.arrivals")
    trace = get_trace(store, WORKSPACE, COLLECTION, arrivals[0])
    assert arrivals == [s["uri"] for s in trace["steps"]]  # question, grounding, exploration, focus, synthesis
    assert [s["type"] for s in trace["steps"]][0] == "GraphRagQuestion" and len(arrivals) == 5
    assert page.locator("#answer").inner_text() == "Polonium was named after Poland, the native country of Marie Curie."
    cited = page.locator("#citations ol.citations li")  # each answer sentence, with its evidence and where it was read
    assert cited.count() == 1 and "Polonium and radium" in cited.first.locator("cite").first.inner_text()
    assert all(drawn(page, uri) for uri in arrivals)
    page.screenshot(path=screenshot_path("viewer-live-question"))


def test_the_viewer_asks_for_a_token_when_the_server_requires_one(served: Served, store: Store, page: Page) -> None:
    a = served.a
    uri = record(store, a.workspace, a.collection)
    page.goto(f"{served.base}/ui/trace/{quote(uri, safe='')}?collection={a.collection}")
    page.wait_for_selector("#token-dialog[open]", timeout=10_000)
    assert page.locator("#steps li").count() == 0
    page.fill("#token-input", a.token)
    page.click("#token-form button")
    page.wait_for_selector("#status[data-state=done]", timeout=30_000)
    assert shown_steps(page)[0] == uri and len(shown_steps(page)) == 5
