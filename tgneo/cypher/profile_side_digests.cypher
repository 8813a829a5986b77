// Purpose: `tgneo load index --graph`: the digest of the text each side index entry last embedded and with which model, so only new and changed nodes are embedded again.
// Params: $workspace, $collection, $uris
// Returns: uri STRING, digest STRING, model STRING
UNWIND $uris AS uri
MATCH (n:TgResource {workspace: $workspace, collection: $collection, uri: uri})
RETURN uri, n.digest AS digest, n.embeddedWith AS model
