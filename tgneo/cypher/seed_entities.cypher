// Purpose: GraphRAG exploration, step 1: the knowledge-graph entities each concept names, found by the full-text index on entity names and by the vector index on their embeddings, kept to the workspace and collection (the indexes are database-wide, so candidates are over-fetched and filtered), best first.
// Params: $workspace, $collection, $concepts (LIST<MAP> text, query, vector), $per_concept, $total, $overfetch, $name_index, $vector_index
// Returns: uri STRING, name STRING, score FLOAT, concept STRING
UNWIND $concepts AS c
CALL (c) {
  CALL db.index.fulltext.queryNodes($name_index, c.query, {limit: $overfetch}) YIELD node, score
  WITH node, score
  WHERE node.workspace = $workspace AND node.collection = $collection
  RETURN node, score / (score + 1.0) AS s
  ORDER BY s DESC, node.uri
  LIMIT $per_concept
  UNION
  WITH c WHERE c.vector IS NOT NULL
  CALL db.index.vector.queryNodes($vector_index, $overfetch, c.vector) YIELD node, score
  WITH node, score
  WHERE node.workspace = $workspace AND node.collection = $collection
  RETURN node, score AS s
  ORDER BY s DESC, node.uri
  LIMIT $per_concept
}
WITH node, max(s) AS score, min(c.text) AS concept
ORDER BY score DESC, node.uri
LIMIT $total
RETURN node.uri AS uri, node.name AS name, score, concept
