"""Explainability: the step entities of a trace (``entities``), recorded before they are announced.

``entities`` is pure: one frozen dataclass per TrustGraph step type, each rendering exactly the
triples TrustGraph 2.11.1's own provenance builders emit, so that TrustGraph's tools read tgneo's
traces unchanged.
"""
