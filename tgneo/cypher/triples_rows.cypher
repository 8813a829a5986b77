// Purpose: the stored rows behind a triple-pattern answer: provenance entities by URI (labels, mapped properties, outgoing mapped relationships), asserted statements by id or by subject (optionally of one predicate, at most $limit per subject), and every statement those nest, to render as TrustGraph triples.
// Params: $workspace, $collection, $uris, $properties, $ids, $subjects, $predicate, $limit
// Returns: entities LIST<MAP> (uri, kind, graph, labels, props as [name, value] pairs, links, statement_links), statements LIST<MAP> (id, s, s_kind, p, o, o_kind, o_datatype, o_lang, asserted_in)
CALL () {
  MATCH (n:Resource {workspace: $workspace, collection: $collection})
  WHERE n.uri IN $uris AND (n:Explain OR n:Source)
  RETURN collect({
    uri: n.uri, kind: n.kind, graph: n.graph, labels: labels(n),
    props: [name IN $properties WHERE n[name] IS NOT NULL | [name, n[name]]],
    links: [(n)-[r]->(m:Resource) | [type(r), m.kind, m.uri]],
    statement_links: [(n)-[r]->(s:Statement) | [type(r), s.id]]
  }) AS entities
}
CALL () {
  UNWIND $subjects AS subject
  CALL (subject) {
    MATCH (st:Statement {workspace: $workspace, collection: $collection, s: subject})
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
  MATCH (top:Statement {workspace: $workspace, collection: $collection, id: wanted_id})
  MATCH (top)-[:SUBJECT|OBJECT]->{0,8}(st:Statement)
  WITH DISTINCT st
  RETURN collect({
    id: st.id, s: st.s, s_kind: st.s_kind, p: st.p, o: st.o, o_kind: st.o_kind,
    o_datatype: st.o_datatype, o_lang: st.o_lang, asserted_in: coalesce(st.asserted_in, [])
  }) AS statements
}
RETURN entities, statements
