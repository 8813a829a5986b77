"""The trace viewer: ``GET /ui/trace/{uri}`` (a stored trace as a layered DAG, whether it is stale or held),
``GET /ui/diff?a=&b=`` (two answers side by side) and ``GET /ui/`` (ask, watch it grow).

The pages hold no data: their JavaScript reads it the way any client does — the trace API
(``/api/v1/traces/{uri}``, JSON for the graph and N-Triples for a node's triples) and the question
socket (``/api/v1/stream``) — so access control is the API's: when ``TGNEO_TOKENS`` is set the page
gets a 401, asks for a token, keeps it in ``sessionStorage`` and sends it as ``Authorization: Bearer``
(``?token=`` on the socket handshake, the only way a browser can send one there). The graph library
(cytoscape; the layout is computed in viewer.js) is vendored under ``static/vendor/`` by ``scripts/vendor-js.sh``,
so the pages work offline. Colours and the order that names a step's type come from the same tables
as Neo4j Browser's style sheet (``tgneo.browser.style``) and the trace reader (``tgneo.mapping``).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template

from tgneo.browser.style import NODE_STYLES
from tgneo.mapping import MOST_SPECIFIC_FIRST
from tgneo.stream.options import REQUEST_FIELDS
from tgneo.tracetree import NECESSARY
from tgneo.vocab import Label

bp = Blueprint("ui", __name__, static_folder="static", static_url_path="/ui/static", template_folder="templates")


def page_config() -> dict[str, Any]:
    """What the pages' JavaScript needs to know about the model: label order, colours, the services, and from which
    necessity on a selection the counterfactual check found is shown as necessary (as ``tgneo trace show`` does)."""
    colors = {style.labels[0].value: style.color for style in NODE_STYLES if len(style.labels) == 1}
    for kind in (Label.GRAPH_RAG_QUESTION, Label.DOC_RAG_QUESTION, Label.AGENT_QUESTION):
        colors[kind.value] = colors[Label.QUESTION.value]  # a question of any kind looks like one
    return {
        "specificity": [label.value for label in MOST_SPECIFIC_FIRST],
        "colors": colors,
        "services": {name: fields.question for name, fields in REQUEST_FIELDS.items()},
        "necessary": NECESSARY,
        # the viewer's names for the knowledge graph's nodes, and the labels they carry (colours, source chains)
        "labels": {"Document": Label.DOCUMENT.value, "Chunk": Label.CHUNK.value, "Statement": Label.STATEMENT.value},
    }


@bp.get("/ui/")
def live() -> str:
    """Ask a question and watch each step of its trace appear as its explain message arrives."""
    return render_template("ui/live.html", config=page_config())


@bp.get("/ui/diff")
def trace_diff() -> str:
    """Two answers side by side (``?a=URI&b=URI``, ``&b_collection=`` for B in another collection)."""
    return render_template("ui/diff.html", config=page_config())


@bp.get("/ui/trace/<path:uri>")
def trace(uri: str) -> str:
    """A stored trace as a layered DAG; the page reads the trace from the API."""
    return render_template("ui/trace.html", config=page_config(), uri=uri)
