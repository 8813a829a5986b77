// Purpose: migration to graph model 2: record the dimensions of the previous model's vector indexes before they are dropped.
// Params: $dimensions
// Returns: dimensions INTEGER
MERGE (m:Tgneo:TgStore {key: 'tgneo'})
SET m.vectorDimensions = $dimensions
RETURN m.vectorDimensions AS dimensions
