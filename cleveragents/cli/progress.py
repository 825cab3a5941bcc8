"""Progress of long commands: one updating line on stderr, on a terminal only.

A command that may run long (a count, a compression, a compaction of a large input) wraps its
work in `progress_line`. Nothing is shown for the first `delay` seconds (most runs end before
it), nor when stderr is not a terminal (a pipe, a file, CI logs), nor when the command prints
`--json`: scripts read stdout and stderr exactly as before. stdout is never written.

The line is redrawn in place with a carriage return by a background thread, so work that gives
no news (an opaque service call) still shows that it is running and for how long; work that
knows its size calls `advance` and the line shows how far it has got. The line is erased when
the work ends, so what the command prints afterwards starts on a clean line.
"""

from __future__ import annotations

import math
import os
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

DELAY_SECONDS = 2.0
"""How long work runs before its progress line appears."""

DELAY_ENV = "CLEVERAGENTS_PROGRESS_DELAY"
"""Overrides `DELAY_SECONDS` (seconds, a number >= 0; 0 shows the line at once)."""

REFRESH_SECONDS = 0.25


class ProgressLine:
    """The progress of one piece of work, drawn on `stream` while the work runs."""

    def __init__(
        self, label: str, stream: TextIO, total_bytes: int | None, delay: float, visible: bool
    ) -> None:
        self._label = label
        self._visible = visible
        self._stream = stream
        self._total = total_bytes
        self._delay = delay
        self._done = 0
        self._started = time.monotonic()
        self._stop = threading.Event()
        self._drawn_width = 0
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name="progress", daemon=True)

    def advance(self, byte_count: int) -> None:
        """Record that `byte_count` more bytes of the input were processed."""
        self._done += byte_count

    def start(self) -> None:
        if not self._visible:
            return
        if self._delay <= 0:
            self._draw()  # at once: even work that ends in a moment shows its line
        self._thread.start()

    def finish(self) -> None:
        if not self._visible:
            return
        self._stop.set()
        self._thread.join()
        with self._lock:
            if self._drawn_width:
                self._write("\r" + " " * self._drawn_width + "\r")

    def _run(self) -> None:
        if self._stop.wait(self._delay):
            return
        while not self._stop.is_set():
            self._draw()
            self._stop.wait(REFRESH_SECONDS)

    def _draw(self) -> None:
        text = self.describe()
        with self._lock:
            if self._stop.is_set():
                return
            padding = " " * max(self._drawn_width - len(text), 0)
            self._write("\r" + text + padding)
            self._drawn_width = len(text)

    def describe(self) -> str:
        """The line as it reads now: what, how far (when the size is known), for how long."""
        elapsed = int(time.monotonic() - self._started)
        if self._total:
            share = min(self._done, self._total) * 100 // self._total
            done = f"{_megabytes(self._done)} of {_megabytes(self._total)} ({share}%)"
            return f"{self._label}: {done}, {elapsed} s"
        return f"{self._label}: {elapsed} s"

    def _write(self, text: str) -> None:
        try:
            self._stream.write(text)
            self._stream.flush()
        except (OSError, ValueError):  # the terminal went away: progress is not worth a failure
            self._stop.set()


def _megabytes(byte_count: int) -> str:
    return f"{byte_count / 1_000_000:.1f} MB"


@contextmanager
def progress_line(
    label: str,
    *,
    total_bytes: int | None = None,
    enabled: bool = True,
    stream: TextIO | None = None,
) -> Iterator[ProgressLine]:
    """A progress line for the work in the `with` block, on `stream` (default: stderr).

    Shown only when `enabled` (commands pass ``not as_json``) and the stream is a terminal,
    and then only once the work has run `delay_seconds()`.
    """
    target = sys.stderr if stream is None else stream
    visible = enabled and _is_terminal(target)
    line = ProgressLine(label, target, total_bytes, delay_seconds(), visible)
    line.start()
    try:
        yield line
    finally:
        line.finish()


def delay_seconds() -> float:
    """`DELAY_SECONDS`, or the environment's override (an unusable value is ignored: a
    progress line is not worth refusing a command for)."""
    configured = os.environ.get(DELAY_ENV, "").strip()
    try:
        delay = float(configured) if configured else DELAY_SECONDS
    except ValueError:
        return DELAY_SECONDS
    return delay if math.isfinite(delay) and delay >= 0 else DELAY_SECONDS


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or unusual stream
        return False
