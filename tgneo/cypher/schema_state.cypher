// Purpose: how tgneo's indexes and constraints among $names stand (kind, label and properties, the constraint that owns one, whether it is online, a vector index's dimensions), so that a process that finds every one installed as declared skips installing them: one round trip instead of one per item.
// Params: $names
// Returns: name STRING, type STRING, labels LIST<STRING>, properties LIST<STRING>, constraint STRING, state STRING, dimensions INTEGER
SHOW INDEXES YIELD name, type, labelsOrTypes, properties, owningConstraint, state, options
WHERE name IN $names
RETURN name, type, labelsOrTypes AS labels, properties, owningConstraint AS constraint, state,
       options.indexConfig.`vector.dimensions` AS dimensions
