// Purpose: delete up to $batch import journals, undo records, the namespace table, the stored retention policy and the OpenTelemetry span trees of one collection; run after the statements and resources until it returns 0.
// Params: $workspace, $collection, $batch
// Returns: deleted INTEGER
CALL () {
  MATCH (i:TgImport {workspace: $workspace, collection: $collection})
  WHERE i.id IS NOT NULL
  RETURN i AS n
  UNION
  MATCH (u:TgImportUndo {workspace: $workspace, collection: $collection})
  WHERE u.undo_import IS NOT NULL
  RETURN u AS n
  UNION
  MATCH (p:TgRetentionPolicy {workspace: $workspace, collection: $collection})
  RETURN p AS n
  UNION
  MATCH (t:TgSpanTree {workspace: $workspace, collection: $collection})
  RETURN t AS n
  UNION
  MATCH (x:TgPrefix {workspace: $workspace, collection: $collection})
  WHERE x.prefix IS NOT NULL
  RETURN x AS n
}
WITH n LIMIT $batch
DETACH DELETE n
RETURN count(*) AS deleted
