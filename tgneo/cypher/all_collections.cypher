// Purpose: `tgneo load index --reembed --all-collections`: every collection of every workspace (the vector indexes are database-wide), with the graph profile of a side index (null for tgneo's own collection), so that each is embedded again with the configured model; a run cut short is finished by running it again.
// Params: none
// Returns: workspace STRING, collection STRING, profile STRING
MATCH (n:TgResource)
WHERE n.uri IS NOT NULL AND n.workspace IS NOT NULL AND n.collection IS NOT NULL
RETURN n.workspace AS workspace, n.collection AS collection, max(n.profile) AS profile
ORDER BY workspace, collection
