"""Plain generators shared by every transport: requests in, response messages out (pure: no driver, no Flask).

* :mod:`~tgneo.stream.options` — TrustGraph's request fields (``entity-limit``, ``doc-limit``,
  ``pattern`` …) translated and validated into an engine :class:`~tgneo.engines.Request`, once for the
  native endpoints and the gateway socket alike;
* :mod:`~tgneo.stream.wire` — the wire codec: events, terms and triples as TrustGraph's JSON and back,
  encoder and decoder side by side;
* :mod:`~tgneo.stream.pipeline` — engine events → wire messages, with the guarantees every stream
  keeps (a final message, never silence; the engine closed when the reader goes away), for every road
  out: the CLI (printed and ``--json``), NDJSON, SSE, WebSockets and the gateway;
* :mod:`~tgneo.stream.framing` — wire messages → NDJSON lines or Server-Sent Events;
* :mod:`~tgneo.stream.gateway` — TrustGraph's gateway socket protocol: the auth frame, request
  envelopes, response and error frames, batches of triples;
* :mod:`~tgneo.stream.fields` — JSON text from clients checked at the door.

The web layer only chooses a framing and writes what these generators give it, so every
transport carries the same messages and the pipeline is tested without a server.
"""
