// Purpose: store what the search indexes read: each chunk's embedding, and each entity's name and embedding; a name is replaced only by a smaller one of the entity's labels, so it does not depend on load order. Every node written is marked with the embedding model (embeddedWith), also when its vector is null (a text without words has no direction).
// Params: $workspace, $collection, $model, $chunks, $entities
// Returns: chunks INTEGER, entities INTEGER (nodes written)
CALL () {
  UNWIND $chunks AS c
  MATCH (n:Resource {workspace: $workspace, collection: $collection, uri: c.uri})
  SET n.embedding = c.embedding, n.embeddedWith = $model
  RETURN count(n) AS chunks
}
CALL () {
  UNWIND $entities AS e
  MATCH (n:Resource {workspace: $workspace, collection: $collection, uri: e.uri})
  WITH n, e WHERE n.name IS NULL OR n.embeddedWith IS NULL OR e.name < n.name
  SET n.name = e.name, n.embedding = e.embedding, n.embeddedWith = $model
  RETURN count(n) AS entities
}
RETURN chunks, entities
