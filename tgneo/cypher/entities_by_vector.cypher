// Purpose: knowledge-graph entities of a collection nearest to a vector (cosine), best first, through the vector index. The index spans every collection, so $fetch neighbours are read and those of this workspace and collection kept.
// Params: $index, $vector, $fetch, $workspace, $collection, $limit
// Returns: fetched INTEGER (neighbours read from the index), matches LIST<MAP> (uri, name, score, model)
CALL db.index.vector.queryNodes($index, $fetch, $vector) YIELD node, score
WITH count(*) AS fetched, collect(
  CASE WHEN node.workspace = $workspace AND node.collection = $collection AND NOT node:TgSource AND NOT node:TgExplain
  THEN {uri: node.uri, name: node.name, score: score, model: node.embeddedWith} END
) AS matches
RETURN fetched, matches[..$limit] AS matches
