// Purpose: migration to graph model 2, one page of a collection's resources after the URI $after: the predicate nodes of the previous model (and any resource) left with no relationship, no fact and no provenance label are deleted.
// Params: $workspace, $collection, $after, $batch, $reserved (property keys that hold structure, not facts)
// Returns: last STRING (the page's last URI, null when the page is empty), deleted INTEGER
MATCH (n:TgResource {workspace: $workspace, collection: $collection})
WHERE n.uri > $after
WITH n ORDER BY n.uri LIMIT $batch
WITH collect(n) AS page, collect(n.uri) AS uris
CALL (page) {
  UNWIND page AS n
  WITH n WHERE NOT EXISTS { (n)--() } AND NOT n:TgExplain AND NOT n:TgSource AND NOT n:TgContent
    AND none(k IN keys(n) WHERE NOT k STARTS WITH '_' AND NOT k IN $reserved)
  DELETE n
  RETURN count(*) AS deleted
}
RETURN CASE WHEN size(uris) = 0 THEN null ELSE uris[-1] END AS last, deleted
