// Purpose: `tgneo load index --graph`: the documents (tgneo's record of their documents, written when an answer quoted them) that hold any of these passages of theirs, whose text changed since tgneo embedded it, so the traces that quoted them are marked stale.
// Params: $workspace, $collection, $uris (LIST<STRING> chunk IRIs)
// Returns: document STRING
UNWIND $uris AS uri
MATCH (c:TgChunk {workspace: $workspace, collection: $collection, uri: uri})-[:WAS_DERIVED_FROM]->{1,4}(d:TgDocument)
RETURN DISTINCT d.uri AS document
