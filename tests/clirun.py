"""Run the ``tgneo`` command as a user does: a subprocess with its output piped (not a terminal)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Mapping

from tests.conftest import Neo4jServer

TGNEO = (sys.executable, "-P", "-m", "tgneo.cli")
"""The ``tgneo`` command of this interpreter's environment. ``-P``: the working directory (the checkout) is not put
first on ``sys.path``, so it runs the installed tgneo (the wheel, in ``scripts/test-newest.sh``), not the checkout's."""


def tgneo(
    server: Neo4jServer | None,
    *args: str,
    ok: bool = True,
    env: Mapping[str, str] | None = None,
    stdin: str | None = None,
    timeout: float = 300,
) -> subprocess.CompletedProcess[str]:
    """``python -m tgneo.cli ARGS`` against ``server`` (or ``env``); with ``ok``, insist that it succeeded."""
    environ = dict(env if env is not None else server.env() if server is not None else {})
    result = subprocess.run(
        [*TGNEO, *args], env=environ, capture_output=True, text=True, timeout=timeout,
        input=stdin, check=False,
    )  # fmt: skip
    if ok:
        assert result.returncode == 0, f"tgneo {' '.join(args)} failed:\n{result.stderr}"
    return result
