"""`write_file` on a real file system: atomic for regular files, in place for FIFOs and devices,
never through a planted staging name or a dangling link.

The "not a regular file" branch is exercised with a FIFO only: tests never write to /dev/null
(as root a wrong rename would replace the device for every process on the machine)."""

from __future__ import annotations

import os
import secrets
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from cleveragents.adapters.files.safe_write import OutputFileError, write_file
from cleveragents.adapters.files.staging_names import new_staging_name
from tests.fifo_reader import FifoReader


def _staging_leftovers(directory: Path) -> list[str]:
    return [name for name in os.listdir(directory) if name.endswith(".partial")]


def test_a_new_file_is_created_whole_and_no_staging_file_is_left(tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    write_file(target, b'{"a": 1}\n')
    assert target.read_bytes() == b'{"a": 1}\n'
    assert _staging_leftovers(tmp_path) == []


def test_a_new_file_gets_the_umasks_mode(tmp_path: Path) -> None:
    previous = os.umask(0o027)
    try:
        write_file(tmp_path / "out", b"x")
    finally:
        os.umask(previous)
    assert stat.S_IMODE((tmp_path / "out").stat().st_mode) == 0o640


def test_an_existing_file_is_replaced_by_rename_and_keeps_its_mode(tmp_path: Path) -> None:
    target = tmp_path / "out"
    target.write_bytes(b"old contents, longer than the new ones")
    target.chmod(0o604)
    inode_before = target.stat().st_ino
    write_file(target, b"new")
    assert target.read_bytes() == b"new"
    assert target.stat().st_ino != inode_before  # a new file renamed over, not truncated
    assert stat.S_IMODE(target.stat().st_mode) == 0o604


def test_a_symlink_planted_at_the_old_staging_name_is_never_followed(tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.write_bytes(b"precious")
    (tmp_path / ".out.partial").symlink_to(victim)
    write_file(tmp_path / "out", b"payload")
    assert victim.read_bytes() == b"precious"
    assert (tmp_path / ".out.partial").is_symlink()
    assert (tmp_path / "out").read_bytes() == b"payload"


def test_a_staging_name_already_taken_is_skipped_for_a_fresh_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The random part is made predictable so that the attacker "guesses" the first name.
    guessed, fresh = "0" * 16, "1" * 16
    names = iter([guessed, guessed, fresh])
    monkeypatch.setattr(secrets, "token_hex", lambda _n: next(names))
    victim = tmp_path / "victim"
    victim.write_bytes(b"precious")
    planted = tmp_path / new_staging_name("out")
    planted.symlink_to(victim)
    write_file(tmp_path / "out", b"payload")
    assert victim.read_bytes() == b"precious"
    assert planted.is_symlink()
    assert (tmp_path / "out").read_bytes() == b"payload"
    assert _staging_leftovers(tmp_path) == [planted.name]


def test_a_dangling_planted_staging_symlink_creates_nothing_where_it_points(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    guessed, fresh = "0" * 16, "1" * 16
    names = iter([guessed, guessed, fresh])
    monkeypatch.setattr(secrets, "token_hex", lambda _n: next(names))
    elsewhere = tmp_path / "elsewhere"
    (tmp_path / new_staging_name("out")).symlink_to(elsewhere)
    write_file(tmp_path / "out", b"payload")
    assert not elsewhere.exists()


@pytest.fixture
def fifo(tmp_path: Path) -> Iterator[FifoReader]:
    reader = FifoReader(tmp_path / "pipe")
    yield reader
    reader.join()


def test_a_fifo_is_written_in_place_and_stays_a_fifo(fifo: FifoReader) -> None:
    data = b"line\n" * 50_000  # more than a pipe buffer: every byte must get through
    write_file(fifo.path, data)
    assert fifo.join() == data
    assert stat.S_ISFIFO(fifo.path.lstat().st_mode)
    assert _staging_leftovers(fifo.path.parent) == []


def test_a_symlink_to_a_fifo_writes_into_the_fifo(fifo: FifoReader, tmp_path: Path) -> None:
    link = tmp_path / "link"
    link.symlink_to(fifo.path)
    write_file(link, b"through the link")
    assert fifo.join() == b"through the link"
    assert link.is_symlink()
    assert stat.S_ISFIFO(fifo.path.lstat().st_mode)


def test_a_symlink_to_a_regular_file_replaces_that_file_and_stays_a_link(
    tmp_path: Path,
) -> None:
    real = tmp_path / "real.json"
    real.write_bytes(b"old")
    link = tmp_path / "latest.json"
    link.symlink_to(real.name)
    write_file(link, b"new")
    assert link.is_symlink()
    assert real.read_bytes() == b"new"
    assert _staging_leftovers(tmp_path) == []


def test_a_dangling_symlink_is_refused_and_creates_nothing(tmp_path: Path) -> None:
    link = tmp_path / "out"
    link.symlink_to(tmp_path / "elsewhere")
    with pytest.raises(OutputFileError, match="symbolic link to nothing"):
        write_file(link, b"payload")
    assert not (tmp_path / "elsewhere").exists()
    assert link.is_symlink()


def test_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(OutputFileError, match="is a directory"):
        write_file(tmp_path, b"payload")


def test_a_missing_directory_is_an_os_error_and_leaves_nothing(tmp_path: Path) -> None:
    with pytest.raises(OutputFileError, match=r"cannot write .*: No such file or directory"):
        write_file(tmp_path / "no-such-dir" / "out", b"payload")
    assert not (tmp_path / "no-such-dir").exists()


def test_a_nul_byte_is_bad_input(tmp_path: Path) -> None:
    with pytest.raises(OutputFileError, match="NUL"):
        write_file(f"{tmp_path}/out\0x", b"payload")
