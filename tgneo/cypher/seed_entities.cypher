// Purpose: GraphRAG exploration, step 1: the knowledge-graph entities each concept names (nodes that take part in a fact beyond their name: a relation's name alone makes no entity), found by the full-text index on entity names (the $per_concept best by Lucene score) and by the vector index on their embeddings (the $per_concept best of at least $min_similarity, scored by their exact similarity: the index's own score is approximate, quantized per index segment, and would differ between two identical databases), kept to the workspace and collection, with each list's score, for reciprocal rank fusion in tgneo.store.kg.fuse_seeds. The indexes span every collection: $overfetch hits are read and this collection's kept; when fewer than $per_concept of them are the collection's, $widen times as many are read (still through the index: the cost follows the index, never the collection's size).
// Params: $workspace, $collection, $per_concept, $overfetch, $name_index, $vector_index, $min_similarity, $widen, $reserved (property keys that hold structure, not facts), $asked (one map, so that Neo4j plans the query once whatever the lists' sizes (store.write_path.batch_params says why)): concepts (LIST<MAP> text, query, vector)
// Returns: concept STRING, uri STRING, name STRING, text_score FLOAT (null: the full-text list did not find it), vector_score FLOAT (null: the vector list did not)
UNWIND $asked.concepts AS c
CALL (c) {
  CALL db.index.fulltext.queryNodes($name_index, c.query, {limit: $overfetch}) YIELD node, score
  WITH node, score
  WHERE node.workspace = $workspace AND node.collection = $collection AND NOT node:TgSource AND NOT node:TgExplain
    AND (EXISTS { (node)-[f]-() WHERE f.iri IS NOT NULL } OR any(k IN keys(node) WHERE k <> 'name' AND NOT k STARTS WITH '_' AND NOT k IN $reserved))
  RETURN node, score AS text, null AS vector
  ORDER BY text DESC, node.uri
  LIMIT $per_concept
  UNION
  WITH c WHERE c.vector IS NOT NULL
  CALL (c) {
    CALL db.index.vector.queryNodes($vector_index, $overfetch, c.vector) YIELD node, score
    WITH node, score
    WHERE node.workspace = $workspace AND node.collection = $collection AND NOT node:TgSource AND NOT node:TgExplain
    AND (EXISTS { (node)-[f]-() WHERE f.iri IS NOT NULL } OR any(k IN keys(node) WHERE k <> 'name' AND NOT k STARTS WITH '_' AND NOT k IN $reserved))
    ORDER BY score DESC, node.uri
    RETURN collect({node: node, score: score})[..$per_concept] AS hits
  }
  CALL (c, hits) {
    WITH hits WHERE size(hits) >= $per_concept
    UNWIND hits AS hit
    RETURN hit.node AS node, hit.score AS score
    UNION
    WITH c, hits WHERE size(hits) < $per_concept
    CALL db.index.vector.queryNodes($vector_index, $overfetch * $widen, c.vector) YIELD node, score
    WITH node, score
    WHERE node.workspace = $workspace AND node.collection = $collection AND NOT node:TgSource AND NOT node:TgExplain
    AND (EXISTS { (node)-[f]-() WHERE f.iri IS NOT NULL } OR any(k IN keys(node) WHERE k <> 'name' AND NOT k STARTS WITH '_' AND NOT k IN $reserved))
    ORDER BY score DESC, node.uri
    LIMIT $per_concept
    RETURN node, score
  }
  WITH node, score WHERE score >= $min_similarity
  RETURN node, null AS text, vector.similarity.cosine(c.vector, node.embedding) AS vector
  ORDER BY vector DESC, node.uri
  LIMIT $per_concept
}
WITH c.text AS concept, node, max(text) AS text_score, max(vector) AS vector_score
RETURN concept, node.uri AS uri, node.name AS name, text_score, vector_score
ORDER BY concept, uri
