// Purpose: delete one slice of a trace being pruned, in one transaction: the root is locked and marked (tg_pruning) first, and nothing is deleted when it is held (tg_hold), so a hold and a prune of one trace are ordered by that lock. With $final the root itself goes too.
// Params: $workspace, $collection, $uri, $uris, $final
// Returns: held BOOLEAN, deleted INTEGER
MATCH (root:Question {workspace: $workspace, collection: $collection, uri: $uri})
SET root.tg_pruning = true
WITH root, root.tg_hold IS NOT NULL AS held
CALL (root, held) {
  WITH root, held WHERE NOT held
  UNWIND $uris AS member_uri
  MATCH (n:TgResource {workspace: $workspace, collection: $collection, uri: member_uri})
  WHERE n <> root
  DETACH DELETE n
  RETURN count(*) AS members
}
CALL (root, held) {
  WITH root, held WHERE NOT held AND $final
  DETACH DELETE root
  RETURN count(*) AS roots
}
RETURN held, members + roots AS deleted
