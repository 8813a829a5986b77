"""RDF side of tgneo: terms, quoted triples, formats, import and export (pure: no driver, no Flask)."""
