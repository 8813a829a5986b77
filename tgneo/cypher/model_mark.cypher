// Purpose: record the graph model the database holds (created once with the schema; tgneo db migrate moves it on and names the migration under way).
// Params: $model, $migration
// Returns: model INTEGER
MERGE (m:Tgneo:TgStore {key: 'tgneo'})
SET m.model = $model, m.migration = $migration, m.updatedAt = datetime()
RETURN m.model AS model
