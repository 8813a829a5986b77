// Purpose: whether the workspace and collection hold a chunk of this URI (a recorded pipeline's retrieved item that is one of tgneo's own chunks).
// Params: $workspace, $collection, $uri
// Returns: found BOOLEAN
RETURN EXISTS { MATCH (c:TgChunk {workspace: $workspace, collection: $collection, uri: $uri}) } AS found
