"""What every road in runs, without Flask: the CLI and the web views are two callers of the same code.

* :mod:`~tgneo.service.access` — API tokens and the workspace each one fixes;
* :mod:`~tgneo.service.runtime` — the store, the LLM (built once) and the engines, and a question run
  through the one stream pipeline;
* :mod:`~tgneo.service.operations` — TrustGraph's requests served whole: a question (streamed, or run to
  its final message), a ``triples`` pattern, a librarian text.

Views parse HTTP and WebSocket input and write the response; everything between is here, so no view
imports another view and the CLI sets an engine up exactly as the server does.
"""
