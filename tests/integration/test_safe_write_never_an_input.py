"""`write_file(..., never_replace=...)`: the files a command read are never replaced, by any name
that reaches them, even a link or hard link swapped in while the bytes are being written (the
window between the command's check of ``--out`` and its write)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from cleveragents.adapters.files import safe_write
from cleveragents.adapters.files.safe_write import OutputFileError, file_identity, write_file

INPUT_BYTES = b'{"type": "user", "message": "the session"}\n'


@pytest.fixture
def input_file(tmp_path: Path) -> Path:
    path = tmp_path / "session.jsonl"
    path.write_bytes(INPUT_BYTES)
    path.chmod(0o444)
    return path


def _kept(path: Path) -> frozenset[tuple[int, int]]:
    return frozenset({file_identity(path.stat())})


def _leftovers(directory: Path) -> list[str]:
    return [name for name in os.listdir(directory) if name.endswith(".partial")]


def test_the_input_by_its_own_name_is_refused(input_file: Path) -> None:
    with pytest.raises(OutputFileError, match="one of the inputs"):
        write_file(input_file, b"other", never_replace=_kept(input_file))
    assert input_file.read_bytes() == INPUT_BYTES


@pytest.mark.parametrize("make_link", [os.link, os.symlink], ids=["hard link", "symlink"])
def test_a_link_to_the_input_is_refused(
    input_file: Path, tmp_path: Path, make_link: Callable[[Path, Path], None]
) -> None:
    out = tmp_path / "out.jsonl"
    make_link(input_file, out)
    with pytest.raises(OutputFileError, match="one of the inputs"):
        write_file(out, b"other", never_replace=_kept(input_file))
    assert input_file.read_bytes() == INPUT_BYTES
    assert _leftovers(tmp_path) == []


@pytest.mark.parametrize("make_link", [os.link, os.symlink], ids=["hard link", "symlink"])
def test_a_link_to_the_input_swapped_in_during_the_write_is_put_back_and_refused(
    input_file: Path,
    tmp_path: Path,
    make_link: Callable[[Path, Path], None],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The name is free when the write starts; while the bytes go to the staging file, something
    # puts a link to the input at the name (what a racing process would do).
    out = tmp_path / "out.jsonl"
    write_all = safe_write._write_all

    def write_while_swapping(fd: int, data: bytes) -> None:
        make_link(input_file, out)
        write_all(fd, data)

    monkeypatch.setattr(safe_write, "_write_all", write_while_swapping)
    # A hard link is the input itself; a symlink is not a regular file: refused either way.
    with pytest.raises(OutputFileError, match=r"one of the inputs|no longer a regular file"):
        write_file(out, b"other", never_replace=_kept(input_file))
    assert input_file.read_bytes() == INPUT_BYTES
    assert out.read_bytes() == INPUT_BYTES  # the link swapped in is back where it was
    assert _leftovers(tmp_path) == []


def test_another_file_is_replaced_as_ever(input_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    out.write_bytes(b"old")
    write_file(out, b"new", never_replace=_kept(input_file))
    assert out.read_bytes() == b"new"
    assert input_file.read_bytes() == INPUT_BYTES
