"""Driving the real Neo4j Browser (the ``neo4j-browser`` jar its server serves at ``/browser/``) in
headless Chromium, as a person does: fill the connect form, type commands in the editor, click guide
blocks, read what the frames show. Browser 5.x marks its widgets with ``data-testid``; those are what
this module relies on, never its generated class names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from playwright.sync_api import Locator, Page, expect

TIMEOUT_MS = 30_000


def parse_grass(text: str) -> dict[str, dict[str, str]]:
    """A GraSS sheet as Browser's own parser reads it (``parseGrass``): selector → declarations.

    Outside braces whitespace is dropped and every other character joins the selector; quotes are
    dropped; declarations split on ``;`` and then ``:``, keeping only those with exactly one ``:``.
    Mirroring it, rather than a CSS parser, is what makes a sheet Browser misreads fail the tests.
    """
    rules: dict[str, str] = {}
    selector, body, in_rule, quoted, nested = "", "", False, False, False
    for char in text:
        if char in "'\"":
            quoted = not quoted
            continue
        if char == "{" and not quoted:
            if in_rule:
                nested = True
            else:
                in_rule = True
            continue
        if char == "}" and not quoted:
            if nested:
                nested = False
            else:
                rules[selector], selector, body, in_rule = body, "", "", False
            continue
        if in_rule:
            body += char
        elif not char.isspace():
            selector += char
    parsed: dict[str, dict[str, str]] = {}
    for name, declarations in rules.items():
        pairs = [d.split(":") for d in declarations.split(";")]
        parsed[name] = {p[0].strip(): p[1].strip() for p in pairs if len(p) == 2}
    return parsed


@dataclass(frozen=True)
class DrawnNode:
    """One node of Browser's graph view: its fill colour and its caption lines as drawn."""

    fill: str
    caption: str

    def shows(self, text: str) -> bool:
        """Whether the caption is ``text`` as Browser draws it: wrapped at spaces, cut short with ``…``."""
        drawn = self.caption.removesuffix("…")
        return bool(drawn) and " ".join(str(text).split()).startswith(drawn)


class Neo4jBrowser:
    """One Browser tab: connect, run commands, and find the frames they open."""

    def __init__(self, page: Page) -> None:
        self.page = page

    def connect(self, browser_url: str, bolt_uri: str, username: str, password: str | None) -> None:
        """Open Browser and log in through its connect form; returns once it says who is connected."""
        self.page.goto(browser_url)
        self.page.get_by_test_id("boltaddress").fill(bolt_uri)
        self.page.get_by_test_id("username").fill(username)
        self.page.get_by_test_id("password").fill(password or "")
        self.page.get_by_test_id("connect").click()
        self.page.get_by_text(f"You are connected as user {username}").wait_for(timeout=TIMEOUT_MS)

    def frames(self) -> Locator:
        return self.page.get_by_test_id("frame")

    def run(self, command: str) -> Locator:
        """Type ``command`` in the editor and run it; the frame it opens (Browser puts new ones on top)."""
        before = self.frames().count()
        self.page.get_by_test_id("activeEditor").click()
        # inserted whole, not typed key by key: the editor's completions cannot catch a keystroke of it
        self.page.keyboard.insert_text(command)
        return self.run_editor(before)

    def run_editor(self, before: int | None = None) -> Locator:
        """Press the editor's run button; the frame that opens."""
        count = self.frames().count() if before is None else before
        self.page.get_by_test_id("editor-Run").click()
        self.page.wait_for_function(
            "n => document.querySelectorAll('[data-testid=frame]').length > n", arg=count, timeout=TIMEOUT_MS
        )
        return self.frames().first

    def play(self, command: str, attempts: int = 5) -> Locator:
        """Run a ``:play URL`` command; the frame it opens, once that frame shows the guide or says it has none.

        Browser reads the server's ``browser.remote_content_hostname_whitelist`` (``dbms.clientConfig``) after
        it has said who is connected, and until then refuses a host the default list lacks with "No guide by
        that name". A guide refused that way is played again, a second apart, up to ``attempts`` times; one
        still refused then is left for the caller to report.
        """
        frame = self.run(command)
        for _ in range(attempts - 1):
            refused = frame.get_by_text("No guide by that name")
            shown = frame.get_by_test_id("carousel")
            expect(refused.or_(shown)).to_be_visible(timeout=TIMEOUT_MS)
            if not refused.is_visible():
                break
            self.page.wait_for_timeout(1000)
            frame = self.run(command)
        return frame

    def guide(self) -> Locator:
        """The frame showing a ``:play`` guide (the one with a slide carousel)."""
        return self.frames().filter(has=self.page.get_by_test_id("carousel"))

    def drawn_nodes(self, frame: Locator) -> list[DrawnNode]:
        """The nodes of ``frame``'s graph view, once it has drawn them."""
        frame.locator("g.node circle.b-outline").first.wait_for(timeout=TIMEOUT_MS)
        found = frame.evaluate("""f => [...f.querySelectorAll('g.node')].map(g => ({
            fill: (g.querySelector('circle.b-outline')?.getAttribute('fill') || '').toUpperCase(),
            caption: [...g.querySelectorAll('text.caption')].map(t => t.textContent.trim()).join(' ')}))""")
        return [DrawnNode(n["fill"], n["caption"]) for n in found]


def slide_counter(guide: Locator) -> tuple[int, int]:
    """The carousel's "n / m" as numbers."""
    match = re.search(r"(\d+)\s*/\s*(\d+)", guide.get_by_test_id("carousel").inner_text())
    assert match, guide.inner_text()[:500]
    return int(match.group(1)), int(match.group(2))
