"""Long commands the suite checks that need nothing from the session, started as the session starts.

Why: CI has two cores and spends most of its time waiting (Neo4j, sockets, subprocesses), and a few tests each wait
minutes on one command that brings everything it needs: ``scripts/docs.py --check`` (private servers of its own),
``scripts/bench/chaos.py`` (a Neo4j instance of its own). Run in file order, the suite waits for each in turn; given a
head start, each runs beside the tests that come before its own, and its test waits only for what is left.

What does not change: the command, its environment, its working directory and its timeout are the test's own, and
its test asserts on what it printed exactly as before. A test names its command with the ``head_start`` mark
(``@pytest.mark.head_start(COMMAND)``); ``tests/conftest.py`` starts the command once collection is done, only when
a selected test names it, and stops whatever still runs when the session ends (SIGINT first, so that its own
``finally`` stops the servers it started). The test gets the finished run from :func:`finished`.
"""

from __future__ import annotations

import os
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import pytest


@dataclass(frozen=True)
class Command:
    """A command a test runs and checks: ``argv`` in ``cwd``, this process's environment less the variables whose
    names start with one of ``drop``, and how long it may take from its start."""

    name: str
    argv: tuple[str, ...]
    cwd: Path
    timeout: float
    drop: tuple[str, ...] = ()

    def env(self) -> dict[str, str]:
        return {k: v for k, v in os.environ.items() if not k.startswith(self.drop)} if self.drop else dict(os.environ)


@dataclass
class _Running:
    command: Command
    process: subprocess.Popen[str]
    out: IO[str]
    err: IO[str]
    deadline: float
    result: subprocess.CompletedProcess[str] | None = field(default=None)


_RUNNING = pytest.StashKey[dict[str, _Running]]()


def start(config: pytest.Config, commands: Iterable[Command]) -> None:
    """Start each of ``commands`` (once each, by name) in the background, its output into temporary files."""
    running = config.stash.setdefault(_RUNNING, {})
    for command in commands:
        if command.name in running:
            continue
        out = tempfile.TemporaryFile("w+", encoding="utf-8", prefix=f"tgneo-{command.name}-")
        err = tempfile.TemporaryFile("w+", encoding="utf-8", prefix=f"tgneo-{command.name}-")
        process = subprocess.Popen(  # in pytest's process group: whatever stops the session's group stops it too
            command.argv, cwd=command.cwd, env=command.env(), stdout=out, stderr=err, stdin=subprocess.DEVNULL,
            text=True,
        )  # fmt: skip
        running[command.name] = _Running(command, process, out, err, time.monotonic() + command.timeout)


def finished(config: pytest.Config, command: Command) -> subprocess.CompletedProcess[str]:
    """``command``'s run, once it has ended (as ``subprocess.run(..., capture_output=True, text=True)`` gives it).

    Raises:
        subprocess.TimeoutExpired: it ran longer than its timeout (counted from its start); it is stopped.
    """
    running = config.stash.setdefault(_RUNNING, {})
    if command.name not in running:  # named by no selected test when collection ended (e.g. a fixture's user)
        start(config, [command])
    run = running[command.name]
    if run.result is None:
        try:
            run.process.wait(timeout=max(0.0, run.deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            _stop(run)
            raise subprocess.TimeoutExpired(list(command.argv), command.timeout, *_read(run)) from None
        out, err = _read(run)
        run.result = subprocess.CompletedProcess(list(command.argv), run.process.returncode, out, err)
    return run.result


def _read(run: _Running) -> tuple[str, str]:
    run.out.seek(0)
    run.err.seek(0)
    return run.out.read(), run.err.read()


def _stop(run: _Running) -> None:
    """SIGINT (its ``finally`` blocks stop what it started), then SIGKILL after 120 s."""
    if run.process.poll() is None:
        run.process.send_signal(signal.SIGINT)
        try:
            run.process.wait(timeout=120)
        except subprocess.TimeoutExpired:
            run.process.kill()
            run.process.wait()


def stop_all(config: pytest.Config) -> None:
    """Stop every command still running (its test was not reached) and close their files."""
    for run in config.stash.get(_RUNNING, {}).values():
        _stop(run)
        run.out.close()
        run.err.close()
