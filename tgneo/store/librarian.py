"""The librarian: texts stored beside the graph (answers, thoughts, observations, page and chunk texts).

TrustGraph keeps these outside its graph and its clients fetch them by document id
(``get-document-content``, reference §2.6), with no collection in the request; tgneo keeps them as
``:Content`` nodes of their workspace and collection, found here by workspace and URI.
"""

from __future__ import annotations

from dataclasses import dataclass

from tgneo.errors import NotFound
from tgneo.store.driver import Store
from tgneo.store.queries import Q


@dataclass(frozen=True)
class Text:
    """A librarian document: where it lives, its text and its media type."""

    uri: str
    collection: str
    text: str
    content_type: str


def get_text(store: Store, workspace: str, uri: str, collection: str | None = None) -> Text:
    """The text of the librarian document ``uri`` (in ``collection``, or in any of the workspace's).

    Raises:
        NotFound: no such document in this workspace (and collection).
    """
    records = store.read(Q.content_text, workspace=workspace, collection=collection, uri=uri)
    if not records or records[0]["text"] is None:
        where = f"workspace {workspace!r}" + (f", collection {collection!r}" if collection else "")
        raise NotFound(f"no document {uri!r} in the librarian of {where}")
    r = records[0]
    return Text(r["uri"], r["collection"], r["text"], r["contentType"] or "text/plain")


def collections(store: Store, workspace: str) -> list[str]:
    """The collections of ``workspace`` that hold anything, in name order."""
    return [r["collection"] for r in store.read(Q.collections, workspace=workspace)]
