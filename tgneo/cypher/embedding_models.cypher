// Purpose: the embedding models a collection's chunks and entities were embedded with (one, or none yet), so that vectors of another model are refused instead of compared.
// Params: $workspace, $collection
// Returns: model STRING
MATCH (n:Resource {workspace: $workspace, collection: $collection})
WHERE n.embeddedWith IS NOT NULL
RETURN DISTINCT n.embeddedWith AS model
ORDER BY model
