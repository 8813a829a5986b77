"""A local Neo4j Community 5.26 (+ Neo4j Browser) provisioned from Maven Central, for `tgneo db`.

No Docker engine and no download site other than Maven Central is needed: ``pom.xml`` beside this
file resolves the server's ``lib/`` and Neo4j's own bootloader (``Neo4jCommand``) runs it.
"""

from tgneo.provision.maven import NEO4J_BROWSER_VERSION, NEO4J_VERSION
from tgneo.provision.server import Instance, InstanceStatus, LocalNeo4j, running_for

__all__ = ["NEO4J_BROWSER_VERSION", "NEO4J_VERSION", "Instance", "InstanceStatus", "LocalNeo4j", "running_for"]
