"""Documents in: provenance for every statement, one node per entity, idempotent loads, bad files skipped.

Against the real Neo4j, with the offline provider; each test loads into its own collection.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.ingesting import CURIE, WARSAW, load, query, snapshot, write
from tgneo.errors import EmbeddingMismatch
from tgneo.ingest.chunking import ChunkSettings
from tgneo.ingest.facts import entity_iri
from tgneo.ingest.loader import load_documents
from tgneo.ingest.sources import discover
from tgneo.llm.base import Completion, Task
from tgneo.llm.offline import OfflineLLM
from tgneo.rdf.ntriples import edge_id
from tgneo.store import Store
from tgneo.store.queries import CypherQuery, Q
from tgneo.store.rdf_export import export_quads
from tgneo.store.traces import source_chain
from tgneo.version import __version__
from tgneo.vocab import RDFS

W = "w"


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    return write(tmp_path / "corpus", {"curie.md": CURIE, "warsaw.txt": WARSAW})


def test_every_statement_traces_to_its_document_through_subgraph_chunk_and_section(
    store: Store, collection: str, corpus: Path
) -> None:
    report = load(store, collection, corpus)
    assert report.loaded == 2 and report.statements > 20
    rows = query(
        store,
        """MATCH (st:TgStatement {workspace: $w, collection: $c})
        OPTIONAL MATCH (st)<-[:CONTAINS]-(sg:TgSubgraph)-[:WAS_DERIVED_FROM]->(ch:TgChunk)
              -[:WAS_DERIVED_FROM]->(sec:TgSection)-[:WAS_DERIVED_FROM]->(doc:TgDocument)
        RETURN st.id AS id, count(doc) AS chains""",
        w=W, c=collection,
    )  # fmt: skip
    assert len(rows) == report.statements
    assert [r for r in rows if r["chains"] == 0] == []
    facts = [q for q in export_quads(store, W, collection) if q.g == ""]  # the knowledge graph asserts each natively
    assert {edge_id(q.s, q.p, q.o) for q in facts} == {r["id"] for r in rows}
    chain = source_chain(store, W, collection, rows[0]["id"])["sources"][0]["chain"]
    assert [n["labels"] for n in chain][-1].count("TgDocument") == 1
    assert all("embedding" not in n["props"] for n in chain)  # a reader of a trace gets no vectors


def test_each_derived_node_was_generated_by_an_activity_of_its_component(
    store: Store, collection: str, corpus: Path
) -> None:
    load(store, collection, corpus, size=300, overlap=50)
    rows = query(
        store,
        """MATCH (n:TgSource {workspace: $w, collection: $c}) WHERE n:TgSection OR n:TgChunk OR n:TgSubgraph
        MATCH (n)-[:WAS_GENERATED_BY]->(a:ProvActivity)-[:WAS_ASSOCIATED_WITH]->(agent:ProvAgent)
        MATCH (a)-[:USED]->(input)<-[:WAS_DERIVED_FROM]-(n)
        RETURN [l IN labels(n) WHERE l IN ['TgSection', 'TgChunk', 'TgSubgraph']][0] AS kind, agent.label AS agent,
               a.componentVersion AS version, a.startedAtTime IS NOT NULL AS timed, a.llmModel AS model,
               a.chunkSize AS size, a.chunkOverlap AS overlap""",
        w=W, c=collection,
    )  # fmt: skip
    kinds = {(r["kind"], r["agent"]) for r in rows}
    assert kinds == {("TgSection", "markdown-decoder"), ("TgSection", "text-decoder"), ("TgChunk", "chunker"),
                     ("TgSubgraph", "kg-extractor")}  # fmt: skip
    assert all(r["version"] == __version__ and r["timed"] for r in rows)
    assert {r["model"] for r in rows if r["kind"] == "TgSubgraph"} == {"tgneo-offline"}
    assert {(r["size"], r["overlap"]) for r in rows if r["kind"] == "TgChunk"} == {(300, 50)}


def test_the_same_entity_named_in_two_documents_is_one_node(store: Store, collection: str, corpus: Path) -> None:
    load(store, collection, corpus)
    rows = query(
        store,
        """MATCH (e:TgResource {workspace: $w, collection: $c, uri: $uri})
        RETURN count(e) AS nodes, e.name AS name, COLLECT {
          MATCH (e)<-[:SUBJECT|OBJECT]-(:TgStatement)<-[:CONTAINS]-(:TgSubgraph)-[:WAS_DERIVED_FROM]->{3}(d:TgDocument)
          RETURN DISTINCT d.title } AS documents""",
        w=W, c=collection, uri=str(entity_iri("Marie Curie")),
    )  # fmt: skip
    (row,) = rows
    assert (row["nodes"], row["name"], sorted(row["documents"])) == (1, "Marie Curie", ["Marie Curie", "Warsaw"])


def test_every_entity_and_relation_is_labelled_in_the_default_graph(
    store: Store, collection: str, corpus: Path
) -> None:
    load(store, collection, corpus)
    facts = query(
        store,
        """MATCH (a:TgResource {workspace: $w, collection: $c})-[r]->(b:TgResource) WHERE r.iri IS NOT NULL
        OPTIONAL MATCH (p:TgResource {workspace: $w, collection: $c, uri: r.iri})
        RETURN a.uri AS a, a.name AS a_name, r.iri AS p, p.name AS p_name, b.uri AS b, b.name AS b_name""",
        w=W, c=collection,
    )  # fmt: skip
    assert len(facts) > 10
    assert [f for f in facts if not (f["a_name"] and f["p_name"] and f["b_name"])] == []


def test_loading_the_same_documents_twice_changes_nothing(store: Store, collection: str, corpus: Path) -> None:
    load(store, collection, corpus)
    before = snapshot(store, collection)
    again = load(store, collection, corpus)
    assert (again.loaded, again.unchanged) == (0, 2)
    after = snapshot(store, collection)
    assert (after["nodes"], after["relationships"]) == (before["nodes"], before["relationships"])
    assert after == before


def test_a_broken_pdf_and_binary_garbage_are_named_and_skipped_and_the_rest_loads(
    store: Store, collection: str, tmp_path: Path
) -> None:
    folder = write(tmp_path / "mixed", {
        "curie.md": CURIE, "broken.pdf": b"%PDF-1.7\n%garbage without objects", "noise.txt": bytes(range(256)),
    })  # fmt: skip
    report = load(store, collection, folder)
    reasons = dict(report.skipped)
    assert set(reasons) == {str(folder / "broken.pdf"), str(folder / "noise.txt")}
    assert "is not a readable PDF" in reasons[str(folder / "broken.pdf")]
    assert "is not UTF-8 text" in reasons[str(folder / "noise.txt")]
    assert report.loaded == 1
    titles = query(store, "MATCH (d:TgDocument {workspace: $w, collection: $c}) RETURN d.title AS t", w=W, c=collection)
    assert titles == [{"t": "Marie Curie"}]


def test_chunks_keep_the_size_and_overlap_and_their_offsets_point_into_their_section(
    store: Store, collection: str, corpus: Path
) -> None:
    load(store, collection, corpus, size=60, overlap=20)
    rows = query(
        store,
        """MATCH (c:TgChunk {workspace: $w, collection: $c})-[:WAS_DERIVED_FROM]->(s:TgSection)
        RETURN c.text AS text, c.charOffset AS offset, c.charLength AS length, c.chunkIndex AS i,
               s.text AS section, s.uri AS parent ORDER BY parent, i""",
        w=W, c=collection,
    )  # fmt: skip
    assert len(rows) > 6
    for row in rows:
        assert row["length"] <= 60 and row["text"] == row["section"][row["offset"] : row["offset"] + row["length"]]
    for before, after in zip(rows, rows[1:], strict=False):
        if before["parent"] == after["parent"]:
            assert before["offset"] + before["length"] - after["offset"] <= 20


def test_a_changed_document_replaces_its_previous_version(store: Store, collection: str, tmp_path: Path) -> None:
    folder = write(tmp_path / "v1", {"warsaw.txt": WARSAW})
    load(store, collection, folder)
    write(folder, {"warsaw.txt": WARSAW.replace("Frederic Chopin grew up in Warsaw.", "Warsaw lies in Masovia.")})
    report = load(store, collection, folder)
    assert (report.loaded, report.replaced) == (1, 1) and report.retracted > 0
    uris = {r["uri"] for r in query(store, "MATCH (n:TgResource {workspace: $w, collection: $c}) RETURN n.uri AS uri",
                                     w=W, c=collection)}  # fmt: skip
    assert str(entity_iri("Frederic Chopin")) not in uris and str(entity_iri("Masovia")) in uris
    fresh = f"{collection}-fresh"
    load(store, fresh, folder)
    assert {k: v for k, v in snapshot(store, collection).items() if k in ("nodes", "relationships")} == {
        k: v for k, v in snapshot(store, fresh).items() if k in ("nodes", "relationships")
    }


def test_a_load_checks_the_search_schema_and_the_embedding_model_once(
    store: Store, collection: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Decided once, up front: even a load that replaces a document (and so embeds the names it took away)
    reads the vector indexes' dimensions and the collection's embedding models one time each."""
    folder = write(tmp_path / "v1", {"warsaw.txt": WARSAW})
    load(store, collection, folder)
    write(folder, {"warsaw.txt": WARSAW.replace("Frederic Chopin grew up in Warsaw.", "Warsaw lies in Masovia.")})
    asked: list[CypherQuery] = []
    read = store.read

    def counted(query: CypherQuery, **params: Any) -> list[Any]:
        asked.append(query)
        return read(query, **params)

    monkeypatch.setattr(store, "read", counted)
    assert load(store, collection, folder).replaced == 1
    assert (asked.count(Q.vector_index_dimensions), asked.count(Q.embedding_models)) == (1, 1)


class _ProseAboutChopin(OfflineLLM):
    """A provider that answers prose instead of JSON when a passage mentions Chopin (a misbehaving model)."""

    def complete(self, task: Task) -> Completion:
        answer = super().complete(task)
        if task.stage == "extraction" and "Chopin" in task.inputs["text"]:
            return Completion("Chopin was a composer.", 1, 1, answer.model, 0)
        return answer


def test_a_document_the_model_answers_garbage_for_is_skipped_whole_naming_the_chunk(
    store: Store, collection: str, corpus: Path
) -> None:
    report = load_documents(store, _ProseAboutChopin(), W, collection, discover([corpus]).sources, ChunkSettings())
    (name, reason), = report.skipped  # fmt: skip
    assert name.endswith("warsaw.txt") and "People, chunk 1: extraction failed" in reason
    assert report.loaded == 1
    sections = query(store, "MATCH (s:TgSection {workspace: $w, collection: $c}) RETURN s.label AS l",
                     w=W, c=collection)  # fmt: skip
    assert {r["l"] for r in sections} == {"Marie Curie", "Discoveries"}  # nothing of warsaw.txt


def test_a_collection_embedded_with_one_model_refuses_another(store: Store, collection: str, corpus: Path) -> None:
    load(store, collection, corpus)
    before = snapshot(store, collection)
    other = OfflineLLM()
    other.embedding_model = f"another-model-{other.dimensions}"  # the same dimensions: only the model differs
    with pytest.raises(EmbeddingMismatch, match=f"embedded with {OfflineLLM().embedding_model}.*another-model"):
        load_documents(store, other, W, collection, discover([corpus]).sources)
    assert snapshot(store, collection) == before


def test_an_rdf_export_of_a_loaded_collection_carries_provenance_and_facts_but_no_search_properties(
    store: Store, collection: str, corpus: Path
) -> None:
    from tgneo.rdf.star import serialize
    from tgneo.store.rdf_export import export_quads
    from tgneo.vocab import GRAPH_SOURCE, TG

    load(store, collection, corpus)
    quads = export_quads(store, W, collection)
    contains = [q for q in quads if q.p == TG.contains and q.g == GRAPH_SOURCE]
    facts = [q for q in quads if q.g == "" and q.p != RDFS.label]
    assert contains and facts and {(q.s, q.p, q.o) for q in facts} <= {(q.o.s, q.o.p, q.o.o) for q in contains}
    text = serialize(quads, "nquads")
    assert "embedding" not in text and "embeddedWith" not in text and "tgneo-offline-hash" not in text


def test_traces_that_used_a_replaced_version_keep_their_edges_and_chunk_links(
    store: Store, collection: str, tmp_path: Path
) -> None:
    from tests import scenarios
    from tgneo.explain import entities as ent
    from tgneo.explain.recorder import Recorder
    from tgneo.rdf.terms import QuotedTriple
    from tgneo.store.traces import get_trace

    folder = write(tmp_path / "v1", {"warsaw.txt": WARSAW})
    load(store, collection, folder)
    chopin = QuotedTriple(entity_iri("Frederic Chopin"), entity_iri("grew up in"), entity_iri("Warsaw"))
    (chunk,) = query(store, "MATCH (c:TgChunk {workspace: $w, collection: $c}) WHERE c.text CONTAINS 'Chopin' "
                            "RETURN c.uri AS uri", w=W, c=collection)  # fmt: skip
    recorder = Recorder(store, W, collection)
    docrag = scenarios.docrag(chunk["uri"])
    graphrag = scenarios.graphrag()
    focus = graphrag[3][0]
    graphrag[3] = (ent.Focus(uri=focus.uri, exploration=focus.exploration, session_id=focus.session_id,  # type: ignore[attr-defined]
                             edges=(ent.EdgeSelection(edge=chopin, score=0.9),)), {})  # fmt: skip
    for step, contents in docrag + graphrag:
        recorder.record(step, contents)

    write(folder, {"warsaw.txt": WARSAW.replace("Frederic Chopin grew up in Warsaw.", "Warsaw lies in Masovia.")})
    assert load(store, collection, folder).replaced == 1

    trace = get_trace(store, W, collection, graphrag[0][0].uri)
    (focus_step,) = [s for s in trace["steps"] if s["type"] == "Focus"]
    assert [(e["statement"]["s"], e["statement"]["o"]) for e in focus_step["edges"]] == [(str(chopin.s), str(chopin.o))]
    (edge,) = query(store, "MATCH (st:TgStatement {workspace: $w, collection: $c, id: $id}) RETURN st.asserted_in AS a",
                    w=W, c=collection, id=edge_id(chopin.s, chopin.p, chopin.o))  # fmt: skip
    assert edge["a"] == []  # no longer a fact of the knowledge graph, still the edge the trace selected
    kept = query(store, "MATCH (:ChunkSelection {workspace: $w, collection: $c})-[:DOCUMENT]->(n) RETURN n.uri AS uri, "
                        "labels(n) AS labels", w=W, c=collection)  # fmt: skip
    assert [(k["uri"], sorted(k["labels"])) for k in kept] == [(chunk["uri"], ["TgResource", "Tgneo"])]
