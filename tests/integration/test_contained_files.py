"""FdContainedFiles on the real file system: every escape refused, and no leak under a swap race."""

from __future__ import annotations

import ctypes
import os
import stat
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cleveragents.adapters.workspace.contained_files import FdContainedFiles
from cleveragents.domain.errors import (
    ArtifactNotFoundError,
    InvalidInputError,
    WorkspaceEscapeError,
)

SECRET = b"OUTSIDE-SECRET"
INSIDE = b"inside"
RACE_ITERATIONS = 20_000


@dataclass(frozen=True)
class Layout:
    base: Path  # holds ws, ws-evil and outside
    root: Path  # the workspace
    outside: Path  # a secret file outside the workspace


@pytest.fixture
def layout(tmp_path: Path) -> Layout:
    root = tmp_path / "ws"
    (root / "a" / "b").mkdir(parents=True)
    (root / "a" / "b" / "c.txt").write_bytes(b"nested")
    (root / "file.txt").write_bytes(INSIDE)
    (root / "a" / "file.txt").write_bytes(INSIDE)
    evil = tmp_path / "ws-evil"
    evil.mkdir()
    (evil / "secret").write_bytes(SECRET)
    outside = tmp_path / "outside.txt"
    outside.write_bytes(SECRET)
    (tmp_path / "outside-dir").mkdir()
    (tmp_path / "outside-dir" / "c.txt").write_bytes(SECRET)
    return Layout(base=tmp_path, root=root, outside=outside)


@pytest.fixture
def files() -> FdContainedFiles:
    return FdContainedFiles()


def read(files: FdContainedFiles, root: Path, path: str) -> bytes:
    opened = files.open_beneath(str(root), path)
    with opened.handle as handle:
        return handle.read()


# --- allowed -------------------------------------------------------------------------------


def test_a_nested_file_is_opened_and_read(files: FdContainedFiles, layout: Layout) -> None:
    opened = files.open_beneath(str(layout.root), "./a//b/./c.txt")
    with opened.handle as handle:
        assert handle.read() == b"nested"
    assert opened.relative_path == "a/b/c.txt"
    assert opened.size_bytes == len(b"nested")


def test_an_absolute_path_inside_the_root_is_allowed(
    files: FdContainedFiles, layout: Layout
) -> None:
    opened = files.open_beneath(str(layout.root), str(layout.root / "a" / "b" / "c.txt"))
    with opened.handle as handle:
        assert handle.read() == b"nested"
    assert opened.relative_path == "a/b/c.txt"


def test_a_root_reached_through_a_symlink_is_the_users_choice(
    files: FdContainedFiles, layout: Layout
) -> None:
    alias = layout.base / "alias"
    alias.symlink_to(layout.root)
    assert read(files, alias, "a/b/c.txt") == b"nested"
    assert read(files, alias, str(alias / "file.txt")) == INSIDE
    assert read(files, alias, str(layout.root / "file.txt")) == INSIDE


# --- refused by the path alone --------------------------------------------------------------


@pytest.mark.parametrize("path", ["..", "../outside.txt", "a/../../outside.txt", "a/b/../../.."])
def test_dot_dot_that_ends_outside_is_refused(
    files: FdContainedFiles, layout: Layout, path: str
) -> None:
    with pytest.raises(WorkspaceEscapeError, match="ends outside the workspace"):
        files.open_beneath(str(layout.root), path)


def test_dot_dot_that_ends_inside_is_read(files: FdContainedFiles, layout: Layout) -> None:
    name = layout.root.name
    assert read(files, layout.root, "a/../file.txt") == INSIDE
    assert read(files, layout.root, f"../{name}/file.txt") == INSIDE
    assert read(files, layout.root, f"a/b/../../../{name}/a/b/c.txt") == b"nested"
    assert read(files, layout.root, f"{layout.root}/a/../file.txt") == INSIDE


def test_dot_dot_is_resolved_by_the_text_never_through_a_link(
    files: FdContainedFiles, layout: Layout
) -> None:
    # Followed, `up/..` would be the folder holding `outside`; by the text it is the root.
    (layout.root / "up").symlink_to(layout.outside.parent)
    with pytest.raises(ArtifactNotFoundError):
        files.open_beneath(str(layout.root), f"up/../{layout.outside.name}")
    assert read(files, layout.root, "up/../file.txt") == INSIDE


def test_dot_dot_to_the_root_itself_is_no_file(files: FdContainedFiles, layout: Layout) -> None:
    with pytest.raises(ArtifactNotFoundError):
        files.open_beneath(str(layout.root), "a/..")


def test_an_absolute_path_outside_is_refused(files: FdContainedFiles, layout: Layout) -> None:
    with pytest.raises(WorkspaceEscapeError):
        files.open_beneath(str(layout.root), str(layout.outside))


def test_an_absolute_path_into_a_sibling_prefix_directory_is_refused(
    files: FdContainedFiles, layout: Layout
) -> None:
    with pytest.raises(WorkspaceEscapeError):
        files.open_beneath(str(layout.root), f"{layout.root}-evil/secret")


def test_a_relative_path_into_a_sibling_prefix_directory_is_refused(
    files: FdContainedFiles, layout: Layout
) -> None:
    with pytest.raises(WorkspaceEscapeError):
        files.open_beneath(str(layout.root), "../ws-evil/secret")


def test_a_nul_byte_is_refused(files: FdContainedFiles, layout: Layout) -> None:
    with pytest.raises(WorkspaceEscapeError, match="NUL"):
        files.open_beneath(str(layout.root), "file.txt\0.png")


@pytest.mark.parametrize("root", ["ws\0", "\0", "/tmp/\0/ws"])
def test_a_nul_byte_in_the_root_is_invalid_input_not_an_os_value_error(
    files: FdContainedFiles, layout: Layout, root: str
) -> None:
    with pytest.raises(InvalidInputError, match="contains a NUL byte"):
        files.open_beneath(str(layout.base / root), "file.txt")
    with pytest.raises(InvalidInputError, match="contains a NUL byte"):
        files.real_root(str(layout.base / root))


def test_an_empty_path_is_not_found(files: FdContainedFiles, layout: Layout) -> None:
    with pytest.raises(ArtifactNotFoundError):
        files.open_beneath(str(layout.root), "")


def test_a_missing_file_is_not_found(files: FdContainedFiles, layout: Layout) -> None:
    with pytest.raises(ArtifactNotFoundError):
        files.open_beneath(str(layout.root), "a/missing.txt")
    with pytest.raises(ArtifactNotFoundError):
        files.open_beneath(str(layout.root), "missing-dir/file.txt")


def test_a_missing_root_is_invalid_input(files: FdContainedFiles, layout: Layout) -> None:
    with pytest.raises(InvalidInputError):
        files.open_beneath(str(layout.base / "no-such-ws"), "file.txt")


# --- refused on the file descriptor ---------------------------------------------------------


def test_a_symlink_to_an_outside_file_is_refused(files: FdContainedFiles, layout: Layout) -> None:
    (layout.root / "link").symlink_to(layout.outside)
    with pytest.raises(WorkspaceEscapeError, match="symbolic link"):
        files.open_beneath(str(layout.root), "link")


def test_a_symlinked_directory_pointing_outside_is_refused(
    files: FdContainedFiles, layout: Layout
) -> None:
    (layout.root / "d").symlink_to(layout.base / "outside-dir")
    with pytest.raises(WorkspaceEscapeError, match="symbolic link"):
        files.open_beneath(str(layout.root), "d/c.txt")


def test_a_symlink_inside_pointing_inside_is_refused_deliberately(
    files: FdContainedFiles, layout: Layout
) -> None:
    # Not an escape, but following it race-free needs openat2; tools write plain files.
    (layout.root / "alias.txt").symlink_to("file.txt")
    (layout.root / "alias-dir").symlink_to("a")
    with pytest.raises(WorkspaceEscapeError):
        files.open_beneath(str(layout.root), "alias.txt")
    with pytest.raises(WorkspaceEscapeError):
        files.open_beneath(str(layout.root), "alias-dir/file.txt")


def test_a_hard_link_to_an_outside_file_is_refused(files: FdContainedFiles, layout: Layout) -> None:
    os.link(layout.outside, layout.root / "hard.txt")
    assert os.stat(layout.root / "hard.txt").st_nlink == 2
    with pytest.raises(WorkspaceEscapeError, match="hard link"):
        files.open_beneath(str(layout.root), "hard.txt")


def test_a_fifo_is_refused_without_hanging(files: FdContainedFiles, layout: Layout) -> None:
    os.mkfifo(layout.root / "pipe")
    with pytest.raises(WorkspaceEscapeError, match="not a regular file"):
        files.open_beneath(str(layout.root), "pipe")


def test_a_character_device_is_refused(files: FdContainedFiles, layout: Layout) -> None:
    node = layout.root / "null"
    try:
        os.mknod(node, stat.S_IFCHR | 0o600, os.makedev(1, 3))
    except OSError as exc:
        pytest.skip(f"cannot create a device node here: {exc}")
    with pytest.raises(WorkspaceEscapeError, match="not a regular file"):
        files.open_beneath(str(layout.root), "null")


def test_a_directory_is_not_a_file(files: FdContainedFiles, layout: Layout) -> None:
    with pytest.raises(ArtifactNotFoundError):
        files.open_beneath(str(layout.root), "a/b")
    with pytest.raises(ArtifactNotFoundError):
        files.open_beneath(str(layout.root), str(layout.root))


def test_a_file_used_as_a_directory_is_not_found(files: FdContainedFiles, layout: Layout) -> None:
    with pytest.raises(ArtifactNotFoundError):
        files.open_beneath(str(layout.root), "file.txt/x")


# --- races ----------------------------------------------------------------------------------


@pytest.fixture
def fast_thread_switching() -> Iterator[None]:
    # Hand the GIL over often, so the swapping thread interleaves with the opens.
    previous = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(previous)


def _race(
    files: FdContainedFiles, root: Path, path: str, swap_once: Callable[[], None]
) -> tuple[int, int]:
    """Open `path` many times while another thread swaps it; returns (reads, refusals)."""
    stop = threading.Event()
    swapper_errors: list[BaseException] = []

    def swap_forever() -> None:
        try:
            while not stop.is_set():
                swap_once()
        except BaseException as exc:  # surfaced by the main thread
            swapper_errors.append(exc)

    swapper = threading.Thread(target=swap_forever, daemon=True)
    reads = refusals = 0
    leaks: list[bytes] = []
    swapper.start()
    try:
        for _ in range(RACE_ITERATIONS):
            try:
                content = read(files, root, path)
            except (WorkspaceEscapeError, ArtifactNotFoundError):
                refusals += 1
                continue
            reads += 1
            if content != INSIDE:
                leaks.append(content)
    finally:
        stop.set()
        swapper.join()
    assert not swapper_errors
    assert leaks == []
    return reads, refusals


def test_a_file_swapped_with_a_symlink_never_leaks(
    files: FdContainedFiles, layout: Layout, fast_thread_switching: None
) -> None:
    target = layout.root / "swapped.txt"
    staged_file = layout.root / ".staged-file"
    staged_link = layout.root / ".staged-link"
    target.write_bytes(INSIDE)

    def swap_once() -> None:
        os.symlink(layout.outside, staged_link)
        os.replace(staged_link, target)  # regular file -> symlink out, atomically
        staged_file.write_bytes(INSIDE)
        os.replace(staged_file, target)  # symlink -> regular file, atomically

    reads, refusals = _race(files, layout.root, "swapped.txt", swap_once)
    assert reads > 0
    assert refusals > 0


def _exchanger() -> Callable[[Path, Path], None]:
    """renameat2(RENAME_EXCHANGE): swaps two entries of any type atomically (Linux >= 3.15).

    `os.replace` cannot put a symlink over a directory or back, so a directory race needs it;
    without it, two renames leave a short gap, which is still a real race.
    """
    libc = ctypes.CDLL(None, use_errno=True)
    renameat2 = getattr(libc, "renameat2", None)
    at_fdcwd, rename_exchange = -100, 2

    def exchange(first: Path, second: Path) -> None:
        if renameat2 is not None:
            result = renameat2(
                at_fdcwd, os.fsencode(first), at_fdcwd, os.fsencode(second), rename_exchange
            )
            if result == 0:
                return
        gap = first.with_name(".gap")
        os.rename(first, gap)
        os.rename(second, first)
        os.rename(gap, second)

    return exchange


def test_a_directory_swapped_with_a_symlink_never_leaks(
    files: FdContainedFiles, layout: Layout, fast_thread_switching: None
) -> None:
    directory = layout.root / "dir"
    directory.mkdir()
    (directory / "c.txt").write_bytes(INSIDE)
    staged_link = layout.root / ".staged-link"
    staged_link.symlink_to(layout.base / "outside-dir")
    exchange = _exchanger()

    reads, refusals = _race(
        files, layout.root, "dir/c.txt", lambda: exchange(directory, staged_link)
    )
    assert reads > 0
    assert refusals > 0


# --- property: whatever the segments, the result is inside or refused -----------------------

SEGMENTS = ["a", "b", "..", ".", "", "link", "dirlink", "file.txt", "c.txt", "\x00", "/"]
SEGMENTS += ["ws", "ws-evil", "secret", "x" * 300, "y" * 255]


@given(
    segments=st.lists(st.sampled_from(SEGMENTS), max_size=8),
    anchor=st.sampled_from(["relative", "root", "base"]),
)
def test_any_path_opens_inside_or_is_refused(
    files: FdContainedFiles, layout: Layout, segments: list[str], anchor: str
) -> None:
    root = layout.root
    if not (root / "link").is_symlink():  # the fixture is shared by all examples
        (root / "link").symlink_to(layout.outside)
        (root / "a" / "dirlink").symlink_to(layout.base / "outside-dir")
    path = "/".join(segments)
    if anchor == "root":
        path = f"{root}/{path}"
    elif anchor == "base":
        path = f"{layout.base}/{path}"

    try:
        opened = files.open_beneath(str(root), path)
    except (WorkspaceEscapeError, ArtifactNotFoundError):
        return
    with opened.handle as handle:
        real = os.path.realpath(f"/proc/self/fd/{handle.fileno()}")
        assert os.path.commonpath([real, str(root)]) == str(root)
        assert handle.read() != SECRET
    assert real == str(root / opened.relative_path)
