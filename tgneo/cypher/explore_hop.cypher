// Purpose: GraphRAG exploration, one hop: the knowledge-graph facts of the frontier entities — the typed relationships that carry a predicate's iri, in either direction (at most $per_entity per entity: those whose IRIs and evidence sentence mention most of the question's $words first), every literal property value but the name, and the reified edges asserted in the default graph that name the entity (labels and quoted-triple statements left out) — with the names of their terms and their evidence: the sentence (tg:sourceText on the CONTAINS relationship of a subgraph containing the fact, or on an older per-sentence subgraph) that mentions most of $words. Literal facts come without an id (the caller hashes their terms) and with their predicate IRI read back from the key (the collection's namespace table).
// Params: $workspace, $collection, $per_entity, $reserved, $default_namespace, $label_predicate, $asked (one map, so that Neo4j plans the query once whatever the lists' sizes (store.write_path.batch_params says why)): frontier, words
// Returns: frontier STRING, kind STRING ('fact' | 'literal' | 'statement'), id STRING, s STRING, s_kind STRING, p STRING, o STRING, o_kind STRING, value ANY (a literal's stored value), tag STRING (a literal's tag), o_datatype STRING, o_lang STRING, s_name ANY, p_name ANY, o_name ANY, evidence STRING
UNWIND $asked.frontier AS uri
MATCH (e:TgResource {workspace: $workspace, collection: $collection, uri: uri})
CALL (e) {
  MATCH (e)-[r]-(:TgResource)
  WHERE r.iri IS NOT NULL
  WITH r, startNode(r) AS a, endNode(r) AS b
  WITH r, a, b, COLLECT {
    MATCH (:TgStatement {workspace: $workspace, collection: $collection, id: r.id})<-[c:CONTAINS]-(sg:TgSubgraph)
    WITH coalesce(c.sourceText, sg.sourceText) AS text WHERE text IS NOT NULL
    RETURN text ORDER BY size([w IN $asked.words WHERE toLower(text) CONTAINS w]) DESC, text LIMIT 1
  }[0] AS evidence
  WITH r, a, b, evidence, toLower(a.uri + ' ' + r.iri + ' ' + b.uri + ' ' + coalesce(evidence, '')) AS terms
  ORDER BY size([w IN $asked.words WHERE terms CONTAINS w]) DESC, r.id
  LIMIT $per_entity
  RETURN 'fact' AS kind, r.id AS id, a.uri AS s, a.kind AS s_kind, r.iri AS p, b.uri AS o, b.kind AS o_kind,
         null AS value, null AS tag, null AS o_datatype, null AS o_lang, a.name AS s_name, b.name AS o_name, evidence
  UNION
  UNWIND [k IN keys(e) WHERE k <> 'name' AND NOT k STARTS WITH '_' AND NOT k IN $reserved] AS k
  WITH e, k, CASE WHEN valueType(e[k]) STARTS WITH 'LIST' THEN e[k] ELSE [e[k]] END AS vals, e['_' + k] AS tags
  UNWIND range(0, size(vals) - 1) AS i
  WITH e, k, vals[i] AS value, coalesce(tags[i], '') AS tag
  WITH e, k, value, tag, COLLECT {
    MATCH (e)<-[:SUBJECT]-(st:TgStatement)<-[c:CONTAINS]-(sg:TgSubgraph)
    WHERE st.key = k AND st.o_tag = tag AND valueType(st.o_value) = valueType(value) AND st.o_value = value
    WITH coalesce(c.sourceText, sg.sourceText) AS text WHERE text IS NOT NULL
    RETURN text ORDER BY size([w IN $asked.words WHERE toLower(text) CONTAINS w]) DESC, text LIMIT 1
  }[0] AS evidence
  RETURN 'literal' AS kind, null AS id, e.uri AS s, e.kind AS s_kind,
         CASE WHEN k CONTAINS '__'
              THEN COLLECT { MATCH (x:TgPrefix {workspace: $workspace, collection: $collection, prefix: split(k, '__')[0]})
                             RETURN x.namespace }[0]
                   + substring(k, size(split(k, '__')[0]) + 2)
              ELSE $default_namespace + replace(k, '_', '-') END AS p,
         null AS o, 'literal' AS o_kind, value, tag, null AS o_datatype, null AS o_lang, e.name AS s_name,
         null AS o_name, evidence
  UNION
  MATCH (e)<-[:SUBJECT|OBJECT]-(st:TgStatement)
  WHERE '' IN coalesce(st.asserted_in, []) AND st.p <> $label_predicate AND st.s_kind <> 'triple' AND st.o_kind <> 'triple'
  WITH DISTINCT st
  WITH st, COLLECT {
    MATCH (st)<-[c:CONTAINS]-(sg:TgSubgraph)
    WITH coalesce(c.sourceText, sg.sourceText) AS text WHERE text IS NOT NULL
    RETURN text ORDER BY size([w IN $asked.words WHERE toLower(text) CONTAINS w]) DESC, text LIMIT 1
  }[0] AS evidence
  RETURN 'statement' AS kind, st.id AS id, st.s AS s, st.s_kind AS s_kind, st.p AS p, st.o AS o, st.o_kind AS o_kind,
         null AS value, null AS tag, st.o_datatype AS o_datatype, st.o_lang AS o_lang,
         COLLECT { MATCH (n:TgResource {workspace: $workspace, collection: $collection, uri: st.s}) RETURN n.name }[0] AS s_name,
         COLLECT { MATCH (n:TgResource {workspace: $workspace, collection: $collection, uri: st.o})
                   WHERE st.o_kind <> 'literal' RETURN n.name }[0] AS o_name,
         evidence
}
RETURN e.uri AS frontier, kind, id, s, s_kind, p, o, o_kind, value, tag, o_datatype, o_lang, s_name,
       COLLECT { MATCH (n:TgResource {workspace: $workspace, collection: $collection, uri: p}) RETURN n.name }[0] AS p_name,
       o_name, evidence
