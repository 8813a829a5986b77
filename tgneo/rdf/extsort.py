"""Sorting more lines than fit in memory: sorted runs spilled to temporary files, then merged.

Canonical N-Quads export (one sorted line per distinct quad) and the import's grouping of each
provenance subject's quads both need a sort, and neither may hold a million lines at once. Runs of
``run_lines`` lines are sorted in memory and written to a temporary directory; ``heapq.merge`` reads
them back one line at a time, dropping duplicates. Memory is one run, whatever the input size.
"""

from __future__ import annotations

import heapq
import os
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import ExitStack

__all__ = ["sorted_unique"]

RUN_LINES = 100_000


def sorted_unique(lines: Iterable[str], run_lines: int = RUN_LINES) -> Iterator[str]:
    """``lines`` (each ending in ``\\n``) sorted by code point, each distinct line once."""
    with tempfile.TemporaryDirectory(prefix="tgneo-sort-") as folder:
        runs: list[str] = []
        run: list[str] = []
        for line in lines:
            run.append(line)
            if len(run) >= run_lines:
                runs.append(_spill(folder, len(runs), run))
                run = []
        if not runs:  # it all fitted: no files
            yield from _unique(iter(sorted(run)))
            return
        if run:
            runs.append(_spill(folder, len(runs), run))
        with ExitStack() as stack:
            files = [stack.enter_context(open(path, encoding="utf-8", newline="\n")) for path in runs]
            yield from _unique(heapq.merge(*files))


def _spill(folder: str, index: int, run: list[str]) -> str:
    path = os.path.join(folder, f"run{index:06d}")
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.writelines(sorted(run))
    return path


def _unique(lines: Iterator[str]) -> Iterator[str]:
    previous: str | None = None
    for line in lines:
        if line != previous:
            yield line
            previous = line
