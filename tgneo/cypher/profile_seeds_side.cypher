// Purpose: GraphRAG over a graph profile, step 1 by tgneo's side index (`tgneo load index --graph`): the tgneo-owned entries of the workspace and collection whose name matches a concept (full text, the $per_concept best by Lucene score) or whose embedding is near it (the $per_concept best of at least $min_similarity, scored by their exact similarity), each resolved to their node (still of their entity label, never one carrying a label of $exclude), with each list's score, for reciprocal rank fusion in tgneo.store.kg.fuse_seeds, and what tells whether the entry was made from that node (Neo4j gives a deleted node's element id to a new node): whether the node holds the entry's value of their key property $key, else the entry's digest and the node's name for the caller to compare (tgneo.store.foreign.made_from). The indexes span every collection: $fetch hits are read and this collection's kept.
// Params: $workspace, $collection, $name_index, $vector_index, $label, $exclude, $key, $name, $concepts (LIST<MAP> text, query, vector), $per_concept, $fetch, $min_similarity
// Returns: concept STRING, element STRING, key ANY, name ANY, text_score FLOAT (null: the full-text list did not find it), vector_score FLOAT (null: the vector list did not), same_key BOOLEAN (whether their node holds the entry's key; null: the entry holds none), digest STRING (the entry's), text STRING (their node's name as the side index embeds it)
UNWIND $concepts AS c
CALL (c) {
  CALL db.index.fulltext.queryNodes($name_index, c.query, {limit: $fetch}) YIELD node, score
  WITH node, score
  WHERE node.workspace = $workspace AND node.collection = $collection AND node.element IS NOT NULL AND NOT node:TgChunk
  RETURN node, score AS text, null AS vector
  ORDER BY text DESC, node.uri
  LIMIT $per_concept
  UNION
  WITH c WHERE c.vector IS NOT NULL
  CALL db.index.vector.queryNodes($vector_index, $fetch, c.vector) YIELD node, score
  WITH node, score
  WHERE node.workspace = $workspace AND node.collection = $collection AND node.element IS NOT NULL AND NOT node:TgChunk
    AND score >= $min_similarity
  RETURN node, null AS text, vector.similarity.cosine(c.vector, node.embedding) AS vector
  ORDER BY vector DESC, node.uri
  LIMIT $per_concept
}
WITH c.text AS concept, node, max(text) AS text_score, max(vector) AS vector_score
MATCH (their) WHERE elementId(their) = node.element AND $label IN labels(their)
  AND none(l IN labels(their) WHERE l IN $exclude)
RETURN concept, node.element AS element, their[$key] AS key, their[$name] AS name, text_score, vector_score,
       CASE WHEN node.theirKey IS NOT NULL THEN coalesce(their[$key] = node.theirKey, false) END AS same_key,
       node.digest AS digest, toStringOrNull(their[$name]) AS text
ORDER BY concept, element
