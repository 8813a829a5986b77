// Purpose: migration to graph model 2: the dimensions of the vector indexes the previous model had, as recorded when they were dropped, so that a migration run again after a kill recreates them.
// Params: none
// Returns: dimensions INTEGER (null: none recorded)
OPTIONAL MATCH (m:TgStore {key: 'tgneo'})
RETURN m.vectorDimensions AS dimensions
