// Purpose: chunks of a collection nearest to a vector (cosine), best first, by comparing it with every embedded chunk of the collection: exact, and bounded by the collection's size rather than the database's (used when the shared index gives too few of this collection's chunks).
// Params: $workspace, $collection, $vector, $limit
// Returns: uri STRING, text STRING, score FLOAT, model STRING, document STRING
MATCH (node:TgResource {workspace: $workspace, collection: $collection})
WHERE node.uri IS NOT NULL AND node:TgChunk AND node.embedding IS NOT NULL AND size(node.embedding) = size($vector)
WITH node, vector.similarity.cosine(node.embedding, $vector) AS score
ORDER BY score DESC, node.uri
LIMIT $limit
RETURN node.uri AS uri, node.text AS text, score, node.embeddedWith AS model,
       COLLECT { MATCH (node)-[:WAS_DERIVED_FROM]->{1,3}(d:TgDocument) RETURN d.uri LIMIT 1 }[0] AS document
ORDER BY score DESC, uri
