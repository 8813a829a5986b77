// Purpose: `tgneo load index --graph`, after every node of theirs was visited: retire the side index entries of the workspace and collection that no longer name the node they were made from: its element id names no node, a node of another kind, one the build skips (of an excluded label, or without the text embedded: it would have rewritten an entry it visited), or a node whose key property ($entity_key, $chunk_key) holds another value than the entry's (the id was reused after a delete). An entry nothing else uses is deleted; one that also records a source an answer quoted keeps that record and loses only its search fields.
// Params: $workspace, $collection, $profile, $entity_label, $chunk_label, $entity_key, $chunk_key, $entity_text, $chunk_text, $exclude
// Returns: retired INTEGER
MATCH (n:TgResource {workspace: $workspace, collection: $collection, profile: $profile})
WHERE n.element IS NOT NULL
OPTIONAL MATCH (their) WHERE elementId(their) = n.element
WITH n, their, n:TgChunk AS chunk
WITH n, their, CASE WHEN chunk THEN $chunk_label ELSE $entity_label END AS label,
     CASE WHEN chunk THEN $chunk_key ELSE $entity_key END AS key, CASE WHEN chunk THEN $chunk_text ELSE $entity_text END AS text
WHERE their IS NULL OR NOT label IN labels(their) OR any(l IN labels(their) WHERE l IN $exclude)
   OR their[text] IS NULL OR NOT coalesce(their[key] = n.theirKey, their[key] IS NULL AND n.theirKey IS NULL)
CALL (n) {
  WITH n WHERE EXISTS { (n)--() }
  REMOVE n.element, n.theirKey, n.embedding, n.digest, n.profile
}
CALL (n) {
  WITH n WHERE NOT EXISTS { (n)--() }
  DELETE n
}
RETURN count(*) AS retired
