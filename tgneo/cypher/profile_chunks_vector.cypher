// Purpose: Document RAG over a graph profile by their chunk vector index (the configured embedder is a model of its dimensions): the chunks nearest each concept's embedding, deduplicated, with their similarity to the whole question for reranking. Read only.
// Params: $index, $label, $key, $text, $embedding, $vectors, $question_vector, $per_concept, $fetch
// Returns: element STRING, key ANY, text STRING, score FLOAT, rerank FLOAT
UNWIND $vectors AS v
CALL (v) {
  CALL db.index.vector.queryNodes($index, $fetch, v) YIELD node, score
  WITH node, score WHERE $label IN labels(node)
  RETURN node, score ORDER BY score DESC, elementId(node) LIMIT $per_concept
}
WITH node, max(score) AS score
RETURN elementId(node) AS element, node[$key] AS key, toString(node[$text]) AS text, score,
       (1.0 + vector.similarity.cosine($question_vector, node[$embedding])) / 2.0 AS rerank
ORDER BY score DESC, element
