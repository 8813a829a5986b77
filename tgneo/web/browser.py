"""Neo4j Browser assets: ``GET /browser/style.grass`` (``:style <url>``), ``GET /browser/guide.html`` (``:play``).

Neo4j Browser fetches both from its own page (another origin), with ``Pragma``/``Cache-Control``
request headers, so the browser sends a CORS preflight first: both routes answer it and carry
``Access-Control-Allow-Origin: *``. They hold no stored data — the guide's workspace, collection,
trace and document come from its query string — so they are open like the health probes (every
path outside ``/api/`` is; see ``tgneo.web.auth``). Neo4j only fetches from hosts its
``browser.remote_content_hostname_whitelist`` names; ``tgneo db start`` writes it.
"""

from __future__ import annotations

from flask import Blueprint, Response, request

from tgneo.browser.guide import GuideScope, guide_html
from tgneo.browser.style import grass
from tgneo.web.bodies import arg_scope, arg_text

bp = Blueprint("browser", __name__)
MAX_URI_CHARS = 4000
CORS = {
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Allow-Methods": "GET, OPTIONS",
    "Access-Control-Allow-Headers": "Pragma, Cache-Control, Accept",
    "Access-Control-Max-Age": "600",
}


@bp.after_request
def _cors(response: Response) -> Response:
    response.headers.update(CORS)
    return response


@bp.get("/browser/style.grass")
def style() -> Response:
    """The GraSS style sheet: colours, sizes and captions per explainability label."""
    return Response(grass(), mimetype="text/plain", headers={"Cache-Control": "no-cache"})


@bp.get("/browser/guide.html")
def guide() -> Response:
    """The guide: slides running the named queries, ``?workspace=&collection=&trace=&document=`` set their params."""
    scope = GuideScope(
        workspace=arg_scope("workspace"),
        collection=arg_scope("collection"),
        trace=arg_text("trace", max_chars=MAX_URI_CHARS),
        document=arg_text("document", max_chars=MAX_URI_CHARS),
    )
    return Response(guide_html(request.host_url, scope), mimetype="text/html", headers={"Cache-Control": "no-cache"})
