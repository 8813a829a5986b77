// Purpose: before a question: one embedding model other than $model that a collection's vectors were made with, if any (stops at the first), so that vectors of two models are never compared.
// Params: $workspace, $collection, $model
// Returns: model STRING
MATCH (n:TgResource {workspace: $workspace, collection: $collection})
// n.uri IS NOT NULL lets the planner seek the (workspace, collection, uri) index instead of scanning every Resource
WHERE n.uri IS NOT NULL AND n.embeddedWith IS NOT NULL AND n.embeddedWith <> $model
RETURN n.embeddedWith AS model
LIMIT 1
