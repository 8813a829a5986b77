// Purpose: the collections of a workspace that hold anything (documents, knowledge graph, traces), in name order.
// Params: $workspace
// Returns: collection STRING
MATCH (n:TgResource {workspace: $workspace})
WHERE n.collection IS NOT NULL AND n.uri IS NOT NULL
RETURN DISTINCT n.collection AS collection
ORDER BY collection
