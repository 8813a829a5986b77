// Purpose: whether any node holds an embedding that tgneo's vector indexes index: chunks (the chunk index) and resources (the entity index). An index nothing uses can be recreated for another embedding model's dimensions without losing anything.
// Params: none
// Returns: chunks BOOLEAN, entities BOOLEAN
RETURN EXISTS { MATCH (c:TgChunk) WHERE c.embedding IS NOT NULL } AS chunks,
       EXISTS { MATCH (r:TgResource) WHERE r.embedding IS NOT NULL AND NOT r:TgChunk } AS entities
