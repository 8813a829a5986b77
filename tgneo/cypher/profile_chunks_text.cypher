// Purpose: Document RAG over a graph profile by their chunk full-text index (no vector index fits the embedder, and no side index): the chunks matching each concept, deduplicated, each with its score against the whole question for reranking. Read only.
// Params: $index, $label, $key, $text, $queries (LIST<STRING>), $question, $per_concept, $fetch
// Returns: element STRING, key ANY, text STRING, score FLOAT, rerank FLOAT
UNWIND $queries AS q
CALL (q) {
  CALL db.index.fulltext.queryNodes($index, q, {limit: $fetch}) YIELD node, score
  WITH node, score WHERE $label IN labels(node)
  RETURN node, score / (score + 1.0) AS score ORDER BY score DESC, elementId(node) LIMIT $per_concept
}
WITH node, max(score) AS score
CALL (node) {
  CALL db.index.fulltext.queryNodes($index, $question, {limit: $fetch}) YIELD node AS hit, score
  WITH hit, score WHERE hit = node
  RETURN score / (score + 1.0) AS rerank
  UNION
  RETURN 0.0 AS rerank
}
WITH node, score, max(rerank) AS rerank
RETURN elementId(node) AS element, node[$key] AS key, toString(node[$text]) AS text, score, rerank
ORDER BY score DESC, element
