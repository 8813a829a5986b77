"""Explainability: the step entities of a trace, recorded before they are announced.

The entities are pure: one frozen dataclass per TrustGraph step type, each rendering exactly the
triples TrustGraph 2.11.1's own provenance builders emit, so that TrustGraph's tools read tgneo's
traces unchanged. ``entity`` holds their base; ``graphrag``, ``docrag`` and ``agent`` the steps of
each session kind; ``entities`` is the registry of every kind (the extraction-time entities of
:mod:`tgneo.explain.extraction_time` included).
"""
