// Purpose: delete up to $batch import journals, undo records and the stored retention policy of one collection; run after the statements and resources until it returns 0.
// Params: $workspace, $collection, $batch
// Returns: deleted INTEGER
CALL () {
  MATCH (i:Import {workspace: $workspace, collection: $collection})
  WHERE i.id IS NOT NULL
  RETURN i AS n
  UNION
  MATCH (u:ImportUndo {workspace: $workspace, collection: $collection})
  WHERE u.undo_import IS NOT NULL
  RETURN u AS n
  UNION
  MATCH (p:RetentionPolicy {workspace: $workspace, collection: $collection})
  RETURN p AS n
}
WITH n LIMIT $batch
DETACH DELETE n
RETURN count(*) AS deleted
