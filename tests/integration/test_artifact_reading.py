"""Reading an artifact to compress, on the real file system through the store's containment:
text, chunks and lines from one descriptor; every escape answered as "not found"; no leak when
a directory on the path is swapped for a symlink while it is opened."""

from __future__ import annotations

import ctypes
import os
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from cleveragents.adapters.workspace.contained_files import FdContainedFiles
from cleveragents.application.services.artifact_compression import artifact_reading
from cleveragents.application.services.artifact_compression.artifact_reading import (
    STDIN_LOCATION,
    artifact_from_bytes,
    binary_refusal,
    open_artifact,
)
from cleveragents.domain.errors import ArtifactNotFoundError, InvalidInputError

SECRET = "OUTSIDE-SECRET"
INSIDE = "inside\n"
RACE_ATTEMPTS = 5_000


@dataclass(frozen=True)
class Layout:
    base: Path  # holds the work directory and what lies outside it
    root: Path  # the work directory
    outside: Path  # a secret file outside


@pytest.fixture
def layout(tmp_path: Path) -> Layout:
    root = tmp_path / "work"
    (root / "logs").mkdir(parents=True)
    (root / "logs" / "run.log").write_text(INSIDE)
    outside = tmp_path / "outside.txt"
    outside.write_text(SECRET)
    (tmp_path / "outside-dir").mkdir()
    (tmp_path / "outside-dir" / "run.log").write_text(SECRET)
    (tmp_path / "work-evil").mkdir()
    (tmp_path / "work-evil" / "run.log").write_text(SECRET)
    return Layout(base=tmp_path, root=root, outside=outside)


@pytest.fixture
def files() -> FdContainedFiles:
    return FdContainedFiles()


def _text(files: FdContainedFiles, root: Path, path: str) -> str:
    with open_artifact(files, str(root), path) as artifact:
        return artifact.read_text()


# --- reading --------------------------------------------------------------------------------


def test_a_file_is_read_whole_in_chunks_and_in_lines(
    files: FdContainedFiles, layout: Layout
) -> None:
    text = "".join(f"line {i}: caf\u00e9 \u2713\n" for i in range(2000)) + "last, no newline"
    (layout.root / "logs" / "big.log").write_text(text)
    with open_artifact(files, str(layout.root), "logs/big.log") as artifact:
        assert artifact.location == f"{layout.root.resolve()}/logs/big.log"
        assert artifact.size_bytes == len(text.encode())
        assert not artifact.is_binary()
        assert artifact.read_text() == text
        assert "".join(artifact.iter_text(chunk_chars=4096)) == text
        lines = list(artifact.iter_lines())
    assert lines == text.splitlines(keepends=True)
    assert lines[-1] == "last, no newline"


@pytest.mark.parametrize("chunk_chars", [1, 2, 3, 5, 7])
def test_a_character_split_between_reads_is_decoded_whole(
    files: FdContainedFiles, layout: Layout, chunk_chars: int
) -> None:
    text = "a\u00e9\u20ac\U0001f600b" * 5  # 1, 2, 3 and 4 bytes per character
    (layout.root / "utf8.txt").write_text(text)
    with open_artifact(files, str(layout.root), "utf8.txt") as artifact:
        chunks = list(artifact.iter_text(chunk_chars=chunk_chars))
    assert "".join(chunks) == text
    assert all(len(chunk) <= chunk_chars for chunk in chunks)


def test_invalid_utf8_is_decoded_as_replacement_characters(
    files: FdContainedFiles, layout: Layout
) -> None:
    (layout.root / "latin1.txt").write_bytes("caf\xe9 cr\xe8me\n".encode("latin-1"))
    with open_artifact(files, str(layout.root), "latin1.txt") as artifact:
        assert artifact.read_text() == "caf\ufffd cr\ufffdme\n"
        assert "".join(artifact.iter_text(chunk_chars=1)) == "caf\ufffd cr\ufffdme\n"
        assert list(artifact.iter_lines()) == ["caf\ufffd cr\ufffdme\n"]


def test_a_line_ends_after_its_newline_only(files: FdContainedFiles, layout: Layout) -> None:
    # The artifact store numbers lines the same way (`read_lines`): CRLF stays one ending, a
    # lone CR (a progress bar) is not a line end.
    (layout.root / "crlf.log").write_bytes(b"one\r\ntwo\n\nthree\rstill three\r\nfour")
    with open_artifact(files, str(layout.root), "crlf.log") as artifact:
        lines = list(artifact.iter_lines())
    assert lines == ["one\r\n", "two\n", "\n", "three\rstill three\r\n", "four"]


def test_a_line_longer_than_the_limit_comes_in_pieces(
    files: FdContainedFiles, layout: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(artifact_reading, "MAX_LINE_CHARS", 4)
    (layout.root / "long.log").write_text("abcdefghij\nxy\n0123456789")
    with open_artifact(files, str(layout.root), "long.log") as artifact:
        pieces = list(artifact.iter_lines())
    assert pieces == ["abcd", "efgh", "ij\n", "xy\n", "0123", "4567", "89"]
    assert all(len(piece) <= 4 for piece in pieces)
    assert sum(piece.endswith("\n") for piece in pieces) == 2


@pytest.mark.parametrize(("nul_at", "binary"), [(0, True), (8191, True), (8192, False)])
def test_binary_means_a_nul_byte_in_the_first_8_kib(
    files: FdContainedFiles, layout: Layout, nul_at: int, binary: bool
) -> None:
    data = bytearray(b"x" * 9000)
    data[nul_at] = 0
    (layout.root / "blob.bin").write_bytes(bytes(data))
    with open_artifact(files, str(layout.root), "blob.bin") as artifact:
        assert artifact.is_binary() is binary


def test_passes_interleave_without_disturbing_each_other(
    files: FdContainedFiles, layout: Layout
) -> None:
    text = "".join(f"{i}\n" for i in range(100_000))
    (layout.root / "n.log").write_text(text)
    with open_artifact(files, str(layout.root), "n.log") as artifact:
        lines = artifact.iter_lines()
        assert next(lines) == "0\n"
        assert artifact.read_text() == text
        assert artifact.is_binary() is False
        assert next(lines) == "1\n"
        assert "".join(lines) == text[len("0\n1\n") :]


def test_the_file_opened_is_the_file_read_even_if_replaced_later(
    files: FdContainedFiles, layout: Layout
) -> None:
    target = layout.root / "logs" / "run.log"
    with open_artifact(files, str(layout.root), "logs/run.log") as artifact:
        staged = layout.root / "staged"
        staged.symlink_to(layout.outside)
        os.replace(staged, target)  # after the open: the descriptor still holds the old file
        assert artifact.read_text() == INSIDE
        assert list(artifact.iter_lines()) == [INSIDE]


def test_bytes_read_elsewhere_follow_the_same_rules() -> None:
    artifact = artifact_from_bytes(b"caf\xe9\r\nok")
    assert artifact.location == STDIN_LOCATION
    assert artifact.size_bytes == 8
    assert not artifact.is_binary()
    assert artifact.read_text() == "caf\ufffd\r\nok"
    assert list(artifact.iter_lines()) == ["caf\ufffd\r\n", "ok"]
    assert artifact_from_bytes(b"\x89PNG\r\n\x1a\n\x00\x00").is_binary()


def test_the_binary_refusal_is_the_not_found_shape() -> None:
    result, message = binary_refusal("-", STDIN_LOCATION)
    assert result.model_dump() == {
        "artifact_name": "-",
        "raw_tokens": 0,
        "compacted_tokens": 0,
        "truncated": True,
        "content": "[ERROR: artifact is binary, not compressed: standard input]",
    }
    assert message == "standard input is a binary file, not text"


# --- absolute paths -----------------------------------------------------------------------


def test_an_absolute_path_inside_is_accepted(files: FdContainedFiles, layout: Layout) -> None:
    with open_artifact(files, str(layout.root), f"{layout.root}/logs/run.log") as artifact:
        assert artifact.read_text() == INSIDE
        assert artifact.location == f"{layout.root.resolve()}/logs/run.log"


def test_an_absolute_path_inside_a_symlinked_workdir_is_accepted(
    files: FdContainedFiles, layout: Layout
) -> None:
    alias = layout.base / "alias"
    alias.symlink_to(layout.root)
    for path in (f"{alias}/logs/run.log", f"{layout.root}/logs/run.log"):
        with open_artifact(files, str(alias), path) as artifact:
            assert artifact.read_text() == INSIDE
            assert artifact.location == f"{layout.root.resolve()}/logs/run.log"


def test_an_absolute_path_inside_that_is_missing_is_located_inside(
    files: FdContainedFiles, layout: Layout
) -> None:
    with pytest.raises(ArtifactNotFoundError) as missing:
        open_artifact(files, str(layout.root), f"{layout.root}/logs/nope.log")
    assert missing.value.location == f"{layout.root.resolve()}/logs/nope.log"


# --- refused: every escape is "not found" ---------------------------------------------------


def _plant(layout: Layout) -> None:
    root = layout.root
    (root / "link-out").symlink_to(layout.outside)
    (root / "link-in").symlink_to(root / "logs" / "run.log")
    (root / "dir-link").symlink_to(layout.base / "outside-dir")
    os.link(layout.outside, root / "hard")
    os.mkfifo(root / "pipe")


@pytest.mark.parametrize(
    "path",
    [
        "missing.log",
        "../outside.txt",
        "logs/../../outside.txt",
        "link-out",
        "link-in",
        "dir-link/run.log",
        "hard",
        "pipe",
        "logs",
        "logs/run.log/x",
        "",
    ],
)
def test_a_relative_path_that_escapes_or_is_missing_is_not_found(
    files: FdContainedFiles, layout: Layout, path: str
) -> None:
    _plant(layout)
    with pytest.raises(ArtifactNotFoundError) as refused:
        open_artifact(files, str(layout.root), path)
    assert refused.value.artifact_path == path
    assert str(refused.value) == f"artifact not found at {layout.root.resolve()}/{path}"
    assert refused.value.__cause__ is None  # why it was refused is not told
    assert refused.value.__suppress_context__


@pytest.mark.parametrize("outside", ["outside.txt", "work-evil/run.log", "missing", "work"])
def test_an_absolute_path_outside_is_not_found(
    files: FdContainedFiles, layout: Layout, outside: str
) -> None:
    path = f"{layout.base}/{outside}"
    with pytest.raises(ArtifactNotFoundError) as refused:
        open_artifact(files, str(layout.root), path)
    assert str(refused.value) == f"artifact not found at {path}"
    assert SECRET not in str(refused.value)


def test_a_symlink_out_reads_the_same_whether_its_target_exists(
    files: FdContainedFiles, layout: Layout
) -> None:
    (layout.root / "to-file").symlink_to(layout.outside)
    (layout.root / "to-nothing").symlink_to(layout.base / "no-such-file")
    messages = []
    for name in ("to-file", "to-nothing", "missing"):
        with pytest.raises(ArtifactNotFoundError) as refused:
            open_artifact(files, str(layout.root), name)
        messages.append(str(refused.value).replace(name, "NAME"))
    assert len(set(messages)) == 1


def test_a_hard_link_to_a_file_outside_is_not_found(
    files: FdContainedFiles, layout: Layout
) -> None:
    os.link(layout.outside, layout.root / "logs" / "linked.log")
    with pytest.raises(ArtifactNotFoundError):
        open_artifact(files, str(layout.root), "logs/linked.log")
    with pytest.raises(ArtifactNotFoundError):
        open_artifact(files, str(layout.root), f"{layout.root}/logs/linked.log")


@pytest.mark.parametrize("workdir", ["missing", "outside.txt"])
def test_a_workdir_that_is_not_a_directory_is_invalid_input(
    files: FdContainedFiles, layout: Layout, workdir: str
) -> None:
    with pytest.raises(InvalidInputError, match="work directory not found"):
        open_artifact(files, str(layout.base / workdir), "../outside.txt")


# --- races ----------------------------------------------------------------------------------


@pytest.fixture
def fast_thread_switching() -> Iterator[None]:
    previous = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # the swapping thread runs between the opens' system calls
    yield
    sys.setswitchinterval(previous)


def _exchange_function() -> Callable[[Path, Path], None]:
    """Swap two directory entries of any type in one step: renameat2(RENAME_EXCHANGE) on
    Linux; elsewhere three renames, which leave a short gap but race just as well."""
    renameat2 = getattr(ctypes.CDLL(None, use_errno=True), "renameat2", None)
    at_fdcwd, rename_exchange = -100, 2

    def exchange(first: Path, second: Path) -> None:
        if renameat2 is not None and not renameat2(
            at_fdcwd, os.fsencode(first), at_fdcwd, os.fsencode(second), rename_exchange
        ):
            return
        parked = first.with_name(".parked")
        os.rename(first, parked)
        os.rename(second, first)
        os.rename(parked, second)

    return exchange


@dataclass
class RaceTally:
    reads: int = 0
    refusals: int = 0
    leaks: int = 0


def _open_while_swapping(
    files: FdContainedFiles, root: Path, path: str, swap_once: Callable[[], None]
) -> RaceTally:
    stop = threading.Event()
    swapper_errors: list[BaseException] = []

    def swap_until_stopped() -> None:
        try:
            while not stop.is_set():
                swap_once()
        except BaseException as error:  # reported by the main thread
            swapper_errors.append(error)

    tally = RaceTally()
    swapper = threading.Thread(target=swap_until_stopped, daemon=True)
    swapper.start()
    try:
        for _ in range(RACE_ATTEMPTS):
            try:
                text = _text(files, root, path)
            except ArtifactNotFoundError:
                tally.refusals += 1
                continue
            tally.reads += 1
            tally.leaks += text != INSIDE
    finally:
        stop.set()
        swapper.join()
    assert not swapper_errors
    return tally


def test_a_directory_swapped_for_a_symlink_out_never_leaks(
    files: FdContainedFiles, layout: Layout, fast_thread_switching: None
) -> None:
    """The issue's race: the path was checked, then a component became a symlink to outside
    before the open. Here nothing is checked by path, so no attempt can read outside."""
    staged = layout.root / ".staged"
    staged.symlink_to(layout.base / "outside-dir")
    exchange = _exchange_function()

    tally = _open_while_swapping(
        files, layout.root, "logs/run.log", lambda: exchange(layout.root / "logs", staged)
    )
    assert tally.leaks == 0
    assert tally.reads + tally.refusals == RACE_ATTEMPTS
    assert tally.reads > 0  # both states were met: the race was really run
    assert tally.refusals > 0


def test_a_file_swapped_for_a_symlink_out_never_leaks(
    files: FdContainedFiles, layout: Layout, fast_thread_switching: None
) -> None:
    target = layout.root / "logs" / "run.log"
    staged_link = layout.root / ".staged-link"
    staged_file = layout.root / ".staged-file"

    def swap_once() -> None:
        staged_link.symlink_to(layout.outside)
        os.replace(staged_link, target)  # the file becomes a symlink out, atomically
        staged_file.write_text(INSIDE)
        os.replace(staged_file, target)  # and back

    tally = _open_while_swapping(files, layout.root, "logs/run.log", swap_once)
    assert tally.leaks == 0
    assert tally.reads > 0
    assert tally.refusals > 0
