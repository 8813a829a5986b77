"""The ONLY package that touches the Neo4j driver: lifecycle, schema, named queries, traces."""

from tgneo.store.driver import Store, resolve_connection
from tgneo.store.queries import Q
from tgneo.store.schema import install_schema

__all__ = ["Q", "Store", "install_schema", "resolve_connection"]
