"""URI minting with TrustGraph 2.11.1's exact patterns, and IRI validation.

Why exact patterns: TrustGraph's own client classifies a trace by its root URI
(``urn:trustgraph:question:`` → GraphRAG, ``urn:trustgraph:docrag:`` → Document RAG,
``urn:trustgraph:agent:`` → agent) and its ``tg-show-explain-trace`` prints chunk text only for
``urn:chunk:`` URIs, so a server that mints its own shapes breaks unmodified TrustGraph tools. Every
function here returns the same string as the function of the same name in
``trustgraph.provenance.uris`` for the same arguments (the tests hold us to it); unlike TrustGraph's,
they refuse arguments that would produce a broken IRI, raising :class:`~tgneo.errors.InvalidEntity`.

``{sid}`` below is one session id (a uuid4 string from :func:`new_session_id`), shared by every step
of one question.

A statement's id (the key a knowledge-graph edge keeps from extraction through retrieval to the
stored ``:Statement``) is :func:`tgneo.rdf.ntriples.edge_id`: it is defined by the statement's
canonical N-Triples line.
"""

from __future__ import annotations

import re
import unicodedata
import urllib.parse
import uuid

from tgneo.errors import InvalidEntity
from tgneo.kinds import AGENT_ROOT, DOCRAG_ROOT, GRAPHRAG_ROOT, SessionKind
from tgneo.vocab import TRUSTGRAPH_BASE

__all__ = [
    "AGENT_ROOT",
    "DOCRAG_ROOT",
    "GRAPHRAG_ROOT",
    "SessionKind",
    "activity_uri",
    "agent_answer_uri",
    "agent_decomposition_uri",
    "agent_final_uri",
    "agent_finding_uri",
    "agent_iteration_uri",
    "agent_observation_uri",
    "agent_pattern_decision_uri",
    "agent_plan_uri",
    "agent_session_uri",
    "agent_step_result_uri",
    "agent_synthesis_uri",
    "agent_thought_uri",
    "agent_uri",
    "chunk_selection_uri",
    "chunk_uri",
    "docrag_answer_uri",
    "docrag_exploration_uri",
    "docrag_focus_uri",
    "docrag_grounding_uri",
    "docrag_question_uri",
    "docrag_synthesis_uri",
    "document_uri",
    "edge_selection_uri",
    "exploration_uri",
    "focus_uri",
    "graphrag_answer_uri",
    "grounding_uri",
    "image_uri",
    "new_session_id",
    "page_uri",
    "question_uri",
    "section_uri",
    "session_kind",
    "subgraph_uri",
    "synthesis_uri",
    "validate_iri",
    "validate_session_id",
]

_GRAPHRAG_STEP = "urn:trustgraph:prov:"

# RFC 3987: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ), then ":" and something after it.
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:.")
# Characters RDF's IRIREF production forbids besides controls and spaces.
_FORBIDDEN = frozenset('<>"{}|^`\\')


# --------------------------------------------------------------------------------------------------
# validation


def _bad_character(value: str) -> str | None:
    """Describe the first character that may not appear in an IRI, or ``None`` if all are fine."""
    for ch in value:
        if ch.isspace():
            return f"contains whitespace {ch!r}"
        if unicodedata.category(ch) == "Cc":
            return f"contains control character {ch!r}"
        if ch in _FORBIDDEN:
            return f"contains {ch!r}, which is not allowed in an IRI"
    return None


def _shown(value: str) -> str:
    """A value quoted for an error message, cut short so a huge payload cannot flood a log."""
    return repr(value if len(value) <= 80 else value[:77] + "...")


def validate_iri(value: object, what: str) -> str:
    """Check that ``value`` is an absolute IRI and return it as a plain ``str``.

    Entities are written to Neo4j and streamed to TrustGraph clients before anyone else looks at
    them, so a malformed IRI must be refused at construction, with a message naming the field.

    Args:
        value: The candidate IRI (``str`` or ``URIRef``).
        what: The name of the field or argument, used in the error message.

    Returns:
        ``value`` as a ``str``.

    Raises:
        InvalidEntity: ``value`` is not a string, is empty, contains whitespace, a control
            character or one of ``<>"{}|^`\\``, or has no ``scheme:`` followed by something.
    """
    if not isinstance(value, str):
        raise InvalidEntity(f"{what}: expected an IRI string, got {type(value).__name__}")
    if not value:
        raise InvalidEntity(f"{what}: empty IRI")
    problem = _bad_character(value)
    if problem is not None:
        raise InvalidEntity(f"{what}: {_shown(value)} is not a valid IRI ({problem})")
    if not _SCHEME.match(value):
        raise InvalidEntity(f"{what}: {_shown(value)} is not an absolute IRI (it needs a 'scheme:')")
    return str(value)


def validate_session_id(value: object, what: str = "session_id") -> str:
    """Check a session id, which the URI patterns paste in unquoted, and return it.

    TrustGraph does not percent-encode session ids, so neither may we (the strings must match);
    instead we refuse ids that would break the IRI.

    Raises:
        InvalidEntity: ``value`` is not a non-empty string, or holds a character no IRI may hold.
    """
    if not isinstance(value, str) or not value:
        raise InvalidEntity(f"{what}: expected a non-empty session id, got {value!r}")
    problem = _bad_character(value)
    if problem is not None:
        raise InvalidEntity(f"{what}: {_shown(value)} cannot go into a URI ({problem})")
    return value


def _index(value: object, what: str, first: int = 0) -> int:
    """Check a position number (``first`` is 0 for 0-based positions, 1 for iterations)."""
    if not isinstance(value, int) or isinstance(value, bool) or value < first:
        raise InvalidEntity(f"{what}: expected an integer >= {first}, got {value!r}")
    return value


def _quote(value: object, what: str) -> str:
    """Percent-encode an id component exactly as TrustGraph does (``quote(str(id), safe='')``)."""
    if not isinstance(value, str) or not value:
        raise InvalidEntity(f"{what}: expected a non-empty string, got {value!r}")
    return urllib.parse.quote(value, safe="")


# --------------------------------------------------------------------------------------------------
# sessions


def new_session_id() -> str:
    """A fresh session id: a uuid4 string, as TrustGraph's services mint one per request."""
    return str(uuid.uuid4())


def session_kind(uri: str) -> SessionKind | None:
    """Which kind of session a URI belongs to, read from its root prefix.

    A trace root (``urn:trustgraph:question:{sid}``, ``urn:trustgraph:docrag:{sid}``,
    ``urn:trustgraph:agent:{sid}``) and every Document RAG and agent step URI share their
    session's prefix. GraphRAG's steps (``urn:trustgraph:prov:…``) and the librarian's answer ids do
    not name their engine, so they give ``None``, as does anything that is not a TrustGraph URI.
    Prefixes are matched exactly, unlike TrustGraph's substring test, so an arbitrary IRI that
    merely contains ``agent`` is not mistaken for an agent session.
    """
    for kind in SessionKind:
        if uri.startswith(kind.root) and len(uri) > len(kind.root):
            return kind
    return None


# --------------------------------------------------------------------------------------------------
# extraction time (urn:graph:source)


def document_uri(doc_iri: str) -> str:
    """A document's URI is the caller's own IRI, unchanged (TrustGraph mints none), once validated."""
    return validate_iri(doc_iri, "document_uri")


def page_uri(page_id: str | None = None) -> str:
    """``urn:page:{uuid4}``; pass ``page_id`` to make it deterministic (it is percent-encoded)."""
    return f"urn:page:{_minted(page_id, 'page_id')}"


def section_uri(section_id: str | None = None) -> str:
    """``urn:section:{uuid4}``: a section of a document format that has no pages."""
    return f"urn:section:{_minted(section_id, 'section_id')}"


def chunk_uri(chunk_id: str | None = None) -> str:
    """``urn:chunk:{uuid4}``: TrustGraph's trace viewer prints text only for ``urn:chunk:`` URIs."""
    return f"urn:chunk:{_minted(chunk_id, 'chunk_id')}"


def image_uri(image_id: str | None = None) -> str:
    """``urn:image:{uuid4}``."""
    return f"urn:image:{_minted(image_id, 'image_id')}"


def activity_uri(activity_id: str | None = None) -> str:
    """``https://trustgraph.ai/activity/{id}``: one extraction run (a fresh uuid4 by default)."""
    return f"{TRUSTGRAPH_BASE}/activity/{_minted(activity_id, 'activity_id')}"


def subgraph_uri(subgraph_id: str | None = None) -> str:
    """``https://trustgraph.ai/subgraph/{id}``: the statements extracted from one chunk."""
    return f"{TRUSTGRAPH_BASE}/subgraph/{_minted(subgraph_id, 'subgraph_id')}"


def agent_uri(component_name: str) -> str:
    """``https://trustgraph.ai/agent/{component}``: the software agent behind an activity."""
    return f"{TRUSTGRAPH_BASE}/agent/{_quote(component_name, 'component_name')}"


def _minted(value: str | None, what: str) -> str:
    """The given id, percent-encoded, or a fresh uuid4 when it is ``None``."""
    return str(uuid.uuid4()) if value is None else _quote(value, what)


# --------------------------------------------------------------------------------------------------
# query time: GraphRAG


def question_uri(session_id: str) -> str:
    """``urn:trustgraph:question:{sid}``: the GraphRAG trace root."""
    return f"{GRAPHRAG_ROOT}{validate_session_id(session_id)}"


def grounding_uri(session_id: str) -> str:
    """``urn:trustgraph:prov:grounding:{sid}``: the concepts drawn from the question."""
    return f"{_GRAPHRAG_STEP}grounding:{validate_session_id(session_id)}"


def exploration_uri(session_id: str) -> str:
    """``urn:trustgraph:prov:exploration:{sid}``: the edges retrieved around the concepts."""
    return f"{_GRAPHRAG_STEP}exploration:{validate_session_id(session_id)}"


def focus_uri(session_id: str) -> str:
    """``urn:trustgraph:prov:focus:{sid}``: the edges selected as relevant."""
    return f"{_GRAPHRAG_STEP}focus:{validate_session_id(session_id)}"


def synthesis_uri(session_id: str) -> str:
    """``urn:trustgraph:prov:synthesis:{sid}``: the answer."""
    return f"{_GRAPHRAG_STEP}synthesis:{validate_session_id(session_id)}"


def edge_selection_uri(session_id: str, edge_index: int) -> str:
    """``urn:trustgraph:prov:edge:{sid}:{i}``: one selected edge of the Focus (``i`` 0-based)."""
    sid = validate_session_id(session_id)
    return f"{_GRAPHRAG_STEP}edge:{sid}:{_index(edge_index, 'edge_index')}"


def graphrag_answer_uri(session_id: str) -> str:
    """``urn:trustgraph:synthesis:{sid}``: the librarian document holding a GraphRAG answer's text.

    This is the id TrustGraph's server uses; clients treat it as opaque and only follow
    ``tg:document`` to it.
    """
    return f"urn:trustgraph:synthesis:{validate_session_id(session_id)}"


# --------------------------------------------------------------------------------------------------
# query time: Document RAG


def docrag_question_uri(session_id: str) -> str:
    """``urn:trustgraph:docrag:{sid}``: the Document RAG trace root."""
    return f"{DOCRAG_ROOT}{validate_session_id(session_id)}"


def docrag_grounding_uri(session_id: str) -> str:
    """``urn:trustgraph:docrag:{sid}/grounding``."""
    return f"{docrag_question_uri(session_id)}/grounding"


def docrag_exploration_uri(session_id: str) -> str:
    """``urn:trustgraph:docrag:{sid}/exploration``: the chunks retrieved."""
    return f"{docrag_question_uri(session_id)}/exploration"


def docrag_focus_uri(session_id: str) -> str:
    """``urn:trustgraph:docrag:{sid}/focus``: the chunks kept after reranking."""
    return f"{docrag_question_uri(session_id)}/focus"


def chunk_selection_uri(session_id: str, chunk_index: int) -> str:
    """``urn:trustgraph:prov:chunk:{sid}:{i}``: one reranked chunk of the Focus (``i`` 0-based)."""
    sid = validate_session_id(session_id)
    return f"{_GRAPHRAG_STEP}chunk:{sid}:{_index(chunk_index, 'chunk_index')}"


def docrag_synthesis_uri(session_id: str) -> str:
    """``urn:trustgraph:docrag:{sid}/synthesis``."""
    return f"{docrag_question_uri(session_id)}/synthesis"


def docrag_answer_uri(session_id: str) -> str:
    """``urn:trustgraph:docrag:{sid}/answer``: the librarian document of a Document RAG answer."""
    return f"{docrag_question_uri(session_id)}/answer"


# --------------------------------------------------------------------------------------------------
# query time: agent


def agent_session_uri(session_id: str) -> str:
    """``urn:trustgraph:agent:{sid}``: the agent trace root (its Question)."""
    return f"{AGENT_ROOT}{validate_session_id(session_id)}"


def agent_iteration_uri(session_id: str, iteration_num: int) -> str:
    """``urn:trustgraph:agent:{sid}/i{n}``: one think/act cycle (``n`` 1-based)."""
    return f"{agent_session_uri(session_id)}/i{_index(iteration_num, 'iteration_num', first=1)}"


def agent_thought_uri(session_id: str, iteration_num: int) -> str:
    """``urn:trustgraph:agent:{sid}/i{n}/thought``."""
    return f"{agent_iteration_uri(session_id, iteration_num)}/thought"


def agent_observation_uri(session_id: str, iteration_num: int) -> str:
    """``urn:trustgraph:agent:{sid}/i{n}/observation``.

    TrustGraph's server also uses this string as the librarian id of the observation's text.
    """
    return f"{agent_iteration_uri(session_id, iteration_num)}/observation"


def agent_final_uri(session_id: str) -> str:
    """``urn:trustgraph:agent:{sid}/final``: a ReAct Conclusion."""
    return f"{agent_session_uri(session_id)}/final"


def agent_decomposition_uri(session_id: str) -> str:
    """``urn:trustgraph:agent:{sid}/decompose``: a supervisor's split into sub-goals."""
    return f"{agent_session_uri(session_id)}/decompose"


def agent_finding_uri(session_id: str, index: int) -> str:
    """``urn:trustgraph:agent:{sid}/finding/{i}``: one sub-agent's result."""
    return f"{agent_session_uri(session_id)}/finding/{_index(index, 'index')}"


def agent_plan_uri(session_id: str) -> str:
    """``urn:trustgraph:agent:{sid}/plan``: a plan-then-execute plan."""
    return f"{agent_session_uri(session_id)}/plan"


def agent_step_result_uri(session_id: str, index: int) -> str:
    """``urn:trustgraph:agent:{sid}/step/{i}``: the result of one plan step."""
    return f"{agent_session_uri(session_id)}/step/{_index(index, 'index')}"


def agent_synthesis_uri(session_id: str) -> str:
    """``urn:trustgraph:agent:{sid}/synthesis``: the answer of a supervisor or a plan."""
    return f"{agent_session_uri(session_id)}/synthesis"


def agent_pattern_decision_uri(session_id: str) -> str:
    """``urn:trustgraph:agent:{sid}/pattern-decision``: the router's choice of pattern."""
    return f"{agent_session_uri(session_id)}/pattern-decision"


def agent_answer_uri(session_id: str) -> str:
    """``urn:trustgraph:agent:{sid}/answer``: the librarian document of an agent's answer."""
    return f"{agent_session_uri(session_id)}/answer"
