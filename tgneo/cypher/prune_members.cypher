// Purpose: what pruning one trace deletes, deepest first: every step derived from the root at any depth, their edge/chunk selections, thoughts, answer sentences, retrieval hits, question parts and the document changes that made it stale (each belongs to one trace), and the librarian texts (:TgContent) only they point at. Never the root (deleted last), a knowledge-graph statement or resource, or a source entity.
// Params: $workspace, $collection, $uri
// Returns: uri STRING, depth INTEGER (deleting in descending depth keeps what is left connected to the root)
MATCH (root:Question {workspace: $workspace, collection: $collection, uri: $uri})
CALL (root) {
  MATCH p = SHORTEST 1 (root)<-[:WAS_DERIVED_FROM]-+(step:TgExplain)
  RETURN step, length(p) AS depth
  UNION
  RETURN root AS step, 0 AS depth
}
WITH step, depth
CALL (step, depth) {
  MATCH (step)-[:SELECTED_EDGE|SELECTED_CHUNK|THOUGHT|SENTENCE|HIT|QUESTION_PART]->(sub:TgExplain)
  RETURN sub AS member, depth + 1 AS at
  UNION
  MATCH (step)-[:SELECTED_EDGE|SELECTED_CHUNK]->(:TgExplain)-[:WAS_INVALIDATED_BY]->(change:DocumentChange)
  RETURN change AS member, depth + 2 AS at
  UNION
  MATCH (step)-[:DOCUMENT]->(text:TgContent)
  WHERE NOT text:TgExplain AND NOT text:TgSource
  RETURN text AS member, depth + 1 AS at
  UNION
  WITH step, depth WHERE step.uri <> $uri
  RETURN step AS member, depth AS at
}
WITH member, max(at) AS depth
RETURN member.uri AS uri, depth
ORDER BY depth DESC, uri
