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

Under pytest-xdist the controller starts them, as soon as the first worker has collected (:func:`announce` writes
what it selected into the controller's directory, :func:`start_shared` starts it there): a worker cannot, as it
learns its tests one group at a time, and a command started with its test made that test wait for all of it. The
command's output goes to files of that directory and its exit status to ``<name>.rc`` when it ends, which the
worker running its test waits for (:func:`finished`, within the same timeout from the same start).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import tempfile
import threading
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


def announce(directory: Path, commands: Iterable[Command]) -> None:
    """Write, for the controller, the commands a worker's selected tests name (each worker selects the same)."""
    listed = {c.name: {"argv": c.argv, "cwd": str(c.cwd), "timeout": c.timeout, "drop": c.drop} for c in commands}
    written = directory / f"head-start-{os.getpid()}.json"
    written.with_suffix(".tmp").write_text(json.dumps(listed), encoding="utf-8")
    written.with_suffix(".tmp").replace(written)


def start_shared(config: pytest.Config, directory: Path) -> None:
    """In the controller: start the commands a worker announced (once), their output into ``directory`` and their
    exit status into ``<name>.rc`` when they end (a thread waits for each), for the workers to read."""
    if config.stash.get(_RUNNING, None) is not None:
        return
    running = config.stash.setdefault(_RUNNING, {})
    announced = next(directory.glob("head-start-*.json"), None)
    listed = json.loads(announced.read_text(encoding="utf-8")) if announced else {}
    for name, c in listed.items():
        command = Command(name, tuple(c["argv"]), Path(c["cwd"]), c["timeout"], tuple(c["drop"]))
        out = open(directory / f"{name}.out", "w+", encoding="utf-8")  # noqa: SIM115  (closed by stop_all)
        err = open(directory / f"{name}.err", "w+", encoding="utf-8")  # noqa: SIM115
        run = _popen(command, out, err)
        (directory / f"{name}.deadline").write_text(str(run.deadline), encoding="utf-8")
        running[name] = run

        def wait(run: _Running = run, name: str = name) -> None:
            code = run.process.wait()
            (directory / f"{name}.rc.tmp").write_text(str(code), encoding="utf-8")
            (directory / f"{name}.rc.tmp").replace(directory / f"{name}.rc")

        threading.Thread(target=wait, name=f"head-start-{name}", daemon=True).start()


def _shared_result(directory: Path, command: Command) -> subprocess.CompletedProcess[str] | None:
    """The run of ``command`` the controller started (:func:`start_shared`), once it ended; ``None`` when the
    controller started none.

    Raises:
        subprocess.TimeoutExpired: it ran longer than its timeout (the controller stops it as the session ends).
    """
    deadline_file = directory / f"{command.name}.deadline"
    if not deadline_file.exists():
        return None
    deadline = float(deadline_file.read_text(encoding="utf-8"))  # time.monotonic() is the machine's, not ours
    rc = directory / f"{command.name}.rc"
    while not rc.exists():
        if time.monotonic() > deadline:
            raise subprocess.TimeoutExpired(list(command.argv), command.timeout, *_read_shared(directory, command))
        time.sleep(0.5)
    out, err = _read_shared(directory, command)
    return subprocess.CompletedProcess(list(command.argv), int(rc.read_text(encoding="utf-8")), out, err)


def _read_shared(directory: Path, command: Command) -> tuple[str, str]:
    return tuple(  # type: ignore[return-value]
        (directory / f"{command.name}.{part}").read_text(encoding="utf-8") for part in ("out", "err")
    )


def _popen(command: Command, out: IO[str], err: IO[str]) -> _Running:
    process = subprocess.Popen(  # in pytest's process group: whatever stops the session's group stops it too
        command.argv, cwd=command.cwd, env=command.env(), stdout=out, stderr=err, stdin=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    return _Running(command, process, out, err, time.monotonic() + command.timeout)


def start(config: pytest.Config, commands: Iterable[Command]) -> None:
    """Start each of ``commands`` (once each, by name) in the background, its output into temporary files."""
    running = config.stash.setdefault(_RUNNING, {})
    for command in commands:
        if command.name in running:
            continue
        out = tempfile.TemporaryFile("w+", encoding="utf-8", prefix=f"tgneo-{command.name}-")
        err = tempfile.TemporaryFile("w+", encoding="utf-8", prefix=f"tgneo-{command.name}-")
        running[command.name] = _popen(command, out, err)


def finished(config: pytest.Config, command: Command) -> subprocess.CompletedProcess[str]:
    """``command``'s run, once it has ended (as ``subprocess.run(..., capture_output=True, text=True)`` gives it).

    Raises:
        subprocess.TimeoutExpired: it ran longer than its timeout (counted from its start); it is stopped.
    """
    from tests.conftest import _shared_dir

    directory = _shared_dir()
    if hasattr(config, "workerinput") and directory is not None:
        shared = _shared_result(directory, command)
        if shared is not None:
            return shared
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
