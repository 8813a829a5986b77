// Purpose: the stored rows behind a triple-pattern answer: provenance entities by URI (labels, mapped properties, outgoing mapped relationships, relationships to statements with their properties), reified statements asserted somewhere, by id or by subject (optionally of one predicate, at most $limit per subject), every statement those nest, and the native knowledge-graph facts of the nodes $fact_uris (their fact properties, and their outgoing facts — of the predicate $predicate when given, at most $limit), to render as TrustGraph triples.
// Params: $workspace, $collection, $uris, $properties, $ids, $subjects, $predicate, $limit, $fact_uris, $reserved
// Returns: entities LIST<MAP> (uri, kind, graph, labels, props as [name, value] pairs, links, statement_links), statements LIST<MAP> (id, s, s_kind, p, o, o_kind, o_datatype, o_lang, asserted_in), facts LIST<MAP> (uri, kind, props as [key, values, tags], rels as [predicate, object kind, object uri])
CALL () {
  MATCH (n:TgResource {workspace: $workspace, collection: $collection})
  WHERE n.uri IN $uris AND (n:TgExplain OR n:TgSource)
  RETURN collect({
    uri: n.uri, kind: n.kind, graph: n.graph, labels: labels(n),
    props: [name IN $properties WHERE n[name] IS NOT NULL | [name, n[name]]],
    links: [(n)-[r]->(m:TgResource) WHERE r.iri IS NULL | [type(r), m.kind, m.uri]],
    statement_links: [(n)-[r]->(s:TgStatement) | [type(r), s.id, properties(r)]]
  }) AS entities
}
CALL () {
  UNWIND $subjects AS subject
  CALL (subject) {
    MATCH (st:TgStatement {workspace: $workspace, collection: $collection, s: subject})
    WHERE ($predicate IS NULL OR st.p = $predicate) AND size(coalesce(st.asserted_in, [])) > 0
    RETURN st.id AS id
    ORDER BY st.p, st.o, id
    LIMIT $limit
  }
  RETURN collect(id) AS by_subject
}
WITH entities, $ids + by_subject + reduce(acc = [], e IN entities | acc + [l IN e.statement_links | l[1]]) AS wanted
CALL (wanted) {
  UNWIND wanted AS wanted_id
  MATCH (top:TgStatement {workspace: $workspace, collection: $collection, id: wanted_id})
  MATCH (top)-[:SUBJECT|OBJECT]->{0,8}(st:TgStatement)
  WITH DISTINCT st
  RETURN collect({
    id: st.id, s: st.s, s_kind: st.s_kind, p: st.p, o: st.o, o_kind: st.o_kind,
    o_datatype: st.o_datatype, o_lang: st.o_lang, asserted_in: coalesce(st.asserted_in, [])
  }) AS statements
}
CALL () {
  UNWIND $fact_uris AS uri
  MATCH (n:TgResource {workspace: $workspace, collection: $collection, uri: uri})
  RETURN collect({
    uri: n.uri, kind: n.kind,
    props: [k IN keys(n) WHERE NOT k STARTS WITH '_' AND NOT k IN $reserved | [k, n[k], n['_' + k]]],
    rels: COLLECT {
      MATCH (n)-[r]->(m:TgResource)
      WHERE r.iri IS NOT NULL AND ($predicate IS NULL OR r.iri = $predicate)
      RETURN [r.iri, m.kind, m.uri] AS rel ORDER BY r.iri, m.uri LIMIT $limit
    }
  }) AS facts
}
RETURN entities, statements, facts
