// Purpose: chunks of a collection whose text is in the librarian but that have no embedding yet.
// Params: $workspace, $collection, $limit
// Returns: uri STRING, text STRING
MATCH (n:TgResource {workspace: $workspace, collection: $collection})
// n.uri IS NOT NULL lets the planner seek the (workspace, collection, uri) index instead of scanning every Resource
WHERE n.uri IS NOT NULL AND n:TgChunk AND n.embeddedWith IS NULL AND n.text IS NOT NULL
RETURN n.uri AS uri, n.text AS text
ORDER BY uri
LIMIT $limit
