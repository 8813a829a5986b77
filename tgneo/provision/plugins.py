"""Server plugins a local instance can carry for the user's own tools (``tgneo db start --plugin apoc``).

Why tgneo provisions a plugin it never calls: the local server is also the user's server.
LangChain's ``Neo4jGraph()`` reads the schema with ``apoc.meta.data`` and writes with ``apoc.merge.*``;
LLM Graph Builder and neo4j-graphrag's ``Neo4jWriter`` write through APOC too. Without it their first call fails
("Could not use APOC procedures"), and with APOC copied by hand ``apoc.meta.data`` is refused as sandboxed,
because tgneo rewrites ``neo4j.conf`` at each start. tgneo's own queries stay driver-only: no plugin is on
unless asked for, and nothing in tgneo calls one.

One source of truth per plugin: its Maven coordinates and version live in ``plugins.pom.xml`` (one Maven
profile per plugin); the ``neo4j.conf`` settings it needs are declared here. This module only declares:
:func:`tgneo.provision.maven.plugin_jars` resolves a plugin once from Maven Central into
``$TGNEO_HOME/plugins/<name>-<version>/lib`` the way the server's own jars are, and :class:`LocalNeo4j` copies
them into an instance's ``plugins/`` at each start.
"""

from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable

from tgneo.errors import ConfigError, ProvisioningError

__all__ = [
    "APOC",
    "ENV_VAR",
    "PLUGINS",
    "Plugin",
    "conf_settings",
    "describe",
    "parse_plugins",
    "plugin_for",
    "pom",
    "requested_plugins",
]

_POM = resources.files("tgneo.provision").joinpath("plugins.pom.xml")
_MVN_NS = {"m": "http://maven.apache.org/POM/4.0.0"}
ENV_VAR = "TGNEO_NEO4J_PLUGINS"
"""Comma-separated plugin names, the same as one ``--plugin`` each (the options win when both are given)."""


def pom_property(pom: Traversable, prop: str) -> str:
    """The value ``pom`` (a pom file among tgneo's resources) pins for the Maven property ``prop``."""
    root = ET.fromstring(pom.read_text(encoding="utf-8"))
    node = root.find(f"m:properties/m:{prop}", _MVN_NS)
    if node is None or not node.text:
        raise ProvisioningError(f"{pom.name} lacks the property {prop}")
    return node.text.strip()


@dataclass(frozen=True)
class Plugin:
    """One server plugin: where its jars come from, how they are checked, what ``neo4j.conf`` it needs."""

    name: str
    """The ``--plugin`` name, also the Maven profile's id in ``plugins.pom.xml``."""
    title: str
    version: str
    main_jar: str
    """The jar that must be among the resolved ones (a prefix; Maven appends the version)."""
    needed_by: str
    settings: tuple[tuple[str, str], ...]
    """``neo4j.conf`` keys with comma-separated values; several plugins' values for one key are joined."""
    exclude_artifact_ids: tuple[str, ...] = ()
    """Transitive dependencies the server's ``lib/`` already holds (another version of them would clash)."""

    @property
    def cache_name(self) -> str:
        return f"{self.name}-{self.version}"


# Why both settings, and why the allowlist cannot hurt tgneo: ``unrestricted`` lets APOC's procedures out of the
# sandbox (``apoc.meta.data`` reads the schema through internal APIs and is refused without it, the error
# LangChain's Neo4jGraph() reports); ``allowlist`` limits what is *loaded from plugins/* to ``apoc.*``, as
# LangChain's and LLM Graph Builder's set-up instructions do. Neo4j applies the allowlist only to procedures
# and functions compiled from plugin jars; its built-in ones (db.index.vector.queryNodes,
# db.index.fulltext.queryNodes, db.labels, db.create.setNodeVectorProperty, vector.similarity.cosine …) and
# commands (SHOW INDEXES) are registered apart and stay callable. tests/test_db_plugins.py checks each one
# tgneo uses on a server started with these settings.
APOC = Plugin(
    name="apoc",
    title="APOC Core",
    version=pom_property(_POM, "apoc.version"),
    main_jar="apoc-core-",
    needed_by="LangChain's Neo4jGraph, LLM Graph Builder, neo4j-graphrag's Neo4jWriter",
    settings=(
        ("dbms.security.procedures.unrestricted", "apoc.*"),
        ("dbms.security.procedures.allowlist", "apoc.*"),
    ),
    exclude_artifact_ids=("commons-lang3", "commons-text", "slf4j-api"),
)

PLUGINS: dict[str, Plugin] = {APOC.name: APOC}
"""Every plugin ``tgneo db start --plugin`` knows, by name."""


def _plugin(name: str) -> Plugin:
    plugin = PLUGINS.get(name.strip().lower())
    if plugin is None:
        known = ", ".join(sorted(PLUGINS))
        raise ConfigError(f"unknown Neo4j plugin {name.strip()!r}: tgneo db start --plugin knows {known}")
    return plugin


def parse_plugins(names: Iterable[str]) -> tuple[str, ...]:
    """Known plugin names, each once, sorted (``"apoc, apoc"`` and ``["APOC"]`` are both ``("apoc",)``).

    Raises:
        ConfigError: a name no plugin has; the message lists the known ones.
    """
    found: set[str] = set()
    for item in names:
        for raw in item.split(","):
            name = raw.strip().lower()
            if not name:
                continue
            found.add(_plugin(name).name)
    return tuple(sorted(found))


def requested_plugins(
    options: Iterable[str], environ: Mapping[str, str] | None = None, *, without: Iterable[str] = ()
) -> tuple[str, ...]:
    """The plugins a start adds: the ``--plugin`` options, else ``TGNEO_NEO4J_PLUGINS``, else none.

    ``without`` (``--no-plugin``) wins over the environment, as a command line does: a shell that exports
    ``TGNEO_NEO4J_PLUGINS=apoc`` can still remove APOC. Against a ``--plugin`` of the same command it is a
    contradiction, which :class:`~tgneo.provision.server.LocalNeo4j` refuses.
    """
    given = tuple(options)
    if given:
        return parse_plugins(given)
    env = os.environ if environ is None else environ
    removed = set(parse_plugins(without))
    return tuple(p for p in parse_plugins([env.get(ENV_VAR, "")]) if p not in removed)


def describe(plugins: Iterable[str]) -> str:
    """``apoc (APOC Core 5.26.19)`` for people; ``none`` when empty."""
    named = [f"{p} ({PLUGINS[p].title} {PLUGINS[p].version})" if p in PLUGINS else p for p in plugins]
    return ", ".join(named) or "none"


def conf_settings(plugins: Iterable[str]) -> dict[str, str]:
    """The ``neo4j.conf`` settings ``plugins`` need, values of one key joined (empty for no plugin)."""
    merged: dict[str, list[str]] = {}
    for name in plugins:
        for key, value in PLUGINS[name].settings:
            values = merged.setdefault(key, [])
            values += [v for v in value.split(",") if v not in values]
    return {key: ",".join(values) for key, values in merged.items()}


def _major_minor(version: str) -> str:
    match = re.match(r"(\d+\.\d+)", version)
    return match.group(1) if match else version


def plugin_for(name: str, server_version: str) -> Plugin:
    """The plugin ``name``, checked against the server it is for.

    Why the version check comes before any download: APOC is built against one Neo4j minor version and fails at
    load time on another, so a pom edited to a version that does not match the server is refused at once.

    Raises:
        ConfigError: ``name`` is not a known plugin.
        ProvisioningError: the plugin's version does not match ``server_version``.
    """
    plugin = _plugin(name)
    if _major_minor(plugin.version) != _major_minor(server_version):
        raise ProvisioningError(
            f"{plugin.title} {plugin.version} (plugins.pom.xml) does not match Neo4j {server_version}: "
            f"a {_major_minor(server_version)}.x release is needed"
        )
    return plugin


def pom() -> str:
    """``plugins.pom.xml``'s text (Maven resolves one plugin with ``-P<name>``)."""
    return _POM.read_text(encoding="utf-8")
