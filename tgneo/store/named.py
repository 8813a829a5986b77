"""Named read-only queries: the ``tgneo/cypher/`` files written for people, run on request.

``POST /api/v1/queries/{name}`` and the agents' ``cypher-read`` tool run these, and only these: each
in a read transaction (Neo4j refuses any write in one), stopped after a timeout, with at most a
bounded number of rows pulled. ``workspace`` and ``collection`` are always the caller's own, set here
and never taken from the request; parameters the server fixes (``reserved``) are set here too.
Every other parameter is a Cypher ``$parameter`` — values never reach the query text.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from tgneo.errors import BadRequest, NotFound
from tgneo.native import STRUCTURE_KEYS
from tgneo.store.driver import Store
from tgneo.store.queries import ALL, CypherQuery
from tgneo.store.traces import plain

READ_QUERIES = (
    "latest_traces",
    "answer_documents",
    "document_answers",
    "dependents",
    "source_chain",
    "error_observations",
    "usage_by_model",
    "most_selected_edges",
    "labels",
)
"""The named queries a caller may run: the read-only ones written for people (docs/exploring.md, tgneo/cypher/)
and ``labels`` (what ``tgneo ask --url -x`` shows edges with)."""

FIXED: Mapping[str, Any] = MappingProxyType({"reserved": STRUCTURE_KEYS})
"""Parameters the server sets, whatever the request says."""
SCOPE = ("workspace", "collection")
MAX_ROWS = 1000
TIMEOUT = 10.0
MAX_TEXT = 10_000
MAX_LIST = 1000


@dataclass(frozen=True)
class NamedResult:
    """Rows of a named query (JSON-ready), and whether more rows were cut off at the row limit."""

    name: str
    rows: list[dict[str, Any]]
    truncated: bool


def named_query(name: str) -> CypherQuery:
    """The named read query ``name``.

    Raises:
        NotFound: ``name`` is not one of :data:`READ_QUERIES`; the message lists them.
    """
    if name not in READ_QUERIES:
        raise NotFound(f"no read query named {name!r}; use one of {', '.join(READ_QUERIES)}")
    return ALL[name]


def caller_params(name: str) -> tuple[str, ...]:
    """The parameters a caller may give the query ``name`` (not the scope, not the fixed ones)."""
    return tuple(p for p in named_query(name).params if p not in SCOPE and p not in FIXED)


def _value(key: str, value: Any, depth: int = 0) -> Any:
    if value is None or isinstance(value, bool | int | float):
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 2**63 - 1:
            raise BadRequest(f"params.{key}: {value} is out of range")
        return value
    if isinstance(value, str):
        if len(value) > MAX_TEXT:
            raise BadRequest(f"params.{key}: longer than {MAX_TEXT} characters")
        return value
    if isinstance(value, list) and depth == 0:
        if len(value) > MAX_LIST:
            raise BadRequest(f"params.{key}: more than {MAX_LIST} items")
        return [_value(key, v, depth + 1) for v in value]
    raise BadRequest(f"params.{key}: must be a string, a number, a boolean, null or a list of those")


def run_named(
    store: Store,
    name: str,
    workspace: str,
    collection: str,
    params: Mapping[str, Any],
    *,
    max_rows: int = MAX_ROWS,
    timeout: float = TIMEOUT,
) -> NamedResult:
    """Run the named read query ``name`` in ``workspace``/``collection`` with the caller's ``params``.

    A parameter left out is ``null`` (each query treats that as "any"); ``limit``, when the query
    has one, defaults to and may not exceed ``max_rows``.

    Raises:
        NotFound: no such named query.
        BadRequest: an unknown parameter, or a value that is not plain data (the message names it).
        QueryTimedOut: the query ran longer than ``timeout``.
    """
    query = named_query(name)
    allowed = caller_params(name)
    values: dict[str, Any] = {p: None for p in query.params}
    for key, value in params.items():
        if key not in allowed:
            raise BadRequest(f"params.{key}: {name} takes {', '.join(allowed) or 'no parameters'}; not {key!r}")
        values[key] = _value(key, value)
    if "limit" in query.params:
        limit = values.get("limit")
        if limit is None:
            values["limit"] = max_rows
        elif not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= max_rows:
            raise BadRequest(f"params.limit: must be an integer from 1 to {max_rows}, not {limit!r}")
    values.update(FIXED if any(p in FIXED for p in query.params) else {})
    values = {k: v for k, v in values.items() if k in query.params}
    values.update(workspace=workspace, collection=collection)
    records, truncated = store.read_bounded(query, max_rows, timeout, **values)
    return NamedResult(name, [plain(dict(r)) for r in records], truncated)
