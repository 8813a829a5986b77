// Purpose: chunks of a collection nearest to a vector (cosine), best first, through the vector index, each with its text and document. The index spans every collection, so $fetch neighbours are read and those of this workspace and collection kept.
// Params: $index, $vector, $fetch, $workspace, $collection, $limit
// Returns: fetched INTEGER (neighbours read from the index), matches LIST<MAP> (uri, text, score, model, document)
CALL db.index.vector.queryNodes($index, $fetch, $vector) YIELD node, score
WITH count(*) AS fetched, collect(
  CASE WHEN node.workspace = $workspace AND node.collection = $collection
  THEN {node: node, score: score} END
) AS hits
UNWIND (CASE WHEN size(hits) = 0 THEN [null] ELSE hits[..$limit] END) AS hit
WITH fetched, hit, hit.node AS node
RETURN fetched, collect(CASE WHEN hit IS NOT NULL THEN {
  uri: node.uri, text: node.text, score: hit.score, model: node.embeddedWith,
  document: COLLECT { MATCH (node)-[:WAS_DERIVED_FROM]->{1,3}(d:TgDocument) RETURN d.uri LIMIT 1 }[0]
} END) AS matches
