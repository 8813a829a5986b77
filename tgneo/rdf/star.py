"""RDF-star in and out: quoted triples in N-Quads, N-Triples, TriG, Turtle and JSON-LD (in memory).

TrustGraph's provenance points at knowledge-graph edges with quoted triples
(``<edge-selection> tg:edge << <s> <p> "o" >> <urn:graph:retrieval>``), but rdflib 7 neither parses
``<< … >>`` nor has a term for it. This facade picks the reader of each format (each lives in a module of its
own) and writes with the one writer, :mod:`tgneo.rdf.writer`:

* :mod:`tgneo.rdf.ntriples` — how a term is spelled, checked and escaped; a statement's id;
* :mod:`tgneo.rdf.lines` — N-Quads-star and N-Triples-star, read by tgneo itself;
* :mod:`tgneo.rdf.turtle` — Turtle-star and TriG-star, read by rdflib behind placeholders
  (:mod:`tgneo.rdf.placeholders`);
* :mod:`tgneo.rdf.jsonld` — JSON-LD-star, quoted triples as embedded nodes;
* :mod:`tgneo.rdf.isomorphism` — comparing datasets up to blank-node renaming.

Blank-node labels are kept as written (``_:b1`` parses to ``BNode("b1")``) wherever the syntax has
labels, so a document's labels survive a round trip; they are still document-scoped, and a loader
merging several documents must rename them. Graph names are IRIs (``Quad.g``); a blank-node graph
name is refused rather than silently turned into something that looks like an IRI. The streamed
reader and writer for files of any size are :mod:`tgneo.rdf.reader` and :mod:`tgneo.rdf.writer`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from tgneo.errors import RDFSyntaxError, UnsupportedFormat
from tgneo.rdf.formats import Format, get_format
from tgneo.rdf.isomorphism import isomorphic
from tgneo.rdf.jsonld import read_jsonld
from tgneo.rdf.lines import read_lines
from tgneo.rdf.ntriples import check_quad, decode_text, n3
from tgneo.rdf.terms import DEFAULT_GRAPH, Quad
from tgneo.rdf.turtle import read_turtle
from tgneo.rdf.writer import write

__all__ = ["RDFSyntaxError", "isomorphic", "n3", "parse", "serialize"]


def parse(data: str | bytes, format: str | Format, *, base: str | None = None) -> list[Quad]:
    """Read an RDF(-star) document into quads; the default graph is ``g == ""``.

    Args:
        data: the document, as text or UTF-8 bytes.
        format: a name, alias, media type or extension that ``formats.get_format`` knows.
        base: the IRI that relative IRIs resolve against (Turtle, TriG, JSON-LD). Without it a
            relative IRI is an error rather than a guess (rdflib would resolve it against the
            server's working directory).

    Returns:
        The distinct quads: in document order for N-Quads and N-Triples, in canonical N-Quads order
        for the formats rdflib reads.

    Raises:
        UnsupportedFormat: ``format`` is not in the table.
        RDFSyntaxError: the text does not parse; the message says where and why.
        MappingError: the text parses but cannot be quads (a blank-node graph name, a quoted triple
            as predicate, a relative IRI without a base, a remote JSON-LD context).
    """
    fmt = format if isinstance(format, Format) else get_format(format)
    text = decode_text(data, fmt.name)
    return _READERS[fmt.name](text, fmt, base)


def serialize(quads: Iterable[Quad], format: str | Format) -> str:
    """Write quads in ``format`` as text; quoted triples are written in that format's RDF-star syntax.

    The text is what the one writer, :func:`tgneo.rdf.writer.write` (what ``tgneo export`` streams), writes
    for these quads, gathered into a string for small, in-memory use (fixtures, tests).

    N-Quads and N-Triples are canonical (one statement per line, escapes as RDF canonical N-Triples,
    lines sorted by code point), so equal datasets with equal blank-node labels give equal text.

    Raises:
        UnsupportedFormat: ``format`` is not in the table, or it has no named graphs (Turtle,
            N-Triples) and some quads are in one; the message names those graphs.
        MappingError: a quad holds something that is not an RDF term in its position.
    """
    fmt = format if isinstance(format, Format) else get_format(format)
    rows = list(dict.fromkeys(quads))
    for quad in rows:
        check_quad(quad)
    if not fmt.named_graphs:
        named = sorted({q.g for q in rows if q.g != DEFAULT_GRAPH})
        if named:
            shown = ", ".join(f"<{g}>" for g in named)
            raise UnsupportedFormat(
                f"{fmt.name} has no named graphs, but quads are in {shown}; "
                "merge the graphs into the default graph first, or write nquads, trig or json-ld"
            )
    parts: list[str] = []
    write(rows, fmt, parts.append)
    return "".join(parts)


_Reader = Callable[[str, Format, str | None], list[Quad]]

_READERS: dict[str, _Reader] = {
    "nquads": read_lines,
    "nt": read_lines,
    "trig": read_turtle,
    "turtle": read_turtle,
    "json-ld": read_jsonld,
}
