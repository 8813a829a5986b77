// Purpose: wait until every index of the database is online (after installing the schema), as a read: on a cluster it runs where reads run, after the schema statements' bookmarks, so the member that serves the next reads has the indexes they use.
// Params: $seconds
// Returns: nothing
CALL db.awaitIndexes($seconds)
