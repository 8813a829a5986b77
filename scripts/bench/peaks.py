"""Peak memory of one phase of a benchmark: of this Python process, and of the local Neo4j server's JVM.

Both figures are Linux's peak resident set size of the process (``VmHWM`` in ``/proc/PID/status``), reset when
the phase starts by writing ``5`` to ``/proc/PID/clear_refs`` (Linux 4.0 and later) and read when it ends: the
phase's own peak, not the process's lifetime one that ``ru_maxrss`` keeps. Where the reset is refused the figure
is the lifetime peak, and says so (``reset: false``).

The server is the process listening on the Bolt port of the store's URI on this machine (``/proc/net/tcp*`` gives
the listening socket's inode, ``/proc/*/fd`` the process holding it); a server on another machine, or in a
container whose processes this one cannot see, has no figure. A JVM's resident set counts its heap as far as it
was touched (Neo4j starts with ``-XX:+AlwaysPreTouch`` and ``-Xms`` = ``-Xmx``, so the whole heap from the start),
the page cache as far as it was filled, and native memory (threads, network buffers, off-heap transaction state).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "::1", "0.0.0.0"})


def listening_pid(port: int) -> int | None:
    """The pid of the process on this machine that listens on TCP ``port``, if this process can see it."""
    sockets = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = Path(table).read_text(encoding="ascii").splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            fields = row.split()
            if len(fields) > 9 and fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) == port:  # 0A: LISTEN
                sockets.add(f"socket:[{fields[9]}]")
    if not sockets:
        return None
    for process in Path("/proc").iterdir():
        if not process.name.isdigit():
            continue
        try:
            for fd in (process / "fd").iterdir():
                if os.readlink(fd) in sockets:
                    return int(process.name)
        except OSError:  # gone, or not ours to read
            continue
    return None


def server_pid(uri: str) -> int | None:
    """The local process serving ``uri`` (``bolt://127.0.0.1:7687``), or ``None`` when it is not on this machine."""
    parts = urlsplit(uri)
    if parts.hostname not in LOCAL_HOSTS:
        return None
    return listening_pid(parts.port or 7687)


def _status(pid: int | str, field: str) -> int | None:
    """A ``kB`` field of ``/proc/PID/status`` (``VmHWM``, ``VmRSS``) in KiB."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text(encoding="ascii").splitlines():
            if line.startswith(f"{field}:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def _reset(pid: int | str) -> bool:
    try:
        Path(f"/proc/{pid}/clear_refs").write_text("5", encoding="ascii")
    except OSError:
        return False
    return True


@dataclass
class Peak:
    """One process's peak resident set over a phase (``start`` → ``stop``), in MiB."""

    pid: int | str
    reset: bool = False
    mib: float | None = None

    def start(self) -> None:
        self.reset = _reset(self.pid)

    def stop(self) -> float | None:
        peak = _status(self.pid, "VmHWM")
        self.mib = round(peak / 1024, 1) if peak is not None else None
        return self.mib


class Peaks:
    """The peaks of this process and of the local server of ``uri`` over a ``with`` block."""

    def __init__(self, uri: str) -> None:
        server = server_pid(uri)
        self.python = Peak("self")
        self.server = Peak(server) if server is not None else None

    def __enter__(self) -> Peaks:
        self.python.start()
        if self.server is not None:
            self.server.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.python.stop()
        if self.server is not None:
            self.server.stop()

    def report(self) -> dict[str, object]:
        """``{"python_peak_rss_mib", "neo4j_peak_rss_mib", "phase_peaks"}`` (``phase_peaks``: both were reset)."""
        return {
            "python_peak_rss_mib": self.python.mib,
            "neo4j_peak_rss_mib": self.server.mib if self.server is not None else None,
            "phase_peaks": self.python.reset and (self.server is None or self.server.reset),
        }
