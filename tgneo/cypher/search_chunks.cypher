// Purpose: Document RAG exploration: the chunks nearest each concept's embedding (vector index, over-fetched and kept to the workspace and collection), deduplicated, each with its text and its similarity to the whole question for reranking.
// Params: $workspace, $collection, $vectors, $question_vector, $per_concept, $overfetch, $chunk_index
// Returns: uri STRING, text STRING, score FLOAT, rerank FLOAT
UNWIND $vectors AS v
CALL (v) {
  CALL db.index.vector.queryNodes($chunk_index, $overfetch, v) YIELD node, score
  WITH node, score
  WHERE node.workspace = $workspace AND node.collection = $collection
  RETURN node, score
  ORDER BY score DESC, node.uri
  LIMIT $per_concept
}
WITH node, max(score) AS score
RETURN node.uri AS uri, node.text AS text, score,
       vector.similarity.cosine($question_vector, node.embedding) AS rerank
ORDER BY score DESC, uri
