"""Turtle-star and TriG-star: rdflib for the hard part, placeholders for the quoted triples.

rdflib parses prefixes, ``a``, lists, numbers and long strings; every ``<< … >>`` and ``_:label`` is
lifted to a placeholder first (:mod:`tgneo.rdf.placeholders`), the inner ``s p o`` of each quoted
triple is parsed with the declarations in force where it was written, and the placeholders are
swapped back (writing is :mod:`tgneo.rdf.writer`'s, without rdflib). RDF 1.2's ``<<( s p o )>>`` reads as the same
quoted triple; annotation syntax ``{| … |}`` is refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rdflib import Dataset
from rdflib.term import Node

from tgneo.errors import RDFSyntaxError
from tgneo.rdf.formats import Format
from tgneo.rdf.ntriples import BNODE_LABEL, canonical_order
from tgneo.rdf.placeholders import (
    Placeholders,
    Quoted,
    Resolver,
    explain_error,
    parse_rdflib,
    rdflib_quads,
    shorten,
)
from tgneo.rdf.terms import Quad

_TOKEN = re.compile(
    r"""
      (?P<nl>\n)
    | (?P<ws>[ \t\r]+)
    | (?P<comment>\#[^\n]*)
    | (?P<open><<\(?)
    | (?P<close>\)?>>)
    | (?P<iri><[^>\n]*>)
    | (?P<string>\"\"\"(?:[^"\\]|\\[\s\S]|"(?!""))*\"\"\"|'''(?:[^'\\]|\\[\s\S]|'(?!''))*'''
                |"(?:[^"\\\n\r]|\\.)*"|'(?:[^'\\\n\r]|\\.)*')
    | (?P<bnode>_:)
    | (?P<annotation>\{\|)
    | (?P<punct>[{}()\[\],;^]|\.(?![0-9]))
    | (?P<word>(?:[^\s<>"'{}()\[\],;\#^\\]|\\.)+)
    | (?P<other>.)
    """,
    re.VERBOSE,
)
_BANNED_INSIDE = "{}(),;."
"""Punctuation that can only mean a malformed quoted triple (it would let one triple become several)."""


@dataclass
class _Frame:
    closing: str
    line: int
    start: int
    parts: list[str] = field(default_factory=list)


def _lift_turtle(text: str, syntax: str, ph: Placeholders) -> str:
    """Replace every ``<< … >>`` and ``_:label`` with a placeholder IRI, innermost first.

    Line numbers are kept (a lifted quoted triple is followed by the newlines it spanned), so rdflib's
    errors point at the user's lines. Each quoted triple remembers the prefix and base declarations in
    force where it opened, since Turtle lets them change mid-document.
    """
    frames = [_Frame(closing="", line=1, start=0)]
    prologue: list[str] = []
    directive: list[str] | None = None
    pos, line = 0, 1
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        assert m is not None and m.lastgroup is not None  # `other` matches any character
        kind, token, end = m.lastgroup, m.group(), m.end()
        top = frames[-1]
        if kind == "nl":
            line += 1
        elif kind == "comment":
            token = ""
        elif kind == "open":
            frames.append(_Frame(closing=")>>" if token == "<<(" else ">>", line=line, start=pos))
            pos = end
            continue
        elif kind == "close":
            if len(frames) == 1:
                raise RDFSyntaxError(syntax, line, f"'{token}' without a matching '<<'")
            if token != top.closing:
                raise RDFSyntaxError(syntax, line, f"expected '{top.closing}' to close the '<<' of line {top.line}")
            frames.pop()
            source = text[top.start : end]
            placeholder = ph.lift_quoted(Quoted(source, "".join(top.parts), "".join(prologue), top.line))
            frames[-1].parts.append(f"<{placeholder}>" + "\n" * source.count("\n"))
            pos = end
            continue
        elif kind == "string":
            line += token.count("\n")
        elif kind == "bnode":
            label = BNODE_LABEL.match(text, pos)
            if not label:
                raise RDFSyntaxError(syntax, line, "invalid blank node label after '_:'")
            token, end = f"<{ph.lift_label(label.group()[2:])}>", label.end()
        elif kind == "annotation":
            raise RDFSyntaxError(syntax, line, "annotation syntax {| … |} is not supported; quote the triple instead")
        elif kind == "punct" and len(frames) > 1 and token in _BANNED_INSIDE:
            raise RDFSyntaxError(syntax, line, f"{token!r} is not allowed inside a quoted triple (one s p o only)")
        elif kind == "word":
            word = token.rstrip(".") or token[:1]  # a statement's final '.' is not part of the name
            token, end = word, pos + len(word)
            if len(frames) == 1 and (word in ("@prefix", "@base") or word.upper() in ("PREFIX", "BASE")):
                directive = [word]
            elif directive is not None:
                directive.append(word)
        elif kind == "iri" and directive is not None:
            directive.append(token)
            prologue.append(" ".join(directive) + (" .\n" if directive[0].startswith("@") else "\n"))
            directive = None
        elif kind == "other" and token in "\"'":
            raise RDFSyntaxError(syntax, line, "unterminated string")
        frames[-1].parts.append(token)
        pos = end
    if len(frames) > 1:
        raise RDFSyntaxError(syntax, frames[-1].line, f"'<<' is never closed (expected '{frames[-1].closing}')")
    return "".join(frames[0].parts)


def _parse_inner(syntax: str, ph: Placeholders, base: str) -> dict[str, tuple[Node, Node, Node]]:
    """Parse every quoted triple's ``s p o``: one TriG document per prologue, one graph per triple.

    Naming each inner triple's graph after its placeholder keeps them apart in a single rdflib parse
    (thousands of quoted triples cost one parse, not thousands). When that parse fails, each is parsed
    alone to say which quoted triple, on which line, is wrong.
    """
    groups: dict[str, list[str]] = {}
    for placeholder, quoted in ph.quoted.items():
        groups.setdefault(quoted.prologue, []).append(placeholder)
    found: dict[str, list[tuple[Node, Node, Node]]] = {key: [] for key in ph.quoted}
    for prologue, placeholders in groups.items():
        ds = Dataset()
        try:
            parse_rdflib(ds, prologue + "".join(_inner_block(p, ph) for p in placeholders), "trig", base)
        except Exception as e:  # parse each alone to find and name the culprit
            for placeholder in placeholders:
                _parse_alone(syntax, ph, placeholder, base)
            raise RDFSyntaxError(syntax, None, f"in a quoted triple: {ph.restore(explain_error(e)[1])}") from e
        for s, p, o, g in rdflib_quads(ds):
            key = str(g)
            if key not in found:
                raise RDFSyntaxError(syntax, None, "a quoted triple must hold exactly one s p o")
            found[key].append((s, p, o))
    inner: dict[str, tuple[Node, Node, Node]] = {}
    for placeholder, triples in found.items():
        if len(triples) != 1:
            quoted = ph.quoted[placeholder]
            raise RDFSyntaxError(
                syntax, quoted.line, f"{shorten(quoted.source)} must hold exactly one s p o, not {len(triples)}"
            )
        inner[placeholder] = triples[0]
    return inner


def _inner_block(placeholder: str, ph: Placeholders) -> str:
    return f"<{placeholder}> {{ {ph.quoted[placeholder].inner} . }}\n"


def _parse_alone(syntax: str, ph: Placeholders, placeholder: str, base: str) -> None:
    quoted = ph.quoted[placeholder]
    try:
        parse_rdflib(Dataset(), quoted.prologue + _inner_block(placeholder, ph), "trig", base)
    except Exception as e:
        _, reason = explain_error(e)
        raise RDFSyntaxError(syntax, quoted.line, f"in {shorten(quoted.source)}: {ph.restore(reason)}") from e


def read_turtle(text: str, fmt: Format, base: str | None) -> list[Quad]:
    """Turtle-star (default graph only) and TriG-star via rdflib and placeholders."""
    ph = Placeholders()
    lifted = _lift_turtle(text, fmt.name, ph)
    effective_base = base or ph.sentinel_base
    ds = Dataset()
    try:
        parse_rdflib(ds, lifted, fmt.rdflib_name, effective_base)
    except Exception as e:
        line, reason = explain_error(e)
        raise RDFSyntaxError(fmt.name, line, ph.restore(reason)) from e
    inner = _parse_inner(fmt.name, ph, effective_base) if ph.quoted else {}
    resolver = Resolver(fmt.name, ph, inner)
    return canonical_order({resolver.quad(s, p, o, g) for s, p, o, g in rdflib_quads(ds)})
