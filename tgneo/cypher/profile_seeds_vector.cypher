// Purpose: GraphRAG over a graph profile, step 1 by their vector index (when the configured embedder is a model of the index's dimensions): the nodes of their entity label nearest each concept, at least $min_similarity, best first. Read only.
// Params: $index, $label, $key, $name, $concepts (LIST<MAP> text, vector), $per_concept, $total, $fetch, $min_similarity
// Returns: element STRING, key ANY, name ANY, score FLOAT, concept STRING
UNWIND $concepts AS c
CALL (c) {
  CALL db.index.vector.queryNodes($index, $fetch, c.vector) YIELD node, score
  WITH node, score WHERE $label IN labels(node) AND score >= $min_similarity
  RETURN node, score AS s
  ORDER BY s DESC, elementId(node)
  LIMIT $per_concept
}
WITH node, max(s) AS score, min(c.text) AS concept
ORDER BY score DESC, elementId(node)
LIMIT $total
RETURN elementId(node) AS element, node[$key] AS key, node[$name] AS name, score, concept
