"""THE vocabulary: every namespace, class, predicate and named graph tgneo speaks, and Neo4j's names.

No other module spells an IRI, a Neo4j label or a relationship type. The RDF terms are TrustGraph
2.11.1's (``trustgraph.provenance.namespaces``); standard namespaces are rdflib's own
``DefinedNamespace`` classes, and TrustGraph's ``https://trustgraph.ai/ns/`` terms are declared here
with ``_fail = True`` so that a typo is an ``AttributeError`` at import time rather than a silently
wrong IRI in a trace.
"""

from __future__ import annotations

from enum import StrEnum

from rdflib.namespace import DC, DCTERMS, FOAF, OWL, PROV, RDF, RDFS, SDO, SKOS, XSD, DefinedNamespace, Namespace
from rdflib.term import URIRef

__all__ = [
    "DC",
    "PROV",
    "RDF",
    "RDFS",
    "SCHEMA",
    "SKOS",
    "TG",
    "TGNEO",
    "XSD",
    "GRAPH_DEFAULT",
    "GRAPH_NAMES",
    "GRAPH_RETRIEVAL",
    "GRAPH_SOURCE",
    "KG_PREFIXES",
    "PREFIXES",
    "PROVENANCE_GRAPHS",
    "TRUSTGRAPH_BASE",
    "TRUSTGRAPH_ENTITIES",
    "Label",
    "Rel",
]

SCHEMA = SDO
"""schema.org (``https://schema.org/``), as TrustGraph uses it for vocabulary labels."""

TRUSTGRAPH_BASE = "https://trustgraph.ai"
TRUSTGRAPH_ENTITIES = "http://trustgraph.ai/e/"  # note: http, as TrustGraph's extracted entities

GRAPH_DEFAULT = ""
"""The default graph: extracted knowledge (facts and the ``rdfs:label`` of entities)."""
GRAPH_SOURCE = "urn:graph:source"
"""Extraction-time provenance: document → page → chunk → subgraph, activities, ``tg:contains``."""
GRAPH_RETRIEVAL = "urn:graph:retrieval"
"""Query-time explainability: every step of every question."""
PROVENANCE_GRAPHS = frozenset({GRAPH_SOURCE, GRAPH_RETRIEVAL})
GRAPH_NAMES = {"default": GRAPH_DEFAULT, "source": GRAPH_SOURCE, "retrieval": GRAPH_RETRIEVAL}
"""The graphs by the short names users type (``tgneo export --graph retrieval``)."""


class TG(DefinedNamespace):
    """TrustGraph's own terms (``https://trustgraph.ai/ns/``), classes and predicates."""

    _NS = Namespace("https://trustgraph.ai/ns/")
    _fail = True

    # --- classes: extraction time
    Document: URIRef
    Page: URIRef
    Section: URIRef
    Chunk: URIRef
    Image: URIRef
    Subgraph: URIRef
    # --- classes: query time
    Question: URIRef
    GraphRagQuestion: URIRef
    DocRagQuestion: URIRef
    AgentQuestion: URIRef
    Grounding: URIRef
    Exploration: URIRef
    Focus: URIRef
    Synthesis: URIRef
    EdgeSelection: URIRef
    ChunkSelection: URIRef
    Analysis: URIRef
    ToolUse: URIRef
    Conclusion: URIRef
    Answer: URIRef
    Reflection: URIRef
    Thought: URIRef
    Observation: URIRef
    Error: URIRef
    Decomposition: URIRef
    Finding: URIRef
    Plan: URIRef
    StepResult: URIRef
    PatternDecision: URIRef

    # --- predicates: extraction time
    contains: URIRef
    pageCount: URIRef
    mimeType: URIRef
    pageNumber: URIRef
    chunkIndex: URIRef
    charOffset: URIRef
    charLength: URIRef
    chunkSize: URIRef
    chunkOverlap: URIRef
    componentVersion: URIRef
    llmModel: URIRef
    ontology: URIRef
    embeddingModel: URIRef
    sourceText: URIRef
    sourceCharOffset: URIRef
    sourceCharLength: URIRef
    elementTypes: URIRef
    tableCount: URIRef
    imageCount: URIRef
    # --- predicates: query time (GraphRAG, DocRAG)
    query: URIRef
    concept: URIRef
    entity: URIRef
    edgeCount: URIRef
    selectedEdge: URIRef
    edge: URIRef
    reasoning: URIRef
    score: URIRef
    document: URIRef
    chunkCount: URIRef
    selectedChunk: URIRef
    # --- predicates: agent and orchestrators
    thought: URIRef
    action: URIRef
    arguments: URIRef
    observation: URIRef
    subagentGoal: URIRef
    planStep: URIRef
    toolCandidate: URIRef
    terminationReason: URIRef
    stepNumber: URIRef
    pattern: URIRef
    taskType: URIRef
    llmDurationMs: URIRef
    toolDurationMs: URIRef
    toolError: URIRef
    inToken: URIRef
    outToken: URIRef


class TGNEO(DefinedNamespace):
    """tgneo's own terms (``urn:tgneo:ns:``): what TrustGraph's model has no word for.

    Only the ``prov`` profile and tgneo's own views carry them; the ``trustgraph`` profile, the streams
    and the TrustGraph gateway never do, so TrustGraph's tools see exactly TrustGraph's triples.
    """

    _NS = Namespace("urn:tgneo:ns:")
    _fail = True

    AnswerSentence: URIRef
    """One sentence of an answer (a ``prov:Entity``), ``prov:wasDerivedFrom`` the selections supporting it."""
    sentence: URIRef
    """A Synthesis or Conclusion → one of its answer sentences."""
    sentenceIndex: URIRef
    """The 1-based position of an answer sentence in its answer."""
    support: URIRef
    """How well the best cited evidence supports an answer sentence (0..1)."""
    DocumentChange: URIRef
    """A ``prov:Activity``: a source document replaced or removed after a trace used it (what made it stale)."""
    change: URIRef
    """What a DocumentChange did to its document: ``replaced`` or ``removed``."""
    RetrievalHit: URIRef
    """How one retrieved item was found (a ``prov:Entity`` attached to an Exploration): its rank and score in
    each index's list (vector, full text) and its rank after fusing them."""
    hit: URIRef
    """An Exploration → one of its retrieval hits."""
    retrieved: URIRef
    """A retrieval hit → the item (a chunk) it found."""
    rank: URIRef
    """A retrieval hit's 1-based rank after fusion: the order the Focus read the items in."""
    vectorRank: URIRef
    """A retrieval hit's 1-based rank in the vector index's list (absent: the vectors did not find it)."""
    vectorScore: URIRef
    """Its similarity to the question (cosine) by which the vector list is ranked."""
    textRank: URIRef
    """A retrieval hit's 1-based rank in the full-text index's list (absent: its words did not match)."""
    textScore: URIRef
    """Its full-text (Lucene) score."""
    fusedScore: URIRef
    """Its reciprocal-rank-fusion score: the sum of ``1 / (60 + rank)`` over the lists that found it."""
    QuestionPart: URIRef
    """One part of a question that asks two things (a ``prov:Entity`` attached to a Grounding): its text
    (``prov:value``), its position (``tgneo:partIndex``) and the concepts grounded for it (``tg:concept``)."""
    questionPart: URIRef
    """A Grounding → one of the parts the question was answered in."""
    partIndex: URIRef
    """A question part's 1-based position in its question."""
    forPart: URIRef
    """A retrieval hit, an edge selection or a chunk selection → the question part it was found or selected for."""
    Verification: URIRef
    """The counterfactual check of an answer (a ``prov:Entity`` derived from the Synthesis or Conclusion it checks):
    whether the answer depends on the evidence it cites (:mod:`tgneo.explain.verification`)."""
    verdict: URIRef
    """A verification's conclusion: ``supported``, ``partly`` or ``unsupported``."""
    sufficiency: URIRef
    """The share of the answer's sentences still given with the cited evidence alone (0..1)."""
    calls: URIRef
    """How many times a verification ran the answering stage again."""
    standsWithout: URIRef
    """A verification → an answer sentence that still stands with its cited evidence removed."""
    counterfactual: URIRef
    """A verification → one of its re-runs."""
    Counterfactual: URIRef
    """One re-run of the answering stage on altered evidence (a ``prov:Entity`` derived from its verification)."""
    ablation: URIRef
    """How a counterfactual altered the evidence: ``without-cited``, ``only-cited`` or ``leave-one-out``."""
    ablated: URIRef
    """A counterfactual → a selection it left out (for ``only-cited``: one it kept)."""
    preserved: URIRef
    """The share of the original answer's sentences a counterfactual still said (0..1)."""
    necessity: URIRef
    """For a leave-one-out counterfactual: the share of the answer lost without its item (0..1)."""


class Label(StrEnum):
    """Every Neo4j node label tgneo writes or reads. Cypher files may use only these.

    tgneo shares databases with other tools (neo4j-graphrag, LLM Graph Builder, LangChain, n10s,
    rdflib-neo4j), so every label of its own structure and of its source provenance starts with
    ``Tg`` and every node it writes carries :attr:`BASE`; none of its nodes carries ``Document``,
    ``Chunk``, ``Resource``, ``__Entity__``, ``Session`` or ``Message``, the labels those tools query.
    The query-time step types keep TrustGraph's class names (``Question``, ``Focus``, …): they are
    what a trace is, and no index or constraint of tgneo's is on them.
    """

    # structural
    BASE = "Tgneo"
    """On every node tgneo writes: what is tgneo's in a shared database."""
    RESOURCE = "TgResource"
    """One IRI (or blank node) of a workspace and collection: a knowledge-graph entity (its facts as
    typed relationships and properties), a provenance entity (with :attr:`EXPLAIN` or :attr:`SOURCE`),
    or both."""
    STATEMENT = "TgStatement"
    """A reified edge ``<< s p o >>``: where provenance quotes an edge (a selected edge, a subgraph's
    extracted fact, a statement about a statement) or where the native form cannot hold a triple exactly."""
    EXPLAIN = "TgExplain"
    """Mixin on every query-time entity (graph ``urn:graph:retrieval``)."""
    SOURCE = "TgSource"
    """Mixin on every extraction-time entity (graph ``urn:graph:source``)."""
    CONTENT = "TgContent"
    """A librarian document: answer, thought, observation, page or chunk text referenced by URI."""
    IMPORT = "TgImport"
    """The journal of one ``tgneo import``: its id, file digest, state (running, committed, rolled_back)."""
    IMPORT_UNDO = "TgImportUndo"
    """What an unfinished import changed on a node it did not create, so that a rollback can restore it."""
    RETENTION_POLICY = "TgRetentionPolicy"
    """A collection's stored retention policy (max age, max traces): what ``traces prune`` and the server apply."""
    PREFIX = "TgPrefix"
    """One row of a collection's namespace table: the prefix a relationship type or key names a namespace by."""
    STORE = "TgStore"
    """The one node that records which graph model the database holds (``tgneo db migrate`` moves it on)."""
    SPAN_TREE = "TgSpanTree"
    """The OpenTelemetry spans of one trace id as they arrive at ``POST /v1/traces``, kept until the tree is whole
    and recorded as a trace (``tgneo.otlp``)."""
    # PROV classes
    PROV_ENTITY = "ProvEntity"
    PROV_ACTIVITY = "ProvActivity"
    PROV_AGENT = "ProvAgent"
    # extraction time: TrustGraph's classes under tgneo's prefix (other tools query Document and Chunk)
    DOCUMENT = "TgDocument"
    PAGE = "TgPage"
    SECTION = "TgSection"
    CHUNK = "TgChunk"
    IMAGE = "TgImage"
    SUBGRAPH = "TgSubgraph"
    # query time
    QUESTION = "Question"
    GRAPH_RAG_QUESTION = "GraphRagQuestion"
    DOC_RAG_QUESTION = "DocRagQuestion"
    AGENT_QUESTION = "AgentQuestion"
    GROUNDING = "Grounding"
    EXPLORATION = "Exploration"
    FOCUS = "Focus"
    SYNTHESIS = "Synthesis"
    EDGE_SELECTION = "EdgeSelection"
    CHUNK_SELECTION = "ChunkSelection"
    ANALYSIS = "Analysis"
    TOOL_USE = "ToolUse"
    CONCLUSION = "Conclusion"
    ANSWER = "Answer"
    REFLECTION = "Reflection"
    THOUGHT = "Thought"
    OBSERVATION = "Observation"
    ERROR = "Error"
    DECOMPOSITION = "Decomposition"
    FINDING = "Finding"
    PLAN = "Plan"
    STEP_RESULT = "StepResult"
    PATTERN_DECISION = "PatternDecision"
    # tgneo's own (prov profile only)
    ANSWER_SENTENCE = "AnswerSentence"
    DOCUMENT_CHANGE = "DocumentChange"
    """One trace's record of a source document it used being replaced or removed: the trace is stale."""
    RETRIEVAL_HIT = "RetrievalHit"
    """How an Exploration found one item: its ranks in the vector and full-text lists, and fused."""
    QUESTION_PART = "QuestionPart"
    """One part of a two-part question, grounded, retrieved and selected for on its own."""
    VERIFICATION = "Verification"
    """The counterfactual check of an answer: does it depend on the evidence it cites?"""
    COUNTERFACTUAL = "Counterfactual"
    """One re-run of the answering stage on altered evidence, part of a Verification."""


class Rel(StrEnum):
    """Every Neo4j relationship type of tgneo's own structure. Cypher files may use only these.

    A knowledge-graph fact ``s p o`` is a relationship too, typed by its predicate through the rule in
    :mod:`tgneo.native`; that rule never gives one of these names, so a fact never reads as structure.
    """

    # reified edges: the statement node → the nodes of its subject and object
    SUBJECT = "SUBJECT"
    OBJECT = "OBJECT"
    # PROV
    WAS_DERIVED_FROM = "WAS_DERIVED_FROM"
    WAS_GENERATED_BY = "WAS_GENERATED_BY"
    USED = "USED"
    WAS_ASSOCIATED_WITH = "WAS_ASSOCIATED_WITH"
    # Dublin Core / TrustGraph, IRI-valued
    SOURCE = "SOURCE"
    ONTOLOGY = "ONTOLOGY"
    CONTAINS = "CONTAINS"
    ENTITY = "ENTITY"
    SELECTED_EDGE = "SELECTED_EDGE"
    EDGE = "EDGE"
    DOCUMENT = "DOCUMENT"
    SELECTED_CHUNK = "SELECTED_CHUNK"
    THOUGHT = "THOUGHT"
    OBSERVATION = "OBSERVATION"
    WAS_INVALIDATED_BY = "WAS_INVALIDATED_BY"
    """A selection (or answer) whose evidence changed → the DocumentChange that changed it."""
    # tgneo's own (prov profile only)
    SENTENCE = "SENTENCE"
    HIT = "HIT"
    """An Exploration → a RetrievalHit."""
    RETRIEVED = "RETRIEVED"
    """A RetrievalHit → the chunk it found."""
    QUESTION_PART = "QUESTION_PART"
    """A Grounding → a QuestionPart."""
    FOR_PART = "FOR_PART"
    """A RetrievalHit, EdgeSelection or ChunkSelection → the QuestionPart it served."""
    STANDS_WITHOUT = "STANDS_WITHOUT"
    """A Verification → an answer sentence that still stands without its cited evidence."""
    COUNTERFACTUAL = "COUNTERFACTUAL"
    """A Verification → one of its Counterfactuals."""
    ABLATED = "ABLATED"
    """A Counterfactual → a selection it left out (or kept alone)."""


KG_PREFIXES: tuple[tuple[str, str], ...] = (
    (TRUSTGRAPH_ENTITIES, "e"),
    (str(RDF), "rdf"),
    (str(RDFS), "rdfs"),
    (str(XSD), "xsd"),
    (str(OWL), "owl"),
    (str(SCHEMA), "schema"),
    ("http://schema.org/", "sdo"),
    (str(SKOS), "skos"),
    (str(DC), "dc"),
    (str(DCTERMS), "dcterms"),
    (str(FOAF), "foaf"),
    (str(PROV), "prov"),
    ("https://trustgraph.ai/ns/", "tg"),
    ("urn:tgneo:ns:", "tgneo"),
    ("http://www.wikidata.org/entity/", "wd"),
    ("http://www.wikidata.org/prop/direct/", "wdt"),
    ("http://dbpedia.org/ontology/", "dbo"),
    ("http://dbpedia.org/resource/", "dbr"),
    ("http://www.w3.org/2003/01/geo/wgs84_pos#", "geo"),
)
"""``(namespace, prefix)``: the namespaces every collection's knowledge graph names the same way in its
relationship types and property keys (``rdf__type``, ``foaf__knows``; :mod:`tgneo.native`), n10s's usual
prefixes and TrustGraph's; ``e`` is the namespace of TrustGraph's extracted entities."""

PREFIXES = (
    ("prov", PROV),
    ("tg", TG),
    ("rdf", RDF),
    ("rdfs", RDFS),
    ("xsd", XSD),
    ("dc", DC),
    ("skos", SKOS),
    ("schema", SCHEMA),
    ("tgneo", TGNEO),
)
"""Prefixes tgneo's Turtle, TriG and ontology use, so exports read like TrustGraph's vocabulary."""
