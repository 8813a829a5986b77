"""neomodel OGM classes for every tgneo node label, derived from the mapping table, for navigating traces.

neomodel is the extra ``tgneo[neomodel]``; without it, importing this module says how to install it.

Why this module exists: Python users want to walk a trace as objects
(``focus.selected_edges.all()``, ``selection.edge.single().s``) rather than write Cypher. The recorder's
hot path stays batched Cypher (``tgneo.store`` / ``cypher/record_batch.cypher``: one statement per step,
write-before-emit); neomodel here is for *reading and navigating*. Nothing in tgneo writes through
these classes, and neither should you: a node saved through neomodel would bypass the mapping
compiler, the isolation keys and the parent checks.

Why nothing is hand-written: every class, property and relationship is generated from
:mod:`tgneo.mapping` (``CLASSES``, ``PROPERTIES``, ``RELATIONSHIPS``) and :class:`tgneo.vocab.Label`, so a
row added to the table appears here with no second schema to keep in step.

* One class per :class:`~tgneo.vocab.Label`, named and labelled by its value: ``TgResource``, ``TgStatement``,
  ``TgExplain``, ``TgSource``, ``TgContent``, ``Tgneo`` and one per ``ClassMap`` (``Question``,
  ``GraphRagQuestion``, ``Focus``, ``EdgeSelection``, ``TgSubgraph``, ``TgDocument``, …). Each has exactly its
  own label (``Question.nodes`` matches ``(:Question)``), because they all derive from an abstract base.
* Resource-like classes carry ``workspace``, ``collection``, ``uri``, ``kind``, ``graph``, every mapped
  property (``query``, ``startedAtTime``, ``score``, ``concept`` …, typed from the table) and every mapped
  relationship under its ``RelMap.attr`` (``derived_from``, ``selected_edges``, ``edge``, ``contains``,
  ``documents`` …; a name neomodel reserves gets a trailing underscore, see :func:`attribute_name`),
  plus the reverse navigations of :data:`REVERSE` (``derived_by``, ``generated``, ``subject_of``,
  ``object_of``), and ``text``/``contentType``, which a ``:TgContent`` node (a librarian document) sets.
  The knowledge graph's own facts are typed relationships and properties no table declares (their names
  come from the data, :mod:`tgneo.native`); read them with Cypher or ``node.__properties__``.
* ``TgStatement`` carries ``statement_id`` (the stored ``id``; neomodel reserves ``id``), ``s``, ``s_kind``,
  ``p``, ``o``, ``o_kind``, ``o_datatype``, ``o_lang``, ``key``, ``o_tag``, ``asserted_in`` and navigates to
  ``subject``, ``object`` (TgResources), ``subject_statement`` / ``object_statement`` (nested quoted
  triples), ``subgraphs`` (the TgSubgraphs that ``CONTAINS`` it) and ``selected_by`` (the EdgeSelections
  whose ``EDGE`` it is).

Multi-label nodes: a stored entity has several labels (``:Tgneo:TgResource:TgExplain:ProvEntity:Question:
GraphRagQuestion``). neomodel 7 resolves a returned node to a class by its label set: an exact match of
a class's own labels, else a class whose labels are a subset and whose ``__optional_labels__`` cover the
rest. Only ``TgResource`` declares every other label optional (all but ``TgStatement``), and the classes of
nodes that are no resource (``TgStatement``, ``TgImport``, …) declare only ``Tgneo``, so that resolution is
never ambiguous (with several candidates neomodel would pick by ``frozenset`` iteration order, which
changes between processes). ``TgResource.inflate`` then returns an instance of a class combining *every*
tgneo class the node is labelled with: ``isinstance(q, Question)``, ``isinstance(q, GraphRagQuestion)`` and
``isinstance(q, TgResource)`` all hold, and ``type(q).__name__`` is the label set, most specific first
(``"GraphRagQuestion_Question_ProvEntity_TgExplain_TgResource_Tgneo"``). A node that also carries a label
outside tgneo's vocabulary cannot be resolved by neomodel (``NodeClassNotDefined``).

Values: properties are stored natively (integers, floats, ``DateTime``, lists), but the graph model keeps
a literal as its exact text when it is not canonical (``tgneo.graphmodel.terms.native_value``: ``"007"`` for an
integer). The lenient properties here return such a string as it is instead of failing the whole node.

Example:
    >>> from tgneo.ogm import connect, Focus  # doctest: +SKIP
    >>> connect(store)  # doctest: +SKIP
    >>> focus = Focus.within("default", "c1").first()  # doctest: +SKIP
    >>> [(sel.score, sel.edge.single().s) for sel in focus.selected_edges.all()]  # doctest: +SKIP
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import TYPE_CHECKING, Any, ClassVar, Self

import neo4j
import neo4j.time
from neo4j.api import BookmarkManager
from neo4j.graph import Node

try:
    from neomodel import (
        ArrayProperty,
        DateTimeNeo4jFormatProperty,
        FloatProperty,
        IntegerProperty,
        NodeSet,
        RelationshipDefinition,
        RelationshipFrom,
        RelationshipTo,
        StringProperty,
        StructuredNode,
        db,
    )
    from neomodel.properties import Property
    from neomodel.sync_.node import NodeMeta
except ModuleNotFoundError as missing:
    # neomodel is an extra: it holds the driver at ~=6.1.0, which would keep a user's neo4j-graphrag back, so a
    # plain `pip install tgneo` leaves it out. Still a ModuleNotFoundError (callers catching ImportError keep
    # working), with the one line that fixes it.
    if missing.name is None or missing.name.partition(".")[0] != "neomodel":
        raise
    raise ModuleNotFoundError(
        "tgneo.ogm needs neomodel, which is an extra: pip install 'tgneo[neomodel]'", name=missing.name
    ) from missing

from tgneo.mapping import CLASSES, PROPERTIES, RELATIONSHIPS, SPECIFICITY, PropMap
from tgneo.store import Store
from tgneo.store.values import native
from tgneo.vocab import Label, Rel

__all__ = [
    "NODE_CLASSES",
    "REVERSE",
    "LenientArrayProperty",
    "LenientDateTimeProperty",
    "LenientFloatProperty",
    "LenientIntegerProperty",
    "TgNode",
    "attribute_name",
    "class_for_labels",
    "connect",
    "disconnect",
    "reading",
    *(label.value for label in Label),
]


# ------------------------------------------------------------------------------------------ properties
class LenientIntegerProperty(IntegerProperty):
    """An integer property that returns a stored non-canonical string (``"007"``) unchanged."""

    def inflate(self, value: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(value, str):
            return value
        return super().inflate(value, *args, **kwargs)


class LenientFloatProperty(FloatProperty):
    """A float property that returns a stored non-canonical string (``"1"``, ``"NaN"``) unchanged."""

    def inflate(self, value: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(value, str):
            return value
        return super().inflate(value, *args, **kwargs)


class LenientDateTimeProperty(DateTimeNeo4jFormatProperty):
    """A native Neo4j ``DateTime`` inflated to a tz-aware ``datetime``; a stored string stays a string.

    The recorder stores ``prov:startedAtTime`` as a zoned Neo4j ``DateTime`` (see
    ``graphmodel.terms.native_value``), which neomodel's epoch-float ``DateTimeProperty`` cannot read.
    """

    def inflate(self, value: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(value, str | datetime):
            return value
        if isinstance(value, neo4j.time.DateTime):
            return native(value)
        return super().inflate(value, *args, **kwargs)


class LenientArrayProperty(ArrayProperty):
    """A list property whose items inflate leniently; a lone stored scalar becomes a one-item list.

    neomodel's ``ArrayProperty`` would turn a stored scalar string into a list of its characters.
    """

    def inflate(self, value: Any, *args: Any, **kwargs: Any) -> Any:
        if not isinstance(value, list | tuple):
            value = [value]
        return super().inflate(value, *args, **kwargs)


_SCALAR: dict[str, type[Property[Any]]] = {
    "string": StringProperty,
    "integer": LenientIntegerProperty,
    "float": LenientFloatProperty,
    "datetime": LenientDateTimeProperty,
}


def _property(row: PropMap) -> Property[Any]:
    """A fresh neomodel property for one mapping row (fresh, because neomodel sets its owner)."""
    base = _SCALAR[row.datatype]
    db_property = row.prop if attribute_name(row.prop) != row.prop else None
    return LenientArrayProperty(base(), db_property=db_property) if row.multi else base(db_property=db_property)


# ------------------------------------------------------------------------------------------ relationships
REVERSE: tuple[tuple[str, Rel, Label, Label], ...] = (
    ("derived_by", Rel.WAS_DERIVED_FROM, Label.RESOURCE, Label.RESOURCE),
    ("generated", Rel.WAS_GENERATED_BY, Label.RESOURCE, Label.RESOURCE),
    ("subject_of", Rel.SUBJECT, Label.RESOURCE, Label.STATEMENT),
    ("object_of", Rel.OBJECT, Label.RESOURCE, Label.STATEMENT),
    ("subgraphs", Rel.CONTAINS, Label.STATEMENT, Label.SUBGRAPH),
    ("selected_by", Rel.EDGE, Label.STATEMENT, Label.EDGE_SELECTION),
)
"""Incoming navigations ``(attribute, relationship type, on nodes labelled, from nodes labelled)``.

The mapping table names only the RDF direction (child ``wasDerivedFrom`` parent); these are the walks a
reader takes the other way, e.g. from a knowledge-graph edge back to the chunk it was extracted from
(``statement.subgraphs``) or from a step to the steps derived from it (``step.derived_by``).
"""

_STATEMENT_PARTS: tuple[tuple[str, Rel, Label], ...] = (
    ("subject", Rel.SUBJECT, Label.RESOURCE),
    ("object", Rel.OBJECT, Label.RESOURCE),
    ("subject_statement", Rel.SUBJECT, Label.STATEMENT),
    ("object_statement", Rel.OBJECT, Label.STATEMENT),
)
# neomodel matches a traversal's target by one label, and a quoted triple's subject or object may be
# another :TgStatement rather than a :TgResource; hence a second attribute for the nested case.


def _target(label: Label) -> str:
    """A module-qualified class name: neomodel resolves it lazily, so classes may refer to each other."""
    return f"{__name__}.{label.value}"


def _outgoing() -> dict[str, RelationshipDefinition]:
    """Every mapped relationship under its ``attr``, to a Statement or to any Resource."""
    return {
        attribute_name(row.attr): RelationshipTo(
            _target(Label.STATEMENT if row.target == "statement" else Label.RESOURCE), row.rel.value
        )
        for row in RELATIONSHIPS
    }


def _incoming(on: Label) -> dict[str, RelationshipDefinition]:
    base = Label.STATEMENT if on == Label.STATEMENT else Label.RESOURCE
    return {name: RelationshipFrom(_target(source), rel.value) for name, rel, at, source in REVERSE if at == base}


# ------------------------------------------------------------------------------------------ classes
class TgNode(StructuredNode):
    """Abstract base of every tgneo node class: the isolation keys, multi-label inflation, a short repr.

    Abstract (``__abstract_node__``) so that it adds no label: ``Question.nodes`` matches ``(:Question)``,
    not ``(:TgNode:Question)``.
    """

    __abstract_node__ = True

    tg_labels: ClassVar[frozenset[Label]] = frozenset()
    """The tgneo labels instances of this class carry (one for a generated class, several for a combination)."""

    @classmethod
    def within(cls, workspace: str, collection: str) -> NodeSet[Self]:
        """This class's nodes in one workspace and collection: every lookup should filter on both (isolation)."""
        return cls.nodes.filter(workspace=workspace, collection=collection)

    @classmethod
    def inflate(cls, graph_entity: Any) -> Any:
        """Inflate a driver node into the class combining all of its tgneo labels (see the module docstring)."""
        if isinstance(graph_entity, Node):
            target = class_for_labels(graph_entity.labels)
            if target is not None and issubclass(target, TgNode) and target is not cls:
                return super(TgNode, target).inflate(graph_entity)
        return super().inflate(graph_entity)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self._key()}>"

    def __str__(self) -> str:
        return repr({k: v for k, v in self.__properties__.items() if v is not None})

    if TYPE_CHECKING:
        # The generated properties and relationships are not visible to a type checker; let
        # ``question.query`` and ``focus.selected_edges`` type-check as ``Any`` (no runtime effect).
        def __getattr__(self, name: str) -> Any: ...

    def _key(self) -> str:
        return str(getattr(self, "uri", None))


def _node_namespace(label: Label, doc: str) -> dict[str, Any]:
    """What every concrete class has: its label and the isolation keys (fresh properties per class)."""
    return {
        "__module__": __name__,
        "__label__": label.value,
        "__doc__": doc,
        "tg_labels": frozenset({label}),
        "workspace": StringProperty(),
        "collection": StringProperty(),
        "graph": StringProperty(),
    }


_RESERVED = frozenset(dir(NodeSet)) | frozenset(vars(NodeSet(TgNode))) | frozenset(dir(StructuredNode))


def attribute_name(name: str) -> str:
    """The Python attribute for a mapped property or relationship: ``name``, or ``name_`` when neomodel reserves it.

    A relationship becomes a traversal *on the NodeSet* too, so it may not shadow a NodeSet attribute
    (neomodel refuses ``source``, dc:source's ``attr``: it is ``source_`` here); a property or
    relationship may not shadow a node method either. A renamed property still reads the stored name.
    """
    return f"{name}_" if name in _RESERVED else name


def _resource_namespace(label: Label, doc: str) -> dict[str, Any]:
    namespace = _node_namespace(label, doc)
    namespace.update(
        {
            "uri": StringProperty(),
            "kind": StringProperty(),
            # A Resource that is also :Content (a librarian document) holds its text; None elsewhere.
            "text": StringProperty(),
            "contentType": StringProperty(),
        }
    )
    namespace.update({attribute_name(row.prop): _property(row) for row in PROPERTIES})
    namespace.update(_outgoing())
    namespace.update(_incoming(label))
    return namespace


def _make(name: str, bases: tuple[type, ...], namespace: dict[str, Any]) -> type[TgNode]:
    cls: type[TgNode] = NodeMeta(name, bases, namespace)
    return cls


def _build() -> dict[Label, type[TgNode]]:
    classes: dict[Label, type[TgNode]] = {}
    classes[Label.BASE] = _make(Label.BASE.value, (TgNode,), _node_namespace(
        Label.BASE, "Any node tgneo wrote (every one carries ``:Tgneo``, so a shared database tells tgneo's apart)."
    ))  # fmt: skip
    for label in (Label.RESOURCE, Label.EXPLAIN, Label.SOURCE):
        doc = f"Any node labelled ``:{label.value}`` (a structural label of the graph model, docs/graph-model.md)."
        namespace = _resource_namespace(label, doc)
        if label == Label.RESOURCE:
            # The one class neomodel may resolve a resource to: every other tgneo label is optional on it.
            namespace["__optional_labels__"] = [m.value for m in Label if m not in (Label.RESOURCE, Label.STATEMENT)]
        classes[label] = _make(label.value, (TgNode,), namespace)

    content = _resource_namespace(Label.CONTENT, "A librarian text (answer, thought, observation) by its document URI.")
    classes[Label.CONTENT] = _make(Label.CONTENT.value, (TgNode,), content)

    for row in CLASSES:
        doc = f"Nodes labelled ``:{row.label.value}``, i.e. ``rdf:type <{row.iri}>``."
        classes[row.label] = _make(row.label.value, (TgNode,), _resource_namespace(row.label, doc))

    statement = _node_namespace(
        Label.STATEMENT, "A reified edge ``(s, p, o)``: one node per quoted triple per workspace and collection."
    )
    statement.update(
        {
            "__optional_labels__": [Label.BASE.value],
            "statement_id": StringProperty(db_property="id"),
            "s": StringProperty(),
            "s_kind": StringProperty(),
            "p": StringProperty(),
            "o": StringProperty(),
            "o_kind": StringProperty(),
            "o_datatype": StringProperty(),
            "o_lang": StringProperty(),
            "key": StringProperty(),
            "o_tag": StringProperty(),
            "asserted_in": LenientArrayProperty(StringProperty()),
            "_key": lambda self: f"{self.s} {self.p} {self.o}",
        }
    )
    statement.update({name: RelationshipTo(_target(to), rel.value) for name, rel, to in _STATEMENT_PARTS})
    statement.update(_incoming(Label.STATEMENT))
    classes[Label.STATEMENT] = _make(Label.STATEMENT.value, (TgNode,), statement)
    for label, doc in (
        (Label.IMPORT, "The journal of an import still being written or undone (``store.imports``)."),
        (Label.IMPORT_UNDO, "What an unfinished import changed on an older node (``store.imports``)."),
        (Label.RETENTION_POLICY, "A collection's stored retention policy (``store.retention``)."),
        (Label.PREFIX, "One row of a collection's namespace table (``tgneo.native``)."),
        (Label.STORE, "The record of the graph model the database holds (``store.model``)."),
        (Label.SPAN_TREE, "The OpenTelemetry spans of one trace id, kept until they are recorded (``tgneo.otlp``)."),
    ):
        namespace = _node_namespace(label, doc)
        namespace["__optional_labels__"] = [Label.BASE.value]
        classes[label] = _make(label.value, (TgNode,), namespace)
    return classes


NODE_CLASSES: dict[Label, type[TgNode]] = _build()
"""The generated class of every label."""
globals().update({label.value: cls for label, cls in NODE_CLASSES.items()})

_combinations: dict[frozenset[Label], type[TgNode]] = {}
_combinations_lock = threading.Lock()


def class_for_labels(labels: Iterable[str]) -> type[TgNode] | None:
    """The class for a node's labels: the generated class for one tgneo label, a combination for several.

    A combination subclasses every class the node is labelled with (most specific first), so
    ``isinstance`` answers per label. It is abstract to neomodel (it adds no label and is never chosen by
    neomodel's own resolution), built once per label set and cached. Labels outside tgneo's vocabulary
    are ignored; ``None`` when none is tgneo's.
    """
    known = frozenset(Label(v) for v in labels if v in Label._value2member_map_)
    if not known:
        return None
    if len(known) == 1:
        return NODE_CLASSES[next(iter(known))]
    with _combinations_lock:
        cls = _combinations.get(known)
        if cls is None:
            ordered = sorted(known, key=SPECIFICITY.__getitem__)
            bases = tuple(NODE_CLASSES[label] for label in ordered)
            name = "_".join(label.value for label in ordered)  # neomodel uses it as a Cypher variable
            cls = _make(name, bases, {"__module__": __name__, "__abstract_node__": True, "tg_labels": known})
            _combinations[known] = cls
        return cls


def __getattr__(name: str) -> type[TgNode]:
    """Typing hook (PEP 562): the generated classes are module globals; this only reports a wrong name."""
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# ------------------------------------------------------------------------------------------ connection
def connect(store: Store) -> None:
    """Bind neomodel to ``store``'s driver and database (for the calling thread or task).

    neomodel 7 keeps the driver process-wide but the *target database* in a context variable, and a new
    thread starts from neomodel's default (the server's home database). Call ``connect`` in every thread
    that navigates; after the first call it only sets the database, without a round trip. The store
    keeps owning its driver: :func:`disconnect` detaches neomodel without closing it.
    """
    global _chain
    db._database_name = store.database
    if db.driver is not store.driver:
        db.set_connection(driver=store.driver)  # also reads the server version once, for element ids
    _chain = store.bookmark_manager


def disconnect(store: Store | None = None) -> None:
    """Detach neomodel from the store's driver (without closing it; ``Store.close`` does that)."""
    global _chain
    if store is None or db.driver is store.driver:
        db.driver = None
        db._database_name = None
        _chain = None


_chain: BookmarkManager | None = None
"""The bookmark manager of the store :func:`connect` bound (process-wide, as neomodel's driver is)."""


@contextmanager
def reading() -> Iterator[None]:
    """Run the navigation inside it in one read transaction: read routing on a cluster, one snapshot.

    The transaction joins the connected store's bookmark manager, so it sees every write the store made
    before it even on a cluster's follower (neomodel's own ``db.read_transaction`` would start without them).
    """
    chained: dict[str, Any] = {} if _chain is None else {"bookmark_manager": _chain}
    db.begin(access_mode=neo4j.READ_ACCESS, **chained)
    try:
        yield
    except BaseException:
        db.rollback()
        raise
    db.commit()
