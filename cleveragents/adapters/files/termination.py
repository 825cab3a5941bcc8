"""A termination signal turned into an exception while a file is being written, so that the
writer's cleanup (``except BaseException``) runs before the process ends.

By default ``SIGTERM`` and ``SIGHUP`` end a Python process on the spot: no ``finally`` runs, and
a staging file of tens of megabytes of transcript is left beside the target. Within
`cleanup_on_termination`, each of them raises `Terminated` instead; once the cleanup has run,
the default action is restored and the signal sent again, so the process still dies of it (its
parent sees the usual exit status). ``SIGINT`` already raises `KeyboardInterrupt`.

Handlers can only be set from the main thread; elsewhere, and for a signal whose handler is not
the default (the application chose what it does), nothing is changed. ``SIGKILL`` cannot be
caught: what it leaves is removed by the next write into the folder (`staging_names`).
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


class Terminated(BaseException):
    """A termination signal arrived while a file was being written."""

    def __init__(self, signal_number: int) -> None:
        super().__init__(f"terminated by signal {signal_number}")
        self.signal_number = signal_number


@contextmanager
def cleanup_on_termination() -> Iterator[None]:
    """Within this block, a termination signal raises `Terminated` (see the module docstring);
    when it leaves the block, the process is killed by that signal."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    replaced = {}
    for number in _SIGNALS:
        if signal.getsignal(number) is signal.SIG_DFL:
            replaced[number] = signal.signal(number, _raise_terminated)
    try:
        yield
    except Terminated as terminated:
        for number in replaced:
            signal.signal(number, signal.SIG_DFL)
        replaced.clear()
        os.kill(os.getpid(), terminated.signal_number)
        raise  # only reached if the signal is blocked: end as the exception
    finally:
        for number, previous in replaced.items():
            signal.signal(number, previous)


def _raise_terminated(signal_number: int, _frame: FrameType | None) -> None:
    raise Terminated(signal_number)
