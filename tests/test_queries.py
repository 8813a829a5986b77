"""The named Cypher library, checked without a database: headers, parameters, and vocabulary."""

from __future__ import annotations

import re

import pytest

from tgneo.mapping import KNOWN_LABELS, KNOWN_REL_TYPES
from tgneo.native import RESERVED_KEYS
from tgneo.store.migrate import Legacy
from tgneo.store.queries import ALL, CypherQuery, Q, parse

QUERIES = sorted(ALL.values(), key=lambda q: q.name)
PARAMETER_FIELDS = frozenset(
    {
        # fields of the rows queries take as $parameters or build as maps, never properties of a node
        "props",
        "depth",
        "statement_links",
        "dimensions",
        "asserted",
        "role",
        "nested",
        "statement",
        "from",
        "to",
        "type",
        "labels",
        "values",
        "tags",
        "literal",
        "native",
        "node",
        "vector",
        "query",
        "text",
        "chunk",
        "evidence",
        "key",
        "words",
        "uri",
        "id",
        "s",
        "o",
        "p",
        "name",
        "embedding",
        "score",
        "concept",
        "value",
        "selection",
    }
)


def _code(query: CypherQuery) -> str:
    """The query without its header comments and string literals (so words in them never count)."""
    body = "\n".join(line for line in query.text.splitlines() if not line.lstrip().startswith("//"))
    return re.sub(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"", "''", body)


def test_every_cypher_file_loads_with_a_unique_name() -> None:
    assert len(QUERIES) >= 10
    assert len({q.name for q in QUERIES}) == len(QUERIES)
    assert Q.trace.name == "trace"


@pytest.mark.parametrize("query", QUERIES, ids=lambda q: q.name)
def test_header_names_purpose_params_and_columns(query: CypherQuery) -> None:
    assert len(query.purpose) > 15
    assert query.returns


@pytest.mark.parametrize("query", QUERIES, ids=lambda q: q.name)
def test_every_parameter_used_is_declared_and_every_declared_one_used(query: CypherQuery) -> None:
    used = set(re.findall(r"\$(\w+)", _code(query)))
    assert used == set(query.params), f"used {sorted(used)} vs declared {sorted(query.params)}"


@pytest.mark.parametrize("query", QUERIES, ids=lambda q: q.name)
def test_labels_and_relationship_types_come_from_the_vocabulary(query: CypherQuery) -> None:
    code = _code(query)
    labels = set(re.findall(r"(?<=[\w)]):([A-Z]\w*)", code))
    rel_groups = re.findall(r"\[\w*:([A-Z_|]+)[\]\s{*]", code)
    types = {t for group in rel_groups for t in group.split("|") if t}
    labels -= types  # `-[:TYPE]` also matches the label pattern after a variable
    # only the migration from graph model 1 may still read model 1's names
    legacy = {name.value for name in Legacy} if query.name.startswith("migrate_") else set()
    known_labels = {label.value for label in KNOWN_LABELS} | legacy
    known_types = {rel.value for rel in KNOWN_REL_TYPES} | legacy
    assert labels <= known_labels, labels - known_labels
    assert types <= known_types, types - known_types


@pytest.mark.parametrize("query", QUERIES, ids=lambda q: q.name)
def test_every_property_a_query_reads_is_structure_never_a_fact(query: CypherQuery) -> None:
    """A fact's property key comes from its predicate (tgneo.native) and is never one these queries name, so the
    keys they spell must all be reserved: a knowledge graph could otherwise overwrite or hide structure."""
    # ``$rows.resources`` is a field of a parameter map, not a property a query reads
    accessed = set(re.findall(r"(?<!\$)\b(?:[a-z][a-z_]*)\.([A-Za-z_][A-Za-z0-9_]*)", _code(query)))
    procedures = {
        "index",
        "fulltext",
        "queryNodes",
        "vector",
        "similarity",
        "cosine",
        "awaitIndexes",
        "create",
        "inSeconds",
        "seconds",
        "components",
        "indexConfig",
        "labels",
        "relationshipTypes",
        "propertyKeys",
    }  # db.index.fulltext.queryNodes, db.labels(), …
    assert accessed - procedures <= RESERVED_KEYS | PARAMETER_FIELDS, sorted(
        accessed - procedures - RESERVED_KEYS - PARAMETER_FIELDS
    )


@pytest.mark.parametrize("query", QUERIES, ids=lambda q: q.name)
def test_queries_never_splice_strings(query: CypherQuery) -> None:
    assert "{}" not in query.text and "%s" not in query.text
    assert not re.search(r"\{[a-z_]+\}", _code(query).replace("{ ", "{"))


def test_a_header_without_returns_is_rejected() -> None:
    with pytest.raises(ValueError, match="header lacks returns"):
        parse("broken", "// Purpose: something long enough\n// Params: none\nRETURN 1")


def test_unknown_query_names_fail_loudly() -> None:
    with pytest.raises(AttributeError, match="no query named 'nope'"):
        Q.nope  # noqa: B018


@pytest.mark.parametrize("query", QUERIES, ids=lambda q: q.name)
def test_no_query_needs_a_plugin(query: CypherQuery) -> None:
    """tgneo stays driver-only: it answers over a graph APOC helped write without calling APOC (or GDS) itself."""
    assert not re.search(r"\b(apoc|gds)\.", _code(query), re.IGNORECASE)
