// Purpose: citations: the source documents of chunks (chunk → page or section → document), each document once, in the order of the chunks given.
// Params: $workspace, $collection, $uris
// Returns: uri STRING, title STRING
UNWIND range(0, size($uris) - 1) AS i
MATCH (c:Chunk {workspace: $workspace, collection: $collection, uri: $uris[i]})
MATCH (c)-[:WAS_DERIVED_FROM]->{1,4}(doc:Document)
WITH doc, min(i) AS first
ORDER BY first, doc.uri
RETURN doc.uri AS uri, doc.title AS title
