"""The README is the front page and docs/ the manual: the manual builds with no broken link or anchor, the README's
links reach pages and headings that exist, and the README stays short enough to read on a few screens."""

from __future__ import annotations

import re
import subprocess
import sys
import uuid
from pathlib import Path

from markdown.extensions.toc import slugify

from tests.ingesting import query
from tgneo.engines import Request, build_engine
from tgneo.ingest.loader import load_documents
from tgneo.ingest.sample import QUESTIONS, sources
from tgneo.kinds import SessionKind
from tgneo.llm.offline import OfflineLLM
from tgneo.store import Store
from tgneo.vocab import Label, Rel

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
LINK = re.compile(r"\]\(([^)\s]+)\)")


def _anchors(page: Path) -> set[str]:
    """The heading anchors MkDocs gives ``page`` (its default slugify, outside code fences)."""
    anchors, fenced = set(), False
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and (heading := re.match(r"#{1,6} (.*)", line)):
            anchors.add(slugify(heading.group(1).replace("`", ""), "-"))
    return anchors


def test_the_manual_builds_with_no_broken_link_or_anchor(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-4000:]
    assert (tmp_path / "site" / "search" / "search_index.json").is_file(), "the site has no search index"


def test_every_page_of_the_manual_is_in_its_navigation() -> None:
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert sorted(p.name for p in (ROOT / "docs").glob("*.md") if f": {p.name}" not in nav) == []


def test_every_link_of_the_readme_reaches_a_file_and_heading_that_exist() -> None:
    broken = []
    for target in LINK.findall(README.read_text(encoding="utf-8")):
        if target.startswith(("http://", "https://")):
            continue
        path, _, anchor = target.partition("#")
        page = ROOT / path if path else README
        if not page.exists() or (anchor and anchor not in _anchors(page)):
            broken.append(target)
    assert broken == []


def test_the_readme_is_under_250_lines() -> None:
    assert len(README.read_text(encoding="utf-8").splitlines()) < 250


def test_the_readme_s_answer_quality_rows_are_the_manual_s() -> None:
    """The README's Answer quality table quotes the manual's (docs/answer-quality.md), row for row: the figures
    are measured once, and the front page cannot drift from the page that explains them."""
    section = README.read_text(encoding="utf-8").split("## Answer quality", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ") and not line.startswith("| set ")]
    manual = set((ROOT / "docs" / "answer-quality.md").read_text(encoding="utf-8").splitlines())
    assert len(rows) == 6, "before and after for each of the three sets"
    assert [row for row in rows if row not in manual] == []


def _picture() -> tuple[dict[str, str], list[tuple[str, str, str]]]:
    """The README's picture of a trace: each node's label by its id, and its edges ``(from, type, to)``."""
    picture = re.search(r"```mermaid\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert picture, "the README lost its picture of a trace"
    nodes = dict(re.findall(r'^\s*(\w+)\["(\w+)', picture.group(1), re.M))
    edges = re.findall(r'^\s*(\w+) -- "?([A-Z_]+)[^>]*--> (\w+)$', picture.group(1), re.M)
    assert nodes and edges
    return nodes, edges


def test_the_readme_s_trace_picture_names_only_labels_and_relationships_tgneo_stores() -> None:
    nodes, edges = _picture()
    assert set(nodes.values()) - {label.value for label in Label} == set()
    assert {rel for _, rel, _ in edges} - {rel.value for rel in Rel} == set()


def test_every_edge_of_the_readme_s_trace_picture_is_in_the_demo_s_recorded_trace(store: Store) -> None:
    """The picture is what the demo records: its question asked of the sample, each drawn edge is stored."""
    workspace, collection = "w-manual", f"manual-{uuid.uuid4().hex[:8]}"
    llm = OfflineLLM()
    load_documents(store, llm, workspace, collection, sources())
    for _ in build_engine(SessionKind.GRAPH_RAG, store, llm).answer(Request(QUESTIONS[0].text, workspace, collection)):
        pass
    nodes, edges = _picture()
    missing = []
    for a, rel, b in edges:  # names checked against the vocabulary above, so they may be spelled into Cypher
        scoped = "{workspace: $w, collection: $c}"
        cypher = f"RETURN EXISTS {{ MATCH (:{Label(nodes[a]).value} {scoped})-[:{Rel(rel).value}]->" \
                 f"(:{Label(nodes[b]).value} {scoped}) }} AS x"  # fmt: skip
        found = query(store, cypher, w=workspace, c=collection)
        if not found[0]["x"]:
            missing.append((nodes[a], rel, nodes[b]))
    query(store, "MATCH (n {workspace: $w, collection: $c}) DETACH DELETE n", w=workspace, c=collection)
    assert missing == []
