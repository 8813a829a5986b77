// Purpose: GraphRAG over a graph profile, step 1 by their vector index (when the configured embedder is a model of the index's dimensions): the $per_concept nodes of their entity label (never one carrying a label of $exclude) nearest each concept, at least $min_similarity, with their similarity (ranked with tgneo's own seeds by tgneo.store.kg.fuse_seeds). Read only.
// Params: $index, $label, $exclude, $key, $name, $concepts (LIST<MAP> text, vector), $per_concept, $fetch, $min_similarity
// Returns: concept STRING, element STRING, key ANY, name ANY, text_score FLOAT (always null), vector_score FLOAT
UNWIND $concepts AS c
CALL (c) {
  CALL db.index.vector.queryNodes($index, $fetch, c.vector) YIELD node, score
  WITH node, score WHERE $label IN labels(node) AND score >= $min_similarity
    AND none(l IN labels(node) WHERE l IN $exclude)
  RETURN node, score
  ORDER BY score DESC, elementId(node)
  LIMIT $per_concept
}
RETURN c.text AS concept, elementId(node) AS element, node[$key] AS key, node[$name] AS name,
       null AS text_score, max(score) AS vector_score
ORDER BY concept, element
