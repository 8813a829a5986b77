"""The graph an engine reads: one protocol (:class:`~tgneo.graphs.reader.GraphReader`), two readers.

* :mod:`~tgneo.graphs.own` — :class:`~tgneo.graphs.own.OwnGraph`, tgneo's own knowledge graph and documents;
* :mod:`~tgneo.graphs.profile` — :class:`~tgneo.graphs.profile.ProfileGraph`, the graph another tool wrote, read
  through a graph profile (:mod:`tgneo.graph_profiles`) without changing it, with the extraction provenance of what
  an answer used recorded beside it.

The engines choose one per question (``reader()`` in :mod:`tgneo.engines.base`) and never know which they hold; both
reach Neo4j only through :mod:`tgneo.store` functions.
"""
