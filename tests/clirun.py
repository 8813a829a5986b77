"""Run the ``tgneo`` command as a user does: a subprocess with its output piped (not a terminal); or, for a test whose
subject is what a command prints or writes rather than the process it runs in, in this process (:func:`invoke`).

Why both: a subprocess costs about half a second of CPU before the command does anything (Python starts, tgneo and
its libraries are imported), which the suite pays for every CLI call; a test of exit codes, signals, a terminal,
the environment a process inherits or the installed script keeps the subprocess.
"""

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


def invoke(
    server: Neo4jServer | None,
    *args: str,
    ok: bool = True,
    env: Mapping[str, str] | None = None,
    stdin: str | None = None,
) -> subprocess.CompletedProcess[str]:
    """:func:`tgneo`'s call run in this process by click's ``CliRunner``: the same command group, arguments, standard
    input and environment (exactly ``env``, or the server's: variables of this process that it lacks are unset
    meanwhile), and its exit code, stdout and stderr apart, as a finished process gives them."""
    import os

    from click.testing import CliRunner

    from tgneo.cli import cli

    wanted = dict(env if env is not None else server.env() if server is not None else {})
    overlay: dict[str, str | None] = {**dict.fromkeys(os.environ), **wanted}
    result = CliRunner(env=overlay).invoke(cli, list(args), input=stdin, catch_exceptions=False, prog_name="tgneo")
    done = subprocess.CompletedProcess(["tgneo", *args], result.exit_code, result.stdout, result.stderr)
    if ok:
        assert done.returncode == 0, f"tgneo {' '.join(args)} failed:\n{done.stderr}"
    return done
