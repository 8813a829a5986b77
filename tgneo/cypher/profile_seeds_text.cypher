// Purpose: GraphRAG over a graph profile, step 1 by their full-text index: the $per_concept nodes of their entity label (never one carrying a label of $exclude) that each concept names best, with their Lucene score (ranked with tgneo's own seeds by tgneo.store.kg.fuse_seeds). Read only.
// Params: $index, $label, $exclude, $key, $name, $concepts (LIST<MAP> text, query), $per_concept, $fetch
// Returns: concept STRING, element STRING, key ANY, name ANY, text_score FLOAT, vector_score FLOAT (always null)
UNWIND $concepts AS c
CALL (c) {
  CALL db.index.fulltext.queryNodes($index, c.query, {limit: $fetch}) YIELD node, score
  WITH node, score WHERE $label IN labels(node) AND none(l IN labels(node) WHERE l IN $exclude)
  RETURN node, score
  ORDER BY score DESC, elementId(node)
  LIMIT $per_concept
}
RETURN c.text AS concept, elementId(node) AS element, node[$key] AS key, node[$name] AS name,
       max(score) AS text_score, null AS vector_score
ORDER BY concept, element
