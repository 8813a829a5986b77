"""Ingest: documents → pages or sections → chunks → statements, each with its extraction-time provenance.

:mod:`~tgneo.ingest.loader` runs the pipeline (``tgneo load documents``): :mod:`~tgneo.ingest.readers`
decode a file, :mod:`~tgneo.ingest.layout` cuts it (:mod:`~tgneo.ingest.chunking`) and mints
deterministic URIs, the LLM extracts facts from each chunk (:mod:`~tgneo.ingest.facts` parses its
answer), :mod:`~tgneo.ingest.graph` renders the document's provenance with the entities of
:mod:`~tgneo.explain.extraction_time` (exactly TrustGraph's extraction builders, in ``urn:graph:source``)
and its knowledge (the default graph), and ``tgneo.store.documents`` writes it all in one
transaction. :mod:`~tgneo.ingest.index` names and embeds what lacks it (``tgneo load index``);
:mod:`~tgneo.ingest.sample` is the bundled corpus (``tgneo load sample``).
"""
