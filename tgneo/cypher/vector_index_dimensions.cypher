// Purpose: the vector indexes that exist among $names, with their dimensions and state, so vectors of another length are refused with a clear message instead of a procedure failure.
// Params: $names
// Returns: name STRING, dimensions INTEGER, state STRING
SHOW VECTOR INDEXES YIELD name, options, state
WHERE name IN $names
RETURN name, options.indexConfig.`vector.dimensions` AS dimensions, state
