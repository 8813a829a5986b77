"""Extraction-time provenance (``urn:graph:source``): Document ← Page/Section ← Chunk ← Subgraph.

Each renders exactly the quads of TrustGraph 2.11.1's extraction builder of the same entity
(``document_triples``, ``derived_entity_triples``, ``subgraph_provenance_triples``), including the
:class:`Activity` that produced it and that activity's :class:`SoftwareAgent`. Unlike the query-time
steps they do not open with a fixed type and label, so each writes its own :meth:`~Entity.triples`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rdflib.term import Literal, URIRef

from tgneo import uris
from tgneo.errors import InvalidEntity
from tgneo.explain.entity import About, Entity, Quads, now_timestamp, valid_text, valid_timestamp
from tgneo.rdf.terms import Quad, QuotedTriple
from tgneo.vocab import DC, GRAPH_SOURCE, PROV, TG

__all__ = ["Activity", "DerivedEntity", "Document", "Evidence", "SoftwareAgent", "Subgraph"]


@dataclass(frozen=True)
class SoftwareAgent:
    """The component that ran an extraction (a ``prov:Agent``): ``https://trustgraph.ai/agent/{name}``."""

    component_name: str

    def __post_init__(self) -> None:
        valid_text(self.component_name, "SoftwareAgent.component_name")

    @property
    def uri(self) -> str:
        return uris.agent_uri(self.component_name)


@dataclass(frozen=True, kw_only=True)
class Activity:
    """One extraction run (a ``prov:Activity``), rendered inside the entity it generated.

    TrustGraph mints a fresh activity URI inside its builders; here it is a field (a fresh uuid4 by
    default) so that the same run can be written, re-read and compared.

    Attributes:
        component_name: The component, e.g. ``"chunker"`` (its agent and the label derive from it).
        component_version: ``tg:componentVersion``.
        uri: ``https://trustgraph.ai/activity/{uuid}``.
        timestamp: ``prov:startedAtTime``, stored in TrustGraph's UTC form.
    """

    component_name: str
    component_version: str
    uri: str = field(default_factory=uris.activity_uri)
    timestamp: str = field(default_factory=now_timestamp)

    def __post_init__(self) -> None:
        valid_text(self.component_name, "Activity.component_name")
        valid_text(self.component_version, "Activity.component_version")
        object.__setattr__(self, "uri", uris.validate_iri(self.uri, "Activity.uri"))
        object.__setattr__(self, "timestamp", valid_timestamp(self.timestamp, "Activity.timestamp"))

    @property
    def agent(self) -> SoftwareAgent:
        """The component as a ``prov:Agent``."""
        return SoftwareAgent(self.component_name)

    def _core(self, out: Quads, used: str) -> About:
        """The activity and agent block every extraction builder emits, in TrustGraph's order."""
        agent = self.agent
        act = out.about(self.uri)
        act.a(PROV.Activity)
        act.label(f"{self.component_name} extraction")
        act.link(PROV.used, used)
        act.link(PROV.wasAssociatedWith, agent.uri)
        act.text(PROV.startedAtTime, self.timestamp)
        act.text(TG.componentVersion, self.component_version)
        agt = out.about(agent.uri)
        agt.a(PROV.Agent)
        agt.label(self.component_name)
        return act


def _activity(entity: Entity, name: str) -> None:
    value = getattr(entity, name)
    if not isinstance(value, Activity):
        raise InvalidEntity(f"{entity._what(name)}: expected an Activity, got {type(value).__name__}")


@dataclass(frozen=True, kw_only=True)
class Document(Entity):
    """A source document (``document_triples``); its URI is the caller's own IRI.

    Attributes:
        title: ``dc:title`` and ``rdfs:label``.
        source: Where it came from, an IRI (``dc:source``).
        date: ``dc:date``.
        creator: ``dc:creator``.
        page_count: ``tg:pageCount``.
        mime_type: ``tg:mimeType``.
    """

    kind = "document"
    graph = GRAPH_SOURCE

    title: str | None = None
    source: str | None = None
    date: str | None = None
    creator: str | None = None
    page_count: int | None = None
    mime_type: str | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        self._optional_text("title")
        self._optional_iri("source")
        self._optional_text("date")
        self._optional_text("creator")
        self._optional_count("page_count")
        self._optional_text("mime_type")

    def triples(self) -> list[Quad]:
        out = Quads(self.graph)
        d = out.about(self.uri)
        d.a(PROV.Entity, TG.Document)
        if self.title is not None:
            d.text(DC.title, self.title)
            d.label(self.title)
        if self.source is not None:
            d.link(DC.source, self.source)
        if self.date is not None:
            d.text(DC.date, self.date)
        if self.creator is not None:
            d.text(DC.creator, self.creator)
        if self.page_count is not None:
            d.text(TG.pageCount, self.page_count)
        if self.mime_type is not None:
            d.text(TG.mimeType, self.mime_type)
        return out.quads


@dataclass(frozen=True, kw_only=True)
class DerivedEntity(Entity):
    """A page, section, chunk or image cut from its parent (``derived_entity_triples``).

    Its class follows TrustGraph's precedence: ``image`` → ``tg:Image``, else ``section`` →
    ``tg:Section``, else a ``page_number`` → ``tg:Page``, else a ``chunk_index`` → ``tg:Chunk``
    (else only ``prov:Entity``). The activity that produced it, and that activity's agent, are
    emitted with it.

    Attributes:
        parent: The document, page or section it was cut from.
        activity: The extraction run (``prov:used`` the parent).
        label: ``rdfs:label``.
        page_number, chunk_index, char_offset, char_length: Position in the parent.
        section, image: Mark a section of a page-less format, or an image.
        chunk: Mark a chunk whose position is not known (another tool's chunk with no order property).
        chunk_size, chunk_overlap: The chunker's settings (on the *activity*).
        mime_type, element_types, table_count, image_count: What the decoder saw.
    """

    kind = "derived_entity"
    graph = GRAPH_SOURCE
    derives_from = ("parent",)

    parent: str
    activity: Activity
    label: str | None = None
    page_number: int | None = None
    section: bool = False
    image: bool = False
    chunk: bool = False
    chunk_index: int | None = None
    char_offset: int | None = None
    char_length: int | None = None
    chunk_size: int | None = None
    chunk_overlap: int | None = None
    mime_type: str | None = None
    element_types: str | None = None
    table_count: int | None = None
    image_count: int | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        self._iri("parent")
        _activity(self, "activity")
        self._optional_text("label")
        for name in (
            "page_number",
            "chunk_index",
            "char_offset",
            "char_length",
            "chunk_size",
            "chunk_overlap",
            "table_count",
            "image_count",
        ):
            self._optional_count(name)
        for name in ("section", "image", "chunk"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidEntity(f"{self._what(name)}: expected True or False")
        self._optional_text("mime_type")
        self._optional_text("element_types")

    @property
    def entity_type(self) -> URIRef | None:
        """``tg:Image``, ``tg:Section``, ``tg:Page`` or ``tg:Chunk``, by TrustGraph's precedence."""
        if self.image:
            return TG.Image
        if self.section:
            return TG.Section
        if self.page_number is not None:
            return TG.Page
        if self.chunk_index is not None or self.chunk:
            return TG.Chunk
        return None

    def triples(self) -> list[Quad]:
        out = Quads(self.graph)
        e = out.about(self.uri)
        e.a(PROV.Entity)
        if self.entity_type is not None:
            e.a(self.entity_type)
        self._derived_from(e)
        e.link(PROV.wasGeneratedBy, self.activity.uri)
        act = self.activity._core(out, used=self.parent)
        if self.label is not None:
            e.label(self.label)
        for predicate, number in (
            (TG.pageNumber, self.page_number),
            (TG.chunkIndex, self.chunk_index),
            (TG.charOffset, self.char_offset),
            (TG.charLength, self.char_length),
        ):
            if number is not None:
                e.text(predicate, number)
        if self.chunk_size is not None:
            act.text(TG.chunkSize, self.chunk_size)
        if self.chunk_overlap is not None:
            act.text(TG.chunkOverlap, self.chunk_overlap)
        decoder: tuple[tuple[URIRef, object], ...] = (
            (TG.mimeType, self.mime_type),
            (TG.elementTypes, self.element_types),
            (TG.tableCount, self.table_count),
            (TG.imageCount, self.image_count),
        )
        for predicate, detail in decoder:
            if detail is not None:
                e.text(predicate, detail)
        return out.quads


@dataclass(frozen=True)
class Evidence:
    """Where in its chunk an extracted statement was read: the sentence (white space collapsed) and its span."""

    text: str
    offset: int
    length: int


@dataclass(frozen=True, kw_only=True)
class Subgraph(Entity):
    """The statements extracted from one chunk (``subgraph_provenance_triples``): one Subgraph per chunk, as
    TrustGraph 2.11 makes them.

    Each statement may carry its *evidence*, the sentence of the chunk that states it: ``tg:sourceText``
    and its span ``tg:sourceCharOffset``/``tg:sourceCharLength`` (TrustGraph defines these three predicates;
    no builder of its own emits them). They describe the containment, not the subgraph, so they are
    RDF-star annotations of the ``tg:contains`` triple (``<< sg tg:contains << s p o >> >> tg:sourceText
    "…"``), stored on the ``CONTAINS`` relationship; the ``trustgraph`` profile leaves them out, so it is
    exactly TrustGraph's triples.

    Attributes:
        chunk: The chunk they were extracted from.
        activity: The extraction run (``prov:used`` the chunk).
        statements: The extracted statements, one ``tg:contains << s p o >>`` each, emitted first.
        evidence: ``(statement, Evidence)`` of the statements whose sentence is known.
        llm_model: The extraction LLM (``tg:llmModel`` on the activity).
        ontology: The ontology IRI that guided extraction (``tg:ontology`` on the activity).
    """

    kind = "subgraph"
    graph = GRAPH_SOURCE
    derives_from = ("chunk",)

    chunk: str
    activity: Activity
    statements: tuple[QuotedTriple, ...] = ()
    evidence: tuple[tuple[QuotedTriple, Evidence], ...] = ()
    llm_model: str | None = None
    ontology: str | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        self._iri("chunk")
        _activity(self, "activity")
        self._instances("statements", QuotedTriple)
        for pair in self.evidence:
            if not (isinstance(pair, tuple) and len(pair) == 2):
                raise InvalidEntity(f"{self._what('evidence')}: expected (statement, Evidence) pairs")
            statement, where = pair
            if statement not in self.statements or not isinstance(where, Evidence):
                raise InvalidEntity(f"{self._what('evidence')}: evidence of a statement the subgraph does not contain")
            valid_text(where.text, "Subgraph.evidence.text")
        self._optional_text("llm_model")
        self._optional_iri("ontology")

    def triples(self) -> list[Quad]:
        out = Quads(self.graph)
        sg = out.about(self.uri)
        for statement in self.statements:
            sg.term(TG.contains, statement)
        sg.a(PROV.Entity, TG.Subgraph)
        self._derived_from(sg)
        sg.link(PROV.wasGeneratedBy, self.activity.uri)
        act = self.activity._core(out, used=self.chunk)
        if self.llm_model is not None:
            act.text(TG.llmModel, self.llm_model)
        if self.ontology is not None:
            act.link(TG.ontology, self.ontology)
        quads = out.quads
        subject = URIRef(self.uri)
        for statement, where in self.evidence:
            contains = QuotedTriple(subject, TG.contains, statement)
            quads += [
                Quad(contains, TG.sourceText, Literal(where.text), self.graph),
                Quad(contains, TG.sourceCharOffset, Literal(str(where.offset)), self.graph),
                Quad(contains, TG.sourceCharLength, Literal(str(where.length)), self.graph),
            ]
        return quads
