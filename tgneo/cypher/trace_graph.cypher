// Purpose: (Browser) one trace drawn as a graph: the question and every step derived from it (sub-traces included), each step's edge selections with the selected statements, their subject and object entities and their source chains subgraph → chunk → page → document, chunk selections, thoughts and answer texts. One row per step; the lists hold paths, which Neo4j Browser draws together.
// Params: $workspace, $collection, $uri
// Returns: step NODE, derived LIST<PATH>, edges LIST<PATH>, sources LIST<PATH>, chunks LIST<PATH>, texts LIST<PATH>
MATCH (root:TgResource {workspace: $workspace, collection: $collection, uri: $uri})
WHERE root:TgExplain
CALL (root) {
  MATCH SHORTEST 1 (root)<-[:WAS_DERIVED_FROM]-+(step:TgExplain)
  RETURN step
  UNION
  RETURN root AS step
}
RETURN step,
  COLLECT { MATCH p = (step)-[:WAS_DERIVED_FROM]->(:TgExplain) RETURN p } AS derived,
  COLLECT { MATCH p = (step)-[:SELECTED_EDGE]->(:EdgeSelection)-[:EDGE]->(:TgStatement)-[:SUBJECT|OBJECT]->(:TgResource)
            RETURN p } AS edges,
  COLLECT { MATCH p = (step)-[:SELECTED_EDGE]->(:EdgeSelection)-[:EDGE]->(:TgStatement)<-[:CONTAINS]-(:TgSubgraph)
                      -[:WAS_DERIVED_FROM]->{1,8}(:TgDocument)
            RETURN p } AS sources,
  COLLECT { MATCH p = (step)-[:SELECTED_CHUNK]->()-[:DOCUMENT]->{0,1}()-[:WAS_DERIVED_FROM]->{0,8}(:TgDocument)
            RETURN p } AS chunks,
  COLLECT { MATCH p = (step)-[:DOCUMENT|THOUGHT]->() RETURN p } AS texts
