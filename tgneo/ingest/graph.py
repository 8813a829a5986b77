"""One document's whole graph: its extraction-time provenance and the knowledge it states.

Everything is rendered by the provenance entities of :mod:`tgneo.explain.extraction_time`, which emit
exactly TrustGraph's builder triples::

    Document ◄─wasDerivedFrom─ Page/Section ◄─ Chunk ◄─ Subgraph ─tg:contains─► << s p o >>
                                  │               │          │
                          wasGeneratedBy   wasGeneratedBy   wasGeneratedBy
                                  ▼               ▼          ▼
                      {format}-decoder     chunker        kg-extractor   (prov:Activity, each
                          activity         activity        activity       prov:wasAssociatedWith
                                                          (tg:llmModel)   its prov:Agent)

Each statement of a chunk — every fact and the ``rdfs:label`` of every entity and relation it names
— is asserted in the default graph and contained in the chunk's one Subgraph, as TrustGraph 2.11 makes
them; each fact's containment carries its *evidence sentence* (``tg:sourceText`` and its span in the
chunk, :mod:`tgneo.ingest.evidence`), so each one traces back to the very sentence it was read from.
(TrustGraph's extractor contains only the facts; tgneo contains the labels too, so that a name, like a
fact, can be traced and is retracted with its document.) A chunk whose extraction found nothing gets no
Subgraph. The text of every page, section and chunk goes to the librarian (``:TgContent``), so their
URIs resolve as TrustGraph's do.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import PurePath

from tgneo import uris
from tgneo.explain.extraction_time import Activity, DerivedEntity, Document, Evidence, Subgraph
from tgneo.ingest.evidence import locate
from tgneo.ingest.facts import Fact, asserted, entity_iri, fact_statements, label_statements
from tgneo.ingest.layout import Layout
from tgneo.nlp.segment import Unit
from tgneo.rdf.ntriples import edge_id
from tgneo.rdf.terms import Quad, QuotedTriple

__all__ = ["CHUNKER", "EXTRACTOR", "ChunkFacts", "DocumentGraph", "document_graph"]

CHUNKER = "chunker"
EXTRACTOR = "kg-extractor"


@dataclass(frozen=True)
class ChunkFacts:
    """What extraction found in one chunk, which model answered, and when the call started."""

    facts: tuple[Fact, ...]
    model: str
    started: str


@dataclass(frozen=True)
class DocumentGraph:
    """The quads and librarian texts of one document, and what they hold.

    Attributes:
        quads: Provenance (``urn:graph:source``) and knowledge (default graph), without duplicates.
        contents: Librarian texts by URI (pages or sections, and chunks).
        chunks: ``(uri, text)`` of every chunk, to embed.
        entities: Each entity's IRI → its name (the smallest of its labels in this document).
        statement_ids: The ids of every knowledge-graph statement (facts and labels).
    """

    quads: list[Quad]
    contents: dict[str, str]
    chunks: list[tuple[str, str]]
    entities: dict[str, str]
    statement_ids: frozenset[str]


def _activity(id_: str, component: str, version: str, timestamp: str) -> Activity:
    return Activity(
        component_name=component, component_version=version, uri=uris.activity_uri(f"{id_}-{component}"),
        timestamp=timestamp,
    )  # fmt: skip


def document_graph(
    layout: Layout, extractions: Mapping[str, ChunkFacts], *, version: str, decoded_at: str
) -> DocumentGraph:
    """Render ``layout`` and the facts extracted from its chunks (by chunk URI).

    Args:
        version: ``tg:componentVersion`` of every activity (tgneo's version).
        decoded_at: When the document was decoded and chunked (the decoder's and chunker's start).
    """
    decoded = layout.decoded
    quads: list[Quad] = []
    contents: dict[str, str] = {}
    chunks: list[tuple[str, str]] = []
    names: dict[str, str] = {}
    statements: list[QuotedTriple] = []
    document = Document(
        uri=layout.document_uri, title=decoded.title or PurePath(layout.source.name).name, source=layout.source.iri,
        creator=decoded.creator, page_count=decoded.page_count, mime_type=decoded.mime_type,
    )  # fmt: skip
    quads += document.triples()
    for part in layout.parts:
        decoder = _activity(part.id, f"{decoded.format}-decoder", version, decoded_at)
        quads += DerivedEntity(
            uri=part.uri, parent=layout.document_uri, activity=decoder, label=part.part.label,
            page_number=part.part.number if decoded.paged else None, section=not decoded.paged,
            char_offset=part.offset, char_length=len(part.part.text),
        ).triples()  # fmt: skip
        contents[part.uri] = part.part.text
        for chunk in part.chunks:
            chunker = _activity(chunk.id, CHUNKER, version, decoded_at)
            quads += DerivedEntity(
                uri=chunk.uri, parent=part.uri, activity=chunker, label=chunk.label, chunk_index=chunk.index,
                char_offset=chunk.start, char_length=len(chunk.text), chunk_size=layout.settings.size,
                chunk_overlap=layout.settings.overlap,
            ).triples()  # fmt: skip
            contents[chunk.uri] = chunk.text
            chunks.append((chunk.uri, chunk.text))
            found = extractions.get(chunk.uri)
            if found is None or not found.facts:
                continue
            extractor = _activity(chunk.id, EXTRACTOR, version, found.started)
            contained: list[QuotedTriple] = []
            evidence: dict[QuotedTriple, Evidence] = {}
            for unit, facts in _by_evidence(chunk.text, found.facts):
                for statement in fact_statements(facts):
                    if unit is not None and statement not in evidence:
                        evidence[statement] = Evidence(unit.text, unit.start, unit.end - unit.start)
                contained += fact_statements(facts) + label_statements(facts)
            contained = list(dict.fromkeys(contained))
            quads += Subgraph(
                uri=uris.subgraph_uri(chunk.id), chunk=chunk.uri, activity=extractor, statements=tuple(contained),
                evidence=tuple(evidence.items()), llm_model=found.model,
            ).triples()  # fmt: skip
            statements += contained
            _name_entities(found.facts, names)
    quads += asserted(statements)
    return DocumentGraph(
        quads=list(dict.fromkeys(quads)), contents=contents, chunks=chunks, entities=names,
        statement_ids=frozenset(edge_id(st.s, st.p, st.o) for st in statements),
    )  # fmt: skip


def _by_evidence(text: str, facts: tuple[Fact, ...]) -> list[tuple[Unit | None, list[Fact]]]:
    """The chunk's facts grouped by their evidence sentence, in the chunk's order (facts without one last)."""
    groups: dict[int | None, tuple[Unit | None, list[Fact]]] = {}
    for fact, unit in locate(text, facts):
        key = None if unit is None else unit.start
        groups.setdefault(key, (unit, []))[1].append(fact)
    return [groups[k] for k in sorted(groups, key=lambda k: (k is None, k or 0))]


def _name_entities(facts: tuple[Fact, ...], names: dict[str, str]) -> None:
    """Record each subject's and named object's IRI with its smallest label (relations are not entities)."""
    for fact in facts:
        for name in (fact.s,) if fact.literal else (fact.s, fact.o):
            iri = str(entity_iri(name))
            if iri not in names or name < names[iri]:
                names[iri] = name
