// Purpose: GraphRAG exploration, one hop: the knowledge-graph statements (asserted in the default graph, labels and quoted-triple statements left out) whose subject or object is one of the frontier entities, at most $per_entity per entity — those whose terms' IRIs and evidence sentence mention most of the question's $words first — and $max_edges in all, with the labels of their terms and their evidence: the sentence (tg:sourceText of a Subgraph containing the statement) that mentions most of $words.
// Params: $workspace, $collection, $frontier, $per_entity, $max_edges, $label_predicate, $words
// Returns: id STRING, s STRING, s_kind STRING, p STRING, o STRING, o_kind STRING, o_datatype STRING, o_lang STRING, s_label STRING, p_label STRING, o_label STRING, evidence STRING
UNWIND $frontier AS uri
MATCH (e:Resource {workspace: $workspace, collection: $collection, uri: uri})
CALL (e) {
  MATCH (e)<-[:SUBJECT|OBJECT]-(st:Statement)
  WHERE '' IN st.asserted_in AND st.p <> $label_predicate AND st.s_kind <> 'triple' AND st.o_kind <> 'triple'
  WITH st, COLLECT {
    MATCH (st)<-[:CONTAINS]-(sg:Subgraph) WHERE sg.sourceText IS NOT NULL
    WITH sg.sourceText AS text
    RETURN text ORDER BY size([w IN $words WHERE toLower(text) CONTAINS w]) DESC, text LIMIT 1
  }[0] AS evidence
  WITH st, evidence, toLower(st.s + ' ' + st.p + ' ' + coalesce(st.o, '') + ' ' + coalesce(evidence, '')) AS terms
  RETURN st, evidence
  ORDER BY size([w IN $words WHERE terms CONTAINS w]) DESC, st.id
  LIMIT $per_entity
}
WITH DISTINCT st, evidence
ORDER BY st.id
LIMIT $max_edges
RETURN st.id AS id, st.s AS s, st.s_kind AS s_kind, st.p AS p, st.o AS o, st.o_kind AS o_kind,
       st.o_datatype AS o_datatype, st.o_lang AS o_lang,
       COLLECT { MATCH (l:Statement {workspace: $workspace, collection: $collection, s: st.s, p: $label_predicate})
                 RETURN l.o ORDER BY l.o LIMIT 1 }[0] AS s_label,
       COLLECT { MATCH (l:Statement {workspace: $workspace, collection: $collection, s: st.p, p: $label_predicate})
                 RETURN l.o ORDER BY l.o LIMIT 1 }[0] AS p_label,
       COLLECT { MATCH (l:Statement {workspace: $workspace, collection: $collection, s: st.o, p: $label_predicate})
                 WHERE st.o_kind = 'iri' RETURN l.o ORDER BY l.o LIMIT 1 }[0] AS o_label,
       evidence
