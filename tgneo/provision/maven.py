"""Neo4j's jars, and its plugins', from Maven Central: the tools that fetch them (Java, Maven) and the fetch itself.

Why a module of its own: fetching is one subject (what ``pom.xml`` pins, a staged download that never looks
complete when interrupted, checked before it is kept), running a server another (:mod:`tgneo.provision.server`).
The offline embedder's weights are one jar and need no Maven: :mod:`tgneo.downloads` fetches them over HTTPS.
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import subprocess
from collections.abc import Callable
from importlib import resources
from pathlib import Path

from tgneo.errors import MissingTool, ProvisioningError
from tgneo.provision.plugins import plugin_for, pom, pom_property

_POM = resources.files("tgneo.provision").joinpath("pom.xml")


def _pinned(prop: str) -> str:
    return pom_property(_POM, prop)


NEO4J_VERSION = _pinned("neo4j.version")
"""The Neo4j Community version ``tgneo db`` runs (one source: ``pom.xml``)."""


NEO4J_BROWSER_VERSION = _pinned("neo4j-browser.version")


_SUPPORTED_JAVA = (17, 21)  # the only feature versions Neo4j 5.26's bootloader accepts


_JAVA_PACKAGE = "openjdk-17-jre-headless"


_MAVEN_PACKAGE = "maven"


def _java_feature_version(java: str) -> int | None:
    try:
        out = subprocess.run([java, "-version"], capture_output=True, text=True, timeout=30).stderr
    except (OSError, subprocess.TimeoutExpired):
        return None
    match = re.search(r'version "(\d+)', out)
    return int(match.group(1)) if match else None


def find_java(jvm_dirs: tuple[str, ...] = ("/usr/lib/jvm",)) -> Path:
    """A Java 17 (or 21) executable: ``TGNEO_JAVA``, ``JAVA_HOME``, Debian's JVM dir, then ``PATH``.

    Raises:
        MissingTool: no supported Java is installed; the message names the Debian package.
    """
    candidates: list[str] = []
    if os.environ.get("TGNEO_JAVA"):
        candidates.append(os.environ["TGNEO_JAVA"])
    if os.environ.get("JAVA_HOME"):
        candidates.append(str(Path(os.environ["JAVA_HOME"]) / "bin" / "java"))
    for jvm in map(Path, jvm_dirs):
        if jvm.is_dir():
            candidates += [str(p / "bin" / "java") for p in sorted(jvm.glob("java-17-openjdk*"))]
            candidates += [str(p / "bin" / "java") for p in sorted(jvm.glob("*17*"))]
            candidates += [str(p / "bin" / "java") for p in sorted(jvm.glob("*21*"))]
    on_path = shutil.which("java")
    if on_path:
        candidates.append(on_path)
    for candidate in dict.fromkeys(candidates):
        if Path(candidate).is_file() and _java_feature_version(candidate) in _SUPPORTED_JAVA:
            return Path(candidate)
    raise MissingTool(
        f"Neo4j {NEO4J_VERSION} needs Java 17: install it with `apt-get install {_JAVA_PACKAGE}` "
        "(or point TGNEO_JAVA at a Java 17 executable)."
    )


def find_maven(what: str = "Neo4j") -> str:
    """The ``mvn`` executable. Raises ``MissingTool`` naming the Debian package (and what needs it) when absent."""
    mvn = os.environ.get("TGNEO_MVN") or shutil.which("mvn")
    if not mvn:
        raise MissingTool(
            f"Provisioning {what} from Maven Central needs Maven: install it with `apt-get install {_MAVEN_PACKAGE}`."
        )
    return mvn


def copy_maven_dependencies(
    pom: str,
    target: Path,
    *,
    exclude_group_ids: tuple[str, ...] = (),
    exclude_artifact_ids: tuple[str, ...] = (),
    verify: Callable[[Path], None] | None = None,
    marker: str = "",
    what: str = "Neo4j",
    profiles: tuple[str, ...] = (),
) -> Path:
    """Resolve ``pom``'s runtime dependencies from Maven Central into ``target/lib`` and return it.

    Why staged: a download killed half-way must never look complete. Maven writes into a sibling
    staging directory; only after ``verify`` accepts its ``lib/`` is it renamed to ``target`` and the
    ``COMPLETE`` marker written. A complete ``target`` is returned at once (callers hold a lock).
    ``what`` names what is being provisioned in the message that asks for Maven; ``profiles`` are the pom's
    Maven profiles to activate (``plugins.pom.xml`` keeps one per server plugin).

    Raises:
        MissingTool: Maven or Java 17 is missing.
        ProvisioningError: Maven failed (the log's tail is in the message) or ``verify`` refused.
    """
    if (target / "COMPLETE").exists():
        return target / "lib"
    mvn = find_maven(what)
    java = find_java()
    staging = target.parent / f".{target.name}.staging"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    (staging / "pom.xml").write_text(pom, encoding="utf-8")
    log = staging / "maven.log"
    cmd = [
        mvn, "-B", "-f", str(staging / "pom.xml"),
        "org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy-dependencies",
        "-DincludeScope=runtime", f"-DoutputDirectory={staging / 'lib'}",
    ]  # fmt: skip
    if profiles:
        cmd.append(f"-P{','.join(profiles)}")
    if exclude_group_ids:
        cmd.append(f"-DexcludeGroupIds={','.join(exclude_group_ids)}")
    if exclude_artifact_ids:
        cmd.append(f"-DexcludeArtifactIds={','.join(exclude_artifact_ids)}")
    env = dict(os.environ, JAVA_HOME=str(java.parent.parent))
    with open(log, "w") as out:
        result = subprocess.run(cmd, stdout=out, stderr=subprocess.STDOUT, env=env, check=False)
    if result.returncode != 0:
        tail = "\n".join(log.read_text(encoding="utf-8", errors="replace").splitlines()[-15:])
        raise ProvisioningError(f"Maven could not resolve {target.name} (exit {result.returncode}):\n{tail}")
    if verify is not None:
        verify(staging / "lib")
    shutil.rmtree(target, ignore_errors=True)
    staging.rename(target)
    (target / "COMPLETE").write_text(f"{marker or target.name}\n", encoding="utf-8")
    return target / "lib"


def plugin_jars(home: Path, name: str, *, server_version: str, report: Callable[[str], None] | None = None) -> Path:
    """Resolve server plugin ``name``'s jars once from Maven Central into ``home/plugins/<name>-<version>/lib``.

    Why a cache beside the server's jars: every instance that asks for the plugin copies the same verified jars,
    and a plugin is downloaded once per version (two starts at once: one resolves, the other waits on the lock).

    Raises:
        ConfigError: ``name`` is not a known plugin.
        ProvisioningError: the plugin's version does not match ``server_version``, or Maven failed.
        MissingTool: Maven or Java 17 is missing.
    """
    plugin = plugin_for(name, server_version)
    target = home / "plugins" / plugin.cache_name
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target.parent / f".{plugin.cache_name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (target / "COMPLETE").exists():
            return target / "lib"
        if report is not None:
            report(f"resolving {plugin.title} {plugin.version} from Maven Central (log: {target}/maven.log)")

        def verify(lib: Path) -> None:
            if not list(lib.glob(f"{plugin.main_jar}{plugin.version}*.jar")):
                raise ProvisioningError(f"Maven resolved no {plugin.main_jar}{plugin.version} jar into {lib}")

        return copy_maven_dependencies(
            pom(), target, profiles=(plugin.name,), exclude_artifact_ids=plugin.exclude_artifact_ids,
            verify=verify, marker=plugin.cache_name, what=plugin.title,
        )  # fmt: skip
