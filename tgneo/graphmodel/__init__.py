"""Quads ⇄ Neo4j rows, driven by the mapping table and the native rule (pure: no driver here).

:func:`~tgneo.graphmodel.compiler.compile_quads` turns RDF quads into the rows one batched Cypher statement
writes; the :class:`~tgneo.graphmodel.decompiler.Decompiler` turns stored rows back into quads in a chosen export
profile. The recorder, the importer,
the loader, the exporter and the streams all go through these, so a step written live and the same step
imported from a file become the same nodes, and export gives back the same quads.

The rules (docs/graph-model.md tells them at length):

* Every IRI (and blank node) is one ``:Tgneo:TgResource {uri}`` per workspace + collection.
* **The knowledge graph** (the default graph) is native (:mod:`tgneo.native`): a triple whose object is an
  IRI or blank node is a typed relationship between the two nodes (``iri`` and ``id`` on it); one whose
  object is a literal is a property value of its subject (``rdfs:label`` is ``name``).
* A subject with triples in ``urn:graph:retrieval`` or ``urn:graph:source`` is a *provenance entity*: its
  ``rdf:type``s become labels (plus ``:TgExplain`` or ``:TgSource``), mapped literal predicates become
  native properties, mapped IRI predicates become relationships, and ``tg:edge``/``tg:contains`` point at
  ``:TgStatement`` nodes, whose relationship carries the annotations the mapping allows on it
  (``<< sg tg:contains << s p o >> >> tg:sourceText "…"``).
* A **reified edge** (``:TgStatement``, one per (s, p, o), ``id`` its stable hash) stands wherever
  provenance quotes an edge, and wherever the native form cannot hold a triple exactly: a quoted-triple
  subject or object, a named graph other than the default and provenance graphs, a provenance triple the
  table does not cover, a literal whose value does not fit the values its key already holds. Its
  ``asserted_in`` lists the graphs it is asserted in *as a statement* (the native form asserts the rest).
* A literal becomes a native value only when rendering that value gives back the same text;
  otherwise the text is kept (with a tag), so import → export is exact.

Where each part lives:

* :mod:`~tgneo.graphmodel.terms` — a term's stored key and a literal's native value, both ways;
* :mod:`~tgneo.graphmodel.compiler` — quads → the rows one batched write takes (``compile_quads``,
  ``NativeRows`` for plain knowledge-graph triples);
* :mod:`~tgneo.graphmodel.decompiler` — stored rows → quads in an export profile (``Decompiler``);
* :mod:`~tgneo.graphmodel.limits` — what one index key holds, checked before anything is written.
"""
