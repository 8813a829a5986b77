"""The schema neo4j-graphrag's ``Text2CypherRetriever`` puts in its prompt, without what tgneo recorded.

``Text2CypherRetriever(driver, llm)`` reads the database's schema with ``neo4j_graphrag.schema.get_schema``; in a
database where tgneo records traces, that is mostly tgneo's labels, relationship types and properties.
neo4j-graphrag has no ``exclude_types`` (LangChain's ``GraphCypherQAChain`` has, and takes
:func:`tgneo.owned.owned_types`), so give the retriever the schema yourself::

    retriever = Text2CypherRetriever(driver, llm, neo4j_schema=user_schema(driver))

:func:`user_schema` is neo4j-graphrag's own ``get_schema`` (its ``get_structured_schema``, ``enhance_schema`` and
``format_schema``, so the text is formatted exactly as the retriever would format it) with tgneo's labels and
types left out by LangChain's rule (:func:`tgneo.owned.without_owned`): on a database where tgneo was never
used, the two texts are equal, and after tgneo recorded traces there, :func:`user_schema` still gives that text.

The driver is yours and so are the queries (``apoc.meta.data``, as ``get_schema`` runs them): this module only
hands your driver to your library.
"""

from __future__ import annotations

from typing import Any

from tgneo.owned import without_owned

__all__ = ["user_schema"]


def user_schema(
    driver: Any,
    is_enhanced: bool = False,
    database: str | None = None,
    timeout: float | None = None,
    sanitize: bool = False,
    sample: int = 1000,
) -> str:
    """neo4j-graphrag's ``get_schema(driver, …)`` without tgneo's labels, relationship types and properties.

    Args:
        driver: the ``neo4j.Driver`` your retriever uses (APOC on the server, as ``get_schema`` needs).
        is_enhanced: Add example values and ranges, of your labels only (tgneo's are left out first).
        database: The database to read (the driver's default when ``None``).
        timeout: Seconds each schema query may take.
        sanitize: Leave out long lists and strings, as neo4j-graphrag's ``get_schema`` does.
        sample: Nodes sampled per label to find properties, as ``get_schema`` takes it.

    Returns:
        The schema text, as ``get_schema`` formats it, for ``Text2CypherRetriever(neo4j_schema=…)``.

    Raises:
        ImportError: neo4j-graphrag is not installed.
    """
    try:
        from neo4j_graphrag.schema import enhance_schema, format_schema, get_structured_schema
    except ImportError as e:
        raise ImportError("tgneo's user_schema reads the schema with neo4j-graphrag: pip install neo4j-graphrag") from e
    structured = get_structured_schema(
        driver, is_enhanced=False, database=database, timeout=timeout, sanitize=sanitize, sample=sample
    )
    theirs = without_owned(structured)
    if is_enhanced:
        enhance_schema(driver, theirs, database=database, timeout=timeout, sanitize=sanitize)
    return format_schema(theirs, is_enhanced)
