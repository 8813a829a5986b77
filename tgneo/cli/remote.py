"""A client of a running ``tgneo serve``: what ``tgneo ask --url`` uses instead of running engines in-process.

Plain ``urllib`` (no extra dependency): ``POST /api/v1/{engine}`` read line by line as the NDJSON
arrives, and the ``labels`` named query for the readable ``-x`` view. A request the server refuses
(``{"error": {"type", "message"}}`` with a 4xx) becomes one ``error: …`` line, like every other
command's; a stream that breaks or stops before its final message ends with an ``error`` message, as
the server's own streams do (:func:`tgneo.stream.pipeline.final`).
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Generator, Iterator, Mapping
from typing import IO, Any

from tgneo.errors import BadRequest, TgneoError
from tgneo.graph_profiles import GraphProfile
from tgneo.kinds import SessionKind
from tgneo.stream.options import REQUEST_FIELDS
from tgneo.stream.pipeline import final
from tgneo.stream.wire import Message


class RemoteError(TgneoError):
    """The server refused a request or could not be reached; the message says which and why."""


class Remote:
    """One server (``url``), one token (or none), one workspace and collection."""

    def __init__(self, url: str, token: str | None, workspace: str, collection: str, timeout: float = 300) -> None:
        if not url.startswith(("http://", "https://")):
            raise BadRequest(f"--url: {url!r} is not an http:// or https:// URL")
        self.base = url.rstrip("/")
        self.token, self.workspace, self.collection, self.timeout = token, workspace, collection, timeout

    def _post(self, path: str, body: Mapping[str, Any]) -> Any:
        headers = {"Content-Type": "application/json", "Accept": "application/x-ndjson, application/json"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        request = urllib.request.Request(self.base + path, json.dumps(body).encode(), headers, method="POST")
        try:
            return urllib.request.urlopen(request, timeout=self.timeout)  # noqa: S310 - the user's own --url
        except urllib.error.HTTPError as e:
            raise RemoteError(f"{self.base}{path} answered {e.code}: {_message(e.read())}") from None
        except (urllib.error.URLError, OSError) as e:
            raise RemoteError(f"cannot reach {self.base}: {getattr(e, 'reason', e)}") from None

    def ask(
        self,
        kind: SessionKind,
        question: str,
        options: Mapping[str, Any],
        graph: GraphProfile | None = None,
        verify: bool | int = False,
    ) -> Iterator[Message]:
        """The response messages of one question, as they arrive, ending in one final message.

        ``graph`` is sent by its name (``graph-profile``): the server answers over a built-in profile or
        one it was configured with (``TGNEO_GRAPHS``), never a file a client sends.

        Raises:
            BadRequest: an option the engine does not have (nothing was sent).
            RemoteError: the server refused the question or could not be reached.
        """
        fields = REQUEST_FIELDS[kind.wire]
        wire_names = {name: wire for wire, name in fields.options.items()}
        body: dict[str, Any] = {fields.question: question, "collection": self.collection, "workspace": self.workspace}
        if graph is not None:
            body["graph-profile"] = graph.name
        if verify is not False:
            body["verify"] = verify
        for name, value in options.items():
            if name not in wire_names:
                raise BadRequest(f"{kind.wire}: unknown option {name!r} (options: {', '.join(sorted(wire_names))})")
            body[wire_names[name]] = value
        response = self._post(f"/api/v1/{kind.wire}", body)
        return final(self._lines(response), kind, f"{self.base}'s {kind.wire} stream")

    def _lines(self, response: IO[bytes]) -> Generator[Message, None, None]:
        with response:
            try:
                for line in response:
                    if line.strip():
                        yield json.loads(line)
            except (OSError, ValueError) as e:
                raise RemoteError(f"{self.base}'s stream broke off: {e}") from None

    def labels(self, iris: list[str]) -> dict[str, str]:
        """The ``rdfs:label`` of each IRI that has one, through the ``labels`` named query."""
        if not iris:
            return {}
        body = {"params": {"uris": iris}, "collection": self.collection, "workspace": self.workspace}
        with self._post("/api/v1/queries/labels", body) as response:
            rows = json.loads(response.read())["rows"]
        return {r["uri"]: r["label"] for r in rows}


def _message(raw: bytes) -> str:
    try:
        error = json.loads(raw)["error"]
        return f"{error['type']}: {error['message']}"
    except (ValueError, KeyError, TypeError):
        return raw.decode(errors="replace")[:300]
