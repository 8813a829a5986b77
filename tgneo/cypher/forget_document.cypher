// Purpose: remove a document's previous derivation, in the transaction that writes its new version: the document node, its pages/sections, chunks, subgraphs and their activities; statements no remaining subgraph contains leave the default graph (deleted unless something still references them, e.g. a recorded trace's selected edge, which keeps them as quoted triples); entities left with no statement are deleted, and a surviving entity whose name was one of the removed labels loses its name and embedding (re-indexed later). A derived node a recorded trace points at is kept as a bare resource so the trace keeps its link.
// Params: $workspace, $collection, $document, $label_predicate
// Returns: removed INTEGER (document, derived nodes and activities removed or stripped), retracted INTEGER (statements that left the default graph)
MATCH (doc:Resource {workspace: $workspace, collection: $collection, uri: $document})
WHERE doc:Document
CALL (doc) {
  OPTIONAL MATCH (doc)<-[:WAS_DERIVED_FROM]-{1,3}(d:Source)
  RETURN collect(DISTINCT d) AS derived
}
CALL (derived) {
  UNWIND derived AS d
  MATCH (d)-[:WAS_GENERATED_BY]->(a:ProvActivity)
  RETURN collect(DISTINCT a) AS activities
}
CALL (derived) {
  UNWIND derived AS sg
  MATCH (sg:Subgraph)-[:CONTAINS]->(st:Statement)
  RETURN collect(DISTINCT st) AS statements
}
CALL (statements) {
  UNWIND statements AS st
  MATCH (st)-[:SUBJECT|PREDICATE|OBJECT]->(r:Resource)
  RETURN collect(DISTINCT r) AS mentioned
}
WITH doc, derived, activities, statements, mentioned + COLLECT { MATCH (doc)-[:SOURCE]->(s:Resource) RETURN s } AS touched
WITH doc, derived + activities + [doc] AS removed, statements, touched
CALL (removed) {
  UNWIND removed AS n
  CALL (n) {
    WITH n WHERE EXISTS { (n)<--(:Explain) }
    CALL (n) { MATCH (n)-[r]->() DELETE r }
    CALL (n) { MATCH (n)<-[r]-(other) WHERE NOT other:Explain DELETE r }
    REMOVE n:Source:Document:Page:Section:Chunk:Subgraph:ProvEntity:ProvActivity:ProvAgent:Content
    SET n = {workspace: n.workspace, collection: n.collection, uri: n.uri, kind: n.kind, graph: ''}
  }
  CALL (n) {
    WITH n WHERE NOT EXISTS { (n)<--(:Explain) }
    DETACH DELETE n
  }
}
CALL (statements) {
  UNWIND statements AS st
  WITH st WHERE NOT EXISTS { (st)<-[:CONTAINS]-(:Subgraph) } AND '' IN coalesce(st.asserted_in, [])
  SET st.asserted_in = [g IN st.asserted_in WHERE g <> '']
  WITH st, size(st.asserted_in) = 0 AND NOT EXISTS { (st)<--() } AS orphan
  CALL (st, orphan) {
    WITH st WHERE orphan
    DETACH DELETE st
  }
  RETURN count(*) AS retracted
}
CALL (touched, removed) {
  UNWIND [r IN touched WHERE NOT r IN removed] AS r
  WITH r WHERE r.name IS NOT NULL AND NOT r.name IN COLLECT {
    MATCH (r)<-[:SUBJECT]-(l:Statement {p: $label_predicate}) WHERE '' IN l.asserted_in RETURN l.o
  }
  REMOVE r.name, r.embedding, r.embeddedWith
}
CALL (touched, removed) {
  UNWIND [r IN touched WHERE NOT r IN removed] AS r
  WITH r WHERE NOT EXISTS { (r)--() } AND NOT r:Source AND NOT r:Explain
  DELETE r
}
RETURN size(removed) AS removed, retracted
