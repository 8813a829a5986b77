"""RDF into Neo4j over HTTP: a thin layer over ``tgneo.rdf`` and ``tgneo.store.rdf_import``.

(A trace *out* as RDF is ``GET /api/v1/traces/{uri}`` with an RDF ``Accept``: :mod:`tgneo.web.traces`.)

* ``POST /api/v1/rdf`` imports a document (format from ``?format=`` or ``Content-Type``) through the reader and
  checks of ``tgneo import`` (:func:`~tgneo.store.rdf_import.import_document`); bad RDF is a 400 naming the line and
  column, with the message ``tgneo import`` prints;
* ``/api/v1/flow/{flow}/import/triples`` is TrustGraph's bulk import socket (``tg-load-turtle``):
  frames of wire triples, applied until the client closes, in batches.

Everything RDF-specific is delegated (parse, serialize, export, import) to the modules the CLI uses too.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from flask import Blueprint, Response, jsonify, request
from simple_websocket import ConnectionClosed

from tgneo.errors import BadRequest, RDFSyntaxError, TgneoError, UnsupportedFormat
from tgneo.rdf.formats import get_format
from tgneo.rdf.terms import Quad
from tgneo.scope import name_or_default
from tgneo.store.rdf_import import import_document, import_quads
from tgneo.stream import wire
from tgneo.stream.fields import json_object
from tgneo.stream.framing import encode
from tgneo.uris import validate_iri
from tgneo.web.app_state import app_state
from tgneo.web.auth import current_access
from tgneo.web.bodies import MAX_RDF_BYTES, arg_scope, arg_text, raw_body
from tgneo.web.errors import error_response
from tgneo.web.extensions import POLL_SECONDS, sock

bp = Blueprint("rdf", __name__)
log = logging.getLogger("tgneo.web.rdf")
IMPORT_BATCH = 2000
"""Quads the import socket gathers before writing them (one transaction per batch)."""


class UnsupportedMediaType(BadRequest):
    """The body of an import is in a format tgneo does not read."""

    status = 415


@bp.post("/api/v1/rdf")
def import_rdf() -> tuple[Response, int]:
    """Import an RDF document (quoted triples included) into a collection; 400 with line and column if it is bad."""
    access = current_access()
    workspace = access.resolve(arg_text("workspace"))
    collection = arg_scope("collection")
    base = arg_text("base", max_chars=4000)
    if base is not None:
        validate_iri(base, "base")
    try:
        fmt = get_format(request.args.get("format") or request.content_type or "")
    except UnsupportedFormat as e:
        raise UnsupportedMediaType(f"{e} (send ?format= or a Content-Type)") from None
    data = raw_body(MAX_RDF_BYTES)
    try:
        stats = import_document(app_state().store, workspace, collection, data, fmt, base=base)
    except RDFSyntaxError as e:
        response, status = error_response(400, e.type, str(e))
        body: dict[str, Any] = response.get_json()
        body["error"].update(line=e.line, column=e.column)
        return jsonify(body), status
    result = {"workspace": workspace, "collection": collection, "quads": stats.quads, "batches": stats.batches}
    return jsonify(result), 200


def _frame_quads(text: object, collection: str | None) -> tuple[str, list[Quad]]:
    """The collection and quads of one import frame (``{"metadata": {…, "collection"}, "triples": [...]}``)."""
    frame = json_object(text)
    metadata = frame.get("metadata") or {}
    if not isinstance(metadata, Mapping):
        raise BadRequest("metadata: must be an object")
    named = name_or_default(metadata.get("collection"), "collection")
    if collection is not None and named != collection:
        raise BadRequest(f"metadata.collection: one socket imports into one collection ({collection!r})")
    triples = frame.get("triples", [])
    if not isinstance(triples, list):
        raise BadRequest("triples: must be a list")
    return named, [wire.decode_quad(t, f"triples[{i}]") for i, t in enumerate(triples)]


@sock.route("/api/v1/flow/<flow>/import/triples", bp=bp)  # type: ignore[untyped-decorator]
def import_triples(ws: Any, flow: str) -> None:
    """TrustGraph's bulk triple import (``tg-load-turtle``): apply every frame until the client closes."""
    svc = app_state()
    workspace = current_access().resolve(arg_text("workspace"))
    collection: str | None = None
    pending: list[Quad] = []

    def flush() -> None:
        if pending and collection is not None:
            import_quads(svc.store, workspace, collection, list(pending))
            pending.clear()

    try:
        while not svc.shutting_down.is_set():
            try:
                text = ws.receive(timeout=POLL_SECONDS)
            except ConnectionClosed:
                break
            if text is None:
                continue
            collection, quads = _frame_quads(text, collection)
            pending.extend(quads)
            if len(pending) >= IMPORT_BATCH:
                flush()
        flush()
    except TgneoError as e:
        log.warning("import socket (workspace %r, collection %r) stopped: %s", workspace, collection, e)
        try:
            ws.send(encode({"error": e.to_dict()}))
            ws.close(1007 if isinstance(e, BadRequest) else 1011, str(e)[:120])
        except ConnectionClosed:
            pass
