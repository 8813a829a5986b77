// Purpose: the embedding models a collection's chunks and entities were embedded with (one, or none yet), so that vectors of another model are refused instead of compared.
// Params: $workspace, $collection
// Returns: model STRING
MATCH (n:TgResource {workspace: $workspace, collection: $collection})
// n.uri IS NOT NULL lets the planner seek the (workspace, collection, uri) index instead of scanning every Resource
WHERE n.uri IS NOT NULL AND n.embeddedWith IS NOT NULL
RETURN DISTINCT n.embeddedWith AS model
ORDER BY model
