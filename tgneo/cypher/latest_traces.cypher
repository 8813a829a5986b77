// Purpose: (Browser) the most recent questions of a collection, any engine, with their answer step.
// Params: $workspace, $collection, $limit
// Returns: question STRING, type LIST<STRING>, query STRING, startedAtTime DATETIME, answer STRING
MATCH (q:Question {workspace: $workspace, collection: $collection})
WHERE NOT EXISTS { (q)-[:WAS_DERIVED_FROM]->() }
OPTIONAL MATCH (a:Answer)-[:WAS_DERIVED_FROM]->{1,64}(q)
WITH q, a ORDER BY a.uri
WITH q, collect(a)[0] AS answer
RETURN q.uri AS question, [l IN labels(q) WHERE l ENDS WITH 'Question' AND l <> 'Question'] AS type,
       q.query AS query, q.startedAtTime AS startedAtTime,
       [(answer)-[:DOCUMENT]->(c:TgContent) | c.text][0] AS answer
ORDER BY startedAtTime DESC, question
LIMIT $limit
