"""Ingest: documents → pages → chunks → statements, each with its extraction-time provenance.

So far it holds that provenance (:mod:`tgneo.ingest.provenance`): the entities TrustGraph's
extraction builders emit into ``urn:graph:source``, which trace readers follow from a selected edge
back to the document it came from.
"""
