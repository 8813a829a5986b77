// Purpose: Document RAG over a graph profile by tgneo's side index (`tgneo load index --graph`): the tgneo-owned chunk entries of the workspace and collection nearest each concept's embedding, deduplicated, each resolved to their chunk (still of their chunk label) with its text read there, and the entry's similarity to the whole question for reranking. The index spans every collection: $fetch neighbours are read and this collection's kept.
// Params: $workspace, $collection, $chunk_index, $label, $key, $text, $vectors, $question_vector, $per_concept, $fetch
// Returns: element STRING, key ANY, text STRING, score FLOAT, rerank FLOAT
UNWIND $vectors AS v
CALL (v) {
  CALL db.index.vector.queryNodes($chunk_index, $fetch, v) YIELD node, score
  WITH node, score
  WHERE node.workspace = $workspace AND node.collection = $collection AND node.element IS NOT NULL
  RETURN node, score ORDER BY score DESC, node.uri LIMIT $per_concept
}
WITH node, max(score) AS score
MATCH (their) WHERE elementId(their) = node.element AND $label IN labels(their)
RETURN elementId(their) AS element, their[$key] AS key, toString(their[$text]) AS text, score,
       vector.similarity.cosine($question_vector, node.embedding) AS rerank
ORDER BY score DESC, element
