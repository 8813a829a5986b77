// Purpose: before a document's old version is forgotten (replaced or removed), mark every trace that used it stale: for each trace root whose edge selections reach a statement extracted from the document, or whose chunk selections point at one of its chunks, one :DocumentChange (prov:Activity, uri root + '/change/' + $change_id) is created; those selections and the trace's answers are linked to it (WAS_INVALIDATED_BY), it is linked to the document (USED, which keeps the document as a bare resource when it is removed), and the root gets tg_stale_at. Runs in the transaction that writes or removes the document, so the marks and the change commit together.
// Params: $workspace, $collection, $document, $change ('replaced' | 'removed'), $change_id, $at (ISO time), $graph (the retrieval graph)
// Returns: traces INTEGER (roots marked stale), selections INTEGER (selections invalidated)
MATCH (doc:TgResource {workspace: $workspace, collection: $collection, uri: $document})
WHERE doc:TgDocument
CALL (doc) {
  MATCH (doc)<-[:WAS_DERIVED_FROM]-{1,8}(:TgSubgraph)-[:CONTAINS]->(:TgStatement)<-[:EDGE]-(sel:EdgeSelection)
  RETURN sel
  UNION
  MATCH (doc)<-[:WAS_DERIVED_FROM]-{0,8}(:TgResource)<-[:DOCUMENT]-(sel:ChunkSelection)
  RETURN sel
}
MATCH (sel)<-[:SELECTED_EDGE|SELECTED_CHUNK]-(step:TgExplain)-[:WAS_DERIVED_FROM]->{1,64}(q:Question)
WHERE NOT EXISTS { (q)-[:WAS_DERIVED_FROM]->() }
WITH doc, q, collect(DISTINCT sel) AS selections
CALL (doc, q, selections) {
  CREATE (c:Tgneo:TgResource:TgExplain:ProvActivity:DocumentChange {
    workspace: $workspace, collection: $collection, uri: q.uri + '/change/' + $change_id, kind: 'iri',
    graph: $graph, change: $change, startedAtTime: datetime($at),
    label: 'document ' + coalesce(doc.title, doc.uri) + ' ' + $change
  })
  CREATE (c)-[:USED]->(doc)
  FOREACH (sel IN selections | CREATE (sel)-[:WAS_INVALIDATED_BY]->(c))
  WITH c, q
  CALL (c, q) {
    MATCH (a:Answer)-[:WAS_DERIVED_FROM]->{1,64}(q)
    WITH DISTINCT a
    CREATE (a)-[:WAS_INVALIDATED_BY]->(c)
  }
  SET q.tg_stale_at = c.startedAtTime
}
RETURN count(q) AS traces, sum(size(selections)) AS selections
