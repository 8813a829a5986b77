// Purpose: the statements (asserted or only quoted) with one of the subject keys $subjects, the predicate $predicate and, unless $objects is null, one of the object keys or texts $objects: how a quoted-triple pattern finds its statement nodes through the (s, p) index.
// Params: $workspace, $collection, $subjects, $predicate, $objects
// Returns: id STRING, s STRING, s_kind STRING, p STRING, o STRING, o_kind STRING, o_datatype STRING, o_lang STRING
UNWIND $subjects AS subject
MATCH (st:TgStatement {workspace: $workspace, collection: $collection, s: subject, p: $predicate})
WHERE $objects IS NULL OR st.o IN $objects
RETURN st.id AS id, st.s AS s, st.s_kind AS s_kind, st.p AS p, st.o AS o, st.o_kind AS o_kind,
       st.o_datatype AS o_datatype, st.o_lang AS o_lang
ORDER BY id
