"""tgneo stays out of the schema that text-to-Cypher tools put in their prompts (``tgneo.owned``,
``tgneo.adapters.text2cypher``).

On a private, empty Neo4j with APOC, a user's graph is written by their own libraries (LangChain's
``add_graph_documents`` and ``Neo4jVector``, neo4j-graphrag's lexical graph and ``Neo4jWriter``:
``tests/coexisting.py``), and the prompts of their text-to-Cypher tools are taken as the model receives them:
LangChain's ``GraphCypherQAChain`` and neo4j-graphrag's ``Text2CypherRetriever`` each ask the OpenAI-compatible
server on loopback (``tests/openai_server.py``), which keeps every request. Then tgneo works in the same database
as a user does: it loads documents, answers with all three engines, indexes and answers over the user's LangChain
graph, imports TrustGraph's RDF and RDF of its own edge cases, marks answers stale and stores a retention policy.
Asked again, with ``exclude_types=owned_types(…)`` and ``neo4j_schema=user_schema(driver)``, both tools send the
model the very prompt they sent before tgneo was there; without them, tgneo's labels fill it.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from langchain_core.documents import Document as LangchainDocument
from langchain_neo4j import GraphCypherQAChain, Neo4jGraph
from langchain_neo4j.chains.graph_qa.cypher import construct_schema
from langchain_neo4j.graphs.graph_document import GraphDocument, Node, Relationship
from langchain_openai import ChatOpenAI
from neo4j import Driver
from neo4j.exceptions import CypherSyntaxError
from neo4j_graphrag.exceptions import Text2CypherRetrievalError
from neo4j_graphrag.llm.openai_llm import OpenAILLM
from neo4j_graphrag.retrievers import Text2CypherRetriever
from neo4j_graphrag.schema import format_schema, get_schema, get_structured_schema
from pydantic import SecretStr

from tests.coexisting import driver_for, graphrag_setup, langchain_setup, rows
from tests.conftest import Neo4jServer
from tests.openai_server import OpenAIServer, serve, text_of
from tests.private_neo4j import emptied
from tgneo.adapters.text2cypher import user_schema
from tgneo.engines import Agent, DocRag, GraphRag, Request, build_engine
from tgneo.explain.events import SessionEnd
from tgneo.graph_profiles import BUILTIN
from tgneo.ingest.loader import load_documents
from tgneo.ingest.sample import QUESTIONS, sources
from tgneo.ingest.side_index import build_side_index
from tgneo.kinds import SessionKind
from tgneo.llm.offline import OfflineLLM
from tgneo.owned import owned_labels, owned_types, without_owned
from tgneo.rdf.formats import get_format
from tgneo.store import Store, install_schema
from tgneo.store.documents import remove_document
from tgneo.store.rdf_import import import_file
from tgneo.store.retention import Policy, set_policy
from tgneo.store.traces import get_trace
from tgneo.vocab import Label, Rel

pytestmark = [
    pytest.mark.slow,
    # langchain-neo4j 0.11 builds its queries through neo4j-graphrag 1.21's, which warns about its own 'id' field
    pytest.mark.filterwarnings("ignore:The default returned 'id' field:DeprecationWarning"),
    # neo4j-graphrag 1.21's enhanced schema opens its sessions with the driver's old name of an option
    pytest.mark.filterwarnings("ignore:notifications_disabled_categories is deprecated:DeprecationWarning"),
]

W = "t2c"
DATA = Path(__file__).parent / "data"
MANUAL = Path(__file__).parent.parent / "docs" / "existing-graphs.md"
QUESTION = "Who wrote an algorithm for the Analytical Engine?"
THEIR_LABELS = ("Document", "Chunk", "__Entity__", "__KGBuilder__", "Resource", "Person", "Machine", "Session",
                "Message")  # fmt: skip
"""Labels the users' tools write and query: none is tgneo's."""
NOTE_G = LangchainDocument(
    page_content="Ada Lovelace's Note G describes the Analytical Engine.", metadata={"id": "note-g"}
)
THEIR_TYPES = ("MENTIONS", "FROM_CHUNK", "FROM_DOCUMENT", "NEXT_CHUNK", "HAS_ENTITY", "PART_OF", "WROTE_ALGORITHM_FOR")


# ------------------------------------------------------------------------------------------ without a database
def test_owned_types_name_every_label_and_relationship_type_of_the_vocabulary_and_none_of_theirs() -> None:
    owned = owned_types()
    assert all(type(name) is str for name in owned)  # what LangChain's exclude_types: List[str] takes
    assert set(owned) == {label.value for label in Label} | {rel.value for rel in Rel}
    assert len(owned) == len(set(owned)) == len(Label) + len(Rel)
    assert not set(owned) & {*THEIR_LABELS, *THEIR_TYPES}
    assert owned_labels() == [label.value for label in Label]
    owned.append("Document")  # a new list each call: a caller's change is theirs alone
    assert "Document" not in owned_types()


SCHEMA: dict[str, Any] = {
    "node_props": {
        "Person": [{"property": "name", "type": "STRING"}],
        "Tgneo": [{"property": "workspace", "type": "STRING"}],
        "TgResource": [{"property": "uri", "type": "STRING"}],
        "Focus": [{"property": "query", "type": "STRING"}],
    },
    "rel_props": {
        "KNOWS": [{"property": "since", "type": "INTEGER"}],
        "DISCOVERED": [{"property": "iri", "type": "STRING"}],
        "CONTAINS": [{"property": "sourceText", "type": "STRING"}, {"property": "order", "type": "INTEGER"}],
        "SELECTED_EDGE": [{"property": "score", "type": "FLOAT"}],
        "e__used": [{"property": "iri", "type": "STRING"}],
    },
    "relationships": [
        {"start": "Person", "type": "KNOWS", "end": "Person"},
        {"start": "Person", "type": "CONTAINS", "end": "Person"},
        {"start": "TgResource", "type": "CONTAINS", "end": "TgResource"},
        {"start": "Tgneo", "type": "DISCOVERED", "end": "TgResource"},
        {"start": "TgResource", "type": "DISCOVERED", "end": "Tgneo"},
        {"start": "Tgneo", "type": "e__used", "end": "Tgneo"},
        {"start": "Focus", "type": "SELECTED_EDGE", "end": "TgResource"},
    ],
    "metadata": {
        "constraint": [{"name": "tgneo_resource", "labelsOrTypes": ["TgResource"]},
                       {"name": "person", "labelsOrTypes": ["Person"]}],
        "index": [{"label": "TgResource", "properties": ["uri"]}, {"label": "Person", "properties": ["name"]}],
    },
}  # fmt: skip
"""A structured schema as ``get_structured_schema`` returns it: theirs (``Person``, ``KNOWS``, and a ``CONTAINS``
of their own), tgneo's structure, and tgneo's knowledge graph (``DISCOVERED``, ``e__used``)."""


def test_given_the_schema_owned_types_add_the_knowledge_graph_types_and_leave_a_type_they_use_too() -> None:
    owned = owned_types(SCHEMA)
    assert {"DISCOVERED", "e__used"} <= set(owned)  # every pattern of theirs joins tgneo's nodes
    assert "CONTAINS" not in owned and "KNOWS" not in owned  # theirs (CONTAINS is tgneo's too)
    assert set(owned) == set(owned_types()) - {"CONTAINS"} | {"DISCOVERED", "e__used"}
    assert owned[: len(Label)] == owned_labels()


def test_without_owned_is_langchains_exclude_types_rule_with_owned_types() -> None:
    """The schema text LangChain's chain builds with ``exclude_types=owned_types(schema)`` is the formatted
    :func:`without_owned`, plain and enhanced."""
    kept = without_owned(SCHEMA)
    for enhanced in (False, True):
        assert construct_schema(SCHEMA, [], owned_types(SCHEMA), enhanced) == format_schema(kept, enhanced)
    assert kept["node_props"] == {"Person": SCHEMA["node_props"]["Person"]}
    assert kept["rel_props"] == {"KNOWS": SCHEMA["rel_props"]["KNOWS"], "CONTAINS": SCHEMA["rel_props"]["CONTAINS"]}
    assert kept["relationships"] == SCHEMA["relationships"][:2]
    assert kept["metadata"] == {"constraint": [SCHEMA["metadata"]["constraint"][1]],
                                "index": [SCHEMA["metadata"]["index"][1]]}  # fmt: skip


def test_without_neo4j_graphrag_user_schema_raises_an_import_error_naming_it() -> None:
    """In a Python where neo4j-graphrag cannot be imported (``None`` in ``sys.modules``, Python's own way to make
    an import fail): the module still imports, and the call says what to install."""
    program = (
        "import sys; sys.modules['neo4j_graphrag'] = None\n"
        "from tgneo.adapters.text2cypher import user_schema\n"
        "try:\n    user_schema(None)\nexcept ImportError as e:\n    print(type(e).__name__, e)\n"
    )
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=120, check=True)
    assert result.stdout.startswith("ImportError ") and "pip install neo4j-graphrag" in result.stdout, result


# ------------------------------------------------------------------------------------------ the user's database
@dataclass(frozen=True)
class Prompts:
    """What the users' tools put in their prompts: the schema texts, and the prompts their model received."""

    graph_schema: str  # Neo4jGraph(...).schema after refresh_schema()
    chain_schema: str  # GraphCypherQAChain.from_llm(...).graph_schema
    chain_prompt: str  # what the chain sent the model
    graphrag_schema: str  # neo4j_graphrag.schema.get_schema(driver)
    retriever_prompt: str  # what Text2CypherRetriever sent the model
    enhanced_chain_schema: str  # the same with Neo4jGraph(enhanced_schema=True)
    enhanced_graphrag_schema: str  # get_schema(driver, is_enhanced=True)


@dataclass(frozen=True)
class Database:
    server: Neo4jServer
    driver: Driver
    before: Prompts


def langchain_graph(server: Neo4jServer, enhanced: bool = False) -> Neo4jGraph:
    return Neo4jGraph(url=server.uri, username=server.username, password=server.password or "",
                      enhanced_schema=enhanced)  # fmt: skip


def chat(model: OpenAIServer) -> ChatOpenAI:
    return ChatOpenAI(model="gpt-4o-mini", base_url=model.url, api_key=SecretStr(model.api_key), max_retries=0)


def last_prompt(model: OpenAIServer) -> str:
    request = model.requests_to("/v1/chat/completions")[-1]
    return "\n".join(text_of(m) for m in request.body["messages"])


def take_prompts(server: Neo4jServer, driver: Driver, with_helpers: bool) -> Prompts:
    """The users' tools, as they are (``with_helpers=False``) or given tgneo's helpers."""
    with serve(OpenAIServer()) as model:
        graph = langchain_graph(server)
        enhanced = langchain_graph(server, enhanced=True)
        try:
            exclude = owned_types(graph.get_structured_schema) if with_helpers else []
            chain = GraphCypherQAChain.from_llm(chat(model), graph=graph, exclude_types=exclude,
                                                allow_dangerous_requests=True)  # fmt: skip
            with pytest.raises(CypherSyntaxError):  # the loopback model's answer is no Cypher: asked, then refused
                chain.invoke({"query": QUESTION})
            sent_by_chain = last_prompt(model)
            enhanced_exclude = owned_types(enhanced.get_structured_schema) if with_helpers else []
            enhanced_chain = GraphCypherQAChain.from_llm(chat(model), graph=enhanced, exclude_types=enhanced_exclude,
                                                         allow_dangerous_requests=True)  # fmt: skip
            graph_schema = graph.schema
        finally:
            graph.close()
            enhanced.close()
        llm = OpenAILLM(model_name="gpt-4o-mini", base_url=model.url, api_key=model.api_key, max_retries=0)
        schema = user_schema(driver) if with_helpers else None
        retriever = Text2CypherRetriever(driver, llm, neo4j_schema=schema)
        with pytest.raises(Text2CypherRetrievalError):
            retriever.search(query_text=QUESTION)
        return Prompts(
            graph_schema=graph_schema,
            chain_schema=chain.graph_schema,
            chain_prompt=sent_by_chain,
            graphrag_schema=retriever.neo4j_schema,
            retriever_prompt=last_prompt(model),
            enhanced_chain_schema=enhanced_chain.graph_schema,
            enhanced_graphrag_schema=user_schema(driver, is_enhanced=True) if with_helpers
            else get_schema(driver, is_enhanced=True),
        )  # fmt: skip


def ended(events: list[Any]) -> str:
    end = events[-1]
    assert isinstance(end, SessionEnd) and end.trace, end
    return end.trace


def documents_used(trace: Mapping[str, Any]) -> set[str]:
    """The documents a trace's selected edges were extracted from and its selected chunks belong to."""
    used: set[str] = set()
    for step in trace["steps"]:
        for edge in step.get("edges", []):
            used |= {source["chain"][-1]["uri"] for source in edge["statement"]["sources"]}
        for chunk in step.get("chunks", []):
            used |= set((chunk.get("chunk") or {}).get("chain", []))
    return used


def tgneo_works_here(server: Neo4jServer) -> None:
    """What a tgneo user does in the database: every kind of node, relationship and property tgneo writes."""
    llm = OfflineLLM()
    with Store.from_settings(server.settings()) as store:
        install_schema(store)
        assert load_documents(store, llm, W, "docs", sources()).loaded == 4
        traces = [
            ended(list(engine(store, llm).answer(Request(QUESTIONS[0].text, W, "docs", {}))))
            for engine in (GraphRag, DocRag, Agent)
        ]
        used = documents_used(get_trace(store, W, "docs", traces[0]))
        assert used, "the GraphRAG answer selected no edge"
        assert remove_document(store, W, "docs", sorted(used)[0]).found  # its answers are stale now
        set_policy(store, W, "docs", Policy(max_traces=100), who="test")
        for name in ("trustgraph_sessions.nq", "edge_cases.nq"):
            import_file(store, W, "rdf", DATA / name, get_format("nquads"))
        assert build_side_index(store, llm, BUILTIN["langchain"], W, "theirs").entities > 0
        for kind in SessionKind:  # the same question over their graph, recorded as tgneo's traces
            request = Request(QUESTION, W, "theirs", graph=BUILTIN["langchain"])
            ended(list(build_engine(kind, store, llm).answer(request)))


@pytest.fixture(scope="module")
def database(apoc_neo4j: Neo4jServer) -> Iterator[Database]:
    server = emptied(apoc_neo4j)
    with driver_for(server) as driver:
        langchain_setup(server)
        graphrag_setup(server)
        before = take_prompts(server, driver, with_helpers=False)
        tgneo_works_here(server)
        yield Database(server, driver, before)


@pytest.fixture(scope="module")
def after(database: Database) -> Prompts:
    return take_prompts(database.server, database.driver, with_helpers=True)


def names_in(text: str) -> set[str]:
    """Every label, relationship type and property name a schema text shows."""
    return (
        set(re.findall(r"\(:([^)]+)\)", text))
        | set(re.findall(r"\[:([^\]]+)\]", text))
        | set(re.findall(r"^(?:- \*\*)?([A-Za-z_][\w]*)", text, re.M))
        | set(re.findall(r"[{,] ?([A-Za-z_]\w*):", text))  # plain: Label {name: TYPE, …}
        | set(re.findall(r"^\s+- `([^`]+)`:", text, re.M))  # enhanced: "  - `name`: TYPE …"
    )


def test_the_prompts_are_what_they_were_before_tgneo_recorded_here(database: Database, after: Prompts) -> None:
    before = database.before
    assert after.chain_prompt == before.chain_prompt
    assert after.retriever_prompt == before.retriever_prompt
    assert after.chain_schema == before.chain_schema == before.graph_schema
    assert after.graphrag_schema == before.graphrag_schema == before.graph_schema
    assert after.enhanced_chain_schema == before.enhanced_chain_schema
    assert after.enhanced_graphrag_schema == before.enhanced_graphrag_schema
    assert before.graph_schema in before.chain_prompt and before.graph_schema in before.retriever_prompt
    assert {"Chunk", "Document", "Person", "MENTIONS", "FROM_DOCUMENT"} <= names_in(before.graph_schema)


def test_without_the_helpers_tgneo_fills_their_prompts(database: Database, after: Prompts) -> None:
    """The issue's finding, reproduced: what the helpers take out is there, and it is tgneo's."""
    unfiltered = get_schema(database.driver)
    structured = get_structured_schema(database.driver)
    tgneo_labels = set(structured["node_props"]) & set(owned_labels())
    assert len(unfiltered.splitlines()) > 10 * len(database.before.graph_schema.splitlines())
    assert {"Tgneo", "TgResource", "TgStatement", "TgExplain", "TgChunk", "TgDocument", "TgContent", "TgPrefix",
            "TgRetentionPolicy", "GraphRagQuestion", "DocRagQuestion", "AgentQuestion", "Focus",
            "EdgeSelection", "ChunkSelection", "Synthesis", "Conclusion", "DocumentChange", "RetrievalHit",
            "AnswerSentence", "ProvEntity"} <= tgneo_labels  # fmt: skip
    fact_types = set(owned_types(structured)) - set(owned_types())
    assert len(fact_types) > 20, fact_types  # the knowledge graph's, from the sample and the imported RDF
    assert any("__" in t for t in fact_types), fact_types  # a namespace's prefix: rdf__type, schema__knows …
    assert fact_types <= set(structured["rel_props"])  # their properties (workspace, iri, id …) were in the text
    vocabulary_only = construct_schema(structured, [], owned_types(), False)  # no schema given: facts stay
    assert vocabulary_only != database.before.graph_schema
    assert names_in(vocabulary_only) & fact_types


def test_no_label_type_or_property_of_tgneo_is_left_in_the_text(database: Database, after: Prompts) -> None:
    structured = get_structured_schema(database.driver)
    owned = set(owned_types(structured))
    theirs = names_in(database.before.graph_schema)
    tgneo_props = {p["property"] for k, props in [*structured["node_props"].items(), *structured["rel_props"].items()]
                   if k in owned for p in props}  # fmt: skip
    assert len(tgneo_props - theirs) > 50
    for text in (after.chain_schema, after.graphrag_schema, after.enhanced_chain_schema,
                 after.enhanced_graphrag_schema):  # fmt: skip
        shown = names_in(text)
        assert not shown & owned, sorted(shown & owned)
        assert not shown & (tgneo_props - theirs), sorted(shown & (tgneo_props - theirs))


def manual_examples() -> list[str]:
    """The two examples of the manual's section, as written."""
    text = MANUAL.read_text()
    section = text[text.index("## Keep tgneo out of your text-to-Cypher prompts") :]
    section = section[: section.index("\n## ")] if "\n## " in section else section
    examples = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(examples) == 2, "docs/existing-graphs.md lost an example of keeping tgneo out of the prompts"
    return examples


def test_the_manuals_examples_run_as_written_and_give_the_schema_of_before(
    database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``tgneo.owned_types`` and ``tgneo.user_schema``, as the manual calls them (NEO4J_* as a user sets them)."""
    for name, value in database.server.env().items():
        if name.startswith("NEO4J_"):
            monkeypatch.setenv(name, value)
    langchain, graphrag = manual_examples()
    with serve(OpenAIServer()) as model:
        namespace: dict[str, Any] = {"llm": chat(model)}
        exec(compile(langchain, "docs/existing-graphs.md (LangChain)", "exec"), namespace)
        try:
            assert namespace["chain"].graph_schema == database.before.graph_schema
        finally:
            namespace["graph"].close()
        llm = OpenAILLM(model_name="gpt-4o-mini", base_url=model.url, api_key=model.api_key, max_retries=0)
        namespace = {"llm": llm, "driver": database.driver}
        exec(compile(graphrag, "docs/existing-graphs.md (neo4j-graphrag)", "exec"), namespace)
        assert namespace["retriever"].neo4j_schema == database.before.graph_schema


def test_a_type_their_graph_uses_too_keeps_their_relationships_in_the_prompt(database: Database) -> None:
    """Their ``CONTAINS`` (tgneo's structure has one) and ``CO_OCCURS_WITH`` (tgneo's knowledge graph has one) stay
    theirs: their patterns are in the text; tgneo's patterns of the same types are not."""
    ada, paper = Node(id="Ada Lovelace", type="Person"), Node(id="Note G", type="Paper")
    engine = Node(id="Analytical Engine", type="Machine")
    shared = GraphDocument(nodes=[ada, paper, engine], relationships=[
        Relationship(source=paper, target=engine, type="CONTAINS"),
        Relationship(source=ada, target=engine, type="CO_OCCURS_WITH"),
    ], source=NOTE_G)  # fmt: skip
    tgneo_facts = rows(database.driver, "MATCH (:TgResource)-[r:CO_OCCURS_WITH]->(:TgResource) RETURN count(r) AS n")
    assert tgneo_facts[0]["n"] > 0  # the type is tgneo's too
    graph = langchain_graph(database.server)
    try:
        graph.add_graph_documents([shared], baseEntityLabel=True)
        graph.refresh_schema()
        owned = owned_types(graph.get_structured_schema)
        assert "CONTAINS" not in owned and "CO_OCCURS_WITH" not in owned
        text = construct_schema(graph.get_structured_schema, [], owned, False)
        assert "(:Paper)-[:CONTAINS]->(:Machine)" in text and "(:Person)-[:CO_OCCURS_WITH]->(:Machine)" in text
        assert not names_in(text) & set(owned)
        assert user_schema(database.driver) == text
    finally:
        database.driver.execute_query("MATCH (n:Paper) DETACH DELETE n")
        database.driver.execute_query("MATCH (:Person)-[r:CO_OCCURS_WITH]->() DELETE r")
        graph.close()
