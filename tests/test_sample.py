"""The bundled sample: it loads, and each example question's entities are joined by extracted edges
read from more than one of its documents."""

from __future__ import annotations

import pytest

from tests.ingesting import query
from tgneo.engines import Agent, DocRag, GraphRag, Request
from tgneo.explain.events import AnswerChunk
from tgneo.ingest.facts import entity_iri
from tgneo.ingest.loader import LoadReport, load_documents
from tgneo.ingest.sample import QUESTIONS, SampleQuestion, sources
from tgneo.llm.offline import OfflineLLM
from tgneo.store import Store
from tgneo.store.search import entities_by_text

W = "w"


@pytest.fixture(scope="module")
def sample(store: Store) -> tuple[str, LoadReport]:
    import uuid

    collection = f"test-sample-{uuid.uuid4().hex[:8]}"
    return collection, load_documents(store, OfflineLLM(), W, collection, sources())


def test_the_sample_loads_every_document_with_pages_and_sections(sample: tuple[str, LoadReport]) -> None:
    _, report = sample
    assert (report.loaded, report.skipped) == (4, [])
    assert report.pages == 3 and report.sections >= 12 and report.statements > 150


@pytest.mark.parametrize("question", QUESTIONS, ids=lambda q: q.text[:40])
def test_each_question_is_answered_by_a_path_of_edges_from_several_documents(
    store: Store, sample: tuple[str, LoadReport], question: SampleQuestion
) -> None:
    collection, _ = sample
    documents: set[str] = set()
    for a, b in zip(question.path, question.path[1:], strict=False):
        edges = query(
            store,
            """MATCH (x:TgResource {workspace: $w, collection: $c, uri: $a})-[fact]-(y:TgResource {uri: $b})
            WHERE fact.iri IS NOT NULL AND y.workspace = $w AND y.collection = $c
            RETURN fact.iri AS p, COLLECT {
              MATCH (:TgStatement {workspace: $w, collection: $c, id: fact.id})<-[:CONTAINS]-(:TgSubgraph)
                    -[:WAS_DERIVED_FROM]->{3}(d:TgDocument)
              RETURN d.uri
            } AS documents""",
            w=W, c=collection, a=str(entity_iri(a)), b=str(entity_iri(b)),
        )  # fmt: skip
        assert edges, f"no extracted edge joins {a!r} and {b!r}"
        documents |= {d for e in edges for d in e["documents"]}
    assert len(documents) >= 2, question.text


@pytest.mark.parametrize("question", QUESTIONS, ids=lambda q: q.text[:40])
def test_the_question_words_find_its_first_entity_by_name(
    store: Store, sample: tuple[str, LoadReport], question: SampleQuestion
) -> None:
    collection, _ = sample
    found = {m.name for m in entities_by_text(store, W, collection, question.text, limit=10)}
    assert question.path[0] in found


@pytest.mark.parametrize("engine", [GraphRag, DocRag, Agent], ids=lambda e: e.__name__)
def test_where_marie_curie_died_is_answered_from_the_sentence_that_says_she_did(
    store: Store, sample: tuple[str, LoadReport], engine: type[GraphRag | DocRag | Agent]
) -> None:
    collection, _ = sample
    events = engine(store, OfflineLLM()).answer(Request("Where did Marie Curie die?", W, collection))
    answer = "".join(e.text for e in events if isinstance(e, AnswerChunk))
    assert answer.startswith("She (Marie Curie) died in Passy in 1934.")  # the pronoun's subject, named
