// Purpose: remove a document's previous derivation, in the transaction that writes its new version: the document node, its pages/sections, chunks, subgraphs and their activities. Every fact no remaining subgraph contains leaves the default graph, whichever form holds it — its typed relationship (the one whose id is the statement's), its value in its subject's property (and the entity's embedding with it, when that value was a name), or the default graph among a reified edge's graphs — and its statement node is deleted unless something still references it (a recorded trace's selected edge keeps it as a quoted triple). An entity left with no fact at all is deleted, or kept bare when something still points at it; a derived node a recorded trace points at is kept as a bare resource so the trace keeps its link.
// Params: $workspace, $collection, $document, $reserved (property keys that hold structure, not facts)
// Returns: removed INTEGER (document, derived nodes and activities removed or stripped), retracted INTEGER (facts that left the default graph)
MATCH (doc:TgResource {workspace: $workspace, collection: $collection, uri: $document})
WHERE doc:TgDocument
CALL (doc) {
  OPTIONAL MATCH (doc)<-[:WAS_DERIVED_FROM]-{1,3}(d:TgSource)
  RETURN collect(DISTINCT d) AS derived
}
CALL (derived) {
  UNWIND derived AS d
  MATCH (d)-[:WAS_GENERATED_BY]->(a:ProvActivity)
  RETURN collect(DISTINCT a) AS activities
}
CALL (derived) {
  UNWIND derived AS sg
  MATCH (sg:TgSubgraph)-[:CONTAINS]->(st:TgStatement)
  RETURN collect(DISTINCT st) AS statements
}
WITH doc, derived + activities + [doc] AS removed, statements,
     COLLECT { MATCH (doc)-[:SOURCE]->(s:TgResource) RETURN s } AS sources
CALL (removed) {
  UNWIND removed AS n
  CALL (n) {
    WITH n WHERE EXISTS { (n)<--(:TgExplain) }
    CALL (n) { MATCH (n)-[r]->() DELETE r }
    CALL (n) { MATCH (n)<-[r]-(other) WHERE NOT other:TgExplain DELETE r }
    REMOVE n:TgSource:TgDocument:TgPage:TgSection:TgChunk:TgImage:TgSubgraph:ProvEntity:ProvActivity:ProvAgent:TgContent
    SET n = {workspace: n.workspace, collection: n.collection, uri: n.uri, kind: n.kind, graph: ''}
  }
  CALL (n) {
    WITH n WHERE NOT EXISTS { (n)<--(:TgExplain) }
    DETACH DELETE n
  }
}
CALL (statements) {
  UNWIND statements AS st
  WITH st WHERE NOT EXISTS { (st)<-[:CONTAINS]-(:TgSubgraph) }
  OPTIONAL MATCH (st)-[:SUBJECT]->(a:TgResource)
  OPTIONAL MATCH (st)-[:OBJECT]->(b:TgResource)
  CALL (st) {
    WITH st WHERE '' IN coalesce(st.asserted_in, [])
    SET st.asserted_in = [g IN st.asserted_in WHERE g <> '']
    RETURN count(*) AS reified
  }
  CALL (st, a, b) {
    MATCH (a)-[r]->(b)
    WHERE r.id = st.id
    DELETE r
    RETURN count(*) AS related
  }
  CALL (st, a) {
    WITH st, a WHERE st.o_kind = 'literal' AND st.key IS NOT NULL AND a IS NOT NULL AND a[st.key] IS NOT NULL
    WITH st, a, CASE WHEN valueType(a[st.key]) STARTS WITH 'LIST' THEN a[st.key] ELSE [a[st.key]] END AS vals
    WITH st, a, vals, coalesce(a['_' + st.key], [v IN vals | '']) AS tags
    WITH st, a, vals, tags, [i IN range(0, size(vals) - 1)
         WHERE valueType(vals[i]) = valueType(st.o_value) AND vals[i] = st.o_value AND tags[i] = st.o_tag] AS hit
    WITH st, a, hit, [i IN range(0, size(vals) - 1) WHERE NOT i IN hit | vals[i]] AS keep,
         [i IN range(0, size(vals) - 1) WHERE NOT i IN hit | tags[i]] AS marks
    WHERE size(hit) > 0
    SET a[st.key] = CASE size(keep) WHEN 0 THEN null WHEN 1 THEN keep[0] ELSE keep END,
        a['_' + st.key] = CASE WHEN size(keep) = 0 OR all(t IN marks WHERE t = '') THEN null ELSE marks END
    WITH st, a
    CALL (st, a) {
      WITH st, a WHERE st.key = 'name'
      REMOVE a.embedding, a.embeddedWith
    }
    RETURN count(*) AS valued
  }
  WITH st, a, b, reified + related + valued > 0 AS retracted
  CALL (st) {
    WITH st WHERE size(coalesce(st.asserted_in, [])) = 0 AND NOT EXISTS { (st)<--() }
    DETACH DELETE st
  }
  RETURN sum(CASE WHEN retracted THEN 1 ELSE 0 END) AS retracted, collect(a) + collect(b) AS touched
}
CALL (touched, sources, removed) {
  UNWIND [r IN touched + sources WHERE NOT r IN removed] AS r
  WITH DISTINCT r
  WITH r WHERE NOT r:TgSource AND NOT r:TgExplain AND NOT r:TgContent
    AND none(k IN keys(r) WHERE NOT k STARTS WITH '_' AND NOT k IN $reserved)
    AND NOT EXISTS { (r)-[f]-() WHERE f.iri IS NOT NULL }
  REMOVE r.embedding, r.embeddedWith
  WITH r WHERE NOT EXISTS { (r)--() }
  DELETE r
}
RETURN size(removed) AS removed, retracted
