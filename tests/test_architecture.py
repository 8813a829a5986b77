"""The architecture the package layout promises (docs/development.md): a pure core, one vocabulary, one mapping table.

And the house's references kept true: no comment cites a design document the repository does not hold, and
every module or test file a docstring or a page names exists.
"""

from __future__ import annotations

import ast
import importlib
import io
import re
import tokenize
from pathlib import Path

import pytest

from tgneo.mapping import CLASSES, RELATIONSHIPS, STATEMENT_RELS, STRUCTURAL_LABELS
from tgneo.vocab import Label, Rel

PACKAGE = Path(__file__).resolve().parent.parent / "tgneo"
PURE = [
    "vocab.py",
    "mapping.py",
    "owned.py",
    "kinds.py",
    "timestamps.py",
    "errors.py",
    "uris.py",
    "graphmodel",
    "patterns.py",
    "entrypoints.py",
    "explain/entity.py",
    "explain/graphrag.py",
    "explain/docrag.py",
    "explain/agent.py",
    "explain/entities.py",
    "explain/events.py",
    "explain/extraction_time.py",
    "explain/verification.py",
    "ingest/chunking.py",
    "ingest/facts.py",
    "ingest/layout.py",
    "ingest/graph.py",
    "ingest/sources.py",
    "ingest/readers",
    "ingest/sample",
    "rdf",
    # packages that are pure by design, checked as soon as they exist
    "stream",
    "llm",
    "downloads.py",  # the llm package's downloader (the embedder's weights): it must not reach up either
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
    up = ("tgneo.store", "tgneo.web", "tgneo.cli", "tgneo.ogm", "tgneo.provision")
    forbidden = _reaching(path, (*DRIVER, *FLASK, *up))
    assert not forbidden, f"{_rel(path)} imports {sorted(forbidden)}"


@pytest.mark.parametrize("path", _modules("store"), ids=_rel)
def test_the_store_never_reaches_up(path: Path) -> None:
    """Storage is the bottom layer: the recorder, engines, streams and the web call it, never the reverse."""
    up = ("tgneo.explain", "tgneo.engines", "tgneo.stream", "tgneo.web", "tgneo.cli", "tgneo.ogm", "tgneo.llm")
    forbidden = _reaching(path, up)
    assert not forbidden, f"{_rel(path)} imports {sorted(forbidden)}"


@pytest.mark.parametrize("path", _modules("engines"), ids=_rel)
def test_engines_use_store_functions_never_the_driver_or_the_transports(path: Path) -> None:
    """Engines call the recorder, the LLM and ``tgneo.store`` functions; Cypher stays in tgneo/cypher/."""
    forbidden = _reaching(path, (*DRIVER, *FLASK, "tgneo.web", "tgneo.cli", "tgneo.ogm", "tgneo.provision"))
    assert not forbidden, f"{_rel(path)} imports {sorted(forbidden)}"
    assert not re.search(r"\b(MATCH|MERGE|UNWIND)\s*\(", path.read_text()), f"{_rel(path)} spells Cypher"


@pytest.mark.parametrize("path", _modules("ingest"), ids=_rel)
def test_the_ingest_pipeline_uses_the_store_but_never_the_web_the_cli_or_the_explain_layer(path: Path) -> None:
    """Ingest sits beside the engines: it calls the LLM seam and the store's functions, nothing above them."""
    up = ("tgneo.web", "tgneo.cli", "tgneo.ogm", "tgneo.engines", "tgneo.stream", "tgneo.explain.recorder")
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
def test_only_the_store_and_the_ogm_touch_the_driver(path: Path) -> None:
    rel = _rel(path)
    if rel.startswith("store/") or rel in ("ogm.py", "provision/server.py"):
        return  # provision only probes Bolt while waiting for the server it started
    assert not _reaching(path, DRIVER), rel


@pytest.mark.parametrize("path", ALL, ids=_rel)
def test_neomodel_is_reached_only_through_tgneo_ogm_which_no_module_imports(path: Path) -> None:
    """neomodel is the extra ``tgneo[neomodel]`` (it holds the driver at ~=6.1.0): no command may need it."""
    rel = _rel(path)
    if rel == "ogm.py":
        return
    assert not _reaching(path, ("neomodel",)), rel
    assert "tgneo.ogm" not in IMPORTS[_module_name(path)], rel


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
        "tgneo.explain.citations": {"answer_sentence"},
        "tgneo.explain.retrieval": {"retrieval_hit"},
        "tgneo.explain.question_parts": {"question_part", "part_items"},
        "tgneo.explain.verification": {"verification", "counterfactual"},
        "tgneo.explain.extraction_time": {"document", "derived_entity", "subgraph"},
    }  # fmt: skip


def _module_name(path: Path) -> str:
    parts = ["tgneo", *path.relative_to(PACKAGE).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(path): path for path in ALL}


def _owner(name: str) -> str | None:
    """The tgneo module ``name`` is, or is inside (``tgneo.vocab.TG`` → ``tgneo.vocab``)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _module_imports(module: str) -> set[str]:
    """The tgneo modules ``module`` imports, lazily or not: ``from a import b`` is ``a.b`` when that is a module."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names]
        else:
            continue
        found |= {owner for t in targets if (owner := _owner(t)) is not None and owner != module}
    return found


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan): every import circle, each once."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _package(module: str) -> str:
    """The top-level part of tgneo a module belongs to: ``tgneo.store``, ``tgneo.uris`` …"""
    return ".".join(module.split(".")[:2])


IMPORTS = {module: _module_imports(module) for module in MODULES}


def test_no_module_imports_a_module_that_imports_it_back() -> None:
    """No circle of imports between modules, lazy imports included: each module reads above what it uses."""
    assert _cycles(IMPORTS) == []


def test_no_package_imports_a_package_that_imports_it_back() -> None:
    """The packages form layers: if ``explain`` uses ``ingest``, nothing in ``ingest`` uses ``explain``."""
    packages: dict[str, set[str]] = {}
    for module, targets in IMPORTS.items():
        packages.setdefault(_package(module), set()).update(
            _package(t) for t in targets if _package(t) != _package(module)
        )
    assert _cycles(packages) == []


def test_the_cycle_check_sees_a_circle() -> None:
    """The check itself: a circle of three, and a package pair, are found; a chain is not."""
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": {"c"}}) == []


RECORDING = [PACKAGE / "explain" / "recorder.py", PACKAGE / "explain" / "commit_pipeline.py"]


@pytest.mark.parametrize("path", RECORDING, ids=_rel)
def test_the_recorder_writes_through_store_functions_and_knows_no_engine_transport_or_llm(path: Path) -> None:
    """Recording sits between the engines and the store: it calls ``tgneo.store`` functions, nothing above."""
    up = ("tgneo.engines", "tgneo.stream", "tgneo.web", "tgneo.cli", "tgneo.service", "tgneo.llm", "tgneo.ogm")
    forbidden = _reaching(path, (*DRIVER, *FLASK, *up))
    assert not forbidden, f"{_rel(path)} imports {sorted(forbidden)}"
    assert "Q." not in path.read_text() and not re.search(r"\b(MATCH|MERGE|UNWIND)\s*\(", path.read_text())


@pytest.mark.parametrize("path", _modules("service"), ids=_rel)
def test_the_service_layer_is_what_views_and_the_cli_share_so_it_knows_neither_flask_nor_the_driver(
    path: Path,
) -> None:
    """Request orchestration is Flask-free: the CLI runs it as the views do, and it calls store functions."""
    forbidden = _reaching(path, (*DRIVER, *FLASK, "tgneo.web", "tgneo.cli", "tgneo.ogm"))
    assert not forbidden, f"{_rel(path)} imports {sorted(forbidden)}"


VIEWS = sorted(m for m, p in MODULES.items() if m.startswith("tgneo.web.") and "Blueprint(" in p.read_text())


@pytest.mark.parametrize("module", VIEWS)
def test_no_view_imports_another_view(module: str) -> None:
    """What two views share lives in ``tgneo.service`` (or a web helper that is no view), never in a view."""
    assert not (IMPORTS[module] & set(VIEWS)), f"{module} imports {sorted(IMPORTS[module] & set(VIEWS))}"


def test_the_views_are_found() -> None:
    assert {"tgneo.web.questions", "tgneo.web.gateway", "tgneo.web.librarian", "tgneo.web.rdf"} <= set(VIEWS)


def test_only_the_streaming_reader_uses_pyoxigraph() -> None:
    """The parser choice (pyoxigraph for Turtle, TriG and JSON-LD) lives in one module."""
    users = sorted(
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if re.search(r"^\s*(import pyoxigraph|from pyoxigraph)", path.read_text(), re.M)
    )
    assert users == ["rdf/reader.py"]


# ------------------------------------------------------------------------------- references kept true
ROOT = PACKAGE.parent
HOUSE = sorted(
    [p for d in ("tgneo", "tests", "scripts") for p in (ROOT / d).rglob("*.py")]
    + list((ROOT / "scripts").glob("*.sh"))
    + list((PACKAGE / "cypher").glob("*.cypher"))
    + list((ROOT / "docs").rglob("*.md"))
    + list(ROOT.glob("*.md"))
)
"""The house's own text: code, scripts, queries and pages (the benchmark's third-party corpora are not ours)."""

_CITATION = re.compile(r"\b(?:DESIGN|STYLE)(?:\.md\b(?:\s*§\s*\d*)?|\s*§\s*\d*|\s+\d+)")
"""A design or style document cited by name (and section): no such document is in the repository."""
_MODULE_REF = re.compile(r"(?<![\w./-])tgneo(?:\.[A-Za-z_]\w*){2,}")
_TEST_FILE_REF = re.compile(r"(?<![\w./-])tests/test_\w+\.py\b")


def _prose(path: Path) -> list[tuple[int, str]]:
    """``(line, text)`` of what a reader reads in ``path``: a Python file's docstrings and comments, else all of it."""
    text = path.read_text()
    if path.suffix != ".py":
        return [(1, text)]
    found = [
        (node.lineno, node.value.value)
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
    ]
    tokens = tokenize.generate_tokens(io.StringIO(text).readline)
    return found + [(t.start[0], t.string) for t in tokens if t.type == tokenize.COMMENT]


SPELLED = {
    node.value
    for path in ALL
    for node in ast.walk(ast.parse(path.read_text()))
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and _MODULE_REF.fullmatch(node.value)
}
"""Dotted names the package spells as values (OpenTelemetry attributes such as ``tgneo.prov.entity``), not modules."""


def _definition(body: list[ast.stmt], name: str) -> ast.stmt | None:
    """The statement of ``body`` (conditional and ``try`` blocks included) that binds ``name``."""
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and node.name == name:
            return node
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            return node
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == name:
            return node
        if isinstance(node, ast.Import | ast.ImportFrom) and any(
            (a.asname or a.name.split(".")[0]) == name for a in node.names
        ):
            return node
        if isinstance(node, ast.If | ast.Try):
            blocks = [node.body, node.orelse]
            if isinstance(node, ast.Try):
                blocks += [*(h.body for h in node.handlers), node.finalbody]
            for block in blocks:
                if (found := _definition(block, name)) is not None:
                    return found
    return None


def _names_something(ref: str) -> bool:
    """Whether a dotted name under ``tgneo`` is a module of the package, or a name one defines (read, not run).

    The longest module prefix must bind the next name; what lies beyond it is not followed (a class's inherited
    members and instance attributes cannot be read off the source). A module that computes its names
    (``__getattr__``: the lazy ``tgneo.connect``) is asked at run time.
    """
    module = _owner(ref)
    if module is None:
        return False
    rest = ref[len(module) + 1 :].split(".") if ref != module else []
    if not rest:
        return True
    body = ast.parse(MODULES[module].read_text()).body
    if _definition(body, rest[0]) is not None:
        return True
    return _definition(body, "__getattr__") is not None and hasattr(importlib.import_module(module), rest[0])


def _citations(text: str) -> list[str]:
    """The design or style documents ``text`` cites (it must say the point in its own words instead)."""
    return [m.group(0) for m in _CITATION.finditer(text)]


def _dangling(text: str) -> list[str]:
    """The modules, names and test files ``text`` refers to that the repository does not hold."""
    refs = [m.group(0) for m in _MODULE_REF.finditer(text)]
    found = [ref for ref in refs if ref not in SPELLED and not _names_something(ref)]
    return found + [m.group(0) for m in _TEST_FILE_REF.finditer(text) if not (ROOT / m.group(0)).is_file()]


@pytest.mark.parametrize("path", HOUSE, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_text_of_the_house_cites_a_design_document_the_repository_does_not_hold(path: Path) -> None:
    """Code, queries and pages say their point in their own words (a string a program prints counts too)."""
    assert _citations(path.read_text()) == []


@pytest.mark.parametrize("path", HOUSE, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_module_and_test_file_a_docstring_or_a_page_names_exists(path: Path) -> None:
    """A reader follows what a docstring, comment, query header or page names: it must be there."""
    dangling = [f"line {line}: {ref}" for line, text in _prose(path) for ref in _dangling(text)]
    assert dangling == []


def test_the_reference_checks_see_what_this_house_once_carried() -> None:
    """The checks themselves: each stale reference once in the tree is found, and true ones are not."""
    design, style = "DESIGN", "STYLE"  # spelled apart, so that this file does not cite them itself
    cited = f"the rule of {design} §1 ({style} 17; {style}.md §11), as {design}.md says"
    assert _citations(cited) == [f"{design} §1", f"{style} 17", f"{style}.md §11", f"{design}.md"]
    assert _citations(f"const {style} = [ … ], the {style} list") == []
    stale = "``tgneo.store.writer.write_batch``, ``tgneo.graphmodel.native_value``, :mod:`~tgneo.service.requests`"
    assert _dangling(stale) == [
        "tgneo.store.writer.write_batch",
        "tgneo.graphmodel.native_value",
        "tgneo.service.requests",
    ]
    assert _dangling("``tests/test_openapi.py`` and ``tests/test_ontology.py`` check it") == [
        "tests/test_openapi.py", "tests/test_ontology.py",
    ]  # fmt: skip
    assert _dangling("``tgneo.writer.write_batch``, ``tgneo.nosuch.module``") == [
        "tgneo.writer.write_batch", "tgneo.nosuch.module",
    ]  # fmt: skip
    true = "``tgneo.store.write_path.write_batch``, :func:`~tgneo.connect.x`, ``tgneo.explain.events.ExplainEvent.of``"
    assert _dangling(f"{true}, ``tgneo.prov.entity``, ``tests/test_trace_api.py``, ``tgneo.kinds.SessionKind``") == []


_BARE_CLI = re.compile(r'"-m",\s*"tgneo\.cli"')


def test_tests_spawn_the_cli_as_tests_clirun_does_so_the_checkout_never_shadows_the_installed_package() -> None:
    """``python -m tgneo.cli`` without ``-P`` puts the working directory (the checkout) first on ``sys.path``."""
    bare = [
        p.name
        for p in sorted((ROOT / "tests").glob("*.py"))
        if p.name != "clirun.py" and _BARE_CLI.search(p.read_text())
    ]
    assert bare == []
