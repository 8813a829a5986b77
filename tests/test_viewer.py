"""The trace viewer in a real headless Chromium (Debian's, driven by Playwright): a stored trace shows
every step; a question asked on ``/ui/`` shows its steps in the order their explain messages arrive;
with ``TGNEO_TOKENS`` set the page asks for a token and then shows the trace. Screenshots are saved
to ``test-artifacts/``."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote, urlencode

import pytest
from playwright.sync_api import Browser, Page

from tests.browsing import chromium, screenshot_path
from tests.conftest import Neo4jServer
from tests.serving import Served, open_serving
from tgneo.engines import Agent, GraphRag, Request
from tgneo.explain.events import ExplainEvent, SessionEnd
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
    assert page.locator("#answer").inner_text().startswith("Polonium was named after Poland, the native country")
    cited = page.locator("#citations ol.citations li")  # each answer sentence, with its evidence and where it was read
    assert cited.count() >= 1 and "Polonium and radium" in cited.first.locator("cite").first.inner_text()
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


GEOMETRY = """() => {
    const cy = window.tgneoViewer.cy;
    const box = (b) => ({ x1: b.x1, y1: b.y1, x2: b.x2, y2: b.y2 });
    const labels = cy.nodes().filter((n) => n.data("label")).map((n) => Object.assign({ id: n.id() },
        box(n.boundingBox({ includeNodes: false, includeEdges: false, includeLabels: true, includeOverlays: false }))));
    const bodies = cy.nodes().filter((n) => !n.isParent()).map((n) => Object.assign({ id: n.id() },
        box(n.boundingBox({ includeNodes: true, includeEdges: false, includeLabels: false, includeOverlays: false }))));
    const edges = cy.edges().map((e) => ({ id: e.id(), source: e.source().id(), target: e.target().id(),
        points: [e.sourceEndpoint(), ...(e.segmentPoints() || []), e.targetEndpoint()] }));
    const steps = [...document.querySelectorAll("#steps li")].map((li) => cy.getElementById(li.dataset.uri))
        .map((n) => ({ uri: n.id(), y: n.position("y"), group: n.parent().id() || null }));
    const fans = steps.map((s) => cy.getElementById(s.uri).outgoers("node.selection")
        .map((n) => ({ score: n.data("score"), y: n.position("y") })));
    return { labels, bodies, edges, steps, fans };
}"""


def _overlap(a: dict[str, Any], b: dict[str, Any], margin: float = 0.5) -> bool:
    apart_x = a["x1"] + margin >= b["x2"] or b["x1"] + margin >= a["x2"]
    return not apart_x and a["y1"] + margin < b["y2"] and b["y1"] + margin < a["y2"]


def _crosses(p: dict[str, float], q: dict[str, float], body: dict[str, Any], inset: float = 1.5) -> bool:
    """Whether the segment p→q passes through ``body``'s box (shrunk by ``inset``): sampled every pixel."""
    x1, y1, x2, y2 = body["x1"] + inset, body["y1"] + inset, body["x2"] - inset, body["y2"] - inset
    steps = max(2, int(max(abs(q["x"] - p["x"]), abs(q["y"] - p["y"]))))
    for i in range(steps + 1):
        x, y = p["x"] + (q["x"] - p["x"]) * i / steps, p["y"] + (q["y"] - p["y"]) * i / steps
        if x1 < x < x2 and y1 < y < y2:
            return True
    return False


def assert_readable(page: Page, name: str) -> dict[str, Any]:
    """No two labels intersect, no edge runs through a node it does not join, selections best first, steps
    in the list's order down the column; the screenshot is kept."""
    page.screenshot(path=screenshot_path(name), full_page=True)
    g = page.evaluate(GEOMETRY)
    labels = g["labels"]
    clashes = [(a["id"], b["id"]) for i, a in enumerate(labels) for b in labels[i + 1 :] if _overlap(a, b)]
    assert not clashes, clashes[:5]
    through = [
        (e["id"], body["id"])
        for e in g["edges"]
        for body in g["bodies"]
        if body["id"] not in (e["source"], e["target"])
        and any(_crosses(p, q, body) for p, q in zip(e["points"], e["points"][1:], strict=False))
    ]
    assert not through, through[:5]
    for fan in g["fans"]:
        ordered = sorted(fan, key=lambda r: r["y"])
        assert [r["score"] for r in ordered] == sorted((r["score"] for r in fan), reverse=True)
    ys = [s["y"] for s in g["steps"]]
    assert ys == sorted(ys) and len(set(ys)) == len(ys)
    return g


def test_a_25_edge_graphrag_trace_reads_without_overlaps_best_evidence_first(
    open_server: str, store: Store, page: Page
) -> None:
    events = GraphRag(store, OfflineLLM()).answer(
        Request(QUESTIONS[2].text, WORKSPACE, COLLECTION, {"edge_score_limit": 300, "edge_limit": 25})
    )
    uri = next(e for e in list(events) if isinstance(e, ExplainEvent)).explain_id
    trace = get_trace(store, WORKSPACE, COLLECTION, uri)
    (focus,) = [s for s in trace["steps"] if s["type"] == "Focus"]
    assert len(focus["edges"]) == 25
    page.goto(f"{open_server}/ui/trace/{quote(uri, safe='')}?{SCOPE}")
    page.wait_for_selector("#status[data-state=done]", timeout=30_000)
    g = assert_readable(page, "viewer-graphrag-25-edges")
    assert [s["uri"] for s in g["steps"]] == [s["uri"] for s in trace["steps"]]
    assert sum(len(f) for f in g["fans"]) == 25


def test_a_multi_iteration_agent_trace_reads_in_derivation_order_with_its_sub_traces_boxed(
    open_server: str, store: Store, page: Page
) -> None:
    # a computed answer: a lookup per fact (each a sub-trace), then the calculator
    age = "How old was Marie Curie when she won her first Nobel Prize?"
    events = list(Agent(store, OfflineLLM()).answer(Request(age, WORKSPACE, COLLECTION, {"pattern": "react"})))
    end = events[-1]
    assert isinstance(end, SessionEnd) and end.trace
    trace = get_trace(store, WORKSPACE, COLLECTION, end.trace)
    assert len([s for s in trace["steps"] if s["type"] == "Analysis"]) >= 2
    page.goto(f"{open_server}/ui/trace/{quote(end.trace, safe='')}?{SCOPE}")
    page.wait_for_selector("#status[data-state=done]", timeout=30_000)
    g = assert_readable(page, "viewer-agent-iterations")
    assert [s["uri"] for s in g["steps"]] == [s["uri"] for s in trace["steps"]]
    boxed = {s["uri"]: s["group"] for s in g["steps"]}
    for sub in (s for s in trace["steps"] if s["type"] in ("GraphRagQuestion", "DocRagQuestion")):
        assert boxed[sub["uri"]] is not None  # each sub-trace in a box of its own …
    assert boxed[trace["uri"]] is None  # … the agent's own steps outside
    sub_traces = [s for s in trace["steps"] if s["type"].endswith("RagQuestion")]
    assert len({b for b in boxed.values() if b}) == len(sub_traces)


def test_a_stale_trace_says_which_document_changed_and_a_fresh_one_says_nothing(
    open_server: str, store: Store, page: Page
) -> None:
    from tgneo.store.documents import remove_document

    collection = f"test-viewer-stale-{uuid.uuid4().hex[:8]}"
    assert load_documents(store, OfflineLLM(), WORKSPACE, collection, sources()).loaded == 4
    uri = record(store, WORKSPACE, collection)
    scope = urlencode({"workspace": WORKSPACE, "collection": collection})
    page.goto(f"{open_server}/ui/trace/{quote(uri, safe='')}?{scope}")
    page.wait_for_selector("#status[data-state=done]", timeout=30_000)
    assert page.locator("#stale").is_hidden()

    trace = get_trace(store, WORKSPACE, collection, uri)
    document = next(src["chain"][-1]["uri"] for s in trace["steps"] for e in s.get("edges", [])
                    for src in e["statement"]["sources"])  # fmt: skip
    remove_document(store, WORKSPACE, collection, document)
    page.reload()
    page.wait_for_selector("#status[data-state=done]", timeout=30_000)
    banner = page.locator("#stale")
    assert banner.is_visible() and document in banner.inner_text() and "removed" in banner.inner_text()
    assert page.locator("#stale .stale-change[data-change=removed]").count() == 1
    page.screenshot(path=screenshot_path("viewer-stale-trace"))


def test_the_hold_button_puts_a_legal_hold_on_the_trace_and_lifts_it(
    open_server: str, store: Store, page: Page
) -> None:
    uri = record(store, WORKSPACE, COLLECTION)
    page.goto(f"{open_server}/ui/trace/{quote(uri, safe='')}?{SCOPE}")
    page.wait_for_selector("#hold-state[data-held=false]", timeout=30_000)
    page.locator("#hold-button").click()
    page.wait_for_selector("#hold-state[data-held=true]", timeout=10_000)
    assert get_trace(store, WORKSPACE, COLLECTION, uri)["held"] is True
    page.reload()
    page.wait_for_selector("#hold-state[data-held=true]", timeout=30_000)
    page.locator("#hold-button").click()
    page.wait_for_selector("#hold-state[data-held=false]", timeout=10_000)
    assert get_trace(store, WORKSPACE, COLLECTION, uri)["held"] is False


def test_two_answers_compare_side_by_side_with_the_edges_only_one_selected(
    open_server: str, store: Store, page: Page
) -> None:
    from tgneo.tracediff import diff

    full = record(store, WORKSPACE, COLLECTION)
    events = GraphRag(store, OfflineLLM()).answer(Request(QUESTIONS[0].text, WORKSPACE, COLLECTION, {"edge_limit": 3}))
    fewer = next(e for e in list(events) if isinstance(e, ExplainEvent)).explain_id
    expected = diff(get_trace(store, WORKSPACE, COLLECTION, full), get_trace(store, WORKSPACE, COLLECTION, fewer))
    assert expected["edges"]["removed"]

    page.goto(f"{open_server}/ui/trace/{quote(full, safe='')}?{SCOPE}")
    page.wait_for_selector("#status[data-state=done]", timeout=30_000)
    page.fill("#compare-uri", fewer)
    page.locator("#compare button").click()
    page.wait_for_selector("#status[data-state=done]", timeout=30_000)
    assert "/ui/diff?" in page.url
    edges = page.locator(".diff-section[data-section='Selected edges']")
    left = [t.removeprefix("− ") for t in edges.locator("ul[data-side=a] li.removed").all_inner_texts()]
    assert [t.split(" (score")[0] for t in left] == [e["edge"] for e in expected["edges"]["removed"]]
    assert edges.locator("ul[data-side=b] li.added").count() == len(expected["edges"]["added"])
    assert full in page.locator("#side-a").inner_text() and fewer in page.locator("#side-b").inner_text()
    page.screenshot(path=screenshot_path("viewer-trace-diff"), full_page=True)
