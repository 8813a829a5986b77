// Purpose: (Browser) the knowledge-graph edges GraphRAG selected most often, with their mean score.
// Params: $workspace, $collection, $limit
// Returns: s STRING, p STRING, o STRING, selections INTEGER, meanScore FLOAT
MATCH (st:TgStatement {workspace: $workspace, collection: $collection})<-[:EDGE]-(sel:EdgeSelection)
RETURN st.s AS s, st.p AS p, st.o AS o, count(sel) AS selections, avg(sel.score) AS meanScore
ORDER BY selections DESC, s, p, o
LIMIT $limit
