// Purpose: changing the embedding model: across the whole database (the vector indexes are database-wide), every collection holding embeddings made by another model than $model, with those models, the lengths of their vectors and how many nodes hold them, and the graph profile of a side index (null for tgneo's own collection), so that a re-embedding can name what stands in the way of rebuilding the indexes, or re-embed all of it.
// Params: $model
// Returns: workspace STRING, collection STRING, models LIST<STRING>, dimensions LIST<INTEGER>, nodes INTEGER, profile STRING
MATCH (n:TgResource)
WHERE n.embeddedWith IS NOT NULL AND n.embeddedWith <> $model AND n.embedding IS NOT NULL
RETURN n.workspace AS workspace, n.collection AS collection, collect(DISTINCT n.embeddedWith) AS models,
       collect(DISTINCT size(n.embedding)) AS dimensions, count(n) AS nodes, max(n.profile) AS profile
ORDER BY workspace, collection
