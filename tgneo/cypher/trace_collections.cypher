// Purpose: the collections of a workspace that hold a trace step with this URI, so a trace named without its collection (`tgneo trace show URI`, `tg.trace(uri)`) is found where it was recorded.
// Params: $workspace, $uri
// Returns: collection STRING
MATCH (n:TgResource {workspace: $workspace, uri: $uri})
WHERE n:TgExplain AND n.collection IS NOT NULL
RETURN DISTINCT n.collection AS collection
ORDER BY collection
