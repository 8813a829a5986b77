"""The operators' audit log: who deleted or held what, when, as one JSON object a line.

Pruning and holds change what an audit can later see, so each is recorded where the data is not:
``$TGNEO_HOME/logs/audit.jsonl`` on the machine that ran it (the CLI's, or the server's for the HTTP
API), appended and flushed per record, never rotated by tgneo. A line::

    {"time": "2026-11-23T21:00:00Z", "action": "prune", "who": "alice", "workspace": "w",
     "collection": "c", "policy": "older than 30d", "traces": 12, "nodes": 140, "held": []}

``who`` is the operating-system user for the CLI, and the token's workspace for the HTTP API.
"""

from __future__ import annotations

import json
import os
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tgneo.config import default_home
from tgneo.timestamps import iso_z

_LOCK = threading.Lock()


def path() -> Path:
    """Where the audit log is: ``$TGNEO_HOME/logs/audit.jsonl`` (``TGNEO_AUDIT_LOG`` overrides it)."""
    explicit = os.environ.get("TGNEO_AUDIT_LOG")
    return Path(explicit) if explicit else default_home() / "logs" / "audit.jsonl"


def record(action: str, **fields: Any) -> None:
    """Append one record (``time`` and ``action`` first, then ``fields``)."""
    line = json.dumps({"time": iso_z(datetime.now(UTC)), "action": action, **fields}, ensure_ascii=False)
    target = path()
    target.parent.mkdir(parents=True, exist_ok=True)
    with _LOCK, open(target, "a", encoding="utf-8") as handle:
        handle.write(line + "\n")
        handle.flush()


def read(limit: int | None = None) -> list[dict[str, Any]]:
    """The records, oldest first (the last ``limit`` of them)."""
    try:
        lines = path().read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return []
    return [json.loads(line) for line in lines[-limit if limit else 0 :] if line.strip()]
