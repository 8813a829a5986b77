"""Where documents come from, and what makes one document the same document next time.

A document's identity is where it came from, its *source IRI*: the file's absolute ``file://`` URI
(``dc:source``), or ``urn:tgneo:sample:{name}`` for the bundled sample. Its URI is TrustGraph's
document shape, ``https://trustgraph.ai/doc/{id}``, with ``id`` a digest of the source IRI: the
same file loaded again is the same document, wherever the command runs from, while two files with
the same name in different folders stay two documents. Its *content* is told apart by a digest of
its bytes (see :mod:`tgneo.ingest.layout`).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from tgneo.errors import DocumentError
from tgneo.ingest.readers import reader_for
from tgneo.uris import document_uri
from tgneo.vocab import TRUSTGRAPH_BASE

__all__ = ["Discovered", "Source", "discover", "document_uri_for"]


def document_uri_for(source_iri: str) -> str:
    """``https://trustgraph.ai/doc/{id}``, ``id`` the first 32 hex digits of the source IRI's SHA-256."""
    digest = hashlib.sha256(source_iri.encode("utf-8")).hexdigest()[:32]
    return document_uri(f"{TRUSTGRAPH_BASE}/doc/{digest}")


@dataclass(frozen=True)
class Source:
    """One document to load.

    Attributes:
        name: How messages name it (the path as given, or the sample file's name).
        iri: Where it came from (``dc:source``); its identity.
        read: Returns its bytes (a file is read only when its turn comes).
    """

    name: str
    iri: str
    read: Callable[[], bytes] = field(compare=False, repr=False)

    @property
    def document_uri(self) -> str:
        return document_uri_for(self.iri)

    @classmethod
    def from_path(cls, path: Path, shown: str | None = None) -> Source:
        """A file on disk, named in messages as ``shown`` (default: the path as given)."""

        def read() -> bytes:
            try:
                return path.read_bytes()
            except OSError as e:
                raise DocumentError(f"{shown or path}: cannot be read ({e.strerror})") from None

        return cls(shown or str(path), path.resolve().as_uri(), read)


@dataclass(frozen=True)
class Discovered:
    """What a set of paths holds: the documents to load, and the files passed over (with why)."""

    sources: tuple[Source, ...]
    passed_over: tuple[tuple[str, str], ...]


def discover(paths: Iterable[str | Path]) -> Discovered:
    """The documents named by ``paths``: files as given, directories walked recursively in name order.

    In a directory, hidden files and folders (``.git``) are not looked at, and files of other types
    are passed over silently; a file named explicitly whose type is not supported is passed over with
    a reason, as is a path that does not exist. A file reached twice is loaded once.
    """
    sources: list[Source] = []
    passed: list[tuple[str, str]] = []
    seen: set[str] = set()

    def add(path: Path, shown: str) -> None:
        source = Source.from_path(path, shown)
        if source.iri not in seen:
            seen.add(source.iri)
            sources.append(source)

    for given in paths:
        path = Path(given)
        if path.is_dir():
            for root, dirs, files in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                for name in sorted(files):
                    if not name.startswith(".") and reader_for(name) is not None:
                        add(Path(root) / name, str(Path(root) / name))
        elif path.is_file():
            if reader_for(path.name) is None:
                from tgneo.ingest.readers import supported

                passed.append((str(given), f"unsupported file type (tgneo reads {supported()})"))
            else:
                add(path, str(given))
        else:
            passed.append((str(given), "no such file or directory"))
    return Discovered(tuple(sources), tuple(passed))
