// Purpose: knowledge-graph entities of a collection (nodes that take part in a fact beyond their name) whose name matches a Lucene query, best first. The full-text index spans every collection, so $fetch hits are read and those of this workspace and collection kept.
// Params: $index, $terms, $fetch, $workspace, $collection, $limit, $reserved (property keys that hold structure, not facts)
// Returns: fetched INTEGER (hits read from the index), matches LIST<MAP> (uri, name, score)
CALL db.index.fulltext.queryNodes($index, $terms, {limit: $fetch}) YIELD node, score
WITH count(*) AS fetched, collect(
  CASE WHEN node.workspace = $workspace AND node.collection = $collection AND NOT node:TgSource AND NOT node:TgExplain
    AND (EXISTS { (node)-[f]-() WHERE f.iri IS NOT NULL }
         OR any(k IN keys(node) WHERE k <> 'name' AND NOT k STARTS WITH '_' AND NOT k IN $reserved))
  THEN {uri: node.uri, name: node.name, score: score} END
) AS matches
RETURN fetched, matches[..$limit] AS matches
