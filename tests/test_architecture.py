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
    "kinds.py",
    "timestamps.py",
    "errors.py",
    "uris.py",
    "graphmodel.py",
    "patterns.py",
    "explain/entity.py",
    "explain/graphrag.py",
    "explain/docrag.py",
    "explain/agent.py",
    "explain/entities.py",
    "explain/events.py",
    "ingest/provenance.py",
    "ingest/chunking.py",
    "ingest/facts.py",
    "ingest/layout.py",
    "ingest/graph.py",
    "ingest/sources.py",
    "ingest/embedding.py",
    "ingest/readers",
    "ingest/sample",
    "rdf",
    # packages that are pure by design, checked as soon as they exist
    "stream",
    "llm",
]
DRIVER = ("neo4j", "neomodel")
FLASK = ("flask", "flask_sock", "werkzeug", "simple_websocket", "gunicorn")


def _modules(entry: str) -> list[Path]:
    path = PACKAGE / entry
    if path.is_dir():
        return sorted(path.rglob("*.py"))
    return [path] if path.exists() else []


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports, top-level or inside a function (lazy imports count too)."""
    tree = ast.parse(path.read_text())
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def _reaching(path: Path, packages: tuple[str, ...]) -> set[str]:
    """The imports of ``path`` that are, or are inside, one of ``packages``."""
    return {n for n in _imports(path) if any(n == p or n.startswith(p + ".") for p in packages)}


def _rel(path: Path) -> str:
    return path.relative_to(PACKAGE).as_posix()


ALL = sorted(PACKAGE.rglob("*.py"))


def test_the_pure_modules_all_exist() -> None:
    present = [e for e in PURE if (PACKAGE / e).exists()]
    assert set(PURE) - set(present) <= {"stream"}, "a pure module was renamed: update PURE"


@pytest.mark.parametrize("path", [p for e in PURE for p in _modules(e)], ids=_rel)
def test_the_pure_core_never_imports_the_driver_flask_or_the_io_layers(path: Path) -> None:
    up = ("tgneo.store", "tgneo.web", "tgneo.cli", "tgneo.models", "tgneo.provision")
    forbidden = _reaching(path, (*DRIVER, *FLASK, *up))
    assert not forbidden, f"{_rel(path)} imports {sorted(forbidden)}"


@pytest.mark.parametrize("path", _modules("store"), ids=_rel)
def test_the_store_never_reaches_up(path: Path) -> None:
    """Storage is the bottom layer: the recorder, engines, streams and the web call it, never the reverse."""
    up = ("tgneo.explain", "tgneo.engines", "tgneo.stream", "tgneo.web", "tgneo.cli", "tgneo.models", "tgneo.llm")
    forbidden = _reaching(path, up)
    assert not forbidden, f"{_rel(path)} imports {sorted(forbidden)}"


@pytest.mark.parametrize("path", _modules("engines"), ids=_rel)
def test_engines_use_store_functions_never_the_driver_or_the_transports(path: Path) -> None:
    """Engines call the recorder, the LLM and ``tgneo.store`` functions; Cypher stays in tgneo/cypher/."""
    forbidden = _reaching(path, (*DRIVER, *FLASK, "tgneo.web", "tgneo.cli", "tgneo.models", "tgneo.provision"))
    assert not forbidden, f"{_rel(path)} imports {sorted(forbidden)}"
    assert not re.search(r"\b(MATCH|MERGE|UNWIND)\s*\(", path.read_text()), f"{_rel(path)} spells Cypher"


@pytest.mark.parametrize("path", _modules("ingest"), ids=_rel)
def test_the_ingest_pipeline_uses_the_store_but_never_the_web_the_cli_or_the_explain_layer(path: Path) -> None:
    """Ingest sits beside the engines: it calls the LLM seam and the store's functions, nothing above them."""
    up = ("tgneo.web", "tgneo.cli", "tgneo.models", "tgneo.engines", "tgneo.stream", "tgneo.explain.recorder")
    forbidden = _reaching(path, (*DRIVER, *FLASK, *up))
    assert not forbidden, f"{_rel(path)} imports {sorted(forbidden)}"


@pytest.mark.parametrize("path", _modules("stream"), ids=_rel)
def test_the_stream_layer_knows_events_and_requests_never_engines_or_models(path: Path) -> None:
    """Transports frame what engines yield; which engine runs, on which store and LLM, is the web layer's call."""
    forbidden = _reaching(path, ("tgneo.engines", "tgneo.llm", "tgneo.explain.recorder", "tgneo.ingest"))
    assert not forbidden, f"{_rel(path)} imports {sorted(forbidden)}"


@pytest.mark.parametrize("path", _modules("web"), ids=_rel)
def test_the_web_layer_reaches_neo4j_only_through_store_functions(path: Path) -> None:
    """Views call ``tgneo.store`` functions; they never hold Cypher or a driver session of their own."""
    assert not _reaching(path, DRIVER), _rel(path)
    assert "Q." not in path.read_text() and not re.search(r"\b(MATCH|MERGE|UNWIND)\s*\(", path.read_text())


@pytest.mark.parametrize("path", ALL, ids=_rel)
def test_only_the_store_and_models_touch_the_driver(path: Path) -> None:
    rel = _rel(path)
    if rel.startswith("store/") or rel in ("models.py", "provision/server.py"):
        return  # provision only probes Bolt while waiting for the server it started
    assert not _reaching(path, DRIVER), rel


@pytest.mark.parametrize("path", ALL, ids=_rel)
def test_only_the_web_package_touches_flask(path: Path) -> None:
    if _rel(path).startswith("web/"):
        return
    assert not _reaching(path, FLASK), _rel(path)


@pytest.mark.parametrize("path", ALL, ids=_rel)
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


def test_each_kind_of_step_and_the_source_provenance_live_in_a_module_of_their_own() -> None:
    """A reader finds GraphRAG's steps, Document RAG's, the agents' and the source provenance each in one place."""
    from tgneo.explain.entities import ENTITY_TYPES

    by_module: dict[str, set[str]] = {}
    for kind, cls in ENTITY_TYPES.items():
        by_module.setdefault(cls.__module__, set()).add(kind)
    assert by_module == {
        "tgneo.explain.graphrag": {"question", "grounding", "exploration", "focus", "synthesis"},
        "tgneo.explain.docrag": {"docrag_question", "docrag_exploration", "docrag_focus", "docrag_synthesis"},
        "tgneo.explain.agent": {
            "agent_question", "pattern_decision", "analysis", "observation", "conclusion", "plan", "step_result",
            "agent_synthesis", "decomposition", "finding",
        },
        "tgneo.ingest.provenance": {"document", "derived_entity", "subgraph"},
    }  # fmt: skip


def test_only_the_streaming_reader_uses_pyoxigraph() -> None:
    """The parser choice (pyoxigraph for Turtle, TriG and JSON-LD) lives in one module."""
    users = sorted(
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if re.search(r"^\s*(import pyoxigraph|from pyoxigraph)", path.read_text(), re.M)
    )
    assert users == ["rdf/reader.py"]
