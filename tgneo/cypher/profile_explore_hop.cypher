// Purpose: GraphRAG over a graph profile, one hop: the relationships between each frontier entity and other nodes of their entity label, never one carrying a label of $exclude (the knowledge graph: never their chunk or document relationships), at most $per_entity per entity, those whose neighbour's name and type mention most of the question's $words first; with up to three passages (the text nodes $mentions reaches) that mention both ends, else the subject. Read only.
// Params: $frontier (LIST<STRING> element ids), $label, $exclude, $key, $name, $mentions, $passage_label, $per_entity, $words
// Returns: frontier STRING, rel STRING, type STRING, s_element STRING, s_key ANY, s_name ANY, o_element STRING, o_key ANY, o_name ANY, passages LIST<STRING>
UNWIND $frontier AS fid
MATCH (n) WHERE elementId(n) = fid
CALL (n) {
  MATCH (n)-[r]-(m:$($label))
  WHERE none(l IN labels(m) WHERE l IN $exclude)
  WITH r, m, toLower(coalesce(toString(m[$name]), '') + ' ' + replace(type(r), '_', ' ')) AS terms
  WITH r, m, size([w IN $words WHERE terms CONTAINS w]) AS rank
  ORDER BY rank DESC, elementId(r)
  LIMIT $per_entity
  RETURN r
}
WITH fid, r, startNode(r) AS s, endNode(r) AS o
WITH fid, r, s, o,
     COLLECT { MATCH (s)-[:$($mentions)]-(p:$($passage_label)) WHERE EXISTS { (o)-[:$($mentions)]-(p) }
               RETURN elementId(p) AS p ORDER BY p LIMIT 3 } AS shared
RETURN fid AS frontier, elementId(r) AS rel, type(r) AS type,
       elementId(s) AS s_element, s[$key] AS s_key, s[$name] AS s_name,
       elementId(o) AS o_element, o[$key] AS o_key, o[$name] AS o_name,
       CASE WHEN size(shared) > 0 THEN shared
            ELSE COLLECT { MATCH (s)-[:$($mentions)]-(p:$($passage_label)) RETURN elementId(p) AS p ORDER BY p LIMIT 3 }
       END AS passages
