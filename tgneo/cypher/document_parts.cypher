// Purpose: the pages and sections a stored document is cut into (its current derivation), so a loader can tell whether loading it again would change anything.
// Params: $workspace, $collection, $document
// Returns: stored BOOLEAN (the document exists), parts LIST<STRING> (URIs of its pages and sections)
OPTIONAL MATCH (doc:TgResource {workspace: $workspace, collection: $collection, uri: $document})
WHERE doc:TgDocument
RETURN doc IS NOT NULL AS stored,
       COLLECT { MATCH (doc)<-[:WAS_DERIVED_FROM]-(part:TgResource) WHERE part:TgPage OR part:TgSection RETURN part.uri } AS parts
