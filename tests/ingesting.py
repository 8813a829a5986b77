"""Helpers for the ingest tests: documents written to a folder, loaded with the offline provider."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tgneo.ingest.chunking import ChunkSettings
from tgneo.ingest.loader import LoadReport, load_documents
from tgneo.ingest.sources import discover
from tgneo.llm.offline import OfflineLLM
from tgneo.store import Store

CURIE = """# Marie Curie

Marie Curie was a physicist. She was born in Warsaw in 1867. She married Pierre Curie in 1895.

## Discoveries

Marie Curie and Pierre Curie discovered polonium and radium in 1898. Polonium was named after Poland.
"""

WARSAW = """Warsaw

Warsaw is the capital of Poland. The Vistula flows through Warsaw.

People

Marie Curie was born in Warsaw. Frederic Chopin grew up in Warsaw.
"""


def write(folder: Path, files: dict[str, str | bytes]) -> Path:
    """Write ``files`` (name → text or bytes) into ``folder``; return it."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, content in files.items():
        path = folder / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return folder


def load(store: Store, collection: str, *paths: Path, workspace: str = "w", **settings: Any) -> LoadReport:
    """Load ``paths`` into ``workspace``/``collection`` with the offline provider."""
    found = discover(paths)
    return load_documents(store, OfflineLLM(), workspace, collection, found.sources, ChunkSettings(**settings))


_COLLECTION_NODES = """
CALL () {
  MATCH (n:TgResource {workspace: $w, collection: $c}) WHERE n.uri IS NOT NULL RETURN n
  UNION
  MATCH (n:TgStatement {workspace: $w, collection: $c}) WHERE n.id IS NOT NULL RETURN n
}
"""


def snapshot(store: Store, collection: str, workspace: str = "w") -> dict[str, Any]:
    """Every node (labels, properties) and relationship of a collection, and their counts."""
    nodes = query(store, _COLLECTION_NODES + "RETURN labels(n) AS labels, properties(n) AS props",
                  w=workspace, c=collection)  # fmt: skip
    rels = query(
        store,
        _COLLECTION_NODES + "MATCH (n)-[r]->(b) RETURN type(r) AS type, coalesce(n.uri, n.id) AS a, "
        "coalesce(b.uri, b.id) AS b",
        w=workspace, c=collection,
    )  # fmt: skip
    return {
        "nodes": len(nodes),
        "relationships": len(rels),
        "node_set": sorted(repr((sorted(n["labels"]), sorted(n["props"].items()))) for n in nodes),
        "relationship_set": sorted(repr(sorted(r.items())) for r in rels),
    }


def query(store: Store, cypher: str, **params: Any) -> list[dict[str, Any]]:
    """Run a read query in a test (tests may speak Cypher to check what the library wrote)."""
    with store.driver.session(database=store.database) as session:
        return [r.data() for r in session.run(cypher, params)]


def hold_a_fact(store: Store, workspace: str, collection: str) -> None:
    """Give a collection one knowledge-graph statement (imported, not indexed): enough to be asked — a
    collection holding nothing is refused before anything is recorded — for tests whose model fails or
    never searches."""
    from rdflib.term import Literal, URIRef

    from tgneo.rdf.terms import Quad
    from tgneo.store.rdf_import import import_quads

    fact = Quad(URIRef("http://trustgraph.ai/e/polonium"), URIRef("http://trustgraph.ai/e/discovered-by"),
                Literal("Marie Curie"), "")  # fmt: skip
    import_quads(store, workspace, collection, [fact])
