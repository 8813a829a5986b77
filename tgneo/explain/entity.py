"""What every entity shares: value checks, the quad builder, and the base classes of the step types.

Why dataclasses and not triples: engines report *what happened* (a grounding with these concepts,
an edge selected with this score), the recorder stores it natively in Neo4j, and only the RDF views
need triples. Each entity therefore carries plain Python values, validates them once at
construction (a malformed IRI, a negative token count or an empty query raises
:class:`~tgneo.errors.InvalidEntity` naming the field), and renders on demand, via
:meth:`Entity.triples`, **exactly** the quads TrustGraph 2.11.1's builder of the same step emits, in
the same order: plain literals (``str(n)``, ``str(score)``, ``json.dumps(arguments)``), ISO
timestamps ending in ``Z``, ``prov:wasDerivedFrom`` links child → parent, and quoted triples for
edges. That is what lets TrustGraph's unmodified CLI and SDK read tgneo's traces.

Each class *declares* what does not vary between its instances: the fields that hold its parents
(:attr:`Entity.derives_from`, from which :attr:`Entity.parents` follows, so the recorder can refuse
to write an orphan) and, for a query-time :class:`Step`, the ``rdf:type`` classes and the
``rdfs:label`` its builder opens with. The step types themselves live by session kind in
:mod:`tgneo.explain.graphrag`, :mod:`~tgneo.explain.docrag` and :mod:`~tgneo.explain.agent`; the
extraction-time entities in :mod:`tgneo.explain.extraction_time`.

Optional text and IRI fields follow TrustGraph's builders: ``None`` means absent. An empty optional
*text* (a concept, a reasoning, a tool error) is also absent, as TrustGraph drops falsy values, but
an empty *IRI* is an error, because it can only be a bug.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from datetime import UTC
from typing import Any, ClassVar

from rdflib.term import Literal, URIRef

from tgneo import uris
from tgneo.errors import InvalidEntity
from tgneo.rdf.terms import Object, Quad
from tgneo.timestamps import iso_z, now_iso_z, parse_iso
from tgneo.vocab import GRAPH_RETRIEVAL, PROV, RDF, RDFS, TG

__all__ = ["Entity", "LlmStep", "Question", "Step", "now_timestamp"]


# --------------------------------------------------------------------------------------------------
# values: timestamps, checks, quad emission


def now_timestamp() -> str:
    """The current UTC time as TrustGraph writes it: ``2025-06-01T10:15:30.123456Z``.

    TrustGraph's client sorts sessions by comparing these strings, so every timestamp must share
    this one format and time zone.
    """
    return now_iso_z()


def valid_timestamp(value: object, what: str) -> str:
    """Parse an ISO 8601 timestamp with a time zone and rewrite it in TrustGraph's UTC form."""
    if not isinstance(value, str) or not value:
        raise InvalidEntity(f"{what}: expected an ISO 8601 timestamp string, got {value!r}")
    try:
        moment = parse_iso(value)
    except ValueError:
        raise InvalidEntity(f"{what}: {value!r} is not an ISO 8601 timestamp") from None
    if moment.tzinfo is None:
        raise InvalidEntity(f"{what}: {value!r} has no time zone (write it in UTC, ending in 'Z')")
    return iso_z(moment.astimezone(UTC))


def valid_count(value: object, what: str) -> int:
    """A count, size, offset or duration: an ``int`` (not a ``bool``) that is not negative."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidEntity(f"{what}: expected a non-negative integer, got {value!r}")
    if value < 0:
        raise InvalidEntity(f"{what}: must not be negative, got {value}")
    return value


def valid_score(value: object, what: str) -> float | None:
    """A relevance score: any finite number (cross-encoder logits may be negative)."""
    if value is None:
        return None
    if not isinstance(value, int | float) or isinstance(value, bool) or not math.isfinite(value):
        raise InvalidEntity(f"{what}: expected a finite number, got {value!r}")
    return value


def valid_text(value: object, what: str) -> str:
    """A required piece of text that must say something (a query, a goal, a pattern name)."""
    if not isinstance(value, str):
        raise InvalidEntity(f"{what}: expected a string, got {type(value).__name__}")
    if not value.strip():
        raise InvalidEntity(f"{what}: must not be empty")
    return value


def valid_optional_text(value: object, what: str) -> str | None:
    """Optional text; ``""`` means absent, exactly as TrustGraph's builders skip falsy values."""
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise InvalidEntity(f"{what}: expected a string or None, got {type(value).__name__}")
    return value


def valid_optional_iri(value: object, what: str) -> str | None:
    """Optional IRI: ``None`` means absent; anything else must be a valid absolute IRI."""
    return None if value is None else uris.validate_iri(value, what)


def valid_sequence(value: object, what: str) -> tuple[Any, ...]:
    """Accept a list or tuple (JSON gives lists) as a tuple; refuse a lone string, which would split."""
    if isinstance(value, str) or not isinstance(value, list | tuple):
        raise InvalidEntity(f"{what}: expected a list or tuple, got {type(value).__name__}")
    return tuple(value)


class Quads:
    """Collects quads for one named graph, in the order they are emitted."""

    def __init__(self, graph: str) -> None:
        self.graph = graph
        self.quads: list[Quad] = []

    def about(self, subject: str) -> About:
        """Start (or continue) statements whose subject is ``subject``."""
        return About(self, URIRef(subject))


class About:
    """Statements about one subject, appended to a shared :class:`Quads`."""

    def __init__(self, out: Quads, subject: URIRef) -> None:
        self._out = out
        self.subject = subject

    def term(self, predicate: URIRef, obj: Object) -> None:
        self._out.quads.append(Quad(self.subject, predicate, obj, self._out.graph))

    def a(self, *classes: URIRef) -> None:
        for cls in classes:
            self.term(RDF.type, cls)

    def link(self, predicate: URIRef, iri: str) -> None:
        self.term(predicate, URIRef(iri))

    def text(self, predicate: URIRef, value: object) -> None:
        """A plain literal (no datatype, no language) of ``str(value)``, as TrustGraph renders all."""
        self.term(predicate, Literal(str(value)))

    def label(self, text: str) -> None:
        self.text(RDFS.label, text)


# --------------------------------------------------------------------------------------------------
# base classes


@dataclass(frozen=True, kw_only=True)
class Entity(ABC):
    """A step of a trace (or a source entity) that becomes one node and TrustGraph's triples.

    Attributes:
        kind: The registry name (``ENTITY_TYPES[kind]``), e.g. ``"grounding"``.
        graph: The named graph its quads belong to.
        derives_from: The names of the fields that hold its parents' URIs, in the order TrustGraph
            links them; each field holds one URI, ``None`` (no parent) or a tuple of URIs.
        uri: The entity's IRI (see :mod:`tgneo.uris` for TrustGraph's patterns).
    """

    kind: ClassVar[str]
    graph: ClassVar[str] = GRAPH_RETRIEVAL
    derives_from: ClassVar[tuple[str, ...]] = ()

    uri: str

    def __post_init__(self) -> None:
        if not hasattr(type(self), "kind"):
            raise TypeError(f"{type(self).__name__} is abstract; use one of ENTITY_TYPES")
        self._set("uri", uris.validate_iri(self.uri, self._what("uri")))

    @property
    def parents(self) -> tuple[str, ...]:
        """The URIs this entity is ``prov:wasDerivedFrom``; each must exist before it is written.

        They are the values of the :attr:`derives_from` fields, in that order, without ``None``.
        """
        found: list[str] = []
        for name in self.derives_from:
            value = getattr(self, name)
            if isinstance(value, tuple):
                found.extend(value)
            elif value is not None:
                found.append(value)
        return tuple(found)

    @abstractmethod
    def triples(self) -> list[Quad]:
        """Exactly the quads TrustGraph's builder for this step emits, in its order."""

    def _derived_from(self, about: About) -> None:
        """One ``prov:wasDerivedFrom`` link to each of :attr:`parents`, in order."""
        for parent in self.parents:
            about.link(PROV.wasDerivedFrom, parent)

    # -- helpers for subclasses' __post_init__

    def _what(self, name: str) -> str:
        return f"{type(self).__name__}.{name}"

    def _set(self, name: str, value: object) -> None:
        object.__setattr__(self, name, value)

    def _iri(self, name: str) -> None:
        self._set(name, uris.validate_iri(getattr(self, name), self._what(name)))

    def _optional_iri(self, name: str) -> None:
        self._set(name, valid_optional_iri(getattr(self, name), self._what(name)))

    def _iris(self, name: str) -> None:
        values = valid_sequence(getattr(self, name), self._what(name))
        self._set(name, tuple(uris.validate_iri(v, f"{self._what(name)}[{i}]") for i, v in enumerate(values)))

    def _texts(self, name: str) -> None:
        values = valid_sequence(getattr(self, name), self._what(name))
        self._set(name, tuple(valid_text(v, f"{self._what(name)}[{i}]") for i, v in enumerate(values)))

    def _instances(self, name: str, cls: type) -> None:
        """A list or tuple of ``cls`` values (edge selections, chunk selections, statements)."""
        values = valid_sequence(getattr(self, name), self._what(name))
        article = "an" if cls.__name__[0] in "AEIOU" else "a"
        for i, value in enumerate(values):
            if not isinstance(value, cls):
                raise InvalidEntity(f"{self._what(name)}[{i}]: expected {article} {cls.__name__}")
        self._set(name, values)

    def _count(self, name: str) -> None:
        valid_count(getattr(self, name), self._what(name))

    def _optional_count(self, name: str) -> None:
        if getattr(self, name) is not None:
            self._count(name)

    def _optional_text(self, name: str) -> None:
        self._set(name, valid_optional_text(getattr(self, name), self._what(name)))


@dataclass(frozen=True, kw_only=True)
class Step(Entity):
    """A query-time step, built the way TrustGraph builds each one: its types and label first.

    :meth:`triples` opens with ``rdf:type`` for each of :attr:`rdf_types` and the ``rdfs:label``,
    then adds what :meth:`_body` says about the step, then :meth:`_closing`.

    Attributes:
        rdf_types: The ``rdf:type`` classes the step opens with, in TrustGraph's order.
        rdfs_label: Its ``rdfs:label`` where every step of the type has the same one; a step whose
            label names what it holds (``"Plan with 3 steps"``) overrides :meth:`_label` instead.
    """

    rdf_types: ClassVar[tuple[URIRef, ...]]
    rdfs_label: ClassVar[str]

    def triples(self) -> list[Quad]:
        out = Quads(self.graph)
        about = out.about(self.uri)
        about.a(*self.rdf_types)
        about.label(self._label())
        self._body(out, about)
        self._closing(about)
        return out.quads

    def _label(self) -> str:
        return self.rdfs_label

    @abstractmethod
    def _body(self, out: Quads, about: About) -> None:
        """What TrustGraph's builder says after the opening: ``about`` is the step, ``out`` the graph."""

    def _closing(self, about: About) -> None:
        """What every step of the type ends with: nothing, unless it is an :class:`LlmStep`."""


@dataclass(frozen=True, kw_only=True)
class LlmStep(Step):
    """A step that may have called an LLM: TrustGraph appends its token usage and model last.

    Attributes:
        in_token: Prompt tokens, emitted as ``tg:inToken "n"`` when not ``None``.
        out_token: Completion tokens, ``tg:outToken "n"``.
        model: The model's name, ``tg:llmModel "m"``.
    """

    in_token: int | None = None
    out_token: int | None = None
    model: str | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        self._optional_count("in_token")
        self._optional_count("out_token")
        if self.model is not None:
            # TrustGraph emits the model whenever it is not None, even "", so "" cannot mean absent.
            valid_text(self.model, self._what("model"))

    def _closing(self, about: About) -> None:
        if self.in_token is not None:
            about.text(TG.inToken, self.in_token)
        if self.out_token is not None:
            about.text(TG.outToken, self.out_token)
        if self.model is not None:
            about.text(TG.llmModel, self.model)


@dataclass(frozen=True, kw_only=True)
class Question(Step):
    """The root of a trace: what was asked, and when.

    Each session kind's question declares its :attr:`~Step.rdf_types` (``prov:Entity``,
    ``tg:Question`` and its own class) and its label.

    Attributes:
        query: The question text (``tg:query``, the key ``tg-list-explain-traces`` lists by).
        timestamp: When it was asked; ISO 8601 with a time zone, stored in TrustGraph's UTC form.
        parent: For a sub-trace (a RAG call made by an agent step, a sub-agent under a
            Decomposition), the step it derives from.
    """

    derives_from = ("parent",)

    query: str
    timestamp: str = field(default_factory=now_timestamp)
    parent: str | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        valid_text(self.query, self._what("query"))
        self._set("timestamp", valid_timestamp(self.timestamp, self._what("timestamp")))
        self._optional_iri("parent")

    def _body(self, out: Quads, about: About) -> None:
        about.text(PROV.startedAtTime, self.timestamp)
        about.text(TG.query, self.query)
        self._derived_from(about)
