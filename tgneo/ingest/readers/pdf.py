"""PDF: one part per page, through pypdf's text extraction.

Pages without text (a blank page, a scanned image) are left out, but still counted in the
document's ``tg:pageCount`` and keep their numbers, so page 3 is page 3. A file pypdf cannot read
— not a PDF, truncated, encrypted with a password, or holding no text at all (scanned documents need
OCR first) — raises :class:`~tgneo.errors.DocumentError` saying which, and which page where it can.
"""

from __future__ import annotations

import io
import logging

from tgneo.errors import DocumentError
from tgneo.ingest.readers.base import Decoded, Part, clean

MIME = "application/pdf"

log = logging.getLogger("tgneo.ingest")


def _why(e: BaseException) -> str:
    text = " ".join(str(e).split()) or type(e).__name__
    return text if len(text) <= 120 else text[:117] + "..."


def read(data: bytes) -> Decoded:
    """Pages of a PDF file (see the module docstring)."""
    from pypdf import PdfReader

    if not data.lstrip()[:5] == b"%PDF-":
        raise DocumentError("is not a PDF (it does not start with %PDF-)")
    # pypdf raises many exception types on damaged files; each is reported as unreadable.
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not reader.decrypt(""):
            raise DocumentError("is encrypted with a password; decrypt it first")
        pages = list(reader.pages)
        info = reader.metadata
    except DocumentError:
        raise
    except Exception as e:  # any parser failure means the file cannot be read
        raise DocumentError(f"is not a readable PDF ({_why(e)})") from None
    parts: list[Part] = []
    for number, page in enumerate(pages, start=1):
        try:
            text = clean(page.extract_text() or "")
        except Exception as e:  # as above, for one page
            raise DocumentError(f"page {number}: cannot extract its text ({_why(e)})") from None
        if text:
            parts.append(Part(text, f"Page {number}", number))
    if not parts:
        raise DocumentError(f"has no extractable text in its {len(pages)} page(s) (a scanned PDF needs OCR first)")
    title = " ".join(str(info.title).split()) if info is not None and info.title else None
    creator = " ".join(str(info.author).split()) if info is not None and info.author else None
    return Decoded("pdf", MIME, True, tuple(parts), title=title or None, creator=creator or None,
                   page_count=len(pages))  # fmt: skip
