"""N-Triples term syntax: how one RDF term is spelled, checked and escaped, and a statement's identity.

Every writer (N-Quads, Turtle, JSON-LD, the canonical lines that ids are hashed from) spells terms
through :func:`n3`, and every reader checks IRIs and blank-node labels with the patterns here, so a
term tgneo writes is a term it reads back. :func:`edge_id` hashes a statement's canonical line: the
one key on which a selected edge, a subgraph's contents and the stored ``:Statement`` meet.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable

from rdflib.term import BNode, Literal, URIRef

from tgneo.errors import InvalidEntity, MappingError, RDFSyntaxError
from tgneo.rdf.terms import DEFAULT_GRAPH, Object, Quad, QuotedTriple, Subject

_PN_CHARS_BASE = (
    "A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u02ff\u0370-\u037d\u037f-\u1fff\u200c-\u200d"
    "\u2070-\u218f\u2c00-\u2fef\u3001-\ud7ff\uf900-\ufdcf\ufdf0-\ufffd\U00010000-\U000effff"
)
_PN_CHARS_U = _PN_CHARS_BASE + "_"
_PN_CHARS = _PN_CHARS_U + "\\-0-9\u00b7\u0300-\u036f\u203f-\u2040"
BNODE_LABEL = re.compile(f"_:[{_PN_CHARS_U}0-9](?:[{_PN_CHARS}.]*[{_PN_CHARS}])?")
LANGTAG = re.compile(r"@([a-zA-Z]+(?:-[a-zA-Z0-9]+)*)")
SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")
IRI_BAD = r'\x00-\x20<>"{}|^`\\'
"""Characters an IRI may not hold (RDF 1.1 N-Triples §2.3), as a character-class body."""
IRI_FORBIDDEN = re.compile(f"[{IRI_BAD}]")
_LITERAL_SPECIAL = re.compile(r'[\x00-\x1f\x7f"\\]')
_LITERAL_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}
UCHAR = re.compile(r"\\(?:u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8}))")
STRING_CHUNK = re.compile(r'[^"\\\r]*')
ECHAR = {"t": "\t", "b": "\b", "n": "\n", "r": "\r", "f": "\f", '"': '"', "'": "'", "\\": "\\"}


def check_iri(iri: str) -> None:
    """Refuse an IRI holding a character no IRI may hold (a space, ``<``, ``>``, …), however it got in.

    Readers refuse such characters raw and escaped alike, so writers refuse them too: what tgneo
    writes, it reads back.
    """
    bad = IRI_FORBIDDEN.search(iri)
    if bad is not None:
        raise MappingError(f"<{iri[:80]}> holds U+{ord(bad.group()):04X}, which no IRI may hold")


def escape_iri(iri: str) -> str:
    """An IRI with the characters N-Triples forbids inside ``<…>`` written as ``\\uXXXX``."""
    if not IRI_FORBIDDEN.search(iri):
        return iri
    return IRI_FORBIDDEN.sub(lambda m: f"\\u{ord(m.group()):04X}", iri)


def _escape_literal(lexical: str) -> str:
    """Canonical N-Triples escaping: ``\\" \\\\ \\n \\r \\t \\b \\f`` by name, other controls as ``\\uXXXX``."""
    if not _LITERAL_SPECIAL.search(lexical):
        return lexical
    return _LITERAL_SPECIAL.sub(
        lambda m: _LITERAL_ESCAPES.get(m.group()) or f"\\u{ord(m.group()):04X}",
        lexical,
    )


def n3(term: Subject | Object) -> str:
    """A term in N-Triples(-star) syntax: ``<iri>``, ``_:label``, ``"lit"@en``, ``<< s p o >>``."""
    if isinstance(term, QuotedTriple):
        return f"<< {n3(term.s)} {n3(term.p)} {n3(term.o)} >>"
    if isinstance(term, URIRef):
        return spell_node("iri", str(term))
    if isinstance(term, BNode):
        return spell_node("bnode", f"_:{term}")
    if isinstance(term, Literal):
        return literal_n3(term)
    raise MappingError(f"{term!r} is not an RDF term")


def spell_node(kind: str, key: str) -> str:
    """A node in N-Triples syntax from its stored key (``graphmodel.terms.term_key``): an IRI (``kind`` ``iri``) or
    ``_:label`` (``bnode``). What :func:`n3` writes for a ``URIRef`` or ``BNode``, for callers holding text."""
    if kind == "iri":
        return f"<{escape_iri(key)}>"
    if not BNODE_LABEL.fullmatch(key):
        raise MappingError(f"blank node {key[2:]!r} has no valid N-Triples label")
    return key


def literal_n3(term: Literal, iri: Callable[[str], str] | None = None) -> str:
    """A literal in N-Triples/Turtle syntax; ``iri`` spells its datatype (``<…>`` by default, or a prefixed name)."""
    lexical = f'"{_escape_literal(str(term))}"'
    if term.language:
        return f"{lexical}@{term.language}"
    if term.datatype is not None:
        return f"{lexical}^^{iri(str(term.datatype)) if iri else f'<{escape_iri(str(term.datatype))}>'}"
    return lexical


def decode_text(data: str | bytes, syntax: str) -> str:
    """UTF-8 text without a byte-order mark; undecodable bytes are a syntax error on their line."""
    if isinstance(data, str):
        return data.removeprefix("\ufeff")
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise RDFSyntaxError(syntax, line, f"not UTF-8 ({e.reason} at byte {e.start})") from e


def check_quad(quad: Quad) -> None:
    """Refuse what no RDF syntax can write: a literal subject, a non-IRI predicate, a non-string graph."""
    if not isinstance(quad.s, URIRef | BNode | QuotedTriple):
        raise MappingError(f"{quad.s!r} cannot be a subject")
    if not isinstance(quad.p, URIRef):
        raise MappingError(f"{quad.p!r} cannot be a predicate")
    if not isinstance(quad.o, URIRef | BNode | Literal | QuotedTriple):
        raise MappingError(f"{quad.o!r} is not an RDF term")
    if not isinstance(quad.g, str):
        raise MappingError(f"graph name {quad.g!r} must be an IRI string ('' for the default graph)")
    for iri in (quad.s, quad.p, quad.o, URIRef(quad.g)):
        if isinstance(iri, URIRef):
            check_iri(iri)
    for term in (quad.s, quad.o):
        if isinstance(term, QuotedTriple):
            check_quad(Quad(term.s, term.p, term.o))


def nquads_line(quad: Quad) -> str:
    """One canonical N-Quads(-star) statement, newline included."""
    graph = f" <{escape_iri(quad.g)}>" if quad.g != DEFAULT_GRAPH else ""
    return f"{n3(quad.s)} {n3(quad.p)} {n3(quad.o)}{graph} .\n"


def canonical_order(quads: Iterable[Quad]) -> list[Quad]:
    """Quads sorted as their canonical N-Quads lines sort, for deterministic output."""
    return sorted(quads, key=nquads_line)


_POSITIONS = {"s": "subject", "p": "predicate", "o": "object"}


def canonical_term(term: object, position: str) -> str:
    """One term as :func:`edge_id` spells it, in ``position`` (``s``, ``p`` or ``o``): canonical
    N-Triples(-star), rendered by :func:`n3` (the one writer), language tags in lower case."""
    if isinstance(term, QuotedTriple) and position != "p":
        return f"<< {canonical_term(term.s, 's')} {canonical_term(term.p, 'p')} {canonical_term(term.o, 'o')} >>"
    if isinstance(term, URIRef) or (isinstance(term, BNode) and position != "p"):
        return n3(term)
    if isinstance(term, Literal) and position == "o":
        if term.language:  # language tags compare case-insensitively (RDF 1.1)
            term = Literal(str(term), lang=term.language.lower())
        return n3(term)
    raise InvalidEntity(f"edge_id: {type(term).__name__} {term!r} cannot be the {_POSITIONS[position]} of a statement")


def edge_id(s: Subject, p: URIRef, o: Object) -> str:
    """The stable id of the statement ``(s, p, o)``: sha256 hex of its canonical N-Triples line.

    The same statement always gets the same id, whoever builds it and in whatever process, so the
    edge a Focus selects (``tg:edge << s p o >>``), the edge a Subgraph contains and the stored
    ``:Statement`` node meet on one key. Terms keep their kind: an IRI and a literal with the same
    text differ, and so do literals that differ only in datatype or language (language tags are
    compared case-insensitively, as RDF and rdflib do). ``"x"`` and ``"x"^^xsd:string`` are kept
    apart, as rdflib keeps them, so an import → export round trip is exact.

    Args:
        s: ``URIRef``, ``BNode`` or ``QuotedTriple``.
        p: ``URIRef``.
        o: ``URIRef``, ``BNode``, ``Literal`` or ``QuotedTriple``.

    Returns:
        64 lowercase hex digits.

    Raises:
        InvalidEntity: a term of a kind RDF does not allow in that position (e.g. a plain ``str``).
    """
    return edge_id_of(canonical_term(s, "s"), canonical_term(p, "p"), canonical_term(o, "o"))


def edge_id_of(s: str, p: str, o: str) -> str:
    """:func:`edge_id` from its three terms already spelled by :func:`canonical_term` (callers that
    meet the same IRIs on many lines spell each once)."""
    return hashlib.sha256(f"{s} {p} {o} .".encode()).hexdigest()
