"""Every environment variable tgneo reads is described in docs/configuration.md.

The variables are found statically, in the source, so one read on a path no test takes counts as well: in
``tgneo/**/*.py`` a name (``TGNEO_*``, ``NEO4J_*``, ``OTEL_*``, ``OPENAI_*``) given to ``os.environ.get``,
``os.getenv``, ``os.environ[…]``, ``… in os.environ``, the ``.get`` of a mapping called ``env``/``environ``, click's
``envvar=``, or ``_env(…)`` (the metadata of :class:`tgneo.config.Settings`'s fields), whether spelled there or
through a module constant (``REPOSITORY_VAR = "TGNEO_MAVEN_REPOSITORY"``, a tuple of names iterated over); a
module constant whose value is such a name counts too; and in ``scripts/*.sh`` every ``$NAME`` / ``${NAME…}``
outside comments. The page describes a variable when it names it as a code span of its own (`` `TGNEO_HOME` ``):
in a table row or in prose, not merely inside an example command.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from dataclasses import fields
from pathlib import Path

from tgneo.config import Settings

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "configuration.md"
NAME = re.compile(r"(?:TGNEO|NEO4J|OTEL|OPENAI)_[A-Z0-9_]*[A-Z0-9]")
SHELL_READ = re.compile(r"\$\{?(" + NAME.pattern + r")")
OWN_SPAN = re.compile(r"`\$?([A-Z][A-Z0-9_]*)`")
MAPPINGS = ("environ", "env")
"""What a mapping of environment variables is called where tgneo reads one (``os.environ``, ``Settings.from_env``'s
``env``, ``provision.plugins``'s ``env``)."""


def _terminal(node: ast.expr) -> str | None:
    """The last name of ``a.b.c`` (``c``) or of ``c``."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _constants(tree: ast.Module) -> dict[str, list[str]]:
    """The module's constants that hold strings: ``NAME = "…"`` or a tuple, list or set of strings."""
    found: dict[str, list[str]] = {}
    for node in tree.body:
        target, value = None, None
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            target, value = node.target, node.value
        if not isinstance(target, ast.Name) or target.id.startswith("__"):
            continue
        if isinstance(value, ast.Call) and _terminal(value.func) in ("frozenset", "set", "tuple") and value.args:
            value = value.args[0]
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            found[target.id] = [value.value]
        elif isinstance(value, ast.Tuple | ast.List | ast.Set):
            items = [e.value for e in value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
            if len(items) == len(value.elts):
                found[target.id] = items
    return found


def _reads(tree: ast.Module, known: dict[str, list[str]]) -> list[tuple[str, int]]:
    """The variable names ``tree`` reads, with the line of each read (module docstring); ``known`` holds every
    module's constants by name, for a constant imported from another module (``downloads.SWITCH_VAR``)."""
    constants = {**known, **_constants(tree)}
    loops: dict[str, list[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.comprehension | ast.For) and isinstance(node.target, ast.Name):
            loops[node.target.id] = _strings(node.iter, constants, {})

    found: list[tuple[str, int]] = []

    def read(node: ast.expr) -> None:
        found.extend((s, node.lineno) for s in _strings(node, constants, loops))

    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func, name = node.func, _terminal(node.func)
            on_mapping = isinstance(func, ast.Attribute) and _terminal(func.value) in MAPPINGS
            if node.args and ((on_mapping and name in ("get", "pop", "setdefault")) or name in ("getenv", "_env")):
                read(node.args[0])
            for keyword in node.keywords:
                if keyword.arg == "envvar":
                    read(keyword.value)
        elif isinstance(node, ast.Subscript) and _terminal(node.value) in MAPPINGS:
            read(node.slice)
        elif isinstance(node, ast.Compare) and any(isinstance(op, ast.In | ast.NotIn) for op in node.ops):
            if any(_terminal(c) in MAPPINGS for c in node.comparators):
                read(node.left)
    for node in tree.body:  # a module constant naming a variable is there to be read
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target
            if isinstance(target, ast.Name) and not target.id.startswith("__"):
                read(node.value)
    return [(s, line) for s, line in found if NAME.fullmatch(s)]


def _strings(node: ast.expr, constants: dict[str, list[str]], loops: dict[str, list[str]]) -> list[str]:
    """The strings an expression stands for: a literal, a constant's or a loop variable's values, a tuple's."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return [s for e in node.elts for s in _strings(e, constants, loops)]
    name = _terminal(node)
    if isinstance(node, ast.Name) and name in loops:
        return loops[name]
    return constants.get(name, []) if name else []


def variables_read_in_python(sources: dict[str, str]) -> dict[str, list[str]]:
    """Each variable the Python ``sources`` (path → text) read, with where (``path:line``)."""
    trees = {path: ast.parse(text) for path, text in sources.items()}
    known: dict[str, list[str]] = {}
    for tree in trees.values():
        known.update(_constants(tree))
    where: dict[str, list[str]] = defaultdict(list)
    for path, tree in trees.items():
        for name, line in _reads(tree, known):
            where[name].append(f"{path}:{line}")
    return dict(where)


def variables_read_in_shell(sources: dict[str, str]) -> dict[str, list[str]]:
    """Each variable the shell ``sources`` expand (``$NAME``, ``${NAME…}``), comments aside, with where."""
    where: dict[str, list[str]] = defaultdict(list)
    for path, text in sources.items():
        for number, line in enumerate(text.splitlines(), 1):
            if not line.lstrip().startswith("#"):
                for name in SHELL_READ.findall(line):
                    where[name].append(f"{path}:{number}")
    return dict(where)


def variables_read() -> dict[str, list[str]]:
    """Every variable tgneo's code and scripts read, with where."""
    python = {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8") for p in sorted((ROOT / "tgneo").rglob("*.py"))}
    shell = {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8") for p in sorted((ROOT / "scripts").glob("*.sh"))}
    where: dict[str, list[str]] = defaultdict(list)
    for found in (variables_read_in_python(python), variables_read_in_shell(shell)):
        for name, places in found.items():
            where[name] += places
    return dict(where)


def described(page: str) -> set[str]:
    """The variables ``page`` names as a code span of their own."""
    return set(OWN_SPAN.findall(page))


def undescribed(page: str, read: dict[str, list[str]]) -> list[str]:
    """Each variable read that ``page`` does not describe, with where it is read."""
    known = described(page)
    return [f"{name} (read at {', '.join(read[name][:3])})" for name in sorted(read) if name not in known]


def test_every_variable_tgneo_reads_is_described_in_the_configuration_page() -> None:
    missing = undescribed(PAGE.read_text(encoding="utf-8"), variables_read())
    assert missing == [], "docs/configuration.md does not describe:\n  " + "\n  ".join(missing)


def test_the_search_finds_the_variables_it_must() -> None:
    """Not vacuous: the variables of every kind of read are found, and Settings' fields all are."""
    read = variables_read()
    expected = {
        "TGNEO_HOME",  # os.environ.get("…")
        "NEO4J_URI",  # _env("…") and os.environ.get
        "TGNEO_INSTANCE",  # click's envvar=
        "TGNEO_MAVEN_REPOSITORY",  # a module constant, os.environ.get(REPOSITORY_VAR)
        "TGNEO_NEO4J_PLUGINS",  # env.get(ENV_VAR) on a mapping passed in
        "OTEL_PYTHON_EXPORTER_OTLP_HTTP_TRACES_CREDENTIAL_PROVIDER",  # a tuple of names iterated over
        "TGNEO_JAVA",  # os.environ.get and ${TGNEO_JAVA:-} in scripts/bootstrap.sh
        "TGNEO_BOOTSTRAP",  # only in scripts/demo.sh
    }
    assert expected - set(read) == set()
    assert {f.metadata["env_var"] for f in fields(Settings) if "env_var" in f.metadata} - set(read) == set()
    assert len(read) >= 40, sorted(read)


def test_each_kind_of_read_is_found_and_other_strings_are_not() -> None:
    source = """
import os
from tgneo import downloads
NAMED = "TGNEO_A"
PAIR = ("TGNEO_B", "TGNEO_C")
__all__ = ["TGNEO_NOT_A_VARIABLE"]
def f(env):
    os.environ.get("TGNEO_D"); os.getenv("NEO4J_E"); os.environ["OTEL_F"]; env.get("OPENAI_G")
    any(os.environ.get(v) for v in PAIR); _env("TGNEO_H"); "TGNEO_I" in os.environ
    os.environ.get(downloads.SWITCH_VAR)
    print("TGNEO_J", {"TGNEO_K": 1}); other.get("TGNEO_L"); os.environ.get("HOME")
@click.option("--x", envvar="TGNEO_M")
def g(): pass
"""
    found = variables_read_in_python({"m.py": source, "downloads.py": 'SWITCH_VAR = "TGNEO_N"'})
    assert set(found) == {"TGNEO_A", "TGNEO_B", "TGNEO_C", "TGNEO_D", "NEO4J_E", "OTEL_F", "OPENAI_G", "TGNEO_H",
                          "TGNEO_I", "TGNEO_M", "TGNEO_N"}  # fmt: skip
    shell = variables_read_in_shell({"s.sh": '# $TGNEO_COMMENT\nx="${TGNEO_P:-1}" "$NEO4J_Q" TGNEO_SET=1\n'})
    assert sorted(shell) == ["NEO4J_Q", "TGNEO_P"]


def test_a_variable_the_page_does_not_describe_is_named() -> None:
    page = PAGE.read_text(encoding="utf-8")
    without = "\n".join(line for line in page.splitlines() if "`TGNEO_INSTANCE`" not in line)
    assert [m.split(" ")[0] for m in undescribed(without, variables_read())] == ["TGNEO_INSTANCE"]
    assert "TGNEO_LLM" not in described("export `TGNEO_LLM=openai`"), "a mention in an example is no description"
