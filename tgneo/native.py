"""The native knowledge graph: how a triple of the default graph becomes a relationship or a property.

A Neo4j user reads tgneo's knowledge graph as any property graph: ``MATCH (a)-[:DISCOVERED]->(b)``.
This module is the one rule between the two shapes, and it is pure (no driver), so the writer, the
readers, the exporter and the migration all name things the same way.

**Relationship types and property keys.** A predicate IRI is split into a namespace and a local name
(at the last ``#``, else ``/``, else ``:``, as n10s does). Then:

* the namespace of TrustGraph's extracted entities and relations, ``http://trustgraph.ai/e/``, is the
  *default namespace*: a local name of lower-case words joined by ``-`` (``native-country-of``, as
  TrustGraph's extractor spells every relation) becomes ``NATIVE_COUNTRY_OF`` as a relationship type and
  ``native_country_of`` as a property key;
* every other predicate is ``{prefix}__{local}`` with the local name verbatim (``rdf__type``,
  ``foaf__knows``, ``schema__name``), the prefix from the namespace table: well-known prefixes built in
  (:data:`BUILTIN_PREFIXES`, ``e`` for the default namespace), and for any other namespace one derived
  from its last word and a hash of it (``http://example.org/people#`` → ``people_2655e5``), so two writers
  never need to agree on a counter. Each collection stores the prefixes its data uses
  (``:TgPrefix {prefix, namespace}``), so the rule runs backwards from the database alone;
* ``rdfs:label`` is the node's ``name``.

The rule is reversible: a name without ``__`` can only come from the default namespace, one with ``__``
splits at its first ``__`` into a prefix (which never holds ``__``) and the local name. A default-namespace
name that would equal one of tgneo's own relationship types (``USED``, ``CONTAINS``, …) or property keys
(``workspace``, ``score``, …) takes the prefixed form (``e__used``), so a fact never reads as structure.

**Values.** A literal object is a property value of its subject: a string for a plain literal, a native
value where the literal is in canonical form for its datatype (``xsd:integer`` → integer, ``xsd:double`` →
float, ``xsd:boolean``, ``xsd:dateTime``, ``xsd:date``), and otherwise its text with a *tag* saying what
it was: ``@fr`` for a language, ``^^<datatype IRI>`` for any other datatype. Tags live in the sidecar
property ``_{key}``, a list aligned with the values, present only when some value has one. Several values
of one predicate are a list. Values of one key share one Neo4j type; a value that does not fit (an integer
where strings are stored) stays a reified edge instead, and so does anything else the native form cannot
hold exactly.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from rdflib.term import Literal, URIRef

from tgneo.errors import MappingError
from tgneo.mapping import PROPERTIES
from tgneo.timestamps import iso_z, parse_iso
from tgneo.vocab import KG_PREFIXES, RDFS, TRUSTGRAPH_ENTITIES, XSD, Rel

__all__ = [
    "BUILTIN_PREFIXES",
    "DEFAULT_NAMESPACE",
    "LABEL_KEY",
    "RESERVED_KEYS",
    "STRUCTURE_KEYS",
    "Namespaces",
    "derived_prefix",
    "fact_keys",
    "is_fact_key",
    "literal_of",
    "sidecar",
    "split_iri",
    "stored_literal",
    "stored_value",
    "value_kind",
]

DEFAULT_NAMESPACE = TRUSTGRAPH_ENTITIES
"""Where TrustGraph's extractor (and tgneo's) mints entity and relation IRIs: names read bare here."""
LABEL_KEY = "name"
"""``rdfs:label`` in the default graph: the node's name (what the full-text index and Browser show)."""
_RDFS_LABEL = str(RDFS.label)
SIDECAR = "_"
"""A property key starting with this holds the tags of the values of the key after it."""

BUILTIN_PREFIXES: dict[str, str] = dict(KG_PREFIXES)
"""Namespaces every collection names the same way (n10s's usual prefixes, and TrustGraph's)."""

RESERVED_TYPES = frozenset(rel.value for rel in Rel)
RESERVED_KEYS = frozenset(
    {
        # identity, scope and the graph model
        "workspace", "collection", "uri", "kind", "graph", "id", "iri", LABEL_KEY,
        # what other tools index on every label of a shared database (LLM Graph Builder: id, description)
        "description",
        # search
        "embedding", "embeddedWith",
        # librarian
        "text", "contentType",
        # reified edges
        "s", "s_kind", "p", "o", "o_kind", "o_datatype", "o_lang", "asserted_in", "key", "o_value", "o_tag",
        # imports (journal, marks, undo records)
        "tg_import", "tg_new", "state", "heartbeat", "host", "pid", "batches", "digest", "source",
        "started", "finished", "stopped", "undo_import", "undo_key", "undo_kind", "undo_target", "undo_ref",
        "undo_labels", "undo_graphs",
        # stale answers, retention, health
        "tg_stale_at", "tg_hold", "tg_held_by", "tg_held_at", "tg_pruning", "tg_sweeping", "max_age_seconds",
        "max_traces", "set_by", "set_at",
        # the namespace table and the model version
        "prefix", "namespace", "model", "migration", "vectorDimensions", "updatedAt",
        # the side index over a graph another tool wrote (tgneo.ingest.side_index)
        "element", "theirKey", "profile",
        # span trees received over OTLP (tgneo.otlp), kept until they are recorded
        "trace_id", "span_ids", "parents", "spans", "received", "recorded", "recorded_spans", "claimed",
        "claimed_spans", "claimed_at",
    }
    | {row.prop for row in PROPERTIES}
)  # fmt: skip
"""Every property key tgneo's own structure uses on any node. A default-namespace predicate whose key
would be one of these takes the prefixed form, so a fact never overwrites structure (``tests`` check that
every property a Cypher file reads is listed here)."""
STRUCTURE_KEYS = sorted(RESERVED_KEYS - {LABEL_KEY})
"""The ``$reserved`` parameter of the Cypher that tells fact properties apart in the database: a key that
is not one of these and does not start with ``_`` holds facts (``name`` included)."""

_NEAT_LOCAL = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_NEAT_TYPE = re.compile(r"[A-Z0-9]+(?:_[A-Z0-9]+)*")
_NEAT_KEY = re.compile(r"[a-z0-9]+(?:_[a-z0-9]+)*")
_PREFIX = re.compile(r"[a-z](?:[a-z0-9_]*[a-z0-9])?")
_WORD = re.compile(r"[^a-z0-9]+")


def split_iri(iri: str) -> tuple[str, str]:
    """``(namespace, local name)``: split after the last ``#``, else the last ``/``, else the last ``:``."""
    for sep in ("#", "/", ":"):
        at = iri.rfind(sep)
        if at >= 0:
            return iri[: at + 1], iri[at + 1 :]
    return "", iri


def derived_prefix(namespace: str) -> str:
    """The prefix of a namespace no built-in names: its last word (at most 12 letters or digits) and 6 hex
    digits of its SHA-256, so every writer derives the same one and two namespaces do not share it."""
    words = [w for w in _WORD.split(namespace.lower().rstrip("/#:?")) if w]
    word = (words[-1] if words else "ns")[:12]
    if not word[0].isalpha():
        word = "ns" + word[:10]
    return f"{word}_{hashlib.sha256(namespace.encode()).hexdigest()[:6]}"


@dataclass
class Namespaces:
    """A collection's namespace table: the built-ins, plus what its data uses (stored as ``:TgPrefix``).

    Names are derived from a predicate without the database (:meth:`relationship_type`,
    :meth:`property_key`); reading them back needs the prefixes of the collection
    (:meth:`predicate_of_type`, :meth:`predicate_of_key`), which :meth:`learn` adds. :attr:`used` collects
    the namespaces a write named, for the writer to store.
    """

    prefixes: dict[str, str] = field(default_factory=lambda: {p: ns for ns, p in BUILTIN_PREFIXES.items()})
    used: dict[str, str] = field(default_factory=dict)
    _names: dict[tuple[bool, str], tuple[str, str | None, str]] = field(default_factory=dict, repr=False, compare=False)
    """Names already derived: ``(is a type, predicate)`` → ``(name, prefix or None, namespace)``. An import
    names the same few predicates on every line; deriving a prefix hashes its namespace."""

    def learn(self, rows: Iterable[tuple[str, str]]) -> Namespaces:
        """Add stored ``(prefix, namespace)`` rows; a prefix that names another namespace is refused."""
        for prefix, namespace in rows:
            known = self.prefixes.setdefault(prefix, namespace)
            if known != namespace:
                raise MappingError(f"prefix {prefix!r} names both <{known}> and <{namespace}>")
        return self

    def _prefix(self, namespace: str) -> str:
        return BUILTIN_PREFIXES.get(namespace) or derived_prefix(namespace)

    def _named(self, is_type: bool, predicate: str) -> str:
        known = self._names.get((is_type, predicate))
        if known is None:
            known = self._names[(is_type, predicate)] = self._derive(is_type, predicate)
        name, prefix, namespace = known
        if prefix is not None:
            self.used[prefix] = namespace
        return name

    def _derive(self, is_type: bool, predicate: str) -> tuple[str, str | None, str]:
        if not is_type and predicate == _RDFS_LABEL:
            return LABEL_KEY, None, ""
        namespace, local = split_iri(predicate)
        if namespace == DEFAULT_NAMESPACE and _NEAT_LOCAL.fullmatch(local):
            name = local.upper().replace("-", "_") if is_type else local.replace("-", "_")
            if name not in (RESERVED_TYPES if is_type else RESERVED_KEYS):
                return name, None, namespace
        prefix = self._prefix(namespace)
        return f"{prefix}__{local}", prefix, namespace

    def relationship_type(self, predicate: str) -> str:
        """The relationship type of an IRI-object fact with this predicate."""
        return self._named(True, predicate)

    def property_key(self, predicate: str) -> str:
        """The property key of a literal-object fact with this predicate (``rdfs:label`` → ``name``)."""
        return self._named(False, predicate)

    def _expand(self, name: str) -> str | None:
        prefix, _, local = name.partition("__")
        namespace = self.prefixes.get(prefix)
        return None if namespace is None else namespace + local

    def predicate_of_type(self, rel_type: str) -> str | None:
        """The predicate a relationship type names, or ``None`` when it is not a fact's type (or its prefix
        is unknown to this table)."""
        if "__" in rel_type:
            return self._expand(rel_type)
        if rel_type in RESERVED_TYPES or not _NEAT_TYPE.fullmatch(rel_type):
            return None
        return DEFAULT_NAMESPACE + rel_type.lower().replace("_", "-")

    def predicate_of_key(self, key: str) -> str | None:
        """The predicate a property key names, or ``None`` when it holds no fact (structure, a sidecar)."""
        if key == LABEL_KEY:
            return str(RDFS.label)
        if not is_fact_key(key):
            return None
        if "__" in key:
            return self._expand(key)
        return DEFAULT_NAMESPACE + key.replace("_", "-")


def is_fact_key(key: str) -> bool:
    """Whether a property key holds knowledge-graph facts (``name`` included), not structure or tags."""
    if key == LABEL_KEY:
        return True
    if key.startswith(SIDECAR) or key in RESERVED_KEYS:
        return False
    if "__" in key:
        return bool(_PREFIX.fullmatch(key.partition("__")[0]))
    return bool(_NEAT_KEY.fullmatch(key))


def fact_keys(props: Mapping[str, Any]) -> list[str]:
    """The keys of ``props`` that hold facts, in a stable order."""
    return sorted(k for k in props if is_fact_key(k))


def sidecar(key: str) -> str:
    """The key of the property holding the tags of ``key``'s values."""
    return SIDECAR + key


# ------------------------------------------------------------------------------------------ values
_INT64 = 2**63


_XSD_INTEGER, _XSD_DOUBLE, _XSD_BOOLEAN = str(XSD.integer), str(XSD.double), str(XSD.boolean)
_XSD_DATETIME, _XSD_DATE = str(XSD.dateTime), str(XSD.date)


def _native(text: str, datatype: str) -> Any | None:
    """The native value of a typed literal in canonical form, else ``None`` (kept as text and a tag)."""
    try:
        if datatype == _XSD_INTEGER:
            number = int(text)
            return number if str(number) == text and -_INT64 <= number < _INT64 else None
        if datatype == _XSD_DOUBLE:
            real = float(text)
            return real if math.isfinite(real) and repr(real) == text else None
        if datatype == _XSD_BOOLEAN:
            return {"true": True, "false": False}.get(text)
        if datatype == _XSD_DATETIME:
            moment = parse_iso(text)
            return moment if moment.tzinfo is not None and iso_z(moment) == text else None
        if datatype == _XSD_DATE:
            day = date.fromisoformat(text)
            return day if day.isoformat() == text else None
    except ValueError:
        return None
    return None


def stored_value(lexical: str, lang: str | None, datatype: str | None) -> tuple[Any, str]:
    """``(value, tag)``: how a literal, given as its lexical form, language and datatype IRI, is stored as a
    property value (see the module docstring). The import's fast path reads literals as text and calls this
    without building an rdflib ``Literal``; :func:`stored_literal` is the same for one."""
    if lang:
        return lexical, "@" + lang
    if datatype is None:
        return lexical, ""
    value = _native(lexical, datatype)
    if value is not None:
        return value, ""
    return lexical, "^^" + datatype


def stored_literal(literal: Literal) -> tuple[Any, str]:
    """``(value, tag)``: how a literal is stored as a property value (see the module docstring)."""
    datatype = literal.datatype
    return stored_value(str(literal), literal.language, str(datatype) if datatype is not None else None)


def literal_of(value: Any, tag: str = "") -> Literal:
    """The literal a stored ``(value, tag)`` is: the inverse of :func:`stored_literal`."""
    if tag.startswith("@"):
        return Literal(str(value), lang=tag[1:])
    if tag.startswith("^^"):
        return Literal(str(value), datatype=URIRef(tag[2:]), normalize=False)
    if tag:
        raise MappingError(f"unknown literal tag {tag!r}")
    if isinstance(value, str):
        return Literal(value)
    if isinstance(value, bool):
        return Literal("true" if value else "false", datatype=XSD.boolean, normalize=False)
    if isinstance(value, int):
        return Literal(str(value), datatype=XSD.integer, normalize=False)
    if isinstance(value, float):
        return Literal(repr(value), datatype=XSD.double, normalize=False)
    if isinstance(value, datetime):
        return Literal(iso_z(value), datatype=XSD.dateTime, normalize=False)
    if isinstance(value, date):
        return Literal(value.isoformat(), datatype=XSD.date, normalize=False)
    raise MappingError(f"a stored value of type {type(value).__name__} is no literal")


def value_kind(value: Any) -> str:
    """The Neo4j type a value is stored as; the values of one key must share it (a list is one type)."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, datetime):
        return "datetime"
    return {str: "string", int: "integer", float: "float", date: "date"}.get(type(value), type(value).__name__)


def stored_values(value: Any, tags: Any) -> list[tuple[Any, str]]:
    """A property's ``(value, tag)`` pairs as read back (a scalar is one value; no sidecar means no tags)."""
    values = value if isinstance(value, list) else [value]
    marks = tags if isinstance(tags, list) else [""] * len(values)
    if len(marks) != len(values):
        raise MappingError(f"{len(values)} values but {len(marks)} tags")
    return list(zip(values, (m or "" for m in marks), strict=True))
