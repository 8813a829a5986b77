"""Extracted facts: the one answer format every extraction provider gives, parsed and turned into RDF.

The ``"extraction"`` prompt (``tgneo/llm/prompts/extraction.txt``) asks for a JSON array of
``{"s", "p", "o", "literal"}`` objects; the offline extractor answers in the same format, so this
module parses one format whoever answered. A real model may wrap the array in a code fence or a
sentence; that is accepted. What is not an array of objects is refused with :class:`LLMError`
(the ingest pipeline names the chunk), and an item without a usable subject, relation and object is
dropped and counted, never guessed at.

Names become IRIs the way TrustGraph's relationship extractor makes them
(``http://trustgraph.ai/e/`` + the name lower-cased, spaces as ``-``, percent-encoded), so the same
entity named in two documents — or in a TrustGraph knowledge core — is one node, and facts connect
across documents. Relations get IRIs in the same namespace; objects marked ``literal`` stay literals.
"""

from __future__ import annotations

import json
import re
import urllib.parse
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from rdflib.term import Literal, URIRef

from tgneo.llm.base import LLMError
from tgneo.rdf.terms import Object, Quad, QuotedTriple
from tgneo.vocab import GRAPH_DEFAULT, RDFS, TRUSTGRAPH_ENTITIES

__all__ = [
    "Extraction", "Fact", "asserted", "entity_iri", "fact_statements", "label_statements", "parse_extraction",
]  # fmt: skip

_MAX_NAME = 200
_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL | re.IGNORECASE)


@dataclass(frozen=True)
class Fact:
    """One extracted fact: subject and relation names, an object name or (``literal``) value, and its evidence.

    ``evidence`` is the sentence of the passage that states it, when the provider said (the offline
    extractor does; a model asked with the prompt does not): ingest finds it otherwise.
    """

    s: str
    p: str
    o: str
    literal: bool = False
    evidence: str | None = None


@dataclass(frozen=True)
class Extraction:
    """What one extraction answer held: the usable facts, and how many items were dropped."""

    facts: tuple[Fact, ...]
    dropped: int = 0


def _clean(value: object) -> str | None:
    """A name or value as text with white space collapsed, or ``None`` when it cannot be one."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        value = str(value)
    if not isinstance(value, str):
        return None
    text = " ".join(value.split())
    return text if text and len(text) <= _MAX_NAME else None


def _array(text: str) -> list[Any]:
    """The JSON array in a model's answer: bare, in a code fence, or inside a sentence."""
    candidates = [text.strip()]
    candidates += [m.group(1).strip() for m in _FENCE.finditer(text)]
    first, last = text.find("["), text.rfind("]")
    if 0 <= first < last:
        candidates.append(text[first : last + 1])
    for candidate in candidates:
        try:
            value = json.loads(candidate)
        except ValueError:
            continue
        if isinstance(value, list):
            return value
    shown = " ".join(text.split())
    shown = shown if len(shown) <= 80 else shown[:77] + "..."
    raise LLMError(f"the extraction answer is not a JSON array of facts: {shown!r}")


def parse_extraction(text: str) -> Extraction:
    """The facts in an extraction answer (see the module docstring for what is accepted).

    Raises:
        LLMError: the answer holds no JSON array.
    """
    facts: list[Fact] = []
    dropped = 0
    for item in _array(text):
        if not isinstance(item, dict):
            dropped += 1
            continue
        s, p, o = _clean(item.get("s")), _clean(item.get("p")), _clean(item.get("o"))
        evidence = item.get("evidence")
        evidence = " ".join(evidence.split()) or None if isinstance(evidence, str) else None
        literal = item.get("literal", False)
        if isinstance(item.get("o"), int | float) and not isinstance(item.get("o"), bool):
            literal = True  # a number is a value whatever the flag says
        if s is None or p is None or o is None or not isinstance(literal, bool):
            dropped += 1
            continue
        fact = Fact(s, p, o, literal, evidence)
        if fact not in facts:
            facts.append(fact)
    return Extraction(tuple(facts), dropped)


def entity_iri(name: str) -> URIRef:
    """The IRI of a named entity or relation: TrustGraph's ``to_uri`` on the name with white space collapsed."""
    slug = " ".join(name.split()).replace(" ", "-").lower()
    return URIRef(TRUSTGRAPH_ENTITIES + urllib.parse.quote(slug.encode("utf-8")))


def _object(fact: Fact) -> Object:
    return Literal(fact.o) if fact.literal else entity_iri(fact.o)


def fact_statements(facts: Iterable[Fact]) -> list[QuotedTriple]:
    """Each fact as a statement ``<s> <p> <o>`` (the object a plain literal when the fact says so)."""
    out: list[QuotedTriple] = []
    for fact in facts:
        statement = QuotedTriple(entity_iri(fact.s), entity_iri(fact.p), _object(fact))
        if statement not in out:
            out.append(statement)
    return out


def label_statements(facts: Iterable[Fact]) -> list[QuotedTriple]:
    """``rdfs:label`` statements naming every entity and relation of ``facts``, as written."""
    out: list[QuotedTriple] = []
    for fact in facts:
        names = [fact.s, fact.p] + ([] if fact.literal else [fact.o])
        for name in names:
            statement = QuotedTriple(entity_iri(name), RDFS.label, Literal(name))
            if statement not in out:
                out.append(statement)
    return out


def asserted(statements: Iterable[QuotedTriple]) -> list[Quad]:
    """The statements asserted in the default graph (the knowledge graph)."""
    return [Quad(st.s, st.p, st.o, GRAPH_DEFAULT) for st in statements]
