// Purpose: commit, one slice at a time: up to $limit nodes (resources, statements, namespace prefixes) created or claimed by a committed import become ordinary nodes, and up to $limit of its undo records are dropped (clearing the marks on the relationships it added to nodes it did not create).
// Params: $workspace, $collection, $import_id, $limit
// Returns: done INTEGER (how many nodes and records this slice handled; 0 means the import is released)
CALL () {
  MATCH (n:TgResource {workspace: $workspace, collection: $collection, tg_import: $import_id})
  WITH n LIMIT $limit
  REMOVE n.tg_import
  RETURN count(n) AS resources
}
CALL () {
  MATCH (n:TgStatement {workspace: $workspace, collection: $collection, tg_import: $import_id})
  WITH n LIMIT $limit
  REMOVE n.tg_import
  RETURN count(n) AS statements
}
CALL () {
  MATCH (x:TgPrefix {workspace: $workspace, collection: $collection})
  WHERE x.tg_import = $import_id
  WITH x LIMIT $limit
  REMOVE x.tg_import
  RETURN count(x) AS prefixes
}
CALL () {
  MATCH (u:TgImportUndo {workspace: $workspace, collection: $collection, undo_import: $import_id})
  WITH u LIMIT $limit
  CALL (u) {
    WITH u WHERE u.undo_kind = 'claim' AND u.undo_target = 'resource'
    MATCH (n:TgResource {workspace: $workspace, collection: $collection, uri: u.undo_ref})
    REMOVE n.tg_import
  }
  CALL (u) {
    WITH u WHERE u.undo_kind = 'claim' AND u.undo_target = 'statement'
    MATCH (n:TgStatement {workspace: $workspace, collection: $collection, id: u.undo_ref})
    REMOVE n.tg_import
  }
  CALL (u) {
    WITH u WHERE u.undo_kind = 'claim' AND u.undo_target = 'prefix'
    MATCH (x:TgPrefix {workspace: $workspace, collection: $collection, prefix: u.undo_ref})
    REMOVE x.tg_import
  }
  CALL (u) {
    WITH u WHERE u.undo_kind = 'entity'
    MATCH (n:TgResource {workspace: $workspace, collection: $collection, uri: u.undo_ref})-[r]->()
    WHERE r.tg_import = $import_id
    REMOVE r.tg_import
  }
  DELETE u
  RETURN count(u) AS records
}
RETURN resources + statements + prefixes + records AS done
