// Purpose: `tgneo load index --graph`: the digest of the text each side index entry last embedded, with which model and for which node of theirs (element id), so only new, changed and re-created nodes are embedded again.
// Params: $workspace, $collection, $uris
// Returns: uri STRING, digest STRING, model STRING, element STRING
UNWIND $uris AS uri
MATCH (n:TgResource {workspace: $workspace, collection: $collection, uri: uri})
RETURN uri, n.digest AS digest, n.embeddedWith AS model, n.element AS element
