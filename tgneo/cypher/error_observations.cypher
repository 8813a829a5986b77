// Purpose: (Browser) agent tool calls that failed: the observation, its error, the tool and the session.
// Params: $workspace, $collection, $limit
// Returns: observation STRING, error STRING, action STRING, arguments STRING, session STRING, toolDurationMs INTEGER
MATCH (o:Observation:Error {workspace: $workspace, collection: $collection})
OPTIONAL MATCH (o)-[:WAS_DERIVED_FROM]->(it:Analysis)
OPTIONAL MATCH (o)-[:WAS_DERIVED_FROM]->{1,64}(q:Question)
WHERE NOT EXISTS { (q)-[:WAS_DERIVED_FROM]->() }
RETURN o.uri AS observation, o.toolError AS error, it.action AS action, it.arguments AS arguments,
       q.uri AS session, o.toolDurationMs AS toolDurationMs
ORDER BY session, observation
LIMIT $limit
