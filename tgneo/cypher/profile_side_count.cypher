// Purpose: how many side index entries (`tgneo load index --graph`) the workspace and collection hold for entities and for chunks, so a question over a graph profile knows whether it may search them.
// Params: $workspace, $collection
// Returns: entities INTEGER, chunks INTEGER
MATCH (n:TgResource {workspace: $workspace, collection: $collection})
WHERE n.element IS NOT NULL AND n.embedding IS NOT NULL
RETURN count(CASE WHEN NOT n:TgChunk THEN 1 END) AS entities, count(CASE WHEN n:TgChunk THEN 1 END) AS chunks
