// Purpose: GraphRAG over a graph profile, step 1 by their full-text index: the nodes of their entity label that each concept names, best first (scores mapped to 0..1 as tgneo's own seeds are). Read only.
// Params: $index, $label, $key, $name, $concepts (LIST<MAP> text, query), $per_concept, $total, $fetch
// Returns: element STRING, key ANY, name ANY, score FLOAT, concept STRING
UNWIND $concepts AS c
CALL (c) {
  CALL db.index.fulltext.queryNodes($index, c.query, {limit: $fetch}) YIELD node, score
  WITH node, score WHERE $label IN labels(node)
  RETURN node, score / (score + 1.0) AS s
  ORDER BY s DESC, elementId(node)
  LIMIT $per_concept
}
WITH node, max(s) AS score, min(c.text) AS concept
ORDER BY score DESC, elementId(node)
LIMIT $total
RETURN elementId(node) AS element, node[$key] AS key, node[$name] AS name, score, concept
