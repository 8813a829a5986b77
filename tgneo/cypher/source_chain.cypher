// Purpose: where a knowledge-graph statement came from: every subgraph that contains it and the chunk → page → document chain above each.
// Params: $workspace, $collection, $id
// Returns: statement MAP, sources LIST<MAP> (subgraph, chain of {uri, labels, props})
MATCH (st:Statement {workspace: $workspace, collection: $collection, id: $id})
RETURN properties(st) AS statement, COLLECT {
  MATCH (st)<-[:CONTAINS]-(sg:Subgraph)
  OPTIONAL MATCH chain = (sg)-[:WAS_DERIVED_FROM]->{1,8}(doc:Document)
  RETURN {subgraph: sg.uri,
          chain: [n IN coalesce(nodes(chain), [sg]) | {uri: n.uri, labels: labels(n), props: properties(n)}]}
  ORDER BY sg.uri
} AS sources
