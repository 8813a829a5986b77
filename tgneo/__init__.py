"""tgneo: explain how an AI answer was produced, back to the source documents, natively in Neo4j."""

from typing import TYPE_CHECKING

from tgneo.version import __version__

if TYPE_CHECKING:  # for type checkers only; at run time the module is imported on first use (below)
    from tgneo.service.recording import Retrieved, RetrievedEdge, record

__all__ = ["Retrieved", "RetrievedEdge", "__version__", "record"]


def __getattr__(name: str) -> object:
    """``tgneo.record``, ``tgneo.Retrieved`` and ``tgneo.RetrievedEdge`` (:mod:`tgneo.service.recording`), imported
    on first use so that ``import tgneo`` stays light."""
    if name in ("record", "Retrieved", "RetrievedEdge"):
        from tgneo.service import recording

        return getattr(recording, name)
    raise AttributeError(f"module 'tgneo' has no attribute {name!r}")
