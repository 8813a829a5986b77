"""A decoded document cut into pages or sections and chunks, each with its deterministic URI.

Why deterministic: loading the same document twice must change nothing, and a document whose
content changed must replace its old derivation rather than add a second one. So every derived URI
is built from a *derivation key*: a digest of the source IRI, the digest of the file's bytes, the
chunk size and overlap, the version of the chunking rules (:data:`~tgneo.ingest.chunking.RULES_VERSION`),
and what extracts from it (tgneo's version and the extraction model). The same key means the same pages,
chunks, subgraphs and activities; a different key (new content, new settings, new chunking rules, another
model) means a new derivation, which replaces the old one.

Offsets (``tg:charOffset``/``tg:charLength``): a page's or section's are into the document's text
(its parts joined by a blank line); a chunk's are into its page's or section's text.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass

from tgneo import uris
from tgneo.ingest.chunking import RULES_VERSION, ChunkSettings, chunk_spans
from tgneo.ingest.readers import Decoded, Part
from tgneo.ingest.sources import Source

__all__ = ["ChunkLayout", "Layout", "PartLayout", "derivation_key", "lay_out"]

PART_SEPARATOR = "\n\n"


@dataclass(frozen=True)
class ChunkLayout:
    """One chunk: its URI, position in its part (``index`` from 0, ``start`` in characters) and text."""

    uri: str
    id: str
    index: int
    start: int
    text: str
    label: str


@dataclass(frozen=True)
class PartLayout:
    """One page or section: its URI, where it sits in the document's text, and its chunks."""

    uri: str
    id: str
    part: Part
    offset: int
    chunks: tuple[ChunkLayout, ...]


@dataclass(frozen=True)
class Layout:
    """A document ready for extraction: what it is, how it was cut, and the URIs of every piece."""

    source: Source
    decoded: Decoded
    settings: ChunkSettings
    key: str
    parts: tuple[PartLayout, ...]

    @property
    def document_uri(self) -> str:
        return self.source.document_uri

    def chunks(self) -> Iterator[tuple[PartLayout, ChunkLayout]]:
        """Every chunk with its page or section, in document order."""
        for part in self.parts:
            for chunk in part.chunks:
                yield part, chunk

    @property
    def chunk_count(self) -> int:
        return sum(len(p.chunks) for p in self.parts)


def derivation_key(source_iri: str, data: bytes, settings: ChunkSettings, extractor: str) -> str:
    """The digest every derived URI of one document is built from (see the module docstring)."""
    content = hashlib.sha256(data).hexdigest()
    cut = [str(settings.size), str(settings.overlap), f"chunking {RULES_VERSION}"]
    identity = "\n".join([source_iri, content, *cut, extractor])
    return hashlib.sha256(identity.encode("utf-8")).hexdigest()[:24]


def lay_out(source: Source, data: bytes, decoded: Decoded, settings: ChunkSettings, extractor: str) -> Layout:
    """Cut ``decoded`` into chunks and mint every URI.

    Args:
        extractor: What extracts the facts, e.g. ``"tgneo 0.1.0 / tgneo-offline"``; part of the key.
    """
    key = derivation_key(source.iri, data, settings, extractor)
    parts: list[PartLayout] = []
    offset = 0
    for part in decoded.parts:
        part_id = f"{key}-{part.number}"
        part_uri = uris.page_uri(part_id) if decoded.paged else uris.section_uri(part_id)
        chunks = tuple(
            ChunkLayout(
                uri=uris.chunk_uri(f"{part_id}-{i}"),
                id=f"{part_id}-{i}",
                index=i,
                start=span.start,
                text=part.text[span.start : span.end],
                label=f"{part.label}, chunk {i + 1}",
            )
            for i, span in enumerate(chunk_spans(part.text, settings))
        )
        parts.append(PartLayout(part_uri, part_id, part, offset, chunks))
        offset += len(part.text) + len(PART_SEPARATOR)
    return Layout(source, decoded, settings, key, tuple(parts))
