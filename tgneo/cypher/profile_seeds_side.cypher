// Purpose: GraphRAG over a graph profile, step 1 by tgneo's side index (`tgneo load index --graph`): the tgneo-owned entries of the workspace and collection whose name matches a concept (full text) or whose embedding is near it (at least $min_similarity), each resolved to their node (still of their entity label). The indexes span every collection: $fetch hits are read and this collection's kept.
// Params: $workspace, $collection, $name_index, $vector_index, $label, $key, $name, $concepts (LIST<MAP> text, query, vector), $per_concept, $total, $fetch, $min_similarity
// Returns: element STRING, key ANY, name ANY, score FLOAT, concept STRING
UNWIND $concepts AS c
CALL (c) {
  CALL db.index.fulltext.queryNodes($name_index, c.query, {limit: $fetch}) YIELD node, score
  WITH node, score
  WHERE node.workspace = $workspace AND node.collection = $collection AND node.element IS NOT NULL AND NOT node:TgChunk
  RETURN node, score / (score + 1.0) AS s
  ORDER BY s DESC, node.uri
  LIMIT $per_concept
  UNION
  WITH c WHERE c.vector IS NOT NULL
  CALL db.index.vector.queryNodes($vector_index, $fetch, c.vector) YIELD node, score
  WITH node, score
  WHERE node.workspace = $workspace AND node.collection = $collection AND node.element IS NOT NULL AND NOT node:TgChunk
    AND score >= $min_similarity
  RETURN node, score AS s
  ORDER BY s DESC, node.uri
  LIMIT $per_concept
}
WITH node.element AS element, max(s) AS score, min(c.text) AS concept
MATCH (their) WHERE elementId(their) = element AND $label IN labels(their)
WITH their, score, concept
ORDER BY score DESC, elementId(their)
LIMIT $total
RETURN elementId(their) AS element, their[$key] AS key, their[$name] AS name, score, concept
