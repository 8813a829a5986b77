"""One road for an RDF document, whichever door it comes in by: ``POST /api/v1/rdf`` and ``tgneo import`` read it
with the same streaming reader and checks, so they accept the same documents (the same number of quads) and
refuse the same ones with the same message."""

from __future__ import annotations

from pathlib import Path

import pytest
import requests

from tests.clirun import tgneo
from tests.conftest import Neo4jServer
from tests.serving import Served

E = "http://example.org/"
HUGE = "http://example.org/" + "x" * 9000
DOCUMENTS: dict[str, tuple[str, str, str | None, bool]] = {
    # name: (format, text, base, whether it is accepted)
    "turtle": ("turtle", f'@prefix ex: <{E}> .\nex:a ex:b ex:c ; ex:d "text"@en .\n', None, True),
    "turtle, quoted subject": ("turtle", f"<< <{E}a> <{E}b> <{E}c> >> <{E}source> <{E}doc> .\n", None, True),
    "turtle, quoted object": ("turtle", f'<{E}sel> <{E}edge> << <{E}a> <{E}b> "c" >> .\n', None, True),
    "turtle, relative IRI and a base": ("turtle", "<a> <b> <c> .\n", E, True),
    "trig": ("trig", f"<{E}g> {{ <{E}a> <{E}b> <{E}c> . }}\n<{E}a> <{E}b> <{E}d> .\n", None, True),
    "n-quads, TrustGraph's quoted edge": (
        "nquads",
        f'<{E}sel> <{E}edge> << <{E}a> <{E}b> "c" >> <urn:graph:retrieval> .\n',
        None,
        True,
    ),
    "n-triples": (
        "nt",
        f'<{E}a> <{E}b> _:x .\n_:x <{E}c> "1"^^<http://www.w3.org/2001/XMLSchema#integer> .\n',
        None,
        True,
    ),
    "json-ld": ("json-ld", f'{{"@id": "{E}a", "{E}b": {{"@id": "{E}c"}}}}', None, True),
    "turtle, syntax error": ("turtle", f"<{E}a> <{E}b> <{E}c> .\n<{E}a> <{E}b> .\n", None, False),
    "turtle, relative IRI without a base": ("turtle", "<a> <b> <c> .\n", None, False),
    "turtle, '<<' never closed": ("turtle", f"<{E}a> <{E}b> << <{E}c> <{E}d> <{E}e> .\n", None, False),
    "n-quads, a missing object": ("nquads", f"<{E}a> <{E}b> .\n", None, False),
    "n-quads, a blank-node graph": ("nquads", f"<{E}a> <{E}b> <{E}c> _:g .\n", None, False),
    "json-ld, cut short": ("json-ld", "{", None, False),
    "json-ld, a remote context": ("json-ld", '{"@context": "https://schema.org/", "@id": "http://e/a"}', None, False),
    "turtle, empty": ("turtle", "", None, False),
    "n-quads, a term Neo4j cannot index": ("nquads", f"<{HUGE}> <{E}b> <{E}c> .\n", None, False),
}


def _cli(server: Neo4jServer, path: Path, fmt: str, base: str | None, collection: str) -> tuple[bool, str]:
    """(accepted, the number of quads imported or the error's message) as ``tgneo import`` reports it."""
    args = ["import", str(path), "--format", fmt, "--collection", collection, *(["--base", base] if base else [])]
    result = tgneo(server, *args, ok=False)
    said = " ".join(result.stderr.split())
    if result.returncode == 0:
        return True, said.split("imported ", 1)[1].split(" quads", 1)[0]
    assert result.returncode == 1 and "error: " in said, result.stderr
    return False, said.split("error: ", 1)[1]


def _http(served: Served, data: bytes, fmt: str, base: str | None, collection: str) -> tuple[bool, str]:
    """(accepted, the number of quads imported or the error's message) as ``POST /api/v1/rdf`` answers."""
    params = {"format": fmt, "collection": collection, **({"base": base} if base else {})}
    response = requests.post(f"{served.base}/api/v1/rdf", params=params, data=data, headers=served.a.headers,
                             timeout=60)  # fmt: skip
    if response.status_code == 200:
        return True, str(response.json()["quads"])
    assert 400 <= response.status_code < 500, response.text
    return False, " ".join(response.json()["error"]["message"].split())


@pytest.mark.parametrize("name", DOCUMENTS)
def test_http_and_the_cli_accept_and_refuse_a_document_alike(
    neo4j_server: Neo4jServer, served: Served, collection: str, tmp_path: Path, name: str
) -> None:
    fmt, text, base, accepted = DOCUMENTS[name]
    path = tmp_path / "document"
    path.write_text(text, encoding="utf-8")
    by_cli = _cli(neo4j_server, path, fmt, base, f"{collection}-cli")
    by_http = _http(served, text.encode(), fmt, base, f"{collection}-http")
    assert by_http == by_cli
    assert by_cli[0] is accepted, by_cli[1]
