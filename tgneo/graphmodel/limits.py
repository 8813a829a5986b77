"""What one index key holds, so that an import checks every quad before it writes anything (pure)."""

from __future__ import annotations

from rdflib.term import BNode, URIRef

from tgneo.graphmodel.terms import (
    term_key,
)
from tgneo.rdf.terms import Object, PlainTriple, Quad, QuotedTriple, Subject

# ------------------------------------------------------------------------------------------ limits
INDEX_KEY_BYTES = 8000
"""What tgneo lets one index key hold (UTF-8 bytes of its strings). Neo4j 5's range indexes refuse a
key past about 8,100 bytes ("Property value is too large to index") — after some of a transaction
was written. The keys are ``(workspace, collection, uri)`` for a Resource and ``(workspace,
collection, s, p)`` for a Statement, so an import checks every quad against this bound before it
writes anything."""


def index_chars(workspace: str, collection: str) -> int:
    """How many characters of terms a key of this workspace and collection surely holds (for :func:`fits_index`:
    a UTF-8 character is at most 4 bytes)."""
    return (INDEX_KEY_BYTES - len(workspace.encode()) - len(collection.encode())) // 4


def fits_index(t: PlainTriple, chars: int) -> bool:
    """Whether every key of a plain triple is surely within :data:`INDEX_KEY_BYTES` (:func:`too_large`'s quick
    bound, counted on its text, ``chars`` from :func:`index_chars`; a blank node's key is 2 characters longer)."""
    return len(t.s) + 2 + len(t.p) <= chars and (t.o_kind == "literal" or len(t.o) + 2 <= chars)


def too_large(quad: Quad, workspace: str, collection: str) -> str | None:
    """The first term of ``quad`` whose stored key would exceed :data:`INDEX_KEY_BYTES`, or ``None``."""
    scope = len(workspace.encode()) + len(collection.encode())
    s, o = quad.s, quad.o
    if not isinstance(s, QuotedTriple) and not isinstance(o, QuotedTriple):
        # a UTF-8 character is at most 4 bytes, and a blank node's key 2 characters longer: most
        # quads are far below the bound, and counting characters costs no encoding
        o_chars = len(o) + 2 if isinstance(o, URIRef | BNode) else 0
        if scope + 4 * max(len(s) + 2 + len(quad.p), o_chars) <= INDEX_KEY_BYTES:
            return None
    stack: list[tuple[Subject, URIRef, Object]] = [(quad.s, quad.p, quad.o)]
    while stack:
        s, p, o = stack.pop()
        p_bytes = len(str(p).encode())
        for term in (s, o):
            if isinstance(term, QuotedTriple):
                stack.append((term.s, term.p, term.o))
            elif isinstance(term, URIRef | BNode) and scope + len(term_key(term)[1].encode()) > INDEX_KEY_BYTES:
                return term_key(term)[1]
        if scope + p_bytes > INDEX_KEY_BYTES:
            return str(p)
        if not isinstance(s, QuotedTriple) and scope + len(term_key(s)[1].encode()) + p_bytes > INDEX_KEY_BYTES:
            return term_key(s)[1]
    return None
