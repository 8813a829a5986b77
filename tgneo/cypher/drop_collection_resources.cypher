// Purpose: delete up to $batch resource nodes of one collection (entities, documents, chunks, trace steps, librarian texts) with their remaining relationships; run after drop_collection_statements until it returns 0. Nothing of another collection is matched: every node is keyed by (workspace, collection).
// Params: $workspace, $collection, $batch
// Returns: deleted INTEGER
MATCH (n:TgResource {workspace: $workspace, collection: $collection})
WHERE n.uri IS NOT NULL
WITH n LIMIT $batch
DETACH DELETE n
RETURN count(*) AS deleted
