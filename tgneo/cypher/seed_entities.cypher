// Purpose: GraphRAG exploration, step 1: the knowledge-graph entities each concept names (nodes that take part in a fact beyond their name: a relation's name alone makes no entity), found by the full-text index on entity names and by the vector index on their embeddings (at least $min_similarity), kept to the workspace and collection, best first. The indexes span every collection: $overfetch hits are read and this collection's kept; when fewer than $per_concept of them are the collection's, $widen times as many are read (still through the index: the cost follows the index, never the collection's size).
// Params: $workspace, $collection, $concepts (LIST<MAP> text, query, vector), $per_concept, $total, $overfetch, $name_index, $vector_index, $min_similarity, $widen, $reserved (property keys that hold structure, not facts)
// Returns: uri STRING, name STRING, score FLOAT, concept STRING
UNWIND $concepts AS c
CALL (c) {
  CALL db.index.fulltext.queryNodes($name_index, c.query, {limit: $overfetch}) YIELD node, score
  WITH node, score
  WHERE node.workspace = $workspace AND node.collection = $collection AND NOT node:TgSource AND NOT node:TgExplain
    AND (EXISTS { (node)-[f]-() WHERE f.iri IS NOT NULL } OR any(k IN keys(node) WHERE k <> 'name' AND NOT k STARTS WITH '_' AND NOT k IN $reserved))
  RETURN node, score / (score + 1.0) AS s
  ORDER BY s DESC, node.uri
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
  RETURN node, score AS s
  ORDER BY s DESC, node.uri
  LIMIT $per_concept
}
WITH node, max(s) AS score, min(c.text) AS concept
ORDER BY score DESC, node.uri
LIMIT $total
RETURN node.uri AS uri, node.name AS name, score, concept
