"""THE table of RDF formats tgneo reads and writes: one row per format, nothing spelled twice.

The CLI's ``--format`` choices, HTTP content negotiation, file-extension guessing and the readers and
writers in ``rdf/star.py`` all look formats up here, so adding a format is adding a
row. A row says what a format can carry: N-Triples and Turtle have no named graphs; all five carry
quoted triples, through ``star.py`` (rdflib 7 has no RDF-star, so ``rdflib_name`` alone is not enough).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import PurePath
from types import MappingProxyType

from tgneo.errors import UnsupportedFormat

__all__ = ["FORMATS", "Format", "format_names", "get_format", "guess_format"]


@dataclass(frozen=True, slots=True)
class Format:
    """One RDF serialization: its names on the wire, on disk and in rdflib, and what it can carry."""

    name: str
    """tgneo's name, as the CLI's ``--format`` takes it."""
    media_types: tuple[str, ...]
    """IANA media types; the first is the one tgneo sends as ``Content-Type``."""
    extensions: tuple[str, ...]
    """File extensions with their dot; the first is the one tgneo writes."""
    rdflib_name: str
    """rdflib's plugin name for the same syntax without RDF-star."""
    named_graphs: bool
    """Whether the syntax can name graphs (otherwise everything is the default graph)."""
    quoted_triples: bool
    """Whether tgneo reads and writes ``<< s p o >>`` (or its equivalent) in this syntax."""
    aliases: tuple[str, ...] = ()
    """Other names people use for it (``ttl``, ``n-quads``, ``jsonld``)."""

    @property
    def media_type(self) -> str:
        """The media type tgneo answers with."""
        return self.media_types[0]

    @property
    def extension(self) -> str:
        """The extension tgneo writes, with its dot."""
        return self.extensions[0]


_ROWS = (
    Format("nquads", ("application/n-quads",), (".nq",), "nquads", True, True, ("n-quads",)),
    Format("nt", ("application/n-triples",), (".nt",), "nt", False, True, ("ntriples", "n-triples")),
    Format("trig", ("application/trig",), (".trig",), "trig", True, True),
    Format("turtle", ("text/turtle", "application/x-turtle"), (".ttl",), "turtle", False, True, ("ttl",)),
    Format("json-ld", ("application/ld+json",), (".jsonld", ".json"), "json-ld", True, True, ("jsonld",)),
)

FORMATS: Mapping[str, Format] = MappingProxyType({row.name: row for row in _ROWS})
"""Every format by its tgneo name, in the order the CLI lists them."""


def _index() -> dict[str, Format]:
    """Every spelling that may name a format (name, alias, media type, extension with or without dot)."""
    index: dict[str, Format] = {}
    for row in _ROWS:
        keys = (row.name, *row.aliases, *row.media_types, *row.extensions, *(e.lstrip(".") for e in row.extensions))
        for key in keys:
            index.setdefault(key.lower(), row)
    return index


_BY_KEY = _index()
_BY_EXTENSION = {ext: row for row in _ROWS for ext in row.extensions}


def format_names() -> tuple[str, ...]:
    """The tgneo names of every format, for ``click.Choice`` and error messages."""
    return tuple(FORMATS)


def get_format(key: str) -> Format:
    """Look a format up by name, alias, media type (parameters ignored) or file extension.

    One lookup serves the CLI (``--format ttl``), HTTP (``Content-Type: text/turtle; charset=utf-8``)
    and file names (``.ttl``), so the three can never disagree.

    Raises:
        UnsupportedFormat: nothing in the table answers to ``key``; the message lists the names.
    """
    normalized = key.split(";", 1)[0].strip().lower()
    row = _BY_KEY.get(normalized)
    if row is None:
        raise UnsupportedFormat(f"unsupported RDF format {key!r}; use one of: {', '.join(format_names())}")
    return row


def guess_format(path: str | os.PathLike[str]) -> Format:
    """The format a file's extension announces (``.nq .nt .trig .ttl .jsonld .json``).

    Raises:
        UnsupportedFormat: the extension is not in the table; the message lists the known ones.
    """
    suffix = PurePath(path).suffix.lower()
    row = _BY_EXTENSION.get(suffix)
    if row is None:
        known = " ".join(_BY_EXTENSION)
        shown = suffix or "no extension"
        raise UnsupportedFormat(f"cannot tell the RDF format of {os.fspath(path)!r} ({shown}); known: {known}")
    return row
