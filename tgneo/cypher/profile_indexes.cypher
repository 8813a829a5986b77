// Purpose: every node index of the database that a graph profile may read (full-text and vector), with what it covers and, for a vector index, its dimensions.
// Params: (none)
// Returns: name STRING, type STRING, labels LIST<STRING>, properties LIST<STRING>, dimensions INTEGER, state STRING
SHOW INDEXES YIELD name, type, entityType, labelsOrTypes, properties, options, state
WHERE entityType = 'NODE' AND type IN ['FULLTEXT', 'VECTOR']
RETURN name, type, labelsOrTypes AS labels, properties,
       options.indexConfig.`vector.dimensions` AS dimensions, state
