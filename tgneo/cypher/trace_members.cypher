// Purpose: the URIs of every entity in a trace (root, steps derived from it at any depth, their edge/chunk selections, thoughts, answer sentences, retrieval hits and question parts, and the document changes that made it stale) and the statements they reference, for exporting one trace.
// Params: $workspace, $collection, $uri
// Returns: uris LIST<STRING>, statement_ids LIST<STRING>
MATCH (root:TgResource {workspace: $workspace, collection: $collection, uri: $uri})
WHERE root:TgExplain
CALL (root) {
  MATCH SHORTEST 1 (root)<-[:WAS_DERIVED_FROM]-+(step:TgExplain)
  RETURN step
  UNION
  RETURN root AS step
}
WITH collect(step) AS steps
UNWIND steps AS s
OPTIONAL MATCH (s)-[:SELECTED_EDGE|SELECTED_CHUNK|THOUGHT|SENTENCE|HIT|QUESTION_PART]->(sub:TgExplain)
WITH steps, collect(DISTINCT sub) AS subs
WITH steps, subs + COLLECT { UNWIND subs AS x MATCH (x)-[:WAS_INVALIDATED_BY]->(c:DocumentChange) RETURN DISTINCT c } AS subs
WITH steps + [x IN subs WHERE NOT x IN steps] AS members
RETURN [m IN members | m.uri] AS uris,
       COLLECT { UNWIND members AS m MATCH (m)-->(st:TgStatement) RETURN DISTINCT st.id } AS statement_ids
