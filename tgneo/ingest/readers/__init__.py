"""Readers: a file's bytes → pages or sections of plain text, chosen by the file's extension or MIME type.

One row per format in :data:`FORMATS`; :func:`reader_for` picks the row for a file name (by its
extension, else by the MIME type Python's ``mimetypes`` guesses for it) and :func:`decode` runs it,
naming the file in any error.
"""

from __future__ import annotations

import mimetypes
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePath

from tgneo.errors import DocumentError
from tgneo.ingest.readers import html, markdown, pdf, text
from tgneo.ingest.readers.base import Decoded, Part

__all__ = ["FORMATS", "Decoded", "Format", "Part", "decode", "reader_for", "supported"]


@dataclass(frozen=True)
class Format:
    """A document format: its name, MIME type, file extensions and reader."""

    name: str
    mime_type: str
    extensions: tuple[str, ...]
    read: Callable[[bytes], Decoded]


FORMATS: tuple[Format, ...] = (
    Format("text", text.MIME, (".txt", ".text"), text.read),
    Format("markdown", markdown.MIME, (".md", ".markdown"), markdown.read),
    Format("html", html.MIME, (".html", ".htm", ".xhtml"), html.read),
    Format("pdf", pdf.MIME, (".pdf",), pdf.read),
)


def supported() -> str:
    """The extensions tgneo reads, for messages: ``.txt, .text, .md, …``."""
    return ", ".join(ext for f in FORMATS for ext in f.extensions)


def reader_for(name: str) -> Format | None:
    """The format of a file called ``name``, by extension, else by guessed MIME type; ``None`` if unsupported."""
    suffix = PurePath(name).suffix.lower()
    for fmt in FORMATS:
        if suffix in fmt.extensions:
            return fmt
    guessed, _ = mimetypes.guess_type(name)
    return next((f for f in FORMATS if f.mime_type == guessed), None)


def decode(name: str, data: bytes) -> Decoded:
    """Decode the file ``name`` holding ``data``.

    Raises:
        DocumentError: its format is not supported, or it cannot be read; the message names the file.
    """
    fmt = reader_for(name)
    if fmt is None:
        raise DocumentError(f"{name}: unsupported file type (tgneo reads {supported()})")
    try:
        return fmt.read(data)
    except DocumentError as e:
        raise DocumentError(f"{name}: {e}") from None
