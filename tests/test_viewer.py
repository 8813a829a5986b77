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
from tgneo.engines.verify import DEFAULT_BUDGET
from tgneo.explain.events import ExplainEvent, SessionEnd
from tgneo.ingest.loader import load_documents
from tgneo.ingest.sample import QUESTIONS, sources
from tgneo.llm.offline import OfflineLLM
from tgneo.store import Store
from tgneo.store.traces import get_trace
from tgneo.tracetree import NECESSARY

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


def record(store: Store, workspace: str, collection: str, *, verify: bool = False) -> str:
    asked = Request(QUESTIONS[0].text, workspace, collection, {}, verify=DEFAULT_BUDGET if verify else None)
    events = GraphRag(store, OfflineLLM()).answer(asked)
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


# --------------------------------------------------------------------------------------------------
# a verified answer: the verdict at a glance, and which selections the answer could not do without

VERDICT_COLOURS = {"supported": "rgb(26, 127, 55)", "partly": "rgb(191, 135, 0)", "unsupported": "rgb(207, 34, 46)"}
NECESSITY_MARKS = """(uris) => uris.map((uri) => {
    const cy = window.tgneoViewer.cy, nodes = [uri, uri + " statement"].map((id) => cy.getElementById(id));
    return nodes.map((n) => n.nonempty() ? (n.hasClass("necessary") ? "necessary" : n.hasClass("unnecessary")
        ? "unnecessary" : "unmarked") : "missing");
})"""


def necessity_marks(page: Page, necessity: dict[str, float]) -> dict[str, list[str]]:
    """How each selection the check left out in turn is drawn, with the statement row it brought."""
    marks = page.evaluate(NECESSITY_MARKS, list(necessity))
    return dict(zip(necessity, marks, strict=True))


def expected_marks(necessity: dict[str, float]) -> dict[str, list[str]]:
    return {uri: ["necessary" if v >= NECESSARY else "unnecessary"] * 2 for uri, v in necessity.items()}


def click_node(page: Page, uri: str) -> None:
    """A real mouse click on the node drawn for ``uri``."""
    x, y = page.evaluate("""(uri) => {
        const cy = window.tgneoViewer.cy, p = cy.getElementById(uri).renderedPosition();
        const box = cy.container().getBoundingClientRect();
        return [box.left + p.x, box.top + p.y];
    }""", uri)  # fmt: skip
    page.mouse.click(x, y)


def test_a_verified_trace_shows_its_verdict_and_marks_the_selections_the_answer_needed(
    open_server: str, store: Store, page: Page
) -> None:
    uri = record(store, WORKSPACE, COLLECTION, verify=True)
    trace = get_trace(store, WORKSPACE, COLLECTION, uri)
    checked = trace["verification"]
    assert checked["verdict"] == "supported" and max(checked["necessity"].values()) >= NECESSARY
    page.goto(f"{open_server}/ui/trace/{quote(uri, safe='')}?{SCOPE}")
    page.wait_for_selector("#status[data-state=done]", timeout=30_000)

    # the verdict at a glance: a green badge, what the check found beside it
    verdict = page.locator("#verdict")
    assert verdict.is_visible() and verdict.get_attribute("data-verdict") == "supported"
    badge = page.locator("#verdict .badge")
    assert badge.evaluate("b => getComputedStyle(b).backgroundColor") == VERDICT_COLOURS["supported"]
    assert "100% of the answer" in verdict.inner_text() and "tgneo-offline" in verdict.inner_text()

    # the check is the step after the answer; its re-runs are rows beside it, not steps of the column
    reruns = [s["uri"] for s in trace["steps"] if s["type"] == "Counterfactual"]
    assert len(reruns) == 6
    assert shown_steps(page) == [s["uri"] for s in trace["steps"] if s["type"] != "Counterfactual"]
    (synthesis,) = [s["uri"] for s in trace["steps"] if s["type"] == "Synthesis"]
    assert shown_steps(page)[-2:] == [synthesis, checked["uri"]]  # … the answer, then its check
    assert all(drawn(page, u) for u in [*shown_steps(page), *reruns])
    assert_readable(page, "viewer-verified-trace")

    # each selection left out in turn: necessary (thick border, its row in the check's colour) or not (dashed)
    assert necessity_marks(page, checked["necessity"]) == expected_marks(checked["necessity"])
    necessary = next(u for u, v in checked["necessity"].items() if v >= NECESSARY)
    click_node(page, necessary)
    page.wait_for_selector("#details table.props", timeout=10_000)
    details = page.locator("#details").inner_text()
    assert f"{checked['necessity'][necessary]:.2f}: necessary" in details and "score" in details
    # a re-run lights up what it left out, and says so
    leave_one_out = next(s for s in trace["steps"] if s["type"] == "Counterfactual" and s["ablated"] == [necessary])
    click_node(page, leave_one_out["uri"])
    page.wait_for_selector("#details pre.content", timeout=10_000)
    assert "left out" in page.locator("#details").inner_text()
    assert page.evaluate("(u) => window.tgneoViewer.cy.getElementById(u).hasClass('ablated')", necessary)
    # the Verification's own triples are in the prov profile, and the panel shows them
    page.locator("#steps li", has_text="Verification").click()
    page.wait_for_selector("#details pre.triples", timeout=10_000)
    assert "verdict" in page.locator("#details pre.triples").inner_text()
    page.screenshot(path=screenshot_path("viewer-verified-trace-details"))

    # the badge's colour says the verdict: supported green, partly amber, unsupported red
    for word, colour in VERDICT_COLOURS.items():
        shown = page.evaluate("""(v) => { const el = document.getElementById("verdict");
            window.tgneo.renderVerdict(el, { verdict: v, sufficiency: 0.5, model: "m", stands_without: [2] });
            const badge = el.querySelector(".badge");
            return [el.dataset.verdict, getComputedStyle(badge).backgroundColor, el.innerText]; }""", word)  # fmt: skip
        assert shown[:2] == [word, colour] and "sentence(s) 2 stand without it" in shown[2]


def test_a_verified_agent_trace_marks_the_observations_its_answer_needed(
    open_server: str, store: Store, page: Page
) -> None:
    asked = Request("Who discovered polonium?", WORKSPACE, COLLECTION, {"pattern": "react"}, verify=DEFAULT_BUDGET)
    end = list(Agent(store, OfflineLLM()).answer(asked))[-1]
    assert isinstance(end, SessionEnd) and end.trace and end.verification is not None
    trace = get_trace(store, WORKSPACE, COLLECTION, end.trace)
    checked = trace["verification"]
    observations = {s["uri"] for s in trace["steps"] if s["type"] == "Observation"}
    assert checked["necessity"] and set(checked["necessity"]) <= observations
    page.goto(f"{open_server}/ui/trace/{quote(end.trace, safe='')}?{SCOPE}")
    page.wait_for_selector("#status[data-state=done]", timeout=30_000)
    assert page.locator("#verdict").get_attribute("data-verdict") == checked["verdict"]
    marks = page.evaluate("""(uris) => uris.map((u) => { const n = window.tgneoViewer.cy.getElementById(u);
        return n.hasClass("necessary") ? "necessary" : n.hasClass("unnecessary") ? "unnecessary" : "unmarked"; })""",
                          list(checked["necessity"]))  # fmt: skip
    assert marks == ["necessary" if v >= NECESSARY else "unnecessary" for v in checked["necessity"].values()]
    assert_readable(page, "viewer-verified-agent")
    said = next(s for s in trace["steps"] if s["uri"] in checked["necessity"])["documents"][0]["text"]
    rows = page.evaluate("() => window.tgneoViewer.cy.nodes('.rerun').map((n) => n.data('label'))")
    assert any(said[:20] in row for row in rows), rows  # a re-run's row says which observation it left out


def test_an_unverified_trace_shows_no_verdict_and_marks_nothing(open_server: str, store: Store, page: Page) -> None:
    uri = record(store, WORKSPACE, COLLECTION)
    page.goto(f"{open_server}/ui/trace/{quote(uri, safe='')}?{SCOPE}")
    page.wait_for_selector("#status[data-state=done]", timeout=30_000)
    assert page.locator("#verdict").is_hidden()
    assert page.evaluate("() => window.tgneoViewer.cy.nodes('.necessary, .unnecessary').length") == 0


def test_a_live_question_asked_with_verify_shows_the_check_after_the_answer(
    open_server: str, store: Store, page: Page
) -> None:
    page.goto(f"{open_server}/ui/?{SCOPE}")
    page.evaluate("""() => { window.arrivals = [];
        new MutationObserver((changes) => { for (const c of changes) for (const n of c.addedNodes)
          if (n.dataset && n.dataset.uri) window.arrivals.push({ uri: n.dataset.uri,
            answer: document.getElementById("answer").textContent,
            verdict: document.getElementById("verdict").dataset.verdict || null }); })
        .observe(document.getElementById("steps"), { childList: true }); }""")  # fmt: skip
    page.fill("#question", QUESTIONS[0].text)
    page.select_option("#service", "graph-rag")
    page.fill("#collection", COLLECTION)
    page.check("#verify")
    page.click("#ask")
    page.wait_for_selector("#status[data-state=done]", timeout=60_000)
    arrivals = page.evaluate("window.arrivals")
    trace = get_trace(store, WORKSPACE, COLLECTION, arrivals[0]["uri"])
    checked = trace["verification"]
    assert [a["uri"] for a in arrivals] == [s["uri"] for s in trace["steps"] if s["type"] != "Counterfactual"]
    assert arrivals[-1]["uri"] == checked["uri"] and len(arrivals) == 6  # question … synthesis, then the check,
    answer = page.locator("#answer").inner_text()
    assert answer.startswith("Polonium was named after Poland") and arrivals[-1]["answer"] == answer  # after it all
    # no verdict before the check's own message; with it, at once (before the final message)
    assert [a["verdict"] for a in arrivals] == [None] * 5 + [checked["verdict"]]
    assert page.locator("#steps li").last.get_attribute("data-type") == "Verification"
    verdict = page.locator("#verdict")
    assert verdict.is_visible() and verdict.get_attribute("data-verdict") == checked["verdict"]
    assert necessity_marks(page, checked["necessity"]) == expected_marks(checked["necessity"])
    page.screenshot(path=screenshot_path("viewer-live-verified"))


def test_the_live_page_asks_for_no_check_unless_verify_is_ticked(open_server: str, store: Store, page: Page) -> None:
    page.goto(f"{open_server}/ui/?{SCOPE}")
    assert page.locator("#verify").is_visible() and not page.locator("#verify").is_checked()
    page.fill("#question", QUESTIONS[0].text)
    page.fill("#collection", COLLECTION)
    page.click("#ask")
    page.wait_for_selector("#status[data-state=done]", timeout=60_000)
    root = shown_steps(page)[0]
    assert get_trace(store, WORKSPACE, COLLECTION, root)["verification"] is None
    assert page.locator("#verdict").is_hidden() and len(shown_steps(page)) == 5
