// Purpose: roll back, one slice at a time: up to $limit undo records of an import are applied and dropped (an entity gets its properties and labels back and loses the relationships the import added; a statement loses the graphs the import asserted it in; a claim is let go).
// Params: $workspace, $collection, $import_id, $limit
// Returns: done INTEGER (records handled; 0 means every change to older nodes is undone)
MATCH (u:TgImportUndo {workspace: $workspace, collection: $collection, undo_import: $import_id})
WITH u LIMIT $limit
CALL (u) {
  WITH u WHERE u.undo_kind = 'entity'
  MATCH (n:TgResource {workspace: $workspace, collection: $collection, uri: u.undo_ref})
  CALL (n) {
    MATCH (n)-[r]->()
    WHERE r.tg_import = $import_id
    DELETE r
  }
  SET n = properties(u)
  REMOVE n.undo_import, n.undo_key, n.undo_kind, n.undo_target, n.undo_ref, n.undo_labels
  REMOVE n:$(u.undo_labels)
}
CALL (u) {
  WITH u WHERE u.undo_kind = 'graphs'
  MATCH (n:TgStatement {workspace: $workspace, collection: $collection, id: u.undo_ref})
  SET n.asserted_in = [g IN n.asserted_in WHERE NOT g IN u.undo_graphs]
}
DELETE u
RETURN count(u) AS done
