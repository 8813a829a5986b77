// Purpose: garbage a workspace can hold after months of replaced documents and pruned traces (older tgneo versions pruned without sweeping, and a prune cut off between its last slice and its sweep leaves some): statements asserted in no graph that nothing points at, and bare resources (no label but :Resource) with no relationship at all. A collection with an unfinished import is skipped, since an import's batches may leave a statement briefly unreferenced. Its keys go to sweep_residue.cypher, which re-checks each before deleting.
// Params: $workspace, $collection (or null: every collection of the workspace), $limit (rows of each kind)
// Returns: collection STRING, kind STRING ('statement' | 'resource'), key STRING (statement id or resource uri)
CALL () {
  MATCH (st:Statement {workspace: $workspace})
  WHERE ($collection IS NULL OR st.collection = $collection)
    AND size(coalesce(st.asserted_in, [])) = 0 AND NOT EXISTS { (st)<--() }
  RETURN st.collection AS collection, 'statement' AS kind, st.id AS key
  LIMIT $limit
  UNION
  MATCH (r:Resource {workspace: $workspace})
  WHERE ($collection IS NULL OR r.collection = $collection)
    AND labels(r) = ['Resource'] AND NOT EXISTS { (r)--() }
  RETURN r.collection AS collection, 'resource' AS kind, r.uri AS key
  LIMIT $limit
}
WITH collection, kind, key
WHERE NOT EXISTS {
  MATCH (j:Import {workspace: $workspace, collection: collection})
  WHERE j.state IN ['running', 'committed', 'rolling_back']
}
RETURN collection, kind, key
ORDER BY collection, kind, key
