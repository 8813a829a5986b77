"""Graph profiles: the names another tool gave the knowledge graph it wrote, so tgneo can answer over it.

Three tools write most of the knowledge graphs Neo4j users already have, each with its own names. A
profile says where the entities, the text they were extracted from, and the documents are:

``neo4j-graphrag`` (its ``SimpleKGPipeline``: ``LexicalGraphBuilder`` and ``Neo4jWriter``)::

    (:__Entity__:Type {name})-[:FROM_CHUNK]->(:Chunk {text, index, embedding})-[:FROM_DOCUMENT]->(:Document {path})
    (:Chunk)-[:NEXT_CHUNK]->(:Chunk)           indexes: named by the user (found by label and property)

``llm-graph-builder`` (Neo4j's LLM Graph Builder)::

    (:Chunk {id, text, embedding, position, page_number})-[:PART_OF]->(:Document {fileName})
    (:Chunk)-[:HAS_ENTITY]->(:__Entity__:Type {id, description, embedding})
    (:Document)-[:FIRST_CHUNK]->(:Chunk)-[:NEXT_CHUNK]->(:Chunk)
    indexes: vector (Chunk.embedding), entity_vector (__Entity__.embedding), keyword (Chunk.text),
             entities (full text on the entity labels' id and description)

``langchain`` (``Neo4jGraph.add_graph_documents(include_source=True, baseEntityLabel=True)`` and
``Neo4jVector``)::

    (:Document {id, text, source?, title?})-[:MENTIONS]->(:__Entity__:Type {id})
    (:Chunk {id, text, embedding, source?})    indexes: vector (Chunk.embedding), keyword (Chunk.text)

**Required and optional indexes.** An index a profile names must exist unless the profile lists it in
``optional_indexes``: each built-in profile lists what its tool creates only on request (LLM Graph Builder's
post-processing indexes; neo4j-graphrag names none, it finds any index on the label and property). A
profile file's own index names are required unless it lists them too. A missing optional index falls back
(:mod:`tgneo.graphs.profile`: their vector index, tgneo's side index, their full-text index, a bounded
full scan), with a warning naming what was used.

**Excluded labels.** ``exclude_labels``: nodes their tools write that are not knowledge (LangChain's
``Neo4jSaver`` checkpoints and chat history, LLM Graph Builder's chat history and communities) are never a
seed, a hop, a scanned node or a side index entry, whatever other labels they carry.

**Document names.** A document is named for readers, and keyed, by the first of ``document.name`` and
``document.names`` it holds (LangChain: ``source``, else a ``title`` in its metadata); a document holding
none is keyed by ``document.key`` (LangChain's ``id``) and titled by it, unless it is the md5 of the text
LangChain makes up when the user gave none: never shown, the title is then the text's first line. A
LangChain ``Neo4jVector`` chunk names its document by its ``source`` metadata: it reaches the ``Document``
holding the same ``source`` (the node GraphRAG cites); when no document holds it, the document is
``urn:tgneo:source:{source}`` (:func:`source_iri`), a name that is no node's, never a ``urn:neo4j:node:``
IRI of a node that does not exist.

A *passage* is the node whose text an entity was extracted from (``mentions`` reaches it): a chunk for
neo4j-graphrag and LLM Graph Builder, LangChain's ``Document`` itself for ``add_graph_documents``.

**IRIs of their nodes** (documented in docs/existing-graphs.md). tgneo
writes nothing on their nodes; it names them:

* a node whose profile names a key property: ``urn:neo4j:node:{Label}:{key}:{value}`` (chunks:
  ``urn:chunk:neo4j:{Label}:{key}:{value}``, so that TrustGraph's trace viewer prints their text);
* otherwise by ``elementId``: ``urn:neo4j:element:{elementId}`` (chunks ``urn:chunk:neo4j:element:…``).
  Caveat: Neo4j may reuse the element id of a deleted node, and a dump and load renumbers them, so such
  an IRI names the node as it is now; traces keep what they quoted (the passage text, the names), not
  the pointer alone;
* a relationship type: ``urn:neo4j:type:{TYPE}``.

Every component is percent-encoded. Labels, types and properties from a profile reach Cypher only as
parameters (``$(…)`` dynamic labels and types, ``n[$key]``), after :func:`check` found each of them in
the database: a profile cannot inject Cypher.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any, Literal
from urllib.parse import quote

from tgneo.errors import ProfileError

__all__ = [
    "BUILTIN",
    "ProfileError",
    "ChunkSpec",
    "DocumentSpec",
    "EntitySpec",
    "GraphProfile",
    "chunk_iri",
    "element_iri",
    "load_profile",
    "node_iri",
    "parse_graphs",
    "source_iri",
    "type_iri",
]


@dataclass(frozen=True)
class EntitySpec:
    """Where their entities are.

    Attributes:
        label: The label every entity carries (``__Entity__``); a node of it is an entity.
        name: The property a reader sees as its name.
        key: A property unique per entity, for stable IRIs (``None``: ``elementId``).
        description: A property holding a description, shown beside the name when present.
        embedding: The property their vector index reads.
        vector_index, fulltext_index: Index names (``None``: any index on ``label`` and the property, if one exists).
    """

    label: str = "__Entity__"
    name: str = "name"
    key: str | None = None
    description: str | None = None
    embedding: str | None = "embedding"
    vector_index: str | None = None
    fulltext_index: str | None = None


@dataclass(frozen=True)
class ChunkSpec:
    """Where their chunks (the units Document RAG retrieves) are.

    Attributes:
        label, text, key, embedding, vector_index, fulltext_index: As :class:`EntitySpec`.
        order: The property holding a chunk's position in its document (``index``, ``position``).
        part_of: The relationship type between a chunk and its document (``None``: no such relationship).
        source: With no ``part_of``: the chunk property naming its document (LangChain's ``source``).
    """

    label: str = "Chunk"
    text: str = "text"
    key: str | None = None
    embedding: str | None = "embedding"
    order: str | None = None
    vector_index: str | None = None
    fulltext_index: str | None = None
    part_of: str | None = None
    source: str | None = None


@dataclass(frozen=True)
class DocumentSpec:
    """Where their documents are (module docstring, "Document names").

    Attributes:
        name: The property naming a source (``path``, ``fileName``, ``source``): its title and its key.
        names: Further naming properties, tried in order when a document lacks ``name`` (a ``title``).
        key: The key of a document holding none of them (LangChain's ``id``): in its IRI, never its title.
    """

    label: str = "Document"
    name: str = "path"
    names: tuple[str, ...] = ()
    key: str | None = None

    @property
    def naming(self) -> tuple[str, ...]:
        """The naming properties, in the order tried."""
        return (self.name, *self.names)


@dataclass(frozen=True)
class GraphProfile:
    """The names of one tool's knowledge graph (module docstring).

    Attributes:
        mentions: The relationship type between an entity and the passage it was extracted from.
        passage: Which node ``mentions`` reaches: a ``chunk`` or the ``document`` itself.
    """

    name: str
    entity: EntitySpec
    chunk: ChunkSpec
    document: DocumentSpec
    mentions: str
    passage: Literal["chunk", "document"] = "chunk"
    optional_indexes: tuple[str, ...] = ()
    """Index names that may be missing (their tool makes them only on request): the module docstring."""
    exclude_labels: tuple[str, ...] = ()
    """Labels of nodes that are never explored (the module docstring)."""
    path: str | None = None
    """The profile file it was read from (``None``: built in): what ``--graph`` takes, so what hints print."""

    @property
    def graph_arg(self) -> str:
        """What ``--graph`` takes for this profile: its file's path, else its built-in name."""
        return self.path or self.name

    @property
    def passage_label(self) -> str:
        return self.chunk.label if self.passage == "chunk" else self.document.label

    def labels(self) -> list[tuple[str, str]]:
        """``(what, label)`` of every label the profile names."""
        return [("entity.label", self.entity.label), ("chunk.label", self.chunk.label),
                ("document.label", self.document.label)]  # fmt: skip

    def types(self) -> list[tuple[str, str]]:
        """``(what, type)`` of every relationship type the profile names."""
        named = [("mentions", self.mentions)]
        if self.chunk.part_of is not None:
            named.append(("chunk.part_of", self.chunk.part_of))
        return named

    def properties(self) -> list[tuple[str, str]]:
        """``(what, property)`` of every property the profile names."""
        named: list[tuple[str, str | None]] = [
            ("entity.name", self.entity.name), ("entity.key", self.entity.key),
            ("entity.description", self.entity.description), ("chunk.text", self.chunk.text),
            ("chunk.key", self.chunk.key), ("chunk.order", self.chunk.order), ("chunk.source", self.chunk.source),
            ("document.name", self.document.name), *(("document.names", n) for n in self.document.names),
            ("document.key", self.document.key),
        ]  # fmt: skip
        if self.passage == "document":
            named.append(("document text", DOCUMENT_TEXT))
        return [(what, value) for what, value in named if value is not None]


DOCUMENT_TEXT = "text"
"""The property of a passage that is a document (LangChain's ``Document {id, text}``)."""

LGB_OPTIONAL = ("entity_vector", "keyword", "entities", "community_vector", "community_keyword")
"""LLM Graph Builder's indexes that exist only when the user turned on post-processing (``post_processing.py``,
``communities.py``); its chunk ``vector`` index is made with the chunks."""
CHAT_HISTORY = ("Session", "Message")
"""LangChain's ``Neo4jChatMessageHistory`` (which LLM Graph Builder's chat uses too)."""
LANGGRAPH_CHECKPOINTS = ("Thread", "Checkpoint", "ChannelState", "PendingWrite", "Branch")
"""langchain-neo4j's ``Neo4jSaver`` (LangGraph checkpoints; ``langchain_neo4j/checkpoint/base.py``, 0.11.0)."""

BUILTIN: Mapping[str, GraphProfile] = {
    "neo4j-graphrag": GraphProfile(
        name="neo4j-graphrag",
        entity=EntitySpec(name="name"),
        chunk=ChunkSpec(order="index", part_of="FROM_DOCUMENT"),
        document=DocumentSpec(name="path"),
        mentions="FROM_CHUNK",
    ),
    "llm-graph-builder": GraphProfile(
        name="llm-graph-builder",
        entity=EntitySpec(
            name="id", key="id", description="description", vector_index="entity_vector", fulltext_index="entities"
        ),  # fmt: skip
        chunk=ChunkSpec(key="id", order="position", vector_index="vector", fulltext_index="keyword", part_of="PART_OF"),
        document=DocumentSpec(name="fileName"),
        mentions="HAS_ENTITY",
        optional_indexes=LGB_OPTIONAL,
        exclude_labels=("User", *CHAT_HISTORY, "__Community__"),
    ),
    "langchain": GraphProfile(
        name="langchain",
        entity=EntitySpec(name="id", key="id", embedding=None),
        chunk=ChunkSpec(key="id", vector_index="vector", fulltext_index="keyword", source="source"),
        document=DocumentSpec(name="source", names=("title",), key="id"),
        mentions="MENTIONS",
        passage="document",
        optional_indexes=("keyword",),
        exclude_labels=(*LANGGRAPH_CHECKPOINTS, *CHAT_HISTORY),
    ),
}
"""The three built-in profiles, with the names each tool uses by default."""


def load_profile(spec: str) -> GraphProfile:
    """A built-in profile by name, or a profile file (TOML) by path.

    A file names what differs from the profile it ``extends`` (default ``neo4j-graphrag``)::

        name = "papers"
        extends = "neo4j-graphrag"
        mentions = "FROM_CHUNK"
        [chunk]
        vector_index = "paper_chunks"
        [document]
        name = "url"

    An index it names is required; ``optional_indexes = ["paper_chunks"]`` lets it be missing (a fallback then,
    with a warning). ``optional_indexes`` and ``exclude_labels`` replace the base profile's lists.

    Raises:
        ProfileError: not a built-in name and not a readable profile file, or a field it does not know.
    """
    if spec in BUILTIN:
        return BUILTIN[spec]
    path = Path(spec)
    if path.suffix == ".toml" and not path.exists():  # meant as a file: say it is not there
        raise ProfileError(f"graph profile {spec!r}: no such file: {spec}")
    if not path.suffix == ".toml" or not path.is_file():
        raise ProfileError(
            f"graph profile {spec!r}: not a built-in profile ({', '.join(BUILTIN)}) and not a profile file (*.toml)"
        )
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise ProfileError(f"graph profile {spec}: cannot be read: {e}") from e
    return profile_from(data, spec)


def profile_from(data: Mapping[str, Any], where: str = "profile") -> GraphProfile:
    """A profile from a mapping (a profile file's contents): each field checked, unknown ones refused."""
    data = dict(data)
    base_name = data.pop("extends", "neo4j-graphrag")
    if base_name not in BUILTIN:
        raise ProfileError(f"{where}: extends {base_name!r}, which is not one of {', '.join(BUILTIN)}")
    base = BUILTIN[base_name]
    name = data.pop("name", path_stem(where))
    sections: dict[str, Any] = {}
    for section, current in (("entity", base.entity), ("chunk", base.chunk), ("document", base.document)):
        given = data.pop(section, {})
        if not isinstance(given, dict):
            raise ProfileError(f"{where}: [{section}] must be a table")
        sections[section] = replace(current, **_fields(current, given, f"{where} [{section}]"))
    top = _fields(base, {k: v for k, v in data.items()}, where,
                  exclude=("entity", "chunk", "document", "name", "path"))  # fmt: skip
    path = where if where.endswith(".toml") else None
    profile = replace(base, name=_name(name, f"{where}: name"), path=path, **sections, **top)
    if profile.passage not in ("chunk", "document"):
        raise ProfileError(f"{where}: passage must be 'chunk' or 'document', not {profile.passage!r}")
    return profile


def parse_graphs(text: str | None) -> dict[str, GraphProfile]:
    """``TGNEO_GRAPHS`` / ``tgneo serve --graph``: ``COLLECTION=PROFILE`` pairs (comma-separated), each profile a
    built-in name or a profile file. Questions to such a collection (in any workspace) answer over that graph
    unless they name another profile; TrustGraph's CLI and SDK, which only name a collection, reach it so.

    Raises:
        ProfileError: a pair that is not ``COLLECTION=PROFILE``, or a profile that cannot be loaded.
    """
    graphs: dict[str, GraphProfile] = {}
    for pair in (text or "").split(","):
        if not pair.strip():
            continue
        collection, sep, spec = pair.partition("=")
        if not sep or not collection.strip() or not spec.strip():
            raise ProfileError(f"TGNEO_GRAPHS: {pair.strip()!r} is not COLLECTION=PROFILE")
        graphs[collection.strip()] = load_profile(spec.strip())
    return graphs


def path_stem(where: str) -> str:
    return Path(where).stem or "profile"


def _name(value: object, what: str) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > 200 or "`" in value:
        raise ProfileError(f"{what}: must be a non-empty name of at most 200 characters, not {value!r}")
    return value


def _fields(current: object, given: Mapping[str, Any], where: str, exclude: tuple[str, ...] = ()) -> dict[str, Any]:
    known = {f.name for f in fields(current) if f.name not in exclude}  # type: ignore[arg-type]
    out: dict[str, Any] = {}
    for key, value in given.items():
        if key not in known:
            raise ProfileError(f"{where}: unknown field {key!r} (fields: {', '.join(sorted(known))})")
        if isinstance(getattr(current, key), tuple):
            if not isinstance(value, list):
                raise ProfileError(f"{where}: {key} must be a list of names, not {value!r}")
            out[key] = tuple(_name(v, f"{where}: {key}") for v in value)
            continue
        out[key] = None if value in ("", None) else _name(value, f"{where}: {key}")
    return out


def _part(value: object) -> str:
    return quote(str(value), safe="")


def source_iri(source: object) -> str:
    """The document a chunk names by its ``source`` when no document node of theirs holds that source: a name
    that is no node's (``urn:tgneo:source:…``), so no IRI claims a node that does not exist."""
    return f"urn:tgneo:source:{_part(source)}"


def node_iri(label: str, key: str, value: object) -> str:
    """The IRI of their node ``(:label {key: value})``."""
    return f"urn:neo4j:node:{_part(label)}:{_part(key)}:{_part(value)}"


def element_iri(element_id: str) -> str:
    """The IRI of their node with no key property: its ``elementId`` (see the module's caveat)."""
    return f"urn:neo4j:element:{_part(element_id)}"


def chunk_iri(iri: str) -> str:
    """A passage's IRI in the ``urn:chunk:`` form TrustGraph's viewer prints the text of."""
    return "urn:chunk:neo4j:" + iri.removeprefix("urn:neo4j:").removeprefix("node:")


def type_iri(rel_type: str) -> str:
    """The predicate IRI of their relationship type."""
    return f"urn:neo4j:type:{_part(rel_type)}"
