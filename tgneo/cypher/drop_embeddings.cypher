// Purpose: re-embedding, step 1: forget up to $limit embeddings of a collection made by another model than $model (the embedding and its model name), so that the collection can be embedded again with $model.
// Params: $workspace, $collection, $model, $limit
// Returns: dropped INTEGER
MATCH (n:TgResource {workspace: $workspace, collection: $collection})
// n.uri IS NOT NULL lets the planner seek the (workspace, collection, uri) index instead of scanning every Resource
WHERE n.uri IS NOT NULL AND n.embeddedWith IS NOT NULL AND n.embeddedWith <> $model
WITH n LIMIT $limit
REMOVE n.embedding, n.embeddedWith
RETURN count(n) AS dropped
