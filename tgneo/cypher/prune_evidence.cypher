// Purpose: what a trace about to be pruned points at outside itself, given its members (prune_members.cypher) and its root: the statements its edge selections name, and the entities, chunks and documents its steps, selections and document changes name. Once the trace is gone, whatever it alone kept alive (a statement retracted from the graph but kept as the trace's quoted triple, a forgotten chunk or a removed document kept as a bare resource) is garbage, and sweep_residue.cypher deletes it.
// Params: $workspace, $collection, $uri (the root), $uris (the other members)
// Returns: statements LIST<STRING> (statement ids), resources LIST<STRING> (resource uris)
UNWIND [$uri] + $uris AS member_uri
MATCH (member:Resource {workspace: $workspace, collection: $collection, uri: member_uri})-->(target)
WHERE NOT target:Explain AND NOT coalesce(target.uri, '') IN $uris
WITH DISTINCT target
RETURN [t IN collect(target) WHERE t:Statement | t.id] AS statements,
       [t IN collect(target) WHERE t:Resource | t.uri] AS resources
