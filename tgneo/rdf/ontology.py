"""``ontology.ttl`` generated from the mapping table, and the SHACL run behind ``tgneo validate``.

The ontology is not written by hand: :func:`build_ontology` walks ``mapping.CLASSES``,
``PROPERTIES`` and ``RELATIONSHIPS`` and says, for every ``tg:`` term, what it is (``owl:Class``,
``owl:DatatypeProperty``, ``owl:ObjectProperty``), its label and comment, its range (``xsd:integer``,
``xsd:double``, ``xsd:dateTime``, ``xsd:string``, or ``rdf:Statement`` for the quoted-triple
predicates) and its place under PROV-O (every step class is a ``prov:Entity``, ``tg:Subgraph`` too).
It also restates the PROV-O axioms the shapes rely on (the domains of ``prov:startedAtTime``,
``prov:wasGeneratedBy``, ``prov:used``, ``prov:wasDerivedFrom``, and ``prov:Entity`` being disjoint
from ``prov:Activity``), so that validation with RDFS inference needs no download.
``tests/test_rdf_bridge.py`` checks that the packaged file is the very graph this module generates:
``python -m tgneo.rdf.ontology > tgneo/rdf/ontology.ttl`` regenerates it.
"""

from __future__ import annotations

from collections.abc import Iterable
from importlib import resources
from typing import Any

from rdflib import Graph
from rdflib.namespace import OWL
from rdflib.term import Literal, URIRef

from tgneo.mapping import CLASSES, PROPERTIES, RELATIONSHIPS
from tgneo.rdf.terms import Quad, QuotedTriple
from tgneo.vocab import DC, PREFIXES, PROV, RDF, RDFS, TG, TGNEO, XSD, Label

__all__ = ["ONTOLOGY_IRI", "build_ontology", "graph_of", "load", "validate"]

ONTOLOGY_IRI = URIRef(str(TG))
_RANGE = {"string": XSD.string, "integer": XSD.integer, "float": XSD.double, "datetime": XSD.dateTime}

_COMMENTS: dict[str, str] = {
    "Document": "A source document loaded into the knowledge base.",
    "Page": "A page of a document (a PROV derivation of the document).",
    "Section": "A section of a document.",
    "Chunk": "A chunk of text cut from a page or document, embedded for retrieval.",
    "Image": "An image extracted from a document.",
    "Subgraph": "The knowledge-graph edges extracted from one chunk; tg:contains points at each as a quoted triple.",
    "Question": "The question a session answers; the root of a query-time trace.",
    "GraphRagQuestion": "A question answered by GraphRAG.",
    "DocRagQuestion": "A question answered by Document RAG.",
    "AgentQuestion": "A question answered by an agent.",
    "Grounding": "GraphRAG step: the concepts found in the question.",
    "Exploration": "GraphRAG step: the knowledge-graph neighbourhood explored for the concepts.",
    "Focus": "GraphRAG step: the edges selected as evidence, each with reasoning and a score.",
    "Synthesis": "The step that writes the answer.",
    "EdgeSelection": "One selected edge: a quoted triple (tg:edge) with reasoning and a score.",
    "ChunkSelection": "One selected chunk of Document RAG.",
    "Analysis": "Agent step: a thought that chose an action.",
    "ToolUse": "Mixin: a step that called a tool.",
    "Conclusion": "Agent step: the final answer.",
    "Answer": "Mixin: a step that carries answer text (tg:document).",
    "Reflection": "Mixin: a step that carries reasoning text.",
    "Thought": "The text of an agent's thought.",
    "Observation": "What a tool returned to the agent.",
    "Error": "Mixin: an observation that is a tool failure (tg:toolError).",
    "Decomposition": "Supervisor step: the question split into sub-goals.",
    "Finding": "Supervisor step: what a sub-agent found.",
    "Plan": "Plan-then-execute step: the plan.",
    "StepResult": "Plan-then-execute step: the result of one plan step.",
    "PatternDecision": "Agent step: which agent pattern answers the question.",
    "AnswerSentence": (
        "tgneo: one sentence of an answer, prov:wasDerivedFrom the edge or chunk selections that support it."
    ),
    "RetrievalHit": (
        "tgneo: how an Exploration found one item (tgneo:retrieved): its rank and score in the vector and "
        "full-text lists, and its rank after reciprocal rank fusion."
    ),
    "QuestionPart": (
        "tgneo: one part of a question that asks two things (prov:value, tgneo:partIndex), attached to the Grounding "
        "that grounded it (tgneo:questionPart) with its own concepts (tg:concept); the retrieval hits, edge "
        "selections and chunk selections found for it point at it (tgneo:forPart)."
    ),
    "Verification": (
        "tgneo: the counterfactual check of an answer (prov:wasDerivedFrom the Synthesis or Conclusion it checks): "
        "its verdict (supported, partly, unsupported), how much of the answer its cited evidence alone still gives "
        "(tgneo:sufficiency), and the answer sentences that stand without their evidence (tgneo:standsWithout)."
    ),
    "Counterfactual": (
        "tgneo: one re-run of the answering stage with the evidence altered (tgneo:ablation: without-cited, "
        "only-cited, leave-one-out) and the selections it left out or kept (tgneo:ablated); how much of the answer "
        "it still said (tgneo:preserved), a left-out item's necessity, and its answer (tg:document)."
    ),
    "DocumentChange": (
        "tgneo: a source document a trace used was replaced or removed; the selections and answers it "
        "invalidated (prov:wasInvalidatedBy) are stale."
    ),
}


_ACTIVITIES = frozenset({Label.DOCUMENT_CHANGE})
"""tgneo's classes of ``prov:Activity`` (every other ``tg:``/``tgneo:`` class is a ``prov:Entity``)."""


def _local(iri: URIRef) -> str:
    return str(iri).rsplit("/", 1)[-1].rsplit("#", 1)[-1].rsplit(":", 1)[-1]


def _ours(iri: URIRef) -> bool:
    """A term of TrustGraph's vocabulary, or of tgneo's own (``urn:tgneo:ns:``)."""
    return str(iri).startswith((str(TG), str(TGNEO)))


def _prefix(iri: URIRef) -> str:
    return "tgneo" if str(iri).startswith(str(TGNEO)) else "tg"


def _words(name: str) -> str:
    out = "".join(f" {c.lower()}" if c.isupper() else c for c in name).strip()
    return out.replace("rag", "RAG").replace("llm", "LLM").replace(" ms", " (ms)")


def build_ontology() -> Graph:
    """The OWL ontology of every ``tg:`` class and property, from the mapping table."""
    g = Graph()
    for prefix, namespace in (*PREFIXES, ("owl", OWL)):
        g.bind(prefix, URIRef(str(namespace)), override=True, replace=True)
    g.add((ONTOLOGY_IRI, RDF.type, OWL.Ontology))
    g.add((ONTOLOGY_IRI, RDFS.label, Literal("TrustGraph explainability vocabulary (tgneo)", lang="en")))
    g.add((ONTOLOGY_IRI, RDFS.comment, Literal(
        "Generated by tgneo from its mapping table (tgneo/mapping.py). tg: classes and properties, under W3C PROV-O.",
        lang="en")))  # fmt: skip
    for row in CLASSES:
        if not _ours(row.iri):
            continue
        name = _local(row.iri)
        g.add((row.iri, RDF.type, OWL.Class))
        g.add((row.iri, RDFS.label, Literal(_words(name), lang="en")))
        g.add((row.iri, RDFS.comment, Literal(_COMMENTS.get(name, name), lang="en")))
        g.add((row.iri, RDFS.isDefinedBy, ONTOLOGY_IRI))
        g.add((row.iri, RDFS.subClassOf, PROV.Activity if row.label in _ACTIVITIES else PROV.Entity))
    for sub, sup in ((TG.GraphRagQuestion, TG.Question), (TG.DocRagQuestion, TG.Question),
                     (TG.AgentQuestion, TG.Question), (TG.Page, TG.Document)):  # fmt: skip
        g.add((sub, RDFS.subClassOf, sup))
    for prop in PROPERTIES:
        if not _ours(prop.iri):
            continue
        _property(g, prop.iri, OWL.DatatypeProperty, _RANGE[prop.datatype], prop.multi)
    for rel in RELATIONSHIPS:
        if not _ours(rel.iri):
            continue
        target = RDF.Statement if rel.target == "statement" else None
        _property(g, rel.iri, OWL.ObjectProperty, target, True)
    _prov_axioms(g)
    return g


def _property(g: Graph, iri: URIRef, kind: URIRef, range_: URIRef | None, multi: bool) -> None:
    name = _local(iri)
    g.add((iri, RDF.type, kind))
    if not multi:
        g.add((iri, RDF.type, OWL.FunctionalProperty))
    g.add((iri, RDFS.label, Literal(_words(name), lang="en")))
    what = "quoted triple (RDF-star) or rdf:Statement" if range_ == RDF.Statement else "value"
    g.add((iri, RDFS.comment, Literal(f"{_prefix(iri)}:{name}: a {what} of the step or source that carries it.",
                                      lang="en")))  # fmt: skip
    g.add((iri, RDFS.isDefinedBy, ONTOLOGY_IRI))
    if range_ is not None:
        g.add((iri, RDFS.range, range_))


def _prov_axioms(g: Graph) -> None:
    """The PROV-O axioms validation reasons with (from https://www.w3.org/ns/prov-o)."""
    for p, domain, range_ in (
        (PROV.startedAtTime, PROV.Activity, XSD.dateTime),
        (PROV.wasGeneratedBy, PROV.Entity, PROV.Activity),
        (PROV.used, PROV.Activity, PROV.Entity),
        (PROV.wasDerivedFrom, PROV.Entity, PROV.Entity),
        (PROV.wasAssociatedWith, PROV.Activity, PROV.Agent),
    ):
        g.add((p, RDFS.domain, domain))
        g.add((p, RDFS.range, range_))
    g.add((PROV.SoftwareAgent, RDFS.subClassOf, PROV.Agent))
    g.add((PROV.Entity, OWL.disjointWith, PROV.Activity))
    g.add((DC.source, RDFS.label, Literal("source", lang="en")))


def load(name: str) -> Graph:
    """A packaged Turtle file of ``tgneo.rdf`` (``ontology.ttl``, ``shapes.ttl``)."""
    g = Graph()
    g.parse(data=resources.files("tgneo.rdf").joinpath(name).read_text(encoding="utf-8"), format="turtle")
    return g


def validate(data: Graph) -> tuple[bool, Graph, str]:
    """Run ``shapes.ttl`` over ``data`` with RDFS inference from ``ontology.ttl`` (pyshacl).

    Returns:
        ``(conforms, results graph, report text)``.
    """
    from pyshacl import validate as shacl

    result: Any = shacl(
        data, shacl_graph=load("shapes.ttl"), ont_graph=load("ontology.ttl"), inference="rdfs",
        advanced=True, allow_warnings=True,
    )  # fmt: skip
    conforms, results, text = result
    return bool(conforms), results, str(text)


def graph_of(quads: Iterable[Quad]) -> Graph:
    """One rdflib graph of every quad (all graphs merged), quoted triples as standard reification."""
    from tgneo.rdf.writer import reify

    g = Graph()
    for q in reify(quads):
        assert not isinstance(q.s, QuotedTriple) and not isinstance(q.o, QuotedTriple)  # reify replaced them
        g.add((q.s, q.p, q.o))
    return g


if __name__ == "__main__":  # pragma: no cover - regenerates the packaged file
    print(build_ontology().serialize(format="turtle"), end="")
