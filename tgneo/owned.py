"""What tgneo owns in a shared database, named so that the user's text-to-Cypher tools can leave it out.

tgneo records traces in the user's own Neo4j database, beside their graph. LangChain's
``GraphCypherQAChain`` and neo4j-graphrag's ``Text2CypherRetriever`` put that database's schema into every prompt,
so without a way to leave tgneo out, their model reads hundreds of lines of tgneo's labels, relationship types and
properties before each question. Both read the schema as ``apoc.meta.data`` reports it (neo4j-graphrag's
``get_structured_schema``): node properties by label, relationship properties by type, and relationship patterns
``(start label, type, end label)``, one per label of each end. LangChain's ``exclude_types`` leaves out a label's
properties when the label is excluded, a type's properties when the type is, and a pattern when its start label,
its type *or* its end label is (``langchain_neo4j.chains.graph_qa.cypher.construct_schema``).

**The labels.** Every node tgneo writes carries only labels of :class:`~tgneo.vocab.Label` (``Tgneo`` and the
``Tg…`` structure, the PROV classes, TrustGraph's step types), so excluding them removes every property tgneo
sets on a node and every pattern with one of tgneo's nodes at either end: tgneo's structure, and its knowledge
graph's facts too (each fact is a relationship between two ``:Tgneo:TgResource`` nodes).

**The relationship types.** Excluding the labels leaves the *properties* of tgneo's relationships, which the
schema lists by type alone. The types of tgneo's structure are :class:`~tgneo.vocab.Rel`. The types of its
knowledge graph are the user's predicates named by :mod:`tgneo.native` (``DISCOVERED``, ``rdf__type``), whatever
the data holds: no list can name them in advance, so :func:`owned_types` finds them in the schema it is given, as
the types whose every pattern joins two of tgneo's labels. A type the user's own graph uses too (their
``CONTAINS``, their ``DISCOVERED``) is theirs as well: it is not listed, because excluding it would take their
relationships out of their prompt; its pattern lines of theirs stay, and its property list is theirs and tgneo's
together (the schema merges the properties of one type; nothing can split them).

Pure: no driver. The adapter :func:`tgneo.adapters.text2cypher.user_schema` applies the same rule for
neo4j-graphrag, which has no ``exclude_types``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tgneo.vocab import Label, Rel

__all__ = ["owned_labels", "owned_types", "without_owned"]


def owned_labels() -> list[str]:
    """Every node label tgneo writes, in the vocabulary's order: no node of tgneo's carries another."""
    return [label.value for label in Label]


def _theirs(structured_schema: Mapping[str, Any], labels: frozenset[str]) -> set[str]:
    """The relationship types of the schema with at least one pattern whose start or end is not tgneo's."""
    return {
        pattern["type"]
        for pattern in structured_schema.get("relationships", [])
        if pattern["start"] not in labels or pattern["end"] not in labels
    }


def owned_types(structured_schema: Mapping[str, Any] | None = None) -> list[str]:
    """The node labels and relationship types tgneo owns: what LangChain's ``exclude_types`` takes.

    Without a schema, every label and relationship type of the vocabulary. Given the structured schema of the
    database (LangChain's ``graph.get_structured_schema``, neo4j-graphrag's ``get_structured_schema(driver)``),
    also the knowledge graph's relationship types (those whose every pattern joins two of tgneo's labels), and
    without a type of the vocabulary that the user's graph uses too (see the module docstring): so that what
    tgneo recorded leaves the schema whole, and nothing of the user's does.

    Args:
        structured_schema: the schema as neo4j-graphrag's ``get_structured_schema`` returns it; only its
            ``relationships`` are read.

    Returns:
        Labels first (vocabulary order), then relationship types (vocabulary order, then the knowledge graph's
        sorted); a new list on each call.
    """
    labels = owned_labels()
    if structured_schema is None:
        return labels + [rel.value for rel in Rel]
    theirs = _theirs(structured_schema, frozenset(labels))
    vocabulary = [rel.value for rel in Rel if rel.value not in theirs]
    seen = {pattern["type"] for pattern in structured_schema.get("relationships", [])}
    facts = sorted(seen - theirs - set(vocabulary))
    return labels + vocabulary + facts


def without_owned(structured_schema: Mapping[str, Any]) -> dict[str, Any]:
    """The structured schema without what tgneo owns, by LangChain's ``exclude_types`` rule with
    :func:`owned_types` of it: what ``GraphCypherQAChain.from_llm(..., exclude_types=owned_types(schema))`` puts
    in its prompt, for a formatter (neo4j-graphrag's ``format_schema``) to print.

    ``metadata`` (indexes and constraints, which the formatter does not print) keeps only what is not on tgneo's
    labels. The property lists are the schema's own (not copies): neo4j-graphrag's ``enhance_schema`` fills them in
    place.
    """
    owned = frozenset(owned_types(structured_schema))
    kept: dict[str, Any] = {
        "node_props": {k: v for k, v in structured_schema.get("node_props", {}).items() if k not in owned},
        "rel_props": {k: v for k, v in structured_schema.get("rel_props", {}).items() if k not in owned},
        "relationships": [
            p
            for p in structured_schema.get("relationships", [])
            if p["start"] not in owned and p["type"] not in owned and p["end"] not in owned
        ],
    }
    metadata = structured_schema.get("metadata")
    if metadata is not None:
        kept["metadata"] = {
            "constraint": [c for c in metadata.get("constraint", []) if not owned & set(c.get("labelsOrTypes") or ())],
            "index": [i for i in metadata.get("index", []) if i.get("label") not in owned],
        }
    return kept
