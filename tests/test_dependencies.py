"""tgneo installs beside the user's libraries: ranges in pyproject.toml, exact pins in constraints.txt, optional extras.

These tests run in both environments scripts/test.sh builds: the locked one (.venv, constraints.txt) and the newest
releases (scripts/test-newest.sh), so what they check holds wherever a user's LangChain or neo4j-graphrag put tgneo.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
LOCK = ROOT / "constraints.txt"


def _requirements() -> list[Requirement]:
    """Every requirement pyproject.toml states on another project: the runtime ones and every extra's."""
    lines = [*PYPROJECT["dependencies"], *(r for extra in PYPROJECT["optional-dependencies"].values() for r in extra)]
    return [req for req in map(Requirement, lines) if canonicalize_name(req.name) != "tgneo"]


def _locked() -> dict[str, Version]:
    pins: dict[str, Version] = {}
    for line in LOCK.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, version = line.partition("==")
            pins[canonicalize_name(name)] = Version(version)
    return pins


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT)


def test_every_runtime_dependency_is_a_range_bounded_below_the_next_major() -> None:
    """An exact pin would refuse the driver or library version the user's own packages resolved."""
    for req in map(Requirement, PYPROJECT["dependencies"]):
        operators = {spec.operator for spec in req.specifier}
        assert operators == {">=", "<"}, f"{req} is not a range '>=tested,<next major'"


def test_neomodel_and_the_rust_packstream_are_extras_not_runtime_dependencies() -> None:
    """neomodel holds the driver at ~=6.1.0; neo4j-rust-ext breaks at import under any driver but its own."""
    runtime = {canonicalize_name(Requirement(r).name) for r in PYPROJECT["dependencies"]}
    assert not runtime & {"neomodel", "neo4j-rust-ext"}
    assert [Requirement(r).name for r in PYPROJECT["optional-dependencies"]["neomodel"]] == ["neomodel"]
    assert [Requirement(r).name for r in PYPROJECT["optional-dependencies"]["rust"]] == ["neo4j-rust-ext"]


def test_the_lock_pins_a_version_inside_every_range_pyproject_states() -> None:
    """constraints.txt is what CI installs: it must be one resolution of pyproject's ranges, not a stale set."""
    pins = _locked()
    for req in _requirements():
        name = canonicalize_name(req.name)
        assert name in pins, f"constraints.txt has no pin for {req.name}: run scripts/lock.sh"
        assert pins[name] in req.specifier, f"constraints.txt pins {req.name}=={pins[name]}, outside {req}"


def test_the_lock_pins_the_rust_packstream_built_for_the_locked_driver() -> None:
    """neo4j-rust-ext X.Y.Z.0 patches neo4j X.Y.Z's private modules and fails under any other driver release."""
    pins = _locked()
    assert pins["neo4j-rust-ext"].release[:3] == pins["neo4j"].release


def test_no_command_imports_neomodel() -> None:
    """Every command's module and --help runs without neomodel in the process, so none needs the extra."""
    code = """
import sys, click, pkgutil, importlib
from click.testing import CliRunner
import tgneo.cli, tgneo.adapters
from tgneo.cli import cli
for package in (tgneo.cli, tgneo.adapters):
    for info in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
        if not info.name.endswith(".__main__"):  # that one runs the CLI on this process's argv
            importlib.import_module(info.name)
def walk(group, path):
    yield path
    for name, command in group.commands.items():
        yield from walk(command, [*path, name]) if isinstance(command, click.Group) else [[*path, name]]
for path in walk(cli, []):
    result = CliRunner().invoke(cli, [*path, "--help"])
    assert result.exit_code == 0, (path, result.output)
print(sorted(m for m in sys.modules if m.partition(".")[0] == "neomodel"))
"""
    run = _run(code)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"


def test_tgneo_ogm_without_neomodel_names_the_extra_to_install() -> None:
    """``sys.modules['neomodel'] = None`` is how Python itself marks a module absent (the import then fails)."""
    run = _run("import sys; sys.modules['neomodel'] = None; import tgneo.ogm")
    assert run.returncode == 1
    assert run.stderr.strip().splitlines()[-1] == (
        "ModuleNotFoundError: tgneo.ogm needs neomodel, which is an extra: pip install 'tgneo[neomodel]'"
    )


def test_the_langchain_and_neo4j_graphrag_adapters_import_beside_the_installed_libraries() -> None:
    """What a LangChain or neo4j-graphrag user writes first, in a fresh process of this environment."""
    run = _run(
        "from tgneo.adapters.langchain import TgneoCallbackHandler\n"
        "from tgneo.adapters.neo4j_graphrag import ExplainedGraphRAG\n"
        "print(TgneoCallbackHandler.__name__, ExplainedGraphRAG.__name__)"
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["TgneoCallbackHandler", "ExplainedGraphRAG"]
