"""The import's write-behind: every chunk written and hashed, in order, before the block ends;
the writer's failure reaches the caller; an interrupted import leaves nothing writing."""

from __future__ import annotations

import hashlib
import threading

import pytest

from cleveragents.application.ports.blob_storage import BlobWriter
from cleveragents.application.services.artifact_store.write_behind import DEPTH, WriteBehind


class _ListWriter(BlobWriter):
    def __init__(self, fail_at: int | None = None, gate: threading.Event | None = None) -> None:
        self.chunks: list[bytes] = []
        self._fail_at = fail_at
        self._gate = gate

    def write(self, data: bytes) -> None:
        if self._gate is not None:
            self._gate.wait()
        if self._fail_at is not None and len(self.chunks) == self._fail_at:
            raise OSError(28, "No space left on device")
        self.chunks.append(data)

    def commit(self, sha256: str) -> None:
        raise AssertionError("the write-behind never commits")

    def abort(self) -> None:
        raise AssertionError("the write-behind never aborts")


def test_every_chunk_is_written_and_hashed_in_order_when_the_block_ends() -> None:
    chunks = [bytes([index % 251]) * (index + 1) for index in range(50)]
    writer, digest = _ListWriter(), hashlib.sha256()
    with WriteBehind(writer, digest) as sink:
        for chunk in chunks:
            sink.put(chunk)
    assert writer.chunks == chunks
    assert digest.hexdigest() == hashlib.sha256(b"".join(chunks)).hexdigest()


def test_empty_chunks_are_skipped_and_do_not_end_the_stream() -> None:
    writer, digest = _ListWriter(), hashlib.sha256()
    with WriteBehind(writer, digest) as sink:
        for chunk in (b"a", b"", b"b"):
            sink.put(chunk)
    assert writer.chunks == [b"a", b"b"]


def test_the_writers_failure_is_raised_in_the_callers_thread() -> None:
    writer = _ListWriter(fail_at=2)

    def import_many() -> None:
        with WriteBehind(writer, hashlib.sha256()) as sink:
            for index in range(10 * DEPTH):  # more than the queue holds: no put blocks forever
                sink.put(b"x%d" % index)

    with pytest.raises(OSError, match="No space left"):
        import_many()
    assert writer.chunks == [b"x0", b"x1"]


def test_an_interrupted_block_leaves_no_thread_writing() -> None:
    gate = threading.Event()
    writer = _ListWriter(gate=gate)

    def interrupted() -> None:
        with WriteBehind(writer, hashlib.sha256()) as sink:
            for index in range(DEPTH):
                sink.put(b"%d" % index)
            gate.set()
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        interrupted()
    # Joined when the block was left: the caller may abort the writer, nothing writes to it.
    assert all(t.name != "import-write-behind" for t in threading.enumerate())
