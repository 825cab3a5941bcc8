"""`read_bounded` reads whatever a path names, never more than its limit and one byte: a
regular file, standard input, a FIFO, a file that reports a size of 0 (``/proc``)."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from cleveragents.adapters.input_files.bounded_reading import (
    READ_CHUNK_BYTES,
    InputTooLargeError,
    UnreadableInputError,
    format_size,
    read_bounded,
)

LIMIT = 4096


def _read(path: str | Path, limit: int = LIMIT) -> bytes:
    return read_bounded(str(path), limit, what="notes", advice="shorten them")


def test_a_file_at_the_limit_is_read_and_one_byte_more_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_bytes(b"x" * LIMIT)
    assert _read(path) == b"x" * LIMIT
    path.write_bytes(b"x" * (LIMIT + 1))
    with pytest.raises(InputTooLargeError) as caught:
        _read(path)
    assert str(caught.value) == (
        f"{path} is 4,097 bytes; notes above 4 KiB are refused (shorten them)"
    )
    assert (caught.value.size, caught.value.limit) == (LIMIT + 1, LIMIT)


def test_a_huge_sparse_file_is_refused_by_its_size_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "sparse.txt"
    with path.open("wb") as sparse:
        sparse.truncate(5 << 30)
    with pytest.raises(InputTooLargeError, match=r"sparse\.txt is 5\.0 GiB; notes above 4 KiB"):
        _read(path)


def test_a_file_that_reports_no_size_is_still_bounded() -> None:
    """``/proc`` files are regular and report a size of 0: the size is not trusted."""
    status = Path("/proc/self/status")
    if not status.exists():
        pytest.skip("no /proc here")
    assert status.stat().st_size == 0
    assert b"Name:" in _read(status, 1 << 20)
    with pytest.raises(InputTooLargeError, match="status is more than 16 bytes"):
        _read(status, 16)


def test_a_fifo_is_read_to_its_end_or_refused_one_byte_past_the_limit(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for size, refused in ((LIMIT, False), (10 * READ_CHUNK_BYTES, True)):
        writer = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "import sys\n"
                "with open(sys.argv[1], 'wb') as out:\n"
                "    try:\n"
                "        out.write(b'y' * int(sys.argv[2]))\n"
                "    except BrokenPipeError:\n"
                "        pass\n",
                str(fifo),
                str(size),
            ],
            stderr=subprocess.DEVNULL,
        )
        try:
            if refused:
                with pytest.raises(InputTooLargeError, match="fifo is more than 4 KiB"):
                    _read(fifo)
            else:
                assert _read(fifo) == b"y" * size
        finally:
            writer.kill()
            writer.wait(timeout=30)


class _Endless(io.RawIOBase):
    """A stream without end that counts what it hands out."""

    def __init__(self) -> None:
        self.handed = 0

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        assert 0 < size <= READ_CHUNK_BYTES, "asked for everything, or more than a chunk"
        self.handed += size
        return b"\0" * size


def test_standard_input_is_read_one_byte_past_the_limit_and_no_further(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    endless = _Endless()
    monkeypatch.setattr(sys, "stdin", SimpleNamespace(buffer=endless))
    limit = 3 * READ_CHUNK_BYTES + 5
    with pytest.raises(InputTooLargeError) as caught:
        read_bounded("-", limit, what="documents")
    assert endless.handed == limit + 1
    assert (
        str(caught.value)
        == "standard input is more than 3.0 MiB; documents above 3.0 MiB are refused"
    )


def test_standard_input_under_the_limit_is_read_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", SimpleNamespace(buffer=io.BytesIO(b"hello")))
    assert read_bounded("-", LIMIT, what="documents") == b"hello"


def test_what_cannot_be_read_is_named(tmp_path: Path) -> None:
    with pytest.raises(UnreadableInputError, match=r"^file not found: .*missing\.txt$"):
        _read(tmp_path / "missing.txt")
    with pytest.raises(UnreadableInputError, match=r" is a directory, not a file$"):
        _read(tmp_path)
    (tmp_path / "file").write_text("x")
    with pytest.raises(UnreadableInputError, match=r"^cannot read .*: Not a directory$"):
        _read(tmp_path / "file" / "below")


@pytest.mark.parametrize(
    ("count", "shown"),
    [(900, "900 bytes"), (4096, "4 KiB"), (256 << 20, "256 MiB"), (3 << 29, "1.5 GiB")],
)
def test_sizes_are_shown_in_the_largest_whole_unit(count: int, shown: str) -> None:
    assert format_size(count) == shown
