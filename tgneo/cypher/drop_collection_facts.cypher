// Purpose: delete up to $batch knowledge-graph relationships (facts: they carry their predicate's iri) of one collection in one transaction; run until it returns 0, before the collection's resources, so that no transaction detaches a hub entity's thousands of facts at once.
// Params: $workspace, $collection, $batch
// Returns: deleted INTEGER
MATCH (n:TgResource {workspace: $workspace, collection: $collection})-[r]->()
WHERE n.uri IS NOT NULL AND r.iri IS NOT NULL
WITH r LIMIT $batch
DELETE r
RETURN count(*) AS deleted
