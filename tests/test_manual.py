"""The README is the front page and docs/ the manual: the manual builds with no broken link or anchor, the README's
links reach pages and headings that exist, and the README stays short enough to read on a few screens."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from markdown.extensions.toc import slugify

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


def test_the_readme_s_trace_picture_names_only_labels_and_relationships_tgneo_stores() -> None:
    text = README.read_text(encoding="utf-8")
    picture = re.search(r"```mermaid\n(.*?)```", text, re.S)
    assert picture, "the README lost its picture of a trace"
    labels = set(re.findall(r'\["([A-Za-z]+)<br/>|\["([A-Za-z]+)"\]', picture.group(1)))
    named = {name for pair in labels for name in pair if name}
    types = set(re.findall(r'-- "?([A-Z_]+)', picture.group(1)))
    assert named and types
    assert named - {label.value for label in Label} == set()
    assert types - {rel.value for rel in Rel} == set()
