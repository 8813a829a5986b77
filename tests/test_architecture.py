"""The architecture as DESIGN §2 draws it: a pure core, one vocabulary, one mapping table."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tgneo.mapping import CLASSES, RELATIONSHIPS, STATEMENT_RELS, STRUCTURAL_LABELS
from tgneo.vocab import Label, Rel

PACKAGE = Path(__file__).resolve().parent.parent / "tgneo"
PURE = [
    "vocab.py",
    "mapping.py",
    "uris.py",
    "graphmodel.py",
    "explain/entity.py",
    "explain/graphrag.py",
    "explain/docrag.py",
    "explain/agent.py",
    "explain/entities.py",
    "explain/events.py",
    "ingest/provenance.py",
    "rdf",
]


def _modules(entry: str) -> list[Path]:
    path = PACKAGE / entry
    return sorted(path.rglob("*.py")) if path.is_dir() else [path]


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


@pytest.mark.parametrize("path", [p for e in PURE for p in _modules(e)], ids=lambda p: str(p.relative_to(PACKAGE)))
def test_the_pure_core_never_imports_the_driver_or_flask(path: Path) -> None:
    forbidden = {n for n in _imports(path) if n.split(".")[0] in ("neo4j", "flask", "neomodel") or
                 n.startswith(("tgneo.store", "tgneo.web"))}  # fmt: skip
    assert not forbidden, f"{path.name} imports {sorted(forbidden)}"


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_only_the_store_and_models_touch_the_driver(path: Path) -> None:
    rel = path.relative_to(PACKAGE).as_posix()
    if rel.startswith("store/") or rel in ("models.py", "provision/server.py"):
        return  # provision only probes Bolt while waiting for the server it started
    assert not {n for n in _imports(path) if n.split(".")[0] in ("neo4j", "neomodel")}, rel


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_but_the_vocabulary_spells_a_namespace_iri(path: Path) -> None:
    if path.name == "vocab.py":
        return
    text = path.read_text()
    assert not re.search(r"[\"']https?://(www\.w3\.org|trustgraph\.ai/ns|purl\.org|schema\.org)", text), path.name


def test_every_class_label_is_mapped_from_an_rdf_class() -> None:
    mapped = {row.label for row in CLASSES}
    assert set(Label) - STRUCTURAL_LABELS == mapped


def test_every_relationship_type_is_mapped_from_a_predicate() -> None:
    assert set(Rel) - STATEMENT_RELS == {row.rel for row in RELATIONSHIPS}
