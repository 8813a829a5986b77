"""tgneo: explain how an AI answer was produced, back to the source documents, natively in Neo4j."""

__version__ = "0.1.0"
