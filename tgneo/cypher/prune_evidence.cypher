// Purpose: what a trace about to be pruned points at outside itself, given its members (prune_members.cypher) and its root: the statements its edge selections name, and the entities, chunks and documents its steps, selections and document changes name. Once the trace is gone, whatever it alone kept alive (a statement retracted from the graph but kept as the trace's quoted triple, a forgotten chunk or a removed document kept as a bare resource) is garbage, and sweep_residue.cypher deletes it.
// Params: $workspace, $collection, $uri (the root), $uris (the other members)
// Returns: statements LIST<STRING> (statement ids), resources LIST<STRING> (resource uris)
UNWIND [$uri] + $uris AS member_uri
MATCH (member:TgResource {workspace: $workspace, collection: $collection, uri: member_uri})-->(target)
WHERE NOT target:TgExplain AND NOT coalesce(target.uri, '') IN $uris
WITH DISTINCT target
RETURN [t IN collect(target) WHERE t:TgStatement | t.id] AS statements,
       [t IN collect(target) WHERE t:TgResource | t.uri] AS resources
