// Purpose: `tgneo load index --graph`: retire the side index entries of the workspace and collection whose node of theirs is gone (deleted, or its element id now names a node of another kind): an entry nothing else uses is deleted; one that also records a source an answer quoted keeps that record and loses only its search fields.
// Params: $workspace, $collection, $profile, $entity_label, $chunk_label
// Returns: retired INTEGER
MATCH (n:TgResource {workspace: $workspace, collection: $collection, profile: $profile})
WHERE n.element IS NOT NULL
OPTIONAL MATCH (their) WHERE elementId(their) = n.element
WITH n, their
WHERE their IS NULL OR NOT (CASE WHEN n:TgChunk THEN $chunk_label ELSE $entity_label END) IN labels(their)
CALL (n) {
  WITH n WHERE EXISTS { (n)--() }
  REMOVE n.element, n.embedding, n.digest, n.profile
}
CALL (n) {
  WITH n WHERE NOT EXISTS { (n)--() }
  DELETE n
}
RETURN count(*) AS retired
