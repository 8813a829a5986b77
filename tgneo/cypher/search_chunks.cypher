// Purpose: Document RAG exploration: the chunks nearest each concept's embedding, deduplicated, each with its text and its similarity to the whole question for reranking. The vector index spans every collection: $overfetch neighbours are read and this workspace and collection's kept; when fewer than $per_concept remain, $widen times as many are read (still through the index: the cost follows the index, never the collection's size).
// Params: $workspace, $collection, $vectors, $question_vector, $per_concept, $overfetch, $chunk_index, $widen
// Returns: uri STRING, text STRING, score FLOAT, rerank FLOAT
UNWIND $vectors AS v
CALL (v) {
  CALL db.index.vector.queryNodes($chunk_index, $overfetch, v) YIELD node, score
  WITH node, score
  WHERE node.workspace = $workspace AND node.collection = $collection
  ORDER BY score DESC, node.uri
  RETURN collect({node: node, score: score})[..$per_concept] AS hits
}
CALL (v, hits) {
  WITH hits WHERE size(hits) >= $per_concept
  UNWIND hits AS hit
  RETURN hit.node AS node, hit.score AS score
  UNION
  WITH v, hits WHERE size(hits) < $per_concept
  CALL db.index.vector.queryNodes($chunk_index, $overfetch * $widen, v) YIELD node, score
  WITH node, score
  WHERE node.workspace = $workspace AND node.collection = $collection
  ORDER BY score DESC, node.uri
  LIMIT $per_concept
  RETURN node, score
}
WITH node, max(score) AS score
RETURN node.uri AS uri, node.text AS text, score,
       vector.similarity.cosine($question_vector, node.embedding) AS rerank
ORDER BY score DESC, uri
