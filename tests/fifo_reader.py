"""A FIFO with a reader already attached, reading on a thread until its writer closes.

`write_file` opens a FIFO with ``O_NONBLOCK`` and refuses it when no process reads it, so a
test's reader must be there before the write starts: the FIFO is opened for reading
(non-blocking) in the constructor, before any writer. The thread then waits with ``poll``,
which on Linux reports the end (``POLLHUP``) only after a writer came and went, never before
the first one arrives.
"""

from __future__ import annotations

import os
import select
import threading
from pathlib import Path


class FifoReader:
    """A FIFO at `path` and a reader of it: `join()` gives everything written to it."""

    def __init__(self, path: Path, *, create: bool = True) -> None:
        self.path = path
        if create:
            os.mkfifo(path)
        self._fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        self._chunks: list[bytes] = []
        self._writer_seen = threading.Event()
        self._closed = False
        self._stop_read, self._stop_write = os.pipe()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    @property
    def received(self) -> bytes:
        return b"".join(self._chunks)

    def _read(self) -> None:
        poller = select.poll()
        poller.register(self._fd, select.POLLIN)
        poller.register(self._stop_read, select.POLLIN)
        while True:
            events = dict(poller.poll())
            if self._stop_read in events:
                self._drain()
                return
            event = events.get(self._fd, 0)
            data = os.read(self._fd, 1 << 16) if event & select.POLLIN else b""
            if data:
                self._writer_seen.set()
                self._chunks.append(data)
            elif event & (select.POLLHUP | select.POLLERR):
                self._writer_seen.set()
                return

    def _drain(self) -> None:
        """What a writer that has already closed left in the pipe."""
        while True:
            try:
                data = os.read(self._fd, 1 << 16)
            except BlockingIOError:
                return
            if not data:
                return
            self._chunks.append(data)

    def join(self) -> bytes:
        """What was written, once the writer closed; b"" if no writer came (the reader is
        released rather than left waiting)."""
        if self._closed:
            return self.received
        if not self._writer_seen.is_set():
            os.write(self._stop_write, b"x")
        self._thread.join()
        for fd in (self._fd, self._stop_read, self._stop_write):
            os.close(fd)
        self._closed = True
        return self.received
