"""tgneo shares one Neo4j database with the graphs its users already have, in either order.

The neighbours are the real libraries (LangChain's ``Neo4jVector`` and ``Neo4jGraph``, neo4j-graphrag's
indexes, lexical graph and ``Neo4jWriter``, rdflib-neo4j under n10s's constraint) and LLM Graph
Builder's own statements; see ``tests/coexisting.py``. For each neighbour and each order (tgneo
first, theirs first) on a private, empty server with APOC, both set-ups must succeed, every index
each side creates must be online, and what each side's user sees (retriever answers, entities,
tgneo's answers, traces and exported RDF) must equal what they see with the other side absent.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from neo4j import Driver

from tests.coexisting import (
    NEIGHBOURS,
    Neighbour,
    driver_for,
    rows,
    schema,
    tgneo_setup,
    tgneo_view,
    wipe,
)
from tests.conftest import Neo4jServer
from tests.private_neo4j import emptied

THEIR_LABELS = ("Document", "Chunk", "Resource", "__Entity__", "__KGBuilder__", "Session", "Message")
"""Labels the neighbours (and LangChain's chat history: ``Session``, ``Message``) query."""

ORDERS = ("tgneo-first", "theirs-first")

pytestmark = [
    # langchain-neo4j 0.11 builds its queries through neo4j-graphrag 1.21's, which warns about its own 'id' field
    pytest.mark.filterwarnings("ignore:The default returned 'id' field:DeprecationWarning"),
]


@pytest.fixture(scope="module")
def server(apoc_neo4j: Neo4jServer) -> Neo4jServer:
    return emptied(apoc_neo4j)


@pytest.fixture(scope="module")
def driver(server: Neo4jServer) -> Iterator[Driver]:
    with driver_for(server) as d:
        yield d


@dataclass(frozen=True)
class Alone:
    """Each side set up on an empty database with the other absent: what its user sees."""

    installed: list[str]
    tgneo_indexes: list[dict[str, Any]]
    tgneo: dict[str, Any]
    theirs: dict[str, dict[str, Any]]


@pytest.fixture(scope="module")
def alone(server: Neo4jServer, driver: Driver) -> Alone:
    wipe(driver)
    installed = tgneo_setup(server)
    indexes, tgneo = schema(driver), tgneo_view(server)
    theirs = {}
    for neighbour in NEIGHBOURS:
        wipe(driver)
        neighbour.setup(server)
        theirs[neighbour.name] = neighbour.view(server)
    return Alone(installed, indexes, tgneo, theirs)


@dataclass(frozen=True)
class Together:
    """tgneo and one neighbour set up on one database in one order."""

    neighbour: Neighbour
    order: str
    installed: list[str]
    indexes: list[dict[str, Any]]
    tgneo: dict[str, Any]
    theirs: dict[str, Any]


@pytest.fixture(
    scope="module",
    params=[(n, order) for n in NEIGHBOURS for order in ORDERS],
    ids=[f"{n.name}-{order}" for n in NEIGHBOURS for order in ORDERS],
)
def together(request: pytest.FixtureRequest, server: Neo4jServer, driver: Driver, alone: Alone) -> Together:
    neighbour, order = request.param
    wipe(driver)
    if order == "tgneo-first":
        installed = tgneo_setup(server)
        neighbour.setup(server)
    else:
        neighbour.setup(server)
        installed = tgneo_setup(server)
    return Together(neighbour, order, installed, schema(driver), tgneo_view(server), neighbour.view(server))


def _tgneo_indexes(indexes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [i for i in indexes if i["name"].startswith("tgneo_")]


# ------------------------------------------------------------------------------------------ alone
def test_every_tgneo_index_is_on_a_label_tgneo_owns(alone: Alone) -> None:
    indexes = _tgneo_indexes(alone.tgneo_indexes)
    assert len(indexes) >= len(alone.installed) > 0
    assert {label for i in indexes for label in i["labelsOrTypes"] if not label.startswith("Tg")} == set()


def test_tgneo_creates_no_index_outside_its_names(alone: Alone) -> None:
    assert [i["name"] for i in alone.tgneo_indexes if not i["name"].startswith("tgneo_")] == []


def test_each_side_alone_answers_from_its_own_data(alone: Alone) -> None:
    assert alone.tgneo["GraphRag"]["answer"] and alone.tgneo["DocRag"]["answer"] and alone.tgneo["export"]
    assert alone.theirs["langchain"]["similar"] and alone.theirs["langchain"]["entities"]
    assert alone.theirs["neo4j-graphrag"]["vector"] and alone.theirs["neo4j-graphrag"]["hybrid"]
    assert alone.theirs["llm-graph-builder"]["chat"] and alone.theirs["llm-graph-builder"]["entities_index"]
    assert alone.theirs["n10s"]["resources"] and alone.theirs["n10s"]["links"]


# ------------------------------------------------------------------------------------------ together
def test_tgneo_installs_its_whole_schema_beside_theirs(together: Together, alone: Alone) -> None:
    ours = _tgneo_indexes(together.indexes)
    assert together.installed == alone.installed
    assert ours == alone.tgneo_indexes and {i["state"] for i in ours} == {"ONLINE"}


def test_their_set_up_leaves_every_index_it_creates_online(together: Together) -> None:
    states = {i["name"]: i["state"] for i in together.indexes}
    assert {name: states.get(name) for name in together.neighbour.indexes} == dict.fromkeys(
        together.neighbour.indexes, "ONLINE"
    )


def test_tgneo_answers_exactly_as_it_does_alone(together: Together, alone: Alone) -> None:
    for engine in ("GraphRag", "DocRag"):
        assert together.tgneo[engine] == alone.tgneo[engine], engine


def test_tgneo_exports_exactly_what_it_exports_alone(together: Together, alone: Alone) -> None:
    assert together.tgneo["export"] == alone.tgneo["export"]


def test_their_queries_answer_exactly_as_they_do_alone(together: Together, alone: Alone) -> None:
    assert together.theirs == alone.theirs[together.neighbour.name]


def test_no_tgneo_node_carries_a_label_their_queries_read(together: Together, driver: Driver) -> None:
    found = rows(
        driver,
        "MATCH (n:Tgneo) UNWIND labels(n) AS label WITH label WHERE label IN $theirs RETURN DISTINCT label",
        theirs=list(THEIR_LABELS),
    )
    assert found == [] and rows(driver, "MATCH (n:Tgneo) RETURN count(n) AS n")[0]["n"] > 0
