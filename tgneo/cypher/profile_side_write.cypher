// Purpose: `tgneo load index --graph`: write tgneo's side index entries, tgneo-owned nodes that point at their nodes by element id (never a label, a property or a relationship on theirs): an entity's name and the embedding of it, or a chunk's embedding (its text stays theirs), marked with the embedding model, the digest of the text embedded, and the value of the node's key property when the profile names one (theirKey), so a search can tell their node from another that reuses its element id after a delete.
// Params: $workspace, $collection, $model, $profile, $rows (LIST<MAP> uri, element, key, name, embedding, digest, chunk)
// Returns: written INTEGER
UNWIND $rows AS row
MERGE (n:Tgneo:TgResource {workspace: $workspace, collection: $collection, uri: row.uri})
ON CREATE SET n.kind = 'iri', n.graph = ''
SET n.element = row.element, n.theirKey = row.key, n.embedding = row.embedding, n.embeddedWith = $model,
    n.digest = row.digest, n.profile = $profile
WITH n, row
CALL (n, row) {
  WITH n, row WHERE row.chunk
  SET n:TgChunk
}
CALL (n, row) {
  WITH n, row WHERE NOT row.chunk
  SET n.name = row.name
}
RETURN count(n) AS written
