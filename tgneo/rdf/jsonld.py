"""JSON-LD-star: quoted triples as embedded nodes (``{"@id": {"@id": s, p: o}}``) around rdflib's plugin.

Reading: embedded nodes are lifted to placeholders with the contexts in scope, read as the one triple each
must be, and put back. Remote contexts are refused: a parser fetches nothing. The helpers that spell a term
in JSON-LD (:func:`jsonld_id`, :func:`jsonld_value`) serve :mod:`tgneo.rdf.writer`, the one writer.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from rdflib import Dataset
from rdflib.term import BNode, Literal, Node

from tgneo.errors import MappingError, RDFSyntaxError
from tgneo.rdf.formats import Format
from tgneo.rdf.ntriples import canonical_order
from tgneo.rdf.placeholders import (
    Placeholders,
    Quoted,
    Resolver,
    explain_error,
    parse_rdflib,
    rdflib_quads,
    shorten,
)
from tgneo.rdf.terms import Object, Quad, QuotedTriple, Subject

_JSON = dict[str, Any]


def jsonld_node(triple: QuotedTriple) -> _JSON:
    """A quoted triple as a JSON-LD-star embedded node: one subject, one property, one value."""
    return {"@id": jsonld_id(triple.s), str(triple.p): [jsonld_value(triple.o)]}


def jsonld_id(term: Subject) -> str | _JSON:
    if isinstance(term, QuotedTriple):
        return jsonld_node(term)
    return f"_:{term}" if isinstance(term, BNode) else str(term)


def jsonld_value(term: Object) -> _JSON:
    if isinstance(term, Literal):
        value: _JSON = {"@value": str(term)}
        if term.language:
            value["@language"] = term.language
        elif term.datatype is not None:
            value["@type"] = str(term.datatype)
        return value
    return {"@id": jsonld_id(term)}


def read_jsonld(text: str, fmt: Format, base: str | None) -> list[Quad]:
    """JSON-LD(-star): embedded nodes are lifted to placeholders, then rdflib reads the rest.

    Each embedded node is read with the ``@context``s of the objects around it, which is JSON-LD's
    scoping except for property- and type-scoped contexts. Remote contexts are refused: fetching a URL
    named by an uploaded document is not something a pure reader (or a server) should do.
    """
    try:
        tree = json.loads(text)
    except json.JSONDecodeError as e:
        line, reason = explain_error(e)
        raise RDFSyntaxError(fmt.name, line, reason) from e
    ph = Placeholders()
    pending: list[tuple[str, _JSON, list[Any]]] = []

    def lift(node: Any, contexts: list[Any]) -> Any:
        if isinstance(node, list):
            return [lift(item, contexts) for item in node]
        if not isinstance(node, dict):
            return node
        if "@context" in node:
            refuse_remote(node["@context"])
            contexts = [*contexts, node["@context"]]
        id_keys = {"@id"} | _id_aliases(contexts)
        out: _JSON = {}
        for key, value in node.items():
            if key == "@context":
                out[key] = value
            elif key in id_keys and isinstance(value, dict):
                placeholder = ph.lift_quoted(Quoted(shorten(json.dumps(value))))
                pending.append((placeholder, lift(value, contexts), contexts))
                out[key] = placeholder
            else:
                out[key] = lift(value, contexts)
        return out

    lifted = lift(tree, [])
    effective_base = base or ph.sentinel_base
    inner: dict[str, tuple[Node, Node, Node]] = {}
    if pending:
        batch = [
            {"@context": ctx, "@id": p, "@graph": [node]} if ctx else {"@id": p, "@graph": [node]}
            for p, node, ctx in pending
        ]
        inner = _inner_jsonld(batch, fmt.name, ph, effective_base)
    ds = Dataset()
    try:
        parse_rdflib(ds, json.dumps(lifted), fmt.rdflib_name, effective_base)
    except Exception as e:
        line, reason = explain_error(e)
        raise RDFSyntaxError(fmt.name, line, ph.restore(reason)) from e
    resolver = Resolver(fmt.name, ph, inner)
    return canonical_order({resolver.quad(s, p, o, g) for s, p, o, g in rdflib_quads(ds)})


def _inner_jsonld(batch: list[_JSON], syntax: str, ph: Placeholders, base: str) -> dict[str, tuple[Node, Node, Node]]:
    """Read every embedded node as the one triple it must be, each in a graph named by its placeholder."""
    ds = Dataset()
    try:
        parse_rdflib(ds, json.dumps(batch), "json-ld", base)
    except Exception as e:
        raise RDFSyntaxError(syntax, None, f"in an embedded node: {ph.restore(explain_error(e)[1])}") from e
    found: dict[str, list[tuple[Node, Node, Node]]] = {key: [] for key in ph.quoted}
    for s, p, o, g in rdflib_quads(ds):
        if str(g) not in found:
            raise RDFSyntaxError(syntax, None, "an embedded node must hold exactly one triple")
        found[str(g)].append((s, p, o))
    for key, triples in found.items():
        if len(triples) != 1:
            shown, count = ph.quoted[key].source, len(triples)
            raise RDFSyntaxError(syntax, None, f"embedded node {shown} must hold exactly one triple, not {count}")
    return {key: triples[0] for key, triples in found.items()}


def _contexts_flat(contexts: list[Any]) -> Iterator[Any]:
    for ctx in contexts:
        if isinstance(ctx, list):
            yield from _contexts_flat(ctx)
        else:
            yield ctx


def _id_aliases(contexts: list[Any]) -> set[str]:
    """Terms a context defines as ``@id`` (``"id": "@id"``), which may hold an embedded node too."""
    return {k for ctx in _contexts_flat(contexts) if isinstance(ctx, dict) for k, v in ctx.items() if v == "@id"}


def refuse_remote(context: Any) -> None:
    """Refuse a context (or ``@import``) given by URL anywhere in ``context``: no network from a parser."""
    if isinstance(context, str):
        raise MappingError(f"json-ld: remote @context {context!r} is not fetched; inline the context")
    if isinstance(context, list):
        for item in context:
            refuse_remote(item)
    elif isinstance(context, dict):
        for key, value in context.items():
            if key in ("@context", "@import"):
                refuse_remote(value)
            elif isinstance(value, dict) and "@context" in value:
                refuse_remote(value["@context"])
