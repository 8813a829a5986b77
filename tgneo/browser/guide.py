"""The Neo4j Browser guide (``:play <url>``): slides that explain the model and run the named queries.

Each query slide has two runnable blocks: first one ``:param`` line per ``$parameter`` of its query
(``;``-separated; Browser runs them one by one in multi-statement mode, its default), then the query
from ``tgneo/cypher/`` exactly as the file holds it (its ``//`` header becomes the slide's text). They
are two blocks because Neo4j Browser (5.24) shows a multi-statement run as a list of statuses: a
query run together with its ``:param`` lines only says "SUCCESS", never its rows or its graph.
Workspace, collection, the trace and the document come from the guide's own query string (``tgneo
browser`` fills them in), so the guide itself holds no stored data and can be served without a token.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, urlencode

from tgneo.scope import DEFAULT_SCOPE
from tgneo.store.queries import ALL, CypherQuery
from tgneo.tracetree import NECESSARY

TRACE_PLACEHOLDER = "paste a question URI from the slide 'Latest questions'"
DOCUMENT_PLACEHOLDER = "paste a document URI from the slide 'Documents behind an answer'"
DEFAULT_LIMIT = 25


@dataclass(frozen=True)
class GuideScope:
    """What the guide's ``:param`` lines set: where to look, and which trace and document to show."""

    workspace: str = DEFAULT_SCOPE
    collection: str = DEFAULT_SCOPE
    trace: str | None = None
    document: str | None = None


@dataclass(frozen=True)
class QuerySlide:
    """A slide that runs the named query ``query``; ``uri`` says what its ``$uri`` is (trace or document)."""

    title: str
    text: str
    query: str
    uri: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


QUERY_SLIDES: tuple[QuerySlide, ...] = (
    QuerySlide("Latest questions", "The newest questions of the collection, any engine, with their answers. "
               "Copy a question URI for the next slides.", "latest_traces"),
    QuerySlide("One trace, as a graph", "Every step of one question in order, the knowledge-graph edges its "
               "focus step selected, and each edge's source chain down to the document. Click a node to see "
               "its properties: tokens, model, reasoning, scores.", "trace_graph", uri="trace"),
    QuerySlide("Documents behind an answer", "Every source document an answer relied on, through the edge or "
               "chunk selection that brought it in.", "answer_documents", uri="trace"),
    QuerySlide("Does the answer depend on its evidence?", "The counterfactual checks of this answer (tgneo ask "
               "--verify, tgneo trace verify), newest first: the verdict (supported, partly, unsupported), the share "
               "of the answer the cited evidence alone still gives, the sentences that stand without their evidence, "
               "and each selection the check found necessary, with the fact or chunk it brought. necessity lists "
               "every selection left out in turn: the share of the answer lost without it.",
               "answer_verification", uri="trace", extra={"necessary": NECESSARY}),
    QuerySlide("Answers that used a document", "The audit question: which answers relied on this document?",
               "document_answers", uri="document"),
    QuerySlide("Failed tool calls", "Agent observations whose tool call failed, with the error, the action "
               "and the question they belong to.", "error_observations"),
    QuerySlide("Tokens and latency by model", "Token and LLM-time totals across the collection's steps.",
               "usage_by_model"),
    QuerySlide("Most selected edges", "The knowledge-graph edges GraphRAG selected most often, with their "
               "mean score.", "most_selected_edges"),
    QuerySlide("The knowledge graph", "Entities joined by typed relationships, as any Neo4j graph: each "
               "relationship is a fact (its predicate IRI in iri), an entity's literal facts are its properties "
               "and rdfs:label its name. Write your own: MATCH (a)-[:DISCOVERED]->(b) RETURN a.name, b.name.",
               "knowledge_graph"),
)  # fmt: skip


def cypher_literal(value: Any) -> str:
    """``value`` as a Cypher literal for a ``:param`` line (strings single-quoted and escaped)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    text = str(value).replace("\\", "\\\\").replace("'", "\\'")
    return f"'{text}'"


def param_values(slide: QuerySlide, scope: GuideScope) -> dict[str, Any]:
    """The value of each ``$parameter`` of the slide's query, in the order the query's header names them."""
    known: dict[str, Any] = {
        "workspace": scope.workspace,
        "collection": scope.collection,
        "limit": DEFAULT_LIMIT,
        **slide.extra,
    }
    if slide.uri == "trace":
        known["uri"] = scope.trace or TRACE_PLACEHOLDER
    elif slide.uri == "document":
        known["uri"] = scope.document or DOCUMENT_PLACEHOLDER
    query = ALL[slide.query]
    missing = [p for p in query.params if p not in known]
    if missing:
        raise ValueError(f"guide slide {slide.title!r}: no value for ${', $'.join(missing)} of {query.name}")
    return {p: known[p] for p in query.params}


def query_body(query: CypherQuery) -> str:
    """The query without its ``//`` header (the slide says what the header says)."""
    lines = query.text.splitlines()
    while lines and lines[0].startswith("//"):
        lines.pop(0)
    return "\n".join(lines).strip()


def param_lines(slide: QuerySlide, scope: GuideScope) -> str:
    """The slide's first runnable block: a ``:param`` line per ``$parameter``, each evaluated as Cypher."""
    return "\n".join(f":param {name} => {cypher_literal(value)};" for name, value in param_values(slide, scope).items())


def _slide(title: str, body: str) -> str:
    heading = f"<h3>{html.escape(title)}</h3>"
    return f'<slide class="row-fluid">\n<div class="col-sm-12">\n{heading}\n{body}\n</div>\n</slide>'


def _code(text: str) -> str:
    return f'<pre class="pre-scrollable code runnable">{html.escape(text)}</pre>'


def guide_html(base_url: str, scope: GuideScope) -> str:
    """The whole guide; ``base_url`` is where tgneo serves (for the ``:style`` line and viewer links)."""
    base = base_url.rstrip("/")
    intro = "\n".join([
        "<p>tgneo records every step of a GraphRAG, Document RAG or agent answer in this database: the "
        "question, the concepts it grounded, the knowledge-graph edges it explored and selected (with "
        "reasoning and scores), the tool calls an agent made, tokens, latency and model.</p>",
        "<p>The knowledge graph is entities (<code>:TgResource</code>, with a <code>name</code>) joined by typed "
        "relationships, one per fact. Where provenance quotes a fact, a reified edge (<code>:TgStatement</code>) "
        "stands for it, so a source chain is a path: <code>(:Synthesis)-[:WAS_DERIVED_FROM]->(:Focus)"
        "-[:SELECTED_EDGE]->(:EdgeSelection)-[:EDGE]->(:TgStatement)&lt;-[:CONTAINS]-(:TgSubgraph)"
        "-[:WAS_DERIVED_FROM]->(:TgChunk)-[:WAS_DERIVED_FROM]->(:TgPage)-[:WAS_DERIVED_FROM]->(:TgDocument)</code>. "
        "Every node tgneo writes is <code>:Tgneo</code>; its labels never collide with those of LangChain, "
        "LLM Graph Builder or neo4j-graphrag in the same database.</p>",
        "<p>First load tgneo's style sheet (colours, sizes and captions per step type), then go to the next "
        "slide. A click on a grey block puts it in the editor; the run button runs it. On each slide, run "
        "the <code>:param</code> block first, then the query.</p>",
        _code(f":style {base}/browser/style.grass"),
        f"<p>Workspace <code>{html.escape(scope.workspace)}</code>, collection "
        f"<code>{html.escape(scope.collection)}</code>.</p>",
    ])  # fmt: skip
    slides = [_slide("Explainability traces in Neo4j", intro)]
    for slide in QUERY_SLIDES:
        query = ALL[slide.query]
        body = [f"<p>{html.escape(slide.text)}</p>", "<p>Set the query's parameters:</p>",
                _code(param_lines(slide, scope)), "<p>then run it:</p>", _code(query_body(query)),
                f"<p><small>Query <code>tgneo/cypher/{query.name}.cypher</code>: {html.escape(query.purpose)}"
                "</small></p>"]  # fmt: skip
        if slide.uri == "trace" and scope.trace:
            where = urlencode({"workspace": scope.workspace, "collection": scope.collection})
            viewer = html.escape(f"{base}/ui/trace/{quote(scope.trace, safe='')}?{where}")
            body.append(f'<p>The same trace in tgneo\'s viewer: <a href="{viewer}" target="_blank">{viewer}</a></p>')
        slides.append(_slide(slide.title, "\n".join(body)))
    return (
        '<!DOCTYPE html>\n<html>\n<head><meta charset="utf-8"><title>tgneo: explore explainability traces</title>'
        '</head>\n<body>\n<article class="guide">\n<carousel class="deck container-fluid">\n'
        + "\n".join(slides)
        + "\n</carousel>\n</article>\n</body>\n</html>\n"
    )
