// Purpose: a librarian document's text (an answer, a thought, an observation, a page or chunk text) by its URI in a workspace, in the collection $collection or, when that is null, in the first collection holding it.
// Params: $workspace, $collection, $uri
// Returns: uri STRING, collection STRING, text STRING, contentType STRING
MATCH (c:TgContent {workspace: $workspace, uri: $uri})
WHERE $collection IS NULL OR c.collection = $collection
RETURN c.uri AS uri, c.collection AS collection, c.text AS text, c.contentType AS contentType
ORDER BY collection
LIMIT 1
