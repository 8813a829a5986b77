"""Named Cypher queries, one per file (loaded by tgneo.store.queries)."""
