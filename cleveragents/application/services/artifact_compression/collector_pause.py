"""The cyclic garbage collector paused while an artifact is compressed.

A compression builds millions of small containers (a line list, a segment per block, a rank per
line, the token starts) that hold no reference cycles: reference counting frees every one of
them. The cyclic collector still walks them: each time enough new containers pile up it runs,
and its full passes walk every container alive, the whole artifact's included. On 10 MB of
markdown those passes cost 5-7% of the compression, measured by `gc.callbacks`, and found
nothing to collect. So it is paused for the compression and resumed after; it then collects
whatever cyclic garbage the process made meanwhile, at its next run as usual.

The pause is the process's, since the collector is: nested and concurrent compressions share
one pause, and the collector runs again when the last of them ends, unless it was off before
the first began (then it stays off: that was the host program's choice).
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager


class _CollectorPause:
    """How many compressions are running, and whether the collector ran before the first."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running = 0
        self._resume = False

    @contextmanager
    def held(self) -> Iterator[None]:
        with self._lock:
            if self._running == 0:
                self._resume = gc.isenabled()
                gc.disable()
            self._running += 1
        try:
            yield
        finally:
            with self._lock:
                self._running -= 1
                if self._running == 0 and self._resume:
                    gc.enable()


_PAUSE = _CollectorPause()


def collector_paused() -> AbstractContextManager[None]:
    """A context in which the cyclic collector does not run (see the module's docstring)."""
    return _PAUSE.held()
