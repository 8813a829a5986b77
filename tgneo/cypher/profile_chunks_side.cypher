// Purpose: Document RAG over a graph profile by tgneo's side index (`tgneo load index --graph`): the tgneo-owned chunk entries of the workspace and collection nearest each concept's embedding, deduplicated, each resolved to their chunk (still of their chunk label) with its text read there, the entry's similarity to the whole question for reranking, and what tells whether the entry was made from that chunk (Neo4j gives a deleted node's element id to a new node): whether the chunk holds the entry's value of their key property $key, else the entry's digest for the caller to compare with the text's (tgneo.store.foreign.made_from). The index spans every collection: $fetch neighbours are read and this collection's kept.
// Params: $workspace, $collection, $chunk_index, $label, $key, $text, $vectors, $question_vector, $per_concept, $fetch
// Returns: element STRING, key ANY, text STRING, score FLOAT, rerank FLOAT, same_key BOOLEAN (whether their node holds the entry's key; null: the entry holds none), digest STRING (the entry's)
UNWIND $vectors AS v
CALL (v) {
  CALL db.index.vector.queryNodes($chunk_index, $fetch, v) YIELD node, score
  WITH node, score
  WHERE node.workspace = $workspace AND node.collection = $collection AND node.element IS NOT NULL
  RETURN node, score ORDER BY score DESC, node.uri LIMIT $per_concept
}
WITH node, max(score) AS score
MATCH (their) WHERE elementId(their) = node.element AND $label IN labels(their)
RETURN elementId(their) AS element, their[$key] AS key, toStringOrNull(their[$text]) AS text, score,
       vector.similarity.cosine($question_vector, node.embedding) AS rerank,
       CASE WHEN node.theirKey IS NOT NULL THEN coalesce(their[$key] = node.theirKey, false) END AS same_key,
       node.digest AS digest
ORDER BY score DESC, element
