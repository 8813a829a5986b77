// Purpose: migration to graph model 2, one batch: up to $batch resource nodes of the previous model (:Resource with a workspace, collection and uri: tgneo's own, never another tool's) get tgneo's own labels — :Tgneo:TgResource, and Tg before each structural or source-provenance label in $renamed (Explain, Source, Content, Document, Page, Section, Chunk, Image, Subgraph) — and lose their old name (the smallest label, a search property then; the facts pass rebuilds name from the rdfs:label statements).
// Params: $renamed, $batch
// Returns: done INTEGER (0: none left)
MATCH (n:Resource)
WHERE n.workspace IS NOT NULL AND n.collection IS NOT NULL AND n.uri IS NOT NULL
WITH n LIMIT $batch
WITH n, [l IN labels(n) WHERE l IN $renamed] AS old
SET n:Tgneo:TgResource
SET n:$([l IN old | 'Tg' + l])
REMOVE n:$(old + ['Resource'])
REMOVE n.name
RETURN count(*) AS done
