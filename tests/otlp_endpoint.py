"""A real OTLP/HTTP endpoint on loopback for the export tests: it keeps what each ``POST`` brought and answers as
OTLP does — or, scripted, with the statuses a receiver under load answers first (503, 429)."""

from __future__ import annotations

import gzip
import queue
import threading
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)


@dataclass(frozen=True)
class Post:
    """One request as it arrived: path, headers (lowercase names), the body as sent and as decoded."""

    path: str
    headers: dict[str, str]
    raw: bytes
    body: bytes
    status: int

    def request(self) -> ExportTraceServiceRequest:
        return ExportTraceServiceRequest.FromString(self.body)


class OtlpEndpoint:
    """Keeps each ``POST`` (gzip and deflate bodies decoded, as a receiver does); answers ``statuses`` first, then
    200 with an empty ``ExportTraceServiceResponse`` (404 off ``/v1/traces``)."""

    def __init__(self, statuses: tuple[int, ...] = ()) -> None:
        self.posts: queue.Queue[Post] = queue.Queue()
        self.answered: list[Post] = []
        script = list(statuses)
        lock = threading.Lock()
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802  (http.server's naming)
                raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                encoding = self.headers.get("Content-Encoding", "")
                body = gzip.decompress(raw) if encoding == "gzip" else zlib.decompress(raw) if encoding == "deflate" \
                    else raw  # fmt: skip
                with lock:
                    status = script.pop(0) if script else 200 if self.path == "/v1/traces" else 404
                post = Post(self.path, {k.lower(): v for k, v in self.headers.items()}, raw, body, status)
                with lock:
                    endpoint.answered.append(post)
                if status == 200:
                    endpoint.posts.put(post)
                answer = ExportTraceServiceResponse().SerializeToString() if status == 200 else b"busy"
                self.send_response(status)
                self.send_header("Content-Type", "application/x-protobuf" if status == 200 else "text/plain")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def next(self, timeout: float = 30) -> Post:
        """The next request answered 200 (waiting for it)."""
        return self.posts.get(timeout=timeout)

    def accepted(self) -> list[Post]:
        """Every request answered 200 so far (taking them)."""
        taken = []
        while not self.posts.empty():
            taken.append(self.posts.get_nowait())
        return taken


@contextmanager
def otlp_endpoint(statuses: tuple[int, ...] = ()) -> Iterator[OtlpEndpoint]:
    endpoint = OtlpEndpoint(statuses)
    thread = threading.Thread(target=endpoint.server.serve_forever, daemon=True)
    thread.start()
    try:
        yield endpoint
    finally:
        endpoint.server.shutdown()
        endpoint.server.server_close()
        thread.join()
