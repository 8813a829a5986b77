// Purpose: roll back, one slice at a time: up to $limit Statement nodes an import created are deleted, unless another import still needs them (its claim hands the node to a running import, or makes it permanent for a committed one). Each node is locked before its claims are read, so a claim being written concurrently is waited for.
// Params: $workspace, $collection, $import_id, $limit
// Returns: done INTEGER (nodes handled; 0 means none is left)
MATCH (n:TgStatement {workspace: $workspace, collection: $collection, tg_import: $import_id})
WITH n LIMIT $limit
SET n.tg_import = $import_id
WITH n
CALL (n) {
  OPTIONAL MATCH (c:TgImportUndo {workspace: $workspace, collection: $collection, undo_key: 'claim:s:' + n.id})
  OPTIONAL MATCH (j:TgImport {workspace: $workspace, collection: $collection, id: c.undo_import})
  WITH c, j, j.state IN ['running', 'committed'] AS live
  ORDER BY live DESC, j.state, j.id
  LIMIT 1
  RETURN CASE WHEN live THEN c END AS claim, CASE WHEN live THEN j END AS claimer
}
CALL (n, claim, claimer) {
  WITH n, claim, claimer WHERE claim IS NULL
  DETACH DELETE n
}
CALL (n, claim, claimer) {
  WITH n, claim, claimer WHERE claim IS NOT NULL
  SET n.tg_import = CASE WHEN claimer.state = 'running' THEN claimer.id ELSE null END
  DELETE claim
}
RETURN count(*) AS done
