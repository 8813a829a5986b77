// Purpose: roll back, one slice at a time: up to $limit namespace prefixes (:TgPrefix) an import created are deleted, unless another import still needs them (its claim hands the prefix to a running import, or makes it permanent for a committed one). Each prefix is locked before its claims are read, so a claim being written concurrently is waited for.
// Params: $workspace, $collection, $import_id, $limit
// Returns: done INTEGER (prefixes handled; 0 means none is left)
MATCH (x:TgPrefix {workspace: $workspace, collection: $collection})
WHERE x.tg_import = $import_id
WITH x LIMIT $limit
SET x.tg_import = $import_id
WITH x
CALL (x) {
  OPTIONAL MATCH (c:TgImportUndo {workspace: $workspace, collection: $collection, undo_key: 'claim:x:' + x.prefix})
  OPTIONAL MATCH (j:TgImport {workspace: $workspace, collection: $collection, id: c.undo_import})
  WITH c, j, j.state IN ['running', 'committed'] AS live
  ORDER BY live DESC, j.state, j.id
  LIMIT 1
  RETURN CASE WHEN live THEN c END AS claim, CASE WHEN live THEN j END AS claimer
}
CALL (x, claim, claimer) {
  WITH x, claim, claimer WHERE claim IS NULL
  DELETE x
}
CALL (x, claim, claimer) {
  WITH x, claim, claimer WHERE claim IS NOT NULL
  SET x.tg_import = CASE WHEN claimer.state = 'running' THEN claimer.id ELSE null END
  DELETE claim
}
RETURN count(*) AS done
