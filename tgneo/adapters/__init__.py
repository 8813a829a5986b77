"""Ready adapters that record the pipelines users already run through :func:`tgneo.record`: a LangChain callback
handler (``langchain``) and a wrapper for neo4j-graphrag's ``GraphRAG`` (``neo4j_graphrag``)."""
