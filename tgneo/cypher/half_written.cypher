// Purpose: the health check behind the fault benches and tests: explainability nodes a crash could have left half-written, if writes were not atomic — a step that derives from nothing and nothing points at (an orphan; roots are Questions), an edge selection without its statement, a chunk selection without its chunk, a selection no step selected. Empty in a healthy store.
// Params: $workspace (or null: every workspace)
// Returns: uri STRING, problem STRING
MATCH (n:TgExplain)
WHERE ($workspace IS NULL OR n.workspace = $workspace)
  AND NOT n:Question AND NOT EXISTS { (n)-[:WAS_DERIVED_FROM]->() } AND NOT EXISTS { (n)<--(:TgExplain) }
RETURN n.uri AS uri, 'orphan step' AS problem
UNION
MATCH (s:EdgeSelection)
WHERE ($workspace IS NULL OR s.workspace = $workspace) AND NOT EXISTS { (s)-[:EDGE]->(:TgStatement) }
RETURN s.uri AS uri, 'edge selection without its statement' AS problem
UNION
MATCH (s:ChunkSelection)
WHERE ($workspace IS NULL OR s.workspace = $workspace) AND NOT EXISTS { (s)-[:DOCUMENT]->() }
RETURN s.uri AS uri, 'chunk selection without its chunk' AS problem
UNION
MATCH (s:TgExplain)
WHERE ($workspace IS NULL OR s.workspace = $workspace) AND (s:EdgeSelection OR s:ChunkSelection)
  AND NOT EXISTS { (s)<-[:SELECTED_EDGE|SELECTED_CHUNK]-(:TgExplain) }
RETURN s.uri AS uri, 'selection no step selected' AS problem
