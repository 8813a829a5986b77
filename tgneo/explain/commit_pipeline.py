"""Write-ahead recording: an engine computes its next step while the previous one commits.

A question's steps are written in order, one transaction each, on one background thread per
question; :meth:`CommitPipeline.submit` returns at once with a future that resolves when the
step's transaction has committed. Write-before-emit still holds — the engine's ``answer()``
releases an event to the client only once its future has resolved (``tgneo.engines.base``) — but a
commit's round trips and its server-side work now overlap the retrieval, the LLM call or the
scoring of the step after it, instead of adding to them.

A failed write stops the pipeline: every write queued after it is refused without touching Neo4j
(its parent may be the step that failed), so nothing is half-written and nothing out of order is.

The engine's next step is CPU-bound Python (scoring, alignment) while the recorder's thread waits on
Neo4j; each time a Bolt answer arrives the recorder needs the GIL back, and at CPython's default 5 ms
switch interval it waits out the engine's slice every time — measured, that more than doubled an
Exploration's 5 ms commit. The first pipeline therefore lowers the process's switch interval to
:data:`SWITCH_INTERVAL` (never raises it): commits come back at once, at the cost of more frequent
thread switches, which a server that waits on I/O can afford.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Mapping
from concurrent.futures import Future, ThreadPoolExecutor

from tgneo.errors import TgneoError
from tgneo.explain.events import ExplainEvent
from tgneo.explain.recorder import Recorder


class PipelineStopped(TgneoError):
    """A step was not written because an earlier step of the same question failed to be."""


SWITCH_INTERVAL = 0.0005
"""Seconds a thread may hold the GIL while another waits for it, once a pipeline exists (see above); the
server's workers start with it too (``tgneo.web.serve``), so a step's explain message leaves at once."""


class CommitPipeline:
    """Ordered, asynchronous recording for one question (and the sub-traces it starts)."""

    def __init__(self, recorder: Recorder) -> None:
        if sys.getswitchinterval() > SWITCH_INTERVAL:
            sys.setswitchinterval(SWITCH_INTERVAL)
        self.recorder = recorder
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tgneo-recorder")
        self._failed: BaseException | None = None
        self._lock = threading.Lock()

    def submit(
        self, event: ExplainEvent, parents: tuple[str, ...], contents: Mapping[str, str] | None = None
    ) -> Future[ExplainEvent]:
        """Queue the step ``event`` announces for writing after every step queued before it.

        The future resolves (to ``event``) when the step's transaction has committed.
        """
        return self._executor.submit(self._write, event, parents, dict(contents or {}))

    def _write(self, event: ExplainEvent, parents: tuple[str, ...], contents: dict[str, str]) -> ExplainEvent:
        with self._lock:
            failed = self._failed
        if failed is not None:
            raise PipelineStopped(f"not recording {event.kind} {event.explain_id}: an earlier step failed ({failed})")
        try:
            return self.recorder.write(event, parents, contents)
        except BaseException as e:
            with self._lock:
                self._failed = e
            raise

    def close(self) -> None:
        """Refuse what is still queued and wait for the write in progress (its step is then whole or absent)."""
        with self._lock:
            if self._failed is None:
                self._failed = PipelineStopped("the question was abandoned")
        self._executor.shutdown(wait=True, cancel_futures=True)
