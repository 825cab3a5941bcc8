"""Writing and hashing an import's chunks on one worker thread while the caller scans them.

The secret scan is pure Python and holds the interpreter; `hashlib` (on large buffers) and file
writes release it. Run one after the other, a 1 GB import pays for all three in turn; with the
write and the hash handed to a thread, they overlap the scan of the next chunk on a second core.
At most `DEPTH` chunks wait, so memory stays bounded whatever the file's size. The thread lives
for one import: started when the stream opens, joined before it is committed or aborted.
"""

from __future__ import annotations

import queue
import threading
from types import TracebackType
from typing import Any, Protocol

from cleveragents.application.ports.blob_storage import BlobWriter

DEPTH = 4
_END = b""  # the end of the stream: `put` never queues an empty chunk


class _Digest(Protocol):
    def update(self, data: bytes, /) -> None: ...


class WriteBehind:
    """``with WriteBehind(writer, digest) as sink: sink.put(chunk)``. Leaving the block
    normally waits for every chunk to be written and hashed and raises what the writer raised;
    leaving it by an exception drops what is still queued and waits for the thread, so that
    the caller can abort the writer with nothing writing to it."""

    def __init__(self, writer: BlobWriter, digest: _Digest) -> None:
        self._writer = writer
        self._digest = digest
        self._queue: queue.Queue[bytes] = queue.Queue(maxsize=DEPTH)
        self._error: BaseException | None = None
        self._cancelled = False
        self._thread = threading.Thread(target=self._run, name="import-write-behind", daemon=True)

    def __enter__(self) -> WriteBehind:
        self._thread.start()
        return self

    def put(self, chunk: bytes) -> None:
        if self._error is not None:
            raise self._error
        if chunk:
            self._queue.put(chunk)

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> Any:
        if kind is not None:
            self._cancelled = True
        self._queue.put(_END)
        self._thread.join()
        if kind is None and self._error is not None:
            raise self._error
        return None

    def _run(self) -> None:
        while chunk := self._queue.get():
            if self._error is not None or self._cancelled:
                continue  # drain, so that a put never blocks on a stopped writer
            try:
                self._writer.write(chunk)
                self._digest.update(chunk)
            except BaseException as failure:  # handed to the caller's thread
                self._error = failure
