// Purpose: knowledge-graph entities of a collection nearest to a vector (cosine), best first, by comparing it with every embedded entity of the collection: exact, and bounded by the collection's size rather than the database's (used when the shared index gives too few of this collection's entities).
// Params: $workspace, $collection, $vector, $limit
// Returns: uri STRING, name STRING, score FLOAT, model STRING
MATCH (node:TgResource {workspace: $workspace, collection: $collection})
WHERE node.uri IS NOT NULL AND node.embedding IS NOT NULL AND NOT node:TgSource AND NOT node:TgExplain AND size(node.embedding) = size($vector)
WITH node, vector.similarity.cosine(node.embedding, $vector) AS score
RETURN node.uri AS uri, node.name AS name, score, node.embeddedWith AS model
ORDER BY score DESC, uri
LIMIT $limit
