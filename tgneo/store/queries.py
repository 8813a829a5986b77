"""Every Cypher query tgneo runs, loaded once from ``tgneo/cypher/*.cypher`` into ``Q``.

One query per file, named by its file stem (``Q.server_components``). Each file opens with a ``//``
header naming its purpose, its ``$params`` and its returned columns; ``tests/test_queries.py`` checks
the headers, that every ``$param`` used is declared, and that every label and relationship type is
in the vocabulary. Only ``$parameters`` vary at run time: queries are never assembled from strings.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from types import MappingProxyType
from typing import Any


@dataclass(frozen=True)
class CypherQuery:
    """A named query and what its header declares."""

    name: str
    text: str
    purpose: str
    params: tuple[str, ...]
    returns: str

    def __str__(self) -> str:
        return self.text


_HEADER = re.compile(r"^//\s*(Purpose|Params|Returns):\s*(.*)$")


def parse(name: str, text: str) -> CypherQuery:
    """Parse one ``.cypher`` file; raise ``ValueError`` when its header is incomplete."""
    fields: dict[str, str] = {}
    for line in text.splitlines():
        if not line.startswith("//"):
            break
        match = _HEADER.match(line)
        if match:
            fields[match.group(1).lower()] = match.group(2).strip()
    missing = {"purpose", "params", "returns"} - fields.keys()
    if missing:
        raise ValueError(f"{name}.cypher: header lacks {', '.join(sorted(missing))}")
    declared = re.findall(r"\$(\w+)", fields["params"])
    return CypherQuery(name, text, fields["purpose"], tuple(declared), fields["returns"])


def load_all() -> MappingProxyType[str, CypherQuery]:
    """Read every packaged ``.cypher`` file (once, at import)."""
    folder = resources.files("tgneo.cypher")
    queries: dict[str, CypherQuery] = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".cypher"):
            name = entry.name[: -len(".cypher")]
            queries[name] = parse(name, entry.read_text(encoding="utf-8"))
    return MappingProxyType(queries)


class _Queries:
    """Attribute access to the loaded queries: ``Q.record_step``; unknown names fail loudly."""

    def __init__(self, queries: MappingProxyType[str, CypherQuery]) -> None:
        self._queries = queries

    def __getattr__(self, name: str) -> CypherQuery:
        try:
            return self._queries[name]
        except KeyError:
            raise AttributeError(f"no query named {name!r} in tgneo/cypher/") from None

    def __iter__(self) -> Any:
        return iter(self._queries.values())

    def __len__(self) -> int:
        return len(self._queries)


ALL = load_all()
Q = _Queries(ALL)
