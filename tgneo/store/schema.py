"""Constraints and indexes, declared once and installed idempotently (``IF NOT EXISTS``), then checked.

The identity constraints (one ``:TgResource`` per IRI, one ``:TgStatement`` per triple, per workspace
and collection) are what make ``MERGE`` safe under concurrent writers; the range indexes serve the
trace reader; the full-text index on entity names and the vector indexes on entity and chunk
embeddings serve retrieval (:mod:`tgneo.store.search`). Schema statements cannot take
``$parameters`` for labels or property names, so they are built here from ``Label`` members, fixed
names and an integer dimension count only; no user string ever reaches them.

**A database shared with other tools.** Every index and constraint is on a label only tgneo writes
(``Tg…``) and is named ``tgneo_…``; none is on ``Document``, ``Chunk``, ``Resource`` or ``__Entity__``,
which neo4j-graphrag, LLM Graph Builder, LangChain and n10s index for themselves. Neo4j's ``IF NOT
EXISTS`` also does nothing when an *equivalent* index exists under another name, so after installing,
every index is looked up by its name, and one that is missing is an error naming what stands in its way
(:class:`~tgneo.errors.SchemaConflict`) rather than a retriever failing later.

The vector indexes need the embedding model's dimensions, which only the configured LLM provider
knows, so they are installed by :func:`install_search_schema` (``tgneo load …`` calls it), not by
:func:`install_schema`. A vector index answers only vectors of its own length, so installing one
for another length than the existing index refuses with :class:`~tgneo.errors.EmbeddingMismatch`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tgneo.errors import EmbeddingMismatch, SchemaConflict
from tgneo.store.driver import Store
from tgneo.store.graph_version import MODEL
from tgneo.store.queries import Q
from tgneo.vocab import Label

Kind = Literal["unique", "range", "fulltext", "vector"]

ENTITY_NAME_INDEX = "tgneo_entity_name"
"""Full-text index on ``:TgResource(name)``: a knowledge-graph entity's names (its ``rdfs:label`` values)."""
ENTITY_VECTOR_INDEX = "tgneo_entity_embedding"
"""Vector index (cosine) on ``:TgResource(embedding)``: the embedding of an entity's name."""
CHUNK_VECTOR_INDEX = "tgneo_chunk_embedding"
"""Vector index (cosine) on ``:TgChunk(embedding)``: the embedding of a chunk's text."""
CHUNK_TEXT_INDEX = "tgneo_chunk_text"
"""Full-text index on ``:TgChunk(text)``: a chunk's words, searched beside its embedding (hybrid retrieval)."""


@dataclass(frozen=True)
class SchemaItem:
    """One constraint or index: a name, a label, its properties (and a vector index's dimensions)."""

    name: str
    kind: Kind
    label: Label
    properties: tuple[str, ...]
    dimensions: int | None = None

    def cypher(self) -> str:
        props = ", ".join(f"n.{p}" for p in self.properties)
        target = f"FOR (n:{self.label.value})"
        # DDL takes no parameters: name, label and properties come only from the declarations here.
        if self.kind == "unique":
            unique = f"REQUIRE ({props}) IS UNIQUE"
            return f"CREATE CONSTRAINT {self.name} IF NOT EXISTS {target} {unique}"  # cypher-label-ok
        if self.kind == "fulltext":
            return f"CREATE FULLTEXT INDEX {self.name} IF NOT EXISTS {target} ON EACH [{props}]"  # cypher-label-ok
        if self.kind == "vector":
            dims = self.dimensions
            if not isinstance(dims, int) or isinstance(dims, bool) or not 1 <= dims <= 4096:
                raise ValueError(f"{self.name}: a vector index needs 1 to 4096 dimensions, not {dims!r}")
            config = f"OPTIONS {{indexConfig: {{`vector.dimensions`: {dims}, `vector.similarity_function`: 'cosine'}}}}"
            return f"CREATE VECTOR INDEX {self.name} IF NOT EXISTS {target} ON ({props}) {config}"  # cypher-label-ok
        return f"CREATE INDEX {self.name} IF NOT EXISTS {target} ON ({props})"  # cypher-label-ok


SCHEMA: tuple[SchemaItem, ...] = (
    # Identity: one node per IRI and one statement node per (s, p, o) in each workspace + collection.
    SchemaItem("tgneo_resource_key", "unique", Label.RESOURCE, ("workspace", "collection", "uri")),
    SchemaItem("tgneo_statement_key", "unique", Label.STATEMENT, ("workspace", "collection", "id")),
    # Reified edges by subject (and predicate), and by predicate: quoted-triple patterns and the triples
    # service (store/triples.py). No index on a statement's object: a long literal would exceed the index
    # key size and fail its write.
    SchemaItem("tgneo_statement_subject", "range", Label.STATEMENT, ("workspace", "collection", "s", "p")),
    SchemaItem("tgneo_statement_predicate", "range", Label.STATEMENT, ("workspace", "collection", "p")),
    # Trace roots newest first (Questions and the document changes that made traces stale).
    SchemaItem("tgneo_explain_time", "range", Label.EXPLAIN, ("workspace", "collection", "startedAtTime")),
    # TrustGraph's triples service (store/triples.py): entities by named graph, librarian texts by URI
    # without a collection (TrustGraph's get-document-content names none).
    SchemaItem("tgneo_resource_graph", "range", Label.RESOURCE, ("workspace", "collection", "graph")),
    SchemaItem("tgneo_content_uri", "range", Label.CONTENT, ("workspace", "uri")),
    # Retrieval: entities by name (GraphRAG's exploration by full text).
    SchemaItem(ENTITY_NAME_INDEX, "fulltext", Label.RESOURCE, ("name",)),
    # Retrieval: chunks by their words (Document RAG's hybrid exploration: full text beside the vectors).
    SchemaItem(CHUNK_TEXT_INDEX, "fulltext", Label.CHUNK, ("text",)),
    # The namespace table of each collection (relationship types and property keys, tgneo.native).
    SchemaItem("tgneo_prefix_key", "unique", Label.PREFIX, ("workspace", "collection", "prefix")),
    # Atomic imports (store.imports): the journal, and what an unfinished import created or changed.
    SchemaItem("tgneo_import_key", "unique", Label.IMPORT, ("workspace", "collection", "id")),
    SchemaItem("tgneo_resource_import", "range", Label.RESOURCE, ("workspace", "collection", "tg_import")),
    SchemaItem("tgneo_statement_import", "range", Label.STATEMENT, ("workspace", "collection", "tg_import")),
    SchemaItem("tgneo_undo_import", "range", Label.IMPORT_UNDO, ("workspace", "collection", "undo_import")),
    SchemaItem("tgneo_undo_key", "range", Label.IMPORT_UNDO, ("workspace", "collection", "undo_key")),
    # Retention (store.retention): one stored policy per workspace and collection.
    SchemaItem("tgneo_retention_policy_key", "unique", Label.RETENTION_POLICY, ("workspace", "collection")),
    # OpenTelemetry in (tgneo.otlp): one node per span tree, so that concurrent batches of a tree add up.
    SchemaItem("tgneo_span_tree_key", "unique", Label.SPAN_TREE, ("workspace", "collection", "trace_id")),
)


def search_schema(dimensions: int) -> tuple[SchemaItem, ...]:
    """The vector indexes for embeddings of ``dimensions`` values."""
    return (
        SchemaItem(ENTITY_VECTOR_INDEX, "vector", Label.RESOURCE, ("embedding",), dimensions),
        SchemaItem(CHUNK_VECTOR_INDEX, "vector", Label.CHUNK, ("embedding",), dimensions),
    )


def install_schema(store: Store, items: tuple[SchemaItem, ...] = SCHEMA, *, mark: bool = True) -> list[str]:
    """Create every constraint and index that is missing, wait until they are online, check that each is
    there under its name, record the graph model, and return the DDL run.

    Raises:
        NeedsMigration: the database holds tgneo's previous graph model (``tgneo db migrate``).
        SchemaConflict: an index could not be created because an equivalent one exists under another name.
    """
    statements = [item.cypher() for item in items]
    for statement in statements:
        store.run_schema(statement)
    store.read(Q.await_indexes, seconds=300)
    present = {r["name"]: r for r in store.read(Q.schema_names, names=[item.name for item in items])}
    for item in items:
        found = present.get(item.name)
        if found is None:
            raise SchemaConflict(_conflict(store, item))
        if found["labels"] != [item.label.value] or list(found["properties"]) != list(item.properties):
            on = f":{', '.join(found['labels'] or [])}({', '.join(found['properties'] or [])})"
            raise SchemaConflict(
                f"an index named {item.name} exists on {on}, not on :{item.label.value}({', '.join(item.properties)});"
                f" drop it (DROP INDEX {item.name}, or DROP CONSTRAINT for a constraint) and run tgneo init-schema"
            )
    if mark:
        mark_current(store)
    return statements


def mark_current(store: Store) -> None:
    """Record that a fresh database holds the current graph model (a record that exists is kept)."""
    store.write(Q.model_init, model=MODEL)


def _conflict(store: Store, item: SchemaItem) -> str:
    """Why ``item`` is missing after ``CREATE … IF NOT EXISTS``: the index or constraint that took its place."""
    rows = store.read(Q.schema_on, label=item.label.value, properties=list(item.properties))
    other = ", ".join(f"{r['name']} ({r['type']})" for r in rows) or "none found"
    return (
        f"Neo4j did not create {item.name} on :{item.label.value}({', '.join(item.properties)}): an equivalent "
        f"index exists under another name ({other}); drop it or rename it, then run tgneo init-schema again"
    )


def vector_index_dimensions(store: Store) -> dict[str, int]:
    """The dimensions of tgneo's vector indexes that exist, by index name."""
    names = [item.name for item in search_schema(1)]
    return {r["name"]: int(r["dimensions"]) for r in store.read(Q.vector_index_dimensions, names=names)}


def install_search_schema(store: Store, dimensions: int) -> list[str]:
    """Install :data:`SCHEMA` and the vector indexes for ``dimensions``-long embeddings (idempotent).

    A vector index built for other dimensions that no node uses (no chunk or entity holds an embedding: a new
    database, or every embedding forgotten by ``tgneo load index --reembed --all-collections``) is dropped and
    built again for these: nothing is lost, and changing the embedding model needs no hand-written ``DROP INDEX``.

    Raises:
        EmbeddingMismatch: a vector index some embeddings use exists for embeddings of another length.
    """
    stale = {name: existing for name, existing in vector_index_dimensions(store).items() if existing != dimensions}
    if stale:
        used = store.read(Q.vector_index_in_use)[0]
        in_use = {ENTITY_VECTOR_INDEX: bool(used["entities"]), CHUNK_VECTOR_INDEX: bool(used["chunks"])}
        for name, existing in stale.items():
            if in_use[name]:
                raise EmbeddingMismatch(
                    f"the vector index {name} holds {existing}-dimensional embeddings, but the configured embedding "
                    f"model gives {dimensions}; use a model with {existing} dimensions (TGNEO_LLM, "
                    f"TGNEO_EMBEDDING_MODEL), or embed every collection again with this one: tgneo load index "
                    f"--reembed --all-collections"
                )
        for name in stale:  # a name of search_schema's, never a caller's
            store.run_schema(f"DROP INDEX {name} IF EXISTS")  # cypher-label-ok: tgneo's own index name
    return install_schema(store, SCHEMA + search_schema(dimensions))


_SHOWN_AS: dict[Kind, str] = {"unique": "RANGE", "range": "RANGE", "fulltext": "FULLTEXT", "vector": "VECTOR"}
"""The ``type`` ``SHOW INDEXES`` gives each kind of item (a uniqueness constraint's is its owned range index)."""


def search_schema_installed(store: Store, dimensions: int) -> bool:
    """Whether everything :func:`install_search_schema` installs for ``dimensions`` is there as declared — each item
    under its name, of its kind, on its label and properties, online, a vector index of these dimensions — and the
    database records the current graph model. Two reads, whatever the number of items.

    Stricter than the check after installing, on purpose: anything it does not recognise sends the caller down the
    whole installation, which creates what is missing, waits for what is populating and names what conflicts.
    """
    items = SCHEMA + search_schema(dimensions)
    found = {r["name"]: r for r in store.read(Q.schema_state, names=[item.name for item in items])}
    for item in items:
        row = found.get(item.name)
        if (
            row is None
            or row["state"] != "ONLINE"
            or row["type"] != _SHOWN_AS[item.kind]
            or (row["constraint"] is not None) != (item.kind == "unique")
            or row["labels"] != [item.label.value]
            or list(row["properties"]) != list(item.properties)
            or (item.kind == "vector" and row["dimensions"] != item.dimensions)
        ):
            return False
    return bool(store.read(Q.model_state)[0]["model"] == MODEL)


def ensure_search_schema(store: Store, dimensions: int) -> bool:
    """:func:`install_search_schema`, unless :func:`search_schema_installed` finds it all there; whether it installed.

    What a process runs before its first question (:class:`tgneo.service.runtime.Runtime`): installing is one schema
    statement per item (19 today) and a wait, a round trip each, which every cold ``tgneo ask`` paid although the schema
    was almost always there already — a few milliseconds each on a local server, tens on a remote one (issue 50).

    Raises:
        EmbeddingMismatch: a vector index some embeddings use exists for embeddings of another length.
        SchemaConflict: an index could not be created because an equivalent one exists under another name.
    """
    if search_schema_installed(store, dimensions):
        return False
    install_search_schema(store, dimensions)
    return True
