"""Search for the engines: entities by name and by vector, chunks by vector; isolation; model mismatches."""

from __future__ import annotations

from pathlib import Path

import pytest
from rdflib.term import Literal

from tests.ingesting import CURIE, WARSAW, load, write
from tgneo.errors import EmbeddingMismatch, EmptyCollection, NotIndexed
from tgneo.ingest.facts import entity_iri
from tgneo.llm.offline import OfflineLLM
from tgneo.rdf.terms import Quad
from tgneo.store import Store
from tgneo.store.rdf_import import import_quads
from tgneo.store.search import (
    chunks_by_vector,
    collection_status,
    entities_by_text,
    entities_by_vector,
    lucene_query,
)
from tgneo.vocab import RDFS

W = "w"
LLM = OfflineLLM()
MODEL, DIMENSIONS = LLM.embedding_model, LLM.dimensions
"""The default offline embedder's, which the collections here are loaded with."""


def embed_one(text: str) -> list[float]:
    """``text``'s query vector from the default offline embedder."""
    return LLM.embed([text]).vectors[0]


@pytest.fixture
def loaded(store: Store, collection: str, tmp_path: Path) -> str:
    load(store, collection, write(tmp_path / "c", {"curie.md": CURIE, "warsaw.txt": WARSAW}))
    return collection


def test_entities_are_found_by_the_words_of_their_name(store: Store, loaded: str) -> None:
    matches = entities_by_text(store, W, loaded, "Marie Curie", limit=5)
    assert matches[0].uri == str(entity_iri("Marie Curie")) and matches[0].name == "Marie Curie"
    assert [m.name for m in matches] == ["Marie Curie", "Pierre Curie"] and matches[0].score > matches[1].score


def test_lucene_syntax_in_the_text_is_taken_literally() -> None:
    assert lucene_query('Curie: "radium" AND (polonium)~ OR x/y') == r"Curie\: \"radium\" and \(polonium\)\~ or x\/y"


def test_a_text_of_special_characters_only_finds_nothing_without_error(store: Store, loaded: str) -> None:
    assert entities_by_text(store, W, loaded, "?! ** ()") == []
    assert entities_by_text(store, W, loaded, "Curie AND (Warsaw") != []


def test_entities_are_found_by_the_embedding_of_their_name(store: Store, loaded: str) -> None:
    matches = entities_by_vector(store, W, loaded, embed_one("polonium"), limit=2, model=MODEL)
    assert matches[0].name.lower() == "polonium" and matches[0].score > 0.99
    assert all(m.uri.startswith("http://trustgraph.ai/e/") for m in matches)  # never a chunk or a document


def test_chunks_are_found_by_vector_with_their_text_and_document(store: Store, loaded: str) -> None:
    (best,) = chunks_by_vector(store, W, loaded, embed_one("Frederic Chopin grew up in Warsaw"), limit=1, model=MODEL)
    assert best.uri.startswith("urn:chunk:") and "Chopin" in best.text
    assert best.document is not None and best.document.startswith("https://trustgraph.ai/doc/")


def test_searches_see_only_their_own_collection_and_still_return_limit_results(
    store: Store, collection: str, tmp_path: Path
) -> None:
    mine, theirs = collection, f"{collection}-other"
    load(store, mine, write(tmp_path / "a", {"curie.md": CURIE}))
    load(store, theirs, write(tmp_path / "b", {"warsaw.txt": WARSAW, "curie.md": CURIE}))
    chopin = embed_one("Frederic Chopin")
    assert str(entity_iri("Frederic Chopin")) not in {m.uri for m in entities_by_vector(store, W, mine, chopin, 5,
                                                                                        model=MODEL)}  # fmt: skip
    assert entities_by_text(store, W, theirs, "Chopin", 1)[0].name == "Frederic Chopin"
    assert all("Chopin" not in m.name for m in entities_by_text(store, W, mine, "Frederic Chopin", 10))
    mine_status = collection_status(store, W, mine)
    assert len(entities_by_text(store, W, mine, "Curie Warsaw polonium radium Poland", 4)) == 4
    assert len(entities_by_vector(store, W, mine, chopin, 6, model=MODEL)) == 6
    assert len(chunks_by_vector(store, W, mine, chopin, 10, model=MODEL)) == mine_status.embedded_chunks


def test_a_query_vector_of_another_model_is_refused(store: Store, loaded: str) -> None:
    with pytest.raises(EmbeddingMismatch, match=f"has 3 dimensions, but tgneo_chunk_embedding holds {DIMENSIONS}"):
        chunks_by_vector(store, W, loaded, [0.1, 0.2, 0.3], model="tiny-3")
    with pytest.raises(EmbeddingMismatch, match=f"embedded with {MODEL}, but the query vector comes"):
        entities_by_vector(store, W, loaded, embed_one("Warsaw"), model=f"another-{DIMENSIONS}")


def test_an_empty_collection_says_so(store: Store, collection: str) -> None:
    with pytest.raises(EmptyCollection, match=f"collection '{collection}' holds no documents"):
        entities_by_text(store, W, collection, "Curie")
    with pytest.raises(EmptyCollection, match="tgneo load sample"):
        chunks_by_vector(store, W, collection, embed_one("Curie"), model=MODEL)


def test_an_imported_knowledge_graph_is_found_by_name_at_once_and_by_vector_once_indexed(
    store: Store, collection: str
) -> None:
    from tgneo.ingest.index import index_collection
    from tgneo.store.schema import install_search_schema

    install_search_schema(store, DIMENSIONS)  # the vector indexes exist; this collection has no vectors in them yet
    curie, warsaw = entity_iri("Marie Curie"), entity_iri("Warsaw")
    import_quads(store, W, collection, [
        Quad(curie, entity_iri("born in"), warsaw), Quad(curie, RDFS.label, Literal("Marie Curie")),
        Quad(warsaw, RDFS.label, Literal("Warsaw")), Quad(warsaw, RDFS.label, Literal("warsaw")),
    ])  # fmt: skip
    assert [m.name for m in entities_by_text(store, W, collection, "Warsaw")] == ["Warsaw"]  # rdfs:label is its name
    with pytest.raises(NotIndexed, match="has 4 statements but no entity embeddings indexed for search: run `tgneo lo"):
        entities_by_vector(store, W, collection, embed_one("Warsaw"), model=MODEL)
    first = index_collection(store, OfflineLLM(), W, collection)
    assert (first.entities, first.named_entities) == (2, 2)
    assert entities_by_vector(store, W, collection, embed_one("Warsaw"), limit=1, model=MODEL)[0].uri == str(warsaw)
    again = index_collection(store, OfflineLLM(), W, collection)
    assert (again.entities, again.chunks) == (0, 0)
    with pytest.raises(EmptyCollection, match="holds no document chunks"):
        chunks_by_vector(store, W, collection, embed_one("Warsaw"), model=MODEL)
