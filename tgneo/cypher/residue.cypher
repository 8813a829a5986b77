// Purpose: garbage a workspace can hold after months of replaced documents and pruned traces (older tgneo versions pruned without sweeping, and a prune cut off between its last slice and its sweep leaves some): statements asserted in no graph that nothing points at, and bare resources (no label but :Tgneo:TgResource, no fact) with no relationship at all. A collection with an unfinished import is skipped, since an import's batches may leave a statement briefly unreferenced. Its keys go to sweep_residue.cypher, which re-checks each before deleting.
// Params: $workspace, $collection (or null: every collection of the workspace), $reserved (property keys that hold structure, not facts), $limit (rows of each kind)
// Returns: collection STRING, kind STRING ('statement' | 'resource'), key STRING (statement id or resource uri)
CALL () {
  MATCH (st:TgStatement {workspace: $workspace})
  WHERE ($collection IS NULL OR st.collection = $collection)
    AND size(coalesce(st.asserted_in, [])) = 0 AND NOT EXISTS { (st)<--() }
  RETURN st.collection AS collection, 'statement' AS kind, st.id AS key
  LIMIT $limit
  UNION
  MATCH (r:TgResource {workspace: $workspace})
  WHERE ($collection IS NULL OR r.collection = $collection)
    AND size(labels(r)) = 2 AND r:Tgneo AND NOT EXISTS { (r)--() }
    AND none(k IN keys(r) WHERE NOT k STARTS WITH '_' AND NOT k IN $reserved)
  RETURN r.collection AS collection, 'resource' AS kind, r.uri AS key
  LIMIT $limit
}
WITH collection, kind, key
WHERE NOT EXISTS {
  MATCH (j:TgImport {workspace: $workspace, collection: collection})
  WHERE j.state IN ['running', 'committed', 'rolling_back']
}
RETURN collection, kind, key
ORDER BY collection, kind, key
