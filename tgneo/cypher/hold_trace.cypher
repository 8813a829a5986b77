// Purpose: put a legal hold on a trace root (never pruned while held) or release it. The root is locked before anything is read, so a hold and a prune of the same trace are ordered: a trace a prune has started deleting cannot be held, and a held trace is never deleted.
// Params: $workspace, $collection, $uri, $hold, $who
// Returns: found BOOLEAN (a trace root with this URI exists), pruning BOOLEAN (a prune has started deleting it), held BOOLEAN (after this)
OPTIONAL MATCH (root:Question {workspace: $workspace, collection: $collection, uri: $uri})
WHERE NOT EXISTS { (root)-[:WAS_DERIVED_FROM]->() }
CALL (root) {
  WITH root WHERE root IS NOT NULL
  SET root.tg_held_by = root.tg_held_by
}
WITH root, coalesce(root.tg_pruning, false) AS pruning
CALL (root, pruning) {
  WITH root, pruning WHERE root IS NOT NULL AND NOT pruning AND $hold
  SET root.tg_hold = true, root.tg_held_at = datetime(), root.tg_held_by = $who
}
CALL (root) {
  WITH root WHERE root IS NOT NULL AND NOT $hold
  REMOVE root.tg_hold, root.tg_held_at, root.tg_held_by
}
RETURN root IS NOT NULL AS found, pruning, root.tg_hold IS NOT NULL AS held
