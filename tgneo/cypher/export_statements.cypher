// Purpose: every asserted statement of a collection, streamed for RDF export, each with the statements nested in it (quoted triples), so each row decompiles on its own.
// Params: $workspace, $collection
// Returns: statement MAP (id, s, s_kind, p, o, o_kind, o_datatype, o_lang), asserted_in LIST<STRING>, nested LIST<MAP>
MATCH (st:TgStatement {workspace: $workspace, collection: $collection})
WHERE size(coalesce(st.asserted_in, [])) > 0
RETURN st {.id, .s, .s_kind, .p, .o, .o_kind, .o_datatype, .o_lang} AS statement, st.asserted_in AS asserted_in,
       CASE WHEN st.s_kind = 'triple' OR st.o_kind = 'triple' THEN COLLECT {
         MATCH (st)-[:SUBJECT|OBJECT]->{1,100}(x:TgStatement)
         RETURN DISTINCT x {.id, .s, .s_kind, .p, .o, .o_kind, .o_datatype, .o_lang}
       } ELSE [] END AS nested
