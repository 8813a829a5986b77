// Purpose: migration to graph model 2, after a page of statements was written natively (record_batch) in the same transaction: each statement loses its PREDICATE relationship (and the predicate's node goes with its last one, when nothing else holds it: no relationship, no fact, no provenance label); a literal one gains key, o_value and o_tag (its value as its subject's property holds it); one now asserted natively loses the default graph from its graphs, and is deleted when nothing references it and no graph is left.
// Params: $workspace, $collection, $rows (LIST<MAP> id, native BOOLEAN, literal MAP or null: key, o_value, o_tag), $reserved (property keys that hold structure, not facts)
// Returns: deleted INTEGER, kept INTEGER
UNWIND $rows AS row
MATCH (st:TgStatement {workspace: $workspace, collection: $collection, id: row.id})
CALL (st) {
  MATCH (st)-[r:PREDICATE]->(p:TgResource)
  DELETE r
  WITH p WHERE NOT EXISTS { (p)--() } AND NOT p:TgExplain AND NOT p:TgSource AND NOT p:TgContent
    AND none(k IN keys(p) WHERE NOT k STARTS WITH '_' AND NOT k IN $reserved)
  DELETE p
}
FOREACH (literal IN CASE WHEN row.literal IS NULL THEN [] ELSE [row.literal] END | SET st += literal)
SET st.asserted_in = CASE WHEN row.native THEN [g IN coalesce(st.asserted_in, []) WHERE g <> ''] ELSE st.asserted_in END
WITH st, row.native AND size(st.asserted_in) = 0 AND NOT EXISTS { (st)<--() } AS orphan
CALL (st, orphan) {
  WITH st WHERE orphan
  DETACH DELETE st
}
RETURN sum(CASE WHEN orphan THEN 1 ELSE 0 END) AS deleted, sum(CASE WHEN orphan THEN 0 ELSE 1 END) AS kept
