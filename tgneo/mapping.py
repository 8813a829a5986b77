"""THE RDF ↔ graph table: one row per class and per predicate tgneo stores natively.

Everything that crosses between RDF and Neo4j loops over these rows: the compiler that turns a
step's quads into write rows (recorder, import), the decompiler that turns stored nodes back into
quads (export, streams), the schema (constraints and indexes), the neomodel classes and the check
that every ``.cypher`` file uses only known labels and relationship types.

* ``ClassMap``: ``?x rdf:type <class>`` ↔ a node label.
* ``PropMap``: a literal-valued predicate ↔ a node property holding a native value (``integer``,
  ``float``, ``datetime`` or ``string``); ``multi`` ones are lists.
* ``RelMap``: an IRI-valued predicate ↔ a relationship to the object's ``:TgResource`` node, or, when
  the object is a quoted triple (``tg:edge``, ``tg:contains``), to its ``:TgStatement`` node.
* ``LINK_PROPERTIES``: the annotations such a relationship carries as its own properties (the evidence
  sentence of a fact a subgraph contains: ``<< sg tg:contains << s p o >> >> tg:sourceText "…"``).

The knowledge graph (the default graph) is not in this table: its facts are typed relationships and
properties named by :mod:`tgneo.native`. A provenance triple the table does not cover is stored as a
generic asserted ``:TgStatement``, so that import → export is lossless for any RDF.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal as TypingLiteral

from rdflib.term import URIRef

from tgneo.vocab import DC, PROV, RDFS, TG, TGNEO, Label, Rel

Datatype = TypingLiteral["string", "integer", "float", "datetime"]
Target = TypingLiteral["resource", "statement"]


@dataclass(frozen=True)
class ClassMap:
    """``rdf:type <iri>`` is the node label ``label``."""

    iri: URIRef
    label: Label


@dataclass(frozen=True)
class PropMap:
    """A literal predicate stored as the node property ``prop`` (a list when ``multi``)."""

    iri: URIRef
    prop: str
    datatype: Datatype = "string"
    multi: bool = False


@dataclass(frozen=True)
class RelMap:
    """An IRI (or quoted-triple) predicate stored as a relationship ``rel`` to ``target``.

    ``attr`` names the relationship on the neomodel classes (``focus.selected_edges``).
    """

    iri: URIRef
    rel: Rel
    attr: str
    target: Target = "resource"


CLASSES: tuple[ClassMap, ...] = (
    ClassMap(PROV.Entity, Label.PROV_ENTITY),
    ClassMap(PROV.Activity, Label.PROV_ACTIVITY),
    ClassMap(PROV.Agent, Label.PROV_AGENT),
    ClassMap(TG.Document, Label.DOCUMENT),
    ClassMap(TG.Page, Label.PAGE),
    ClassMap(TG.Section, Label.SECTION),
    ClassMap(TG.Chunk, Label.CHUNK),
    ClassMap(TG.Image, Label.IMAGE),
    ClassMap(TG.Subgraph, Label.SUBGRAPH),
    ClassMap(TG.Question, Label.QUESTION),
    ClassMap(TG.GraphRagQuestion, Label.GRAPH_RAG_QUESTION),
    ClassMap(TG.DocRagQuestion, Label.DOC_RAG_QUESTION),
    ClassMap(TG.AgentQuestion, Label.AGENT_QUESTION),
    ClassMap(TG.Grounding, Label.GROUNDING),
    ClassMap(TG.Exploration, Label.EXPLORATION),
    ClassMap(TG.Focus, Label.FOCUS),
    ClassMap(TG.Synthesis, Label.SYNTHESIS),
    ClassMap(TG.EdgeSelection, Label.EDGE_SELECTION),
    ClassMap(TG.ChunkSelection, Label.CHUNK_SELECTION),
    ClassMap(TG.Analysis, Label.ANALYSIS),
    ClassMap(TG.ToolUse, Label.TOOL_USE),
    ClassMap(TG.Conclusion, Label.CONCLUSION),
    ClassMap(TG.Answer, Label.ANSWER),
    ClassMap(TG.Reflection, Label.REFLECTION),
    ClassMap(TG.Thought, Label.THOUGHT),
    ClassMap(TG.Observation, Label.OBSERVATION),
    ClassMap(TG.Error, Label.ERROR),
    ClassMap(TG.Decomposition, Label.DECOMPOSITION),
    ClassMap(TG.Finding, Label.FINDING),
    ClassMap(TG.Plan, Label.PLAN),
    ClassMap(TG.StepResult, Label.STEP_RESULT),
    ClassMap(TG.PatternDecision, Label.PATTERN_DECISION),
    ClassMap(TGNEO.AnswerSentence, Label.ANSWER_SENTENCE),
    ClassMap(TGNEO.DocumentChange, Label.DOCUMENT_CHANGE),
    ClassMap(TGNEO.RetrievalHit, Label.RETRIEVAL_HIT),
    ClassMap(TGNEO.QuestionPart, Label.QUESTION_PART),
    ClassMap(TGNEO.Verification, Label.VERIFICATION),
    ClassMap(TGNEO.Counterfactual, Label.COUNTERFACTUAL),
)

PROPERTIES: tuple[PropMap, ...] = (
    PropMap(RDFS.label, "label"),
    PropMap(PROV.startedAtTime, "startedAtTime", "datetime"),
    PropMap(DC.title, "title"),
    PropMap(DC.date, "date"),
    PropMap(DC.creator, "creator"),
    # extraction time
    PropMap(TG.pageCount, "pageCount", "integer"),
    PropMap(TG.mimeType, "mimeType"),
    PropMap(TG.pageNumber, "pageNumber", "integer"),
    PropMap(TG.chunkIndex, "chunkIndex", "integer"),
    PropMap(TG.charOffset, "charOffset", "integer"),
    PropMap(TG.charLength, "charLength", "integer"),
    PropMap(TG.chunkSize, "chunkSize", "integer"),
    PropMap(TG.chunkOverlap, "chunkOverlap", "integer"),
    PropMap(TG.componentVersion, "componentVersion"),
    PropMap(TG.llmModel, "llmModel"),
    PropMap(TG.embeddingModel, "embeddingModel"),
    PropMap(TG.sourceText, "sourceText"),
    PropMap(TG.sourceCharOffset, "sourceCharOffset", "integer"),
    PropMap(TG.sourceCharLength, "sourceCharLength", "integer"),
    PropMap(TG.elementTypes, "elementTypes"),
    PropMap(TG.tableCount, "tableCount", "integer"),
    PropMap(TG.imageCount, "imageCount", "integer"),
    # query time
    PropMap(TG.query, "query"),
    PropMap(TG.concept, "concept", multi=True),
    PropMap(TG.edgeCount, "edgeCount", "integer"),
    PropMap(TG.reasoning, "reasoning"),
    PropMap(TG.score, "score", "float"),
    PropMap(TG.chunkCount, "chunkCount", "integer"),
    PropMap(TG.action, "action"),
    PropMap(TG.arguments, "arguments"),
    PropMap(TG.subagentGoal, "subagentGoal", multi=True),
    PropMap(TG.planStep, "planStep", multi=True),
    PropMap(TG.toolCandidate, "toolCandidate", multi=True),
    PropMap(TG.terminationReason, "terminationReason"),
    PropMap(TG.stepNumber, "stepNumber", "integer"),
    PropMap(TG.pattern, "pattern"),
    PropMap(TG.taskType, "taskType"),
    PropMap(TG.llmDurationMs, "llmDurationMs", "integer"),
    PropMap(TG.toolDurationMs, "toolDurationMs", "integer"),
    PropMap(TG.toolError, "toolError"),
    PropMap(TG.inToken, "inToken", "integer"),
    PropMap(TG.outToken, "outToken", "integer"),
    # tgneo's own: answer sentences
    PropMap(PROV.value, "value"),
    PropMap(TGNEO.sentenceIndex, "sentenceIndex", "integer"),
    PropMap(TGNEO.support, "support", "float"),
    # tgneo's own: stale answers
    PropMap(TGNEO.change, "change"),
    # tgneo's own: how hybrid retrieval found each item
    PropMap(TGNEO.rank, "rank", "integer"),
    PropMap(TGNEO.vectorRank, "vectorRank", "integer"),
    PropMap(TGNEO.vectorScore, "vectorScore", "float"),
    PropMap(TGNEO.textRank, "textRank", "integer"),
    PropMap(TGNEO.textScore, "textScore", "float"),
    PropMap(TGNEO.fusedScore, "fusedScore", "float"),
    # tgneo's own: the parts of a two-part question (their text is prov:value, their concepts tg:concept)
    PropMap(TGNEO.partIndex, "partIndex", "integer"),
    # tgneo's own: the counterfactual check of an answer (checked when: prov:generatedAtTime)
    PropMap(PROV.generatedAtTime, "generatedAtTime", "datetime"),
    PropMap(TGNEO.verdict, "verdict"),
    PropMap(TGNEO.sufficiency, "sufficiency", "float"),
    PropMap(TGNEO.calls, "calls", "integer"),
    PropMap(TGNEO.ablation, "ablation"),
    PropMap(TGNEO.preserved, "preserved", "float"),
    PropMap(TGNEO.necessity, "necessity", "float"),
)

RELATIONSHIPS: tuple[RelMap, ...] = (
    RelMap(PROV.wasDerivedFrom, Rel.WAS_DERIVED_FROM, "derived_from"),
    RelMap(PROV.wasGeneratedBy, Rel.WAS_GENERATED_BY, "generated_by"),
    RelMap(PROV.used, Rel.USED, "used"),
    RelMap(PROV.wasAssociatedWith, Rel.WAS_ASSOCIATED_WITH, "associated_with"),
    RelMap(DC.source, Rel.SOURCE, "source"),
    RelMap(TG.ontology, Rel.ONTOLOGY, "ontology"),
    RelMap(TG.entity, Rel.ENTITY, "entities"),
    RelMap(TG.selectedEdge, Rel.SELECTED_EDGE, "selected_edges"),
    RelMap(TG.document, Rel.DOCUMENT, "documents"),
    RelMap(TG.selectedChunk, Rel.SELECTED_CHUNK, "selected_chunks"),
    RelMap(TG.thought, Rel.THOUGHT, "thoughts"),
    RelMap(TG.observation, Rel.OBSERVATION, "observations"),
    RelMap(TG.edge, Rel.EDGE, "edge", target="statement"),
    RelMap(TG.contains, Rel.CONTAINS, "contains", target="statement"),
    RelMap(TGNEO.sentence, Rel.SENTENCE, "sentences"),
    RelMap(TGNEO.hit, Rel.HIT, "hits"),
    RelMap(TGNEO.retrieved, Rel.RETRIEVED, "retrieved"),
    RelMap(TGNEO.questionPart, Rel.QUESTION_PART, "question_parts"),
    RelMap(TGNEO.forPart, Rel.FOR_PART, "for_parts"),
    RelMap(TGNEO.standsWithout, Rel.STANDS_WITHOUT, "stands_without"),
    RelMap(TGNEO.counterfactual, Rel.COUNTERFACTUAL, "counterfactuals"),
    RelMap(TGNEO.ablated, Rel.ABLATED, "ablated"),
    RelMap(PROV.wasInvalidatedBy, Rel.WAS_INVALIDATED_BY, "invalidated_by"),
)

LINK_PROPERTIES: dict[Rel, tuple[PropMap, ...]] = {
    Rel.CONTAINS: (
        PropMap(TG.sourceText, "sourceText"),
        PropMap(TG.sourceCharOffset, "sourceCharOffset", "integer"),
        PropMap(TG.sourceCharLength, "sourceCharLength", "integer"),
    ),
}
"""Annotations stored on a mapped relationship: a subgraph contains a fact *because of* a sentence of its
chunk, so the sentence (and its span in the chunk's text) belongs to the containment, not to the subgraph.
Exported by the ``prov`` profile as RDF-star annotations of the ``tg:contains`` triple; TrustGraph's
profile has no word for them."""
LINK_PROPERTY: dict[tuple[Rel, URIRef], PropMap] = {
    (rel, row.iri): row for rel, rows in LINK_PROPERTIES.items() for row in rows
}

PROV_PROFILE_ONLY_LABELS = frozenset(
    {Label.ANSWER_SENTENCE, Label.DOCUMENT_CHANGE, Label.RETRIEVAL_HIT, Label.VERIFICATION, Label.COUNTERFACTUAL,
     Label.QUESTION_PART}
)  # fmt: skip
"""Nodes only the ``prov`` profile exports: the ``trustgraph`` profile is exactly TrustGraph's triples."""
PROV_PROFILE_ONLY_RELS = frozenset(
    {Rel.SENTENCE, Rel.WAS_INVALIDATED_BY, Rel.HIT, Rel.RETRIEVED, Rel.STANDS_WITHOUT, Rel.COUNTERFACTUAL, Rel.ABLATED,
     Rel.QUESTION_PART, Rel.FOR_PART}
)  # fmt: skip
"""Relationships only the ``prov`` profile exports (tgneo's own, from TrustGraph's nodes to tgneo's)."""

STRUCTURAL_LABELS = frozenset(
    {
        Label.BASE,
        Label.PREFIX,
        Label.STORE,
        Label.RESOURCE,
        Label.STATEMENT,
        Label.EXPLAIN,
        Label.SOURCE,
        Label.CONTENT,
        Label.IMPORT,
        Label.IMPORT_UNDO,
        Label.RETENTION_POLICY,
        Label.SPAN_TREE,
    }
)
"""Labels that carry the graph model itself rather than an ``rdf:type``; never exported as classes."""
STATEMENT_RELS = frozenset({Rel.SUBJECT, Rel.OBJECT})
"""Relationships of the reified-edge structure (the statement node → its subject's and object's nodes)."""

MOST_SPECIFIC_FIRST: tuple[Label, ...] = (
    # the step types, each a session kind's own class
    Label.GRAPH_RAG_QUESTION, Label.DOC_RAG_QUESTION, Label.AGENT_QUESTION, Label.GROUNDING, Label.EXPLORATION,
    Label.FOCUS, Label.SYNTHESIS, Label.PATTERN_DECISION, Label.ANALYSIS, Label.THOUGHT, Label.OBSERVATION,
    Label.CONCLUSION, Label.PLAN, Label.STEP_RESULT, Label.DECOMPOSITION, Label.FINDING, Label.EDGE_SELECTION,
    Label.CHUNK_SELECTION, Label.ANSWER_SENTENCE, Label.DOCUMENT_CHANGE, Label.RETRIEVAL_HIT, Label.VERIFICATION,
    Label.COUNTERFACTUAL, Label.QUESTION_PART, Label.QUESTION,
    # extraction time
    Label.DOCUMENT, Label.PAGE, Label.SECTION, Label.IMAGE, Label.CHUNK, Label.SUBGRAPH,
    # TrustGraph's mixins: they qualify a step (an Answer, an Error) but never name its type
    Label.TOOL_USE, Label.ANSWER, Label.REFLECTION, Label.ERROR,
    # PROV's classes, then the graph model's structural labels
    Label.PROV_ACTIVITY, Label.PROV_AGENT, Label.PROV_ENTITY,
    Label.CONTENT, Label.EXPLAIN, Label.SOURCE, Label.RESOURCE, Label.STATEMENT, Label.IMPORT, Label.IMPORT_UNDO,
    Label.RETENTION_POLICY, Label.SPAN_TREE, Label.PREFIX, Label.STORE, Label.BASE,
)  # fmt: skip
"""Every label, most specific first: the one order that names a node's type (a ``:Synthesis:Answer``
is a Synthesis, an ``:Observation:Error`` an Observation) in the trace reader and the neomodel
class names alike."""
SPECIFICITY: dict[Label, int] = {label: rank for rank, label in enumerate(MOST_SPECIFIC_FIRST)}


def most_specific(labels: object) -> Label | None:
    """The most specific tgneo label among ``labels`` (strings or ``Label``s), or ``None``."""
    known = [Label(v) for v in (labels if isinstance(labels, list | tuple | set | frozenset) else ())
             if v in Label._value2member_map_]  # fmt: skip
    return min(known, key=SPECIFICITY.__getitem__, default=None)


CLASS_BY_IRI = {row.iri: row for row in CLASSES}
CLASS_BY_LABEL = {row.label: row for row in CLASSES}
PROP_BY_IRI = {row.iri: row for row in PROPERTIES}
PROP_BY_NAME = {row.prop: row for row in PROPERTIES}
REL_BY_IRI = {row.iri: row for row in RELATIONSHIPS}
REL_BY_TYPE = {row.rel: row for row in RELATIONSHIPS}

KNOWN_LABELS = frozenset(Label)
KNOWN_REL_TYPES = frozenset(Rel)


def _check_table() -> None:
    """The table must be a bijection in each direction, or export could not invert import."""
    for name, rows, key in (
        ("class IRI", CLASSES, lambda r: r.iri),
        ("label", CLASSES, lambda r: r.label),
        ("property IRI", PROPERTIES, lambda r: r.iri),
        ("property name", PROPERTIES, lambda r: r.prop),
        ("relationship IRI", RELATIONSHIPS, lambda r: r.iri),
        ("relationship type", RELATIONSHIPS, lambda r: r.rel),
    ):
        keys = [key(r) for r in rows]  # type: ignore[no-untyped-call]
        dupes = {k for k in keys if keys.count(k) > 1}
        if dupes:
            raise AssertionError(f"mapping table repeats {name}(s): {sorted(map(str, dupes))}")
    if set(MOST_SPECIFIC_FIRST) != set(Label) or len(MOST_SPECIFIC_FIRST) != len(Label):
        raise AssertionError("MOST_SPECIFIC_FIRST must name every Label exactly once")
    overlap = set(PROP_BY_IRI) & set(REL_BY_IRI)
    if overlap:
        raise AssertionError(f"predicates mapped both as property and relationship: {overlap}")


_check_table()
