"""Servers one ``scripts/test.sh`` run keeps up from its locked suite to its newest-releases suite.

Why: a Neo4j JVM's first minutes cost most (class loading, the JIT, Cypher's planner all cold: the same 110 tests
cost a new server 155 CPU-seconds and a warm one 29), and CI's two cores are busy throughout. ``scripts/test.sh``
runs two pytest sessions one after the other; each started its own session server and its own shared private ones
(``apoc_neo4j``, ``plain_neo4j``), so the second paid every warm-up again. With ``TGNEO_TEST_KEEP_SERVERS`` set to
the pid of the process that runs both sessions (the script's own), the servers a session starts for itself stay up
when it ends, and the next session of that owner finds them running and takes them as they are; the owner stops
them at its end (``python -m tests.kept_servers stop``). What a module sees does not change: a shared private
server is handed to each module through ``tests.private_neo4j.emptied``, and the session server's earlier test
collections are dropped by ``_move_on`` as after any earlier run.

Unset (a developer's ``pytest``), every session stops what it started, as before. A kept server whose owner died
(the script killed) is stopped and removed by the next session's ``session_instance``, as any left-behind one.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from tgneo.config import default_home
from tgneo.provision import LocalNeo4j

OWNER = "TGNEO_TEST_KEEP_SERVERS"
"""The environment variable naming the process that keeps the servers (its pid)."""


def owner() -> int | None:
    """The pid of the process that keeps the servers this session starts, or ``None``: stop them at the end."""
    value = os.environ.get(OWNER, "").strip()
    return int(value) if value.isdigit() else None


def _record(pid: int) -> Path:
    return default_home() / f"kept-by-{pid}.txt"


def keep(instance: str, *, remove: bool) -> None:
    """Leave ``instance`` running for the owner, who stops it (and removes its directory when ``remove``)."""
    pid = owner()
    assert pid is not None, f"{OWNER} is unset: nothing keeps {instance}"
    with _record(pid).open("a", encoding="utf-8") as record:
        record.write(f"{instance}\t{int(remove)}\n")


def stop(pid: int) -> list[str]:
    """Stop every instance kept for ``pid`` (and remove those started as new stores); the names stopped."""
    record = _record(pid)
    if not record.exists():
        return []
    home, stopped = default_home(), []
    for line in record.read_text(encoding="utf-8").splitlines():
        instance, _, remove = line.partition("\t")
        if LocalNeo4j(home, instance).stop():
            stopped.append(instance)
        if remove == "1":
            shutil.rmtree(home / "instances" / instance, ignore_errors=True)
    record.unlink()
    return stopped


if __name__ == "__main__":  # python -m tests.kept_servers stop PID
    if len(sys.argv) != 3 or sys.argv[1] != "stop" or not sys.argv[2].isdigit():
        sys.exit("usage: python -m tests.kept_servers stop PID  (the pid the servers were kept for)")
    for name in stop(int(sys.argv[2])):
        print(f"stopped kept Neo4j instance {name}", file=sys.stderr)
