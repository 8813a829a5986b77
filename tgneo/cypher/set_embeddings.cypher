// Purpose: store what the vector indexes read: each chunk's embedding, and each entity's embedding of its name (the smallest of its names, so which name is embedded never depends on load order: a row whose name is not the entity's smallest does not replace an embedding). Every node written is marked with the embedding model (embeddedWith), also when its vector is null (a text without words has no direction).
// Params: $workspace, $collection, $model, $chunks, $entities
// Returns: chunks INTEGER, entities INTEGER (nodes written)
CALL () {
  UNWIND $chunks AS c
  MATCH (n:TgResource {workspace: $workspace, collection: $collection, uri: c.uri})
  SET n.embedding = c.embedding, n.embeddedWith = $model
  RETURN count(n) AS chunks
}
CALL () {
  UNWIND $entities AS e
  MATCH (n:TgResource {workspace: $workspace, collection: $collection, uri: e.uri})
  WITH n, e, CASE WHEN valueType(n.name) STARTS WITH 'LIST'
                  THEN reduce(m = head(n.name), x IN n.name | CASE WHEN x < m THEN x ELSE m END)
                  ELSE n.name END AS smallest
  WHERE n.embeddedWith IS NULL OR e.name = smallest
  SET n.embedding = e.embedding, n.embeddedWith = $model
  RETURN count(n) AS entities
}
RETURN chunks, entities
