"""Schema installation: every constraint and index exists afterwards, and installing again changes nothing."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from tests.conftest import Neo4jServer
from tests.openai_server import OFFLINE_DIMENSIONS
from tgneo.llm.offline import OfflineLLM
from tgneo.store import Q, Store, install_schema
from tgneo.store.schema import SCHEMA

HASHED, MINILM = "tgneo-offline-hash-256", "all-minilm-l6-v2-q"
"""The offline embedder of tgneo before all-MiniLM-L6-v2 became the default (256 dimensions), and the default (384)."""


def _schema_state(store: Store) -> set[tuple[str, str]]:
    with store.driver.session(database=store.database) as session:
        constraints = {("constraint", r["name"]) for r in session.run("SHOW CONSTRAINTS YIELD name")}
        indexes = {("index", r["name"]) for r in session.run("SHOW INDEXES YIELD name")}
    return constraints | indexes


def test_schema_install_creates_every_declared_item(store: Store) -> None:
    install_schema(store)
    names = {name for _, name in _schema_state(store)}
    assert {item.name for item in SCHEMA} <= names


def test_schema_install_is_idempotent(store: Store) -> None:
    install_schema(store)
    before = _schema_state(store)
    statements = install_schema(store)
    assert statements, "install_schema ran nothing"
    assert _schema_state(store) == before


def test_resource_identity_is_unique_per_workspace_and_collection(store: Store, collection: str) -> None:
    import pytest

    from tgneo.errors import StoreError

    with store.driver.session(database=store.database) as session:
        session.run("CREATE (:TgResource {workspace: 'w', collection: $c, uri: 'urn:x'})", c=collection).consume()
        session.run(  # the same IRI in another collection is another node
            "CREATE (:TgResource {workspace: 'w', collection: $c, uri: 'urn:x'})", c=collection + "-other"
        ).consume()

    def duplicate(tx):  # type: ignore[no-untyped-def]
        tx.run("CREATE (:TgResource {workspace: 'w', collection: $c, uri: 'urn:x'})", c=collection).consume()

    with pytest.raises(StoreError, match="ConstraintValidationFailed"):
        store.write_transaction(duplicate, "creating a duplicate resource")


def _vector_indexes(store: Store) -> dict[str, dict[str, object]]:
    with store.driver.session(database=store.database) as session:
        rows = session.run("SHOW VECTOR INDEXES YIELD name, labelsOrTypes, properties, options")
        return {r["name"]: r.data() for r in rows}


def test_search_schema_adds_a_full_text_index_on_names_and_cosine_vector_indexes(store: Store) -> None:
    from tgneo.store.schema import CHUNK_VECTOR_INDEX, ENTITY_NAME_INDEX, ENTITY_VECTOR_INDEX, install_search_schema

    dimensions = OFFLINE_DIMENSIONS  # the shared database's: the default offline embedder's
    install_search_schema(store, dimensions)
    install_search_schema(store, dimensions)  # idempotent
    vectors = _vector_indexes(store)
    assert (vectors[ENTITY_VECTOR_INDEX]["labelsOrTypes"], vectors[CHUNK_VECTOR_INDEX]["labelsOrTypes"]) == (
        ["TgResource"], ["TgChunk"],
    )  # fmt: skip
    for name in (ENTITY_VECTOR_INDEX, CHUNK_VECTOR_INDEX):
        config = vectors[name]["options"]["indexConfig"]  # type: ignore[index]
        assert (config["vector.dimensions"], config["vector.similarity_function"]) == (dimensions, "COSINE")
    assert ("index", ENTITY_NAME_INDEX) in _schema_state(store)


@contextmanager
def _private_store(server: Neo4jServer) -> Iterator[Store]:
    """A store on the session's private server without plugins (``plain_neo4j``), its database emptied first: a
    vector index is database-wide, so what these tests change would break the shared database's."""
    from tests.private_neo4j import emptied

    with Store.from_settings(emptied(server).settings()) as store:
        yield store


def test_vector_indexes_some_embeddings_use_are_refused_for_another_length_and_rebuilt_once_none_does(
    plain_neo4j: Neo4jServer,
) -> None:
    import pytest

    from tgneo.errors import EmbeddingMismatch
    from tgneo.store.schema import CHUNK_VECTOR_INDEX, ENTITY_VECTOR_INDEX, install_search_schema

    with _private_store(plain_neo4j) as store:
        install_search_schema(store, 256)
        before = _vector_indexes(store)
        with store.driver.session(database=store.database) as session:
            session.run(
                "CREATE (:Tgneo:TgResource:TgChunk {workspace: 'w', collection: 'c', uri: 'urn:x:chunk', "
                "embedding: [i IN range(1, 256) | 1.0 / i]})"
            ).consume()
        with pytest.raises(EmbeddingMismatch, match="holds 256-dimensional embeddings, but the configured embedding"):
            install_search_schema(store, 384)
        assert _vector_indexes(store) == before
        with store.driver.session(database=store.database) as session:  # the embedding forgotten (--reembed)
            session.run("MATCH (c:TgChunk {uri: 'urn:x:chunk'}) REMOVE c.embedding").consume()
        install_search_schema(store, 384)
        for name in (ENTITY_VECTOR_INDEX, CHUNK_VECTOR_INDEX):
            assert _vector_indexes(store)[name]["options"]["indexConfig"]["vector.dimensions"] == 384  # type: ignore[index]


def test_a_collection_embedded_by_a_model_of_other_dimensions_moves_to_the_new_one_with_reembed(
    plain_neo4j: Neo4jServer,
) -> None:
    import pytest

    from tgneo.errors import EmbeddingMismatch
    from tgneo.ingest.index import index_collection
    from tgneo.ingest.loader import load_documents
    from tgneo.ingest.sample import sources
    from tgneo.store.embeddings import embedding_models
    from tgneo.store.schema import CHUNK_VECTOR_INDEX

    minilm = OfflineLLM(embedding_model=MINILM)
    with _private_store(plain_neo4j) as store:
        load_documents(store, OfflineLLM(embedding_model=HASHED), "w", "c", sources())  # 256 dimensions
        with pytest.raises(EmbeddingMismatch, match="tgneo load index --reembed"):
            index_collection(store, minilm, "w", "c")
        report = index_collection(store, minilm, "w", "c", reembed=True)
        assert report.chunks > 0 and embedding_models(store, "w", "c") == [MINILM]
        assert _vector_indexes(store)[CHUNK_VECTOR_INDEX]["options"]["indexConfig"]["vector.dimensions"] == 384  # type: ignore[index]


TWO = {("w", "c"), ("w2", "d")}


@contextmanager
def _two_hashed_collections(server: Neo4jServer) -> Iterator[Store]:
    """A private database holding the sample in two workspaces' collections, embedded by the hashed model."""
    from tgneo.ingest.loader import load_documents
    from tgneo.ingest.sample import sources

    with _private_store(server) as store:
        for workspace, collection in sorted(TWO):
            load_documents(store, OfflineLLM(embedding_model=HASHED), workspace, collection, sources())
        yield store


def _models(store: Store) -> set[str]:
    from tgneo.store.embeddings import embedding_models

    return {m for w, c in TWO for m in embedding_models(store, w, c)}


def test_reembedding_one_collection_to_other_dimensions_while_another_holds_old_vectors_forgets_nothing(
    plain_neo4j: Neo4jServer,
) -> None:
    import pytest

    from tgneo.errors import EmbeddingMismatch
    from tgneo.ingest.index import index_collection
    from tgneo.store.embeddings import embedding_models
    from tgneo.store.schema import CHUNK_VECTOR_INDEX

    with _two_hashed_collections(plain_neo4j) as store:
        with pytest.raises(EmbeddingMismatch, match=r"workspace 'w2', collection 'd' .*--reembed --all-collections"):
            index_collection(store, OfflineLLM(embedding_model=MINILM), "w", "c", reembed=True)
        assert embedding_models(store, "w", "c") == [HASHED]
        assert _vector_indexes(store)[CHUNK_VECTOR_INDEX]["options"]["indexConfig"]["vector.dimensions"] == 256  # type: ignore[index]


def test_reembedding_all_collections_moves_every_workspace_to_the_new_model_and_again_finds_nothing(
    plain_neo4j: Neo4jServer,
) -> None:
    from tgneo.ingest.index import reembed_all
    from tgneo.store.schema import CHUNK_VECTOR_INDEX, ENTITY_VECTOR_INDEX

    minilm = OfflineLLM(embedding_model=MINILM)
    with _two_hashed_collections(plain_neo4j) as store:
        report = reembed_all(store, minilm)
        assert report.dropped > 0 and not report.left
        assert {(w, c) for w, c, n in report.collections if n > 0} == TWO
        assert _models(store) == {MINILM}
        for name in (ENTITY_VECTOR_INDEX, CHUNK_VECTOR_INDEX):
            assert _vector_indexes(store)[name]["options"]["indexConfig"]["vector.dimensions"] == 384  # type: ignore[index]
        again = reembed_all(store, minilm)
        assert again.dropped == 0 and all(n == 0 for _, _, n in again.collections)


def test_a_reembedding_cut_short_after_forgetting_the_old_vectors_is_finished_by_running_it_again(
    plain_neo4j: Neo4jServer,
) -> None:
    from tgneo.ingest.index import reembed_all
    from tgneo.store.embeddings import drop_embeddings

    with _two_hashed_collections(plain_neo4j) as store:
        for workspace, collection in TWO:  # the first step done, then the run stopped
            while drop_embeddings(store, workspace, collection, MINILM, 1000):
                pass
        report = reembed_all(store, OfflineLLM(embedding_model=MINILM))
        assert report.dropped == 0
        assert {(w, c) for w, c, n in report.collections if n > 0} == TWO
        assert _models(store) == {MINILM}


OTHER_TOOLS_LABELS = {"Document", "Chunk", "Resource", "__Entity__", "__KGBuilder__", "Session", "Message"}


@pytest.mark.whole_database  # changes what every test of the database meets (conftest.py)
def test_every_index_and_constraint_of_tgneo_is_named_tgneo_and_on_a_label_only_tgneo_writes(store: Store) -> None:
    from tgneo.store.schema import install_search_schema

    install_search_schema(store, OFFLINE_DIMENSIONS)
    with store.driver.session(database=store.database) as session:
        rows = session.run("SHOW INDEXES YIELD name, labelsOrTypes WHERE name STARTS WITH 'tgneo_'").data()
    assert len(rows) >= len(SCHEMA) + 2
    assert all(label.startswith("Tg") for r in rows for label in r["labelsOrTypes"]), rows
    assert not {label for r in rows for label in r["labelsOrTypes"]} & OTHER_TOOLS_LABELS


@pytest.mark.whole_database  # changes what every test of the database meets (conftest.py)
def test_an_equivalent_index_under_another_name_is_named_instead_of_silently_missing(store: Store) -> None:
    import pytest

    from tgneo.errors import SchemaConflict

    with store.driver.session(database=store.database) as session:
        session.run("DROP INDEX tgneo_resource_graph IF EXISTS").consume()
        session.run("CREATE INDEX someone_elses FOR (n:TgResource) ON (n.workspace, n.collection, n.graph)").consume()
    try:
        with pytest.raises(SchemaConflict, match=r"did not create tgneo_resource_graph .*someone_elses"):
            install_schema(store)
    finally:
        with store.driver.session(database=store.database) as session:
            session.run("DROP INDEX someone_elses IF EXISTS").consume()
        install_schema(store)


@pytest.mark.whole_database  # changes what every test of the database meets (conftest.py)
def test_a_database_of_the_previous_model_is_refused_by_every_store_naming_the_migration(
    store: Store, neo4j_server: Neo4jServer
) -> None:
    from tgneo.errors import NeedsMigration

    with store.driver.session(database=store.database) as session:  # what model 1 installed on every start
        session.run("CREATE INDEX tgneo_question_time IF NOT EXISTS FOR (n:Question) ON (n.startedAtTime)").consume()
    try:
        with (
            Store.from_settings(neo4j_server.settings()) as fresh,
            pytest.raises(NeedsMigration, match="tgneo db migrate"),
        ):
            fresh.read(Q.collections, workspace="test-nobody")
        with Store.from_settings(neo4j_server.settings(), check_model=False) as migrating:
            assert migrating.read(Q.collections, workspace="test-nobody") == []  # only the migration opens it so
    finally:
        with store.driver.session(database=store.database) as session:
            session.run("DROP INDEX tgneo_question_time IF EXISTS").consume()


def _operators(plan: dict[str, object]) -> list[str]:
    """Every operator of an ``EXPLAIN`` plan, the ``@neo4j`` suffix cut."""
    children = plan.get("children") or []
    assert isinstance(children, list)
    return [str(plan["operatorType"]).split("@")[0], *(op for child in children for op in _operators(child))]


def test_the_write_path_is_planned_as_expansions_on_a_database_without_relationships(
    plain_neo4j: Neo4jServer,
) -> None:
    """Planned on a new (or emptied) database, ``MERGE (a)-[r:$(type)]->(b)`` became a scan of every relationship
    record per row, kept while the plan was cached: the first import of 50,000 triples into a new database took 37 s
    where the next took 5.7 s, and 557 s against 5.5 s on an emptied one. The three write queries must reach each
    relationship from its two nodes however empty the statistics are."""
    with _private_store(plain_neo4j) as store:
        install_schema(store)
        with store.driver.session(database=store.database) as session:
            assert session.run("MATCH ()-[r]->() RETURN count(r) AS n").single()["n"] == 0  # type: ignore[index]
            session.run("CALL db.clearQueryCaches()").consume()
            for query in (Q.record_step, Q.record_batch, Q.import_native):
                rows = ("parents", "prefixes", "resources", "entities", "links", "statements", "parts",
                        "statement_links", "contents", "facts", "literals")  # fmt: skip
                params = {"workspace": "w", "collection": "c", "import_id": "i", "rows": {name: [] for name in rows}}
                operators = _operators(session.run("EXPLAIN " + query.text, params).consume().plan)  # type: ignore[arg-type]
                scans = [op for op in operators if "RelationshipsScan" in op or "RelationshipTypeScan" in op]
                assert not scans, (query.name, scans)
                assert any("Expand" in op for op in operators), query.name


def test_the_write_path_sends_its_rows_in_one_map_so_neo4j_plans_each_statement_once() -> None:
    """Neo4j keys a plan on each list parameter's size bucket (0, 1, 2–10, 11–100, …); a map's size is not in the key.
    The write statements take 0.5–1.2 s to plan, so lists of their own re-planned them for every new mix of sizes."""
    from tests import scenarios
    from tgneo.graphmodel.compiler import compile_quads
    from tgneo.store.write_path import batch_params, step_params

    batch = compile_quads(scenarios.corpus().kg)
    for params in (batch_params("w", "c", batch, ["urn:p"], "i"), step_params("w", "c", batch, ["urn:p"])):
        assert [key for key, value in params.items() if isinstance(value, list | tuple)] == []
        assert params["rows"]["parents"] == ["urn:p"] and params["rows"]["resources"]
