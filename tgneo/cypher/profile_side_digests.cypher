// Purpose: `tgneo load index --graph`: the digest of the text each side index entry last embedded, with which model, for which node of theirs (element id) and which value of its key property, so only new, changed and re-created nodes (and entries written before entries held the key) are embedded again.
// Params: $workspace, $collection, $uris
// Returns: uri STRING, digest STRING, model STRING, element STRING, key ANY (null: their node has no key property, or the profile names none)
UNWIND $uris AS uri
MATCH (n:TgResource {workspace: $workspace, collection: $collection, uri: uri})
RETURN uri, n.digest AS digest, n.embeddedWith AS model, n.element AS element, n.theirKey AS key
