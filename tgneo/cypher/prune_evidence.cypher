// Purpose: what a trace about to be pruned points at outside itself: the statements its edge selections name, and the entities, chunks, texts and documents its steps, selections and document changes name. Once the trace is gone, whatever it alone kept alive (a statement retracted from the graph but kept as the trace's quoted triple, a forgotten chunk or a removed document kept as a bare resource) is garbage, and sweep_residue.cypher deletes it.
// Params: $workspace, $collection, $uri
// Returns: statements LIST<STRING> (statement ids), resources LIST<STRING> (resource uris)
MATCH (root:Question {workspace: $workspace, collection: $collection, uri: $uri})
CALL (root) {
  MATCH SHORTEST 1 (root)<-[:WAS_DERIVED_FROM]-+(step:Explain)
  RETURN step
  UNION
  RETURN root AS step
}
CALL (step) {
  RETURN step AS member
  UNION
  MATCH (step)-[:SELECTED_EDGE|SELECTED_CHUNK|THOUGHT|SENTENCE]->(member:Explain)
  RETURN member
  UNION
  MATCH (step)-[:SELECTED_EDGE|SELECTED_CHUNK]->(:Explain)-[:WAS_INVALIDATED_BY]->(member:DocumentChange)
  RETURN member
}
MATCH (member)-->(target)
WHERE NOT target:Explain
WITH DISTINCT target
RETURN [t IN collect(target) WHERE t:Statement | t.id] AS statements,
       [t IN collect(target) WHERE t:Resource | t.uri] AS resources
