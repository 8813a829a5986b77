"""What every reader gives back, and the one way text files are decoded.

A reader turns a file's bytes into a :class:`Decoded`: its parts — pages for a paged format (PDF),
sections for the others (Markdown and HTML by their headings, plain text by its title lines) — as
plain text, plus what the file says about itself (title, author). It raises
:class:`~tgneo.errors.DocumentError` with what is wrong (``page 3: …``); the caller adds the file.
"""

from __future__ import annotations

from dataclasses import dataclass

from tgneo.errors import DocumentError

__all__ = ["Decoded", "Part", "decode_text"]


@dataclass(frozen=True)
class Part:
    """One page or section: its plain text, its number (pages: the page's own) and its label."""

    text: str
    label: str
    number: int


@dataclass(frozen=True)
class Decoded:
    """A decoded document.

    Attributes:
        format: The reader's name (``pdf``, ``markdown``, ``html``, ``text``); the decoder component
            of its activities is ``{format}-decoder``.
        mime_type: The source's MIME type (``tg:mimeType`` on the document).
        paged: Whether the parts are pages (``tg:Page`` with a page number) or sections (``tg:Section``).
        parts: The pages or sections, in order, none of them blank.
        title: The document's own title (PDF metadata, ``<title>``, the first heading), if it has one.
        creator: Its author, if it names one.
        page_count: How many pages the source has (PDF; blank pages included).
    """

    format: str
    mime_type: str
    paged: bool
    parts: tuple[Part, ...]
    title: str | None = None
    creator: str | None = None
    page_count: int | None = None

    def __post_init__(self) -> None:
        if not self.parts:
            raise DocumentError("holds no text")


def decode_text(data: bytes) -> str:
    """``data`` as UTF-8 text (a byte-order mark allowed), line endings made ``\\n``.

    Raises:
        DocumentError: the bytes are not UTF-8, or hold NUL characters (binary data).
    """
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise DocumentError(f"is not UTF-8 text (invalid byte at offset {e.start})") from None
    if "\x00" in text:
        raise DocumentError(f"holds binary data, not text (a NUL byte at offset {text.index(chr(0))})")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def clean(text: str) -> str:
    """White space tidied the same way by every reader: no trailing spaces, at most one blank line."""
    lines = [line.rstrip() for line in text.replace("\u00a0", " ").split("\n")]
    out: list[str] = []
    for line in lines:
        if not line and (not out or not out[-1]):
            continue
        out.append(line)
    return "\n".join(out).strip()
