"""The console examples of README.md and the manual (docs/) are what the commands print today: ``scripts/docs.py
--check`` regenerates every marked block from real runs (on private servers of its own, offline LLM) and fails
with a diff when a page differs, so an example cannot go stale unnoticed. It needs nothing from the session, so it
starts with the session (:mod:`tests.head_start`) and runs beside the tests before this one."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from tests.head_start import Command, finished

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import docs  # noqa: E402  (scripts/docs.py: a script, not a package)

DOCS_CHECK = Command("docs-check", (sys.executable, str(ROOT / "scripts" / "docs.py"), "--check"), ROOT, 1200)
"""Its servers are its own (never ``NEO4J_URI``'s), so the session's Neo4j is not in its environment."""


@pytest.mark.head_start(DOCS_CHECK)
def test_the_console_examples_are_what_the_commands_print(request: pytest.FixtureRequest) -> None:
    result = finished(request.config, DOCS_CHECK)
    assert result.returncode == 0, f"{result.stderr[-3000:]}\n{result.stdout[-8000:]}"


def test_every_recipe_has_its_marker_in_a_page_and_every_marker_a_recipe() -> None:
    named = [n for page in docs.PAGES for n in re.findall(r"^<!-- docs: ([a-z0-9-]+) -->\n```", page.read_text(), re.M)]
    assert sorted(named) == sorted(docs.RECIPES)


def test_masking_gives_the_same_id_the_same_placeholder_and_hides_times() -> None:
    shown = docs.mask(
        "trace: urn:trustgraph:question:0f9e8d7c-1111-2222-3333-444455556666 (pid 4242, 3.2s, 17 ms)\n"
        "A urn:trustgraph:question:0f9e8d7c-1111-2222-3333-444455556666 2026-11-23T20:41:22.566975Z\n"
        "B urn:trustgraph:question:aaaaaaaa-1111-2222-3333-444455556666 5 spans"
    )
    assert shown == (
        "trace: urn:trustgraph:question:5c9bd80d-… (pid …, …s, … ms)\n"
        "A urn:trustgraph:question:5c9bd80d-… YYYY-MM-DDThh:mm:ss.ssssssZ\n"
        "B urn:trustgraph:question:4e5b0946-… 5 spans"
    )


def test_masking_finds_a_uuid_inside_a_percent_encoded_iri() -> None:
    shown = docs.mask("guide.html?trace=urn%3Atrustgraph%3Aquestion%3A0f9e8d7c-1111-2222-3333-444455556666&x=1")
    assert shown == "guide.html?trace=urn%3Atrustgraph%3Aquestion%3A5c9bd80d-…&x=1"


def test_masking_hides_the_number_of_a_neo4j_element_id_too() -> None:
    shown = docs.mask(
        "urn:chunk:neo4j:element:4%3A0b72b974-a29b-4b89-b359-775b5929107e%3A139 "
        "4:0b72b974-a29b-4b89-b359-775b5929107e:7"
    )
    assert shown == "urn:chunk:neo4j:element:4%3A5c9bd80d-…%3A… 4:5c9bd80d-…:…"
    subgraph = "https://trustgraph.ai/subgraph/neo4j-0705b41dca8289442eb883462acd9e190275f732"
    assert docs.mask(subgraph) == "https://trustgraph.ai/subgraph/neo4j-…"


def test_a_command_with_an_apostrophe_is_shown_as_a_user_types_it() -> None:
    assert (
        docs.command(["tgneo", "ask", "How do I disable pip's cache?"])
        == '$ tgneo ask "How do I disable pip\'s cache?"'
    )
    assert docs.command(["tgneo", "ask", "What is $HOME's size?"]) == "$ tgneo ask 'What is $HOME'\"'\"'s size?'"
