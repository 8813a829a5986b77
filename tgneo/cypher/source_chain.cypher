// Purpose: where a knowledge-graph statement came from: every subgraph that contains it, with the sentence of its chunk the statement was read from, and the chunk → page → document chain above each.
// Params: $workspace, $collection, $id
// Returns: statement MAP, sources LIST<MAP> (subgraph, evidence: the sentence it was read from, chain of {uri, labels, props})
MATCH (st:TgStatement {workspace: $workspace, collection: $collection, id: $id})
RETURN properties(st) AS statement, COLLECT {
  MATCH (st)<-[contains:CONTAINS]-(sg:TgSubgraph)
  OPTIONAL MATCH chain = (sg)-[:WAS_DERIVED_FROM]->{1,8}(doc:TgDocument)
  RETURN {subgraph: sg.uri, evidence: coalesce(contains.sourceText, sg.sourceText),
          chain: [n IN coalesce(nodes(chain), [sg]) | {uri: n.uri, labels: labels(n), props: properties(n)}]}
  ORDER BY sg.uri
} AS sources
