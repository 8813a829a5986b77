// Purpose: Document RAG exploration, hybrid: the chunks nearest each concept's embedding (vector index) and the chunks whose words best match the question (full-text index), deduplicated, each with its text, its best vector similarity, its full-text score and its similarity to the whole question; the caller fuses the two rankings. Both indexes span every collection: $overfetch hits are read and this workspace and collection's kept; when fewer than $per_concept vector hits remain, $widen times as many are read (still through the index: the cost follows the index, never the collection's size). An empty $terms skips the full-text side.
// Params: $workspace, $collection, $vectors, $question_vector, $per_concept, $overfetch, $chunk_index, $widen, $text_index, $terms, $text_limit
// Returns: uri STRING, text STRING, score FLOAT (null: only full text found it), text_score FLOAT (null: only vectors found it), rerank FLOAT
CALL () {
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
  RETURN node, score AS vscore, null AS tscore
  UNION ALL
  WITH 1 AS one WHERE $terms <> ''
  CALL db.index.fulltext.queryNodes($text_index, $terms, {limit: $overfetch}) YIELD node, score
  WITH node, score
  WHERE node.workspace = $workspace AND node.collection = $collection
  ORDER BY score DESC, node.uri
  LIMIT $text_limit
  RETURN node, null AS vscore, score AS tscore
}
WITH node, max(vscore) AS score, max(tscore) AS text_score
RETURN node.uri AS uri, node.text AS text, score, text_score,
       vector.similarity.cosine($question_vector, node.embedding) AS rerank
ORDER BY coalesce(score, 0.0) DESC, uri
