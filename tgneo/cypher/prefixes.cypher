// Purpose: a collection's namespace table: the prefix each relationship type and property key of its knowledge graph names a namespace by (tgneo.native), so that readers turn names back into predicate IRIs.
// Params: $workspace, $collection
// Returns: prefix STRING, namespace STRING
MATCH (x:TgPrefix {workspace: $workspace, collection: $collection})
WHERE x.prefix IS NOT NULL
RETURN x.prefix AS prefix, x.namespace AS namespace
ORDER BY prefix
