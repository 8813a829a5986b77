// Purpose: store (or, with both limits null, delete) the retention policy of a workspace and collection; the one node per collection is kept unique by a constraint.
// Params: $workspace, $collection, $max_age_seconds (INTEGER or null), $max_traces (INTEGER or null), $who
// Returns: stored BOOLEAN (false when the policy was cleared)
MERGE (p:Tgneo:TgRetentionPolicy {workspace: $workspace, collection: $collection})
SET p.max_age_seconds = $max_age_seconds, p.max_traces = $max_traces, p.set_at = datetime(), p.set_by = $who
WITH p
CALL (p) {
  WITH p WHERE $max_age_seconds IS NULL AND $max_traces IS NULL
  DELETE p
}
RETURN $max_age_seconds IS NOT NULL OR $max_traces IS NOT NULL AS stored
