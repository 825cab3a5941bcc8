"""Every kind of thing an `--out` can name, and things swapped in while it is written: only a
regular file is ever replaced, a FIFO nobody reads is refused at once, and no staging file is
left behind.

Devices are made here with ``mknod`` in the test's own folder (root only; skipped otherwise):
tests never point a write at a device of the machine. A device numbered like /dev/null (1, 3)
stands for one that accepts writes, a number no driver serves for one that refuses the open.
Writes that could hang (a FIFO nobody reads) run in a subprocess whose timeout only catches
the hang.
"""

from __future__ import annotations

import json
import os
import socket
import stat
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from cleveragents.adapters.files import atomic_rename, safe_write, staging_names
from cleveragents.adapters.files.safe_write import OutputFileError, write_file
from tests.e2e.test_cli_context import anthropic_conversation
from tests.e2e.test_cli_context_prefix import YAML
from tests.fifo_reader import FifoReader

AGENTS = str(Path(sys.executable).with_name("agents"))
HANG_TIMEOUT = 120  # seconds: only a hang gets near it
RACE_WRITES = 400
NULL_DEVICE = os.makedev(1, 3)
NO_DRIVER_DEVICE = os.makedev(240, 77)  # a "local/experimental" major no driver here serves

needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="mknod needs root")


def _leftovers(directory: Path) -> list[str]:
    return sorted(name for name in os.listdir(directory) if name.endswith(".partial"))


def _identity(path: Path) -> tuple[int, int, int]:
    status = path.lstat()
    return status.st_dev, status.st_ino, stat.S_IFMT(status.st_mode)


WRITER = """
import json, sys
from cleveragents.adapters.files.safe_write import OutputFileError, write_file
target, count = sys.argv[1], int(sys.argv[2])
refusals = []
for attempt in range(count):
    try:
        write_file(target, f"payload {attempt}".encode())
    except OutputFileError as error:
        refusals.append(str(error))
print(json.dumps(refusals))
"""


def _write_in_child(target: Path, count: int = 1) -> list[str]:
    """`write_file` called `count` times in a child process, which a hang cannot outlast (a
    FIFO nobody reads must be refused, not waited on); the refusals' messages."""
    child = subprocess.run(
        [sys.executable, "-c", WRITER, str(target), str(count)],
        capture_output=True,
        text=True,
        timeout=HANG_TIMEOUT,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    assert child.returncode == 0, child.stderr
    refusals: list[str] = json.loads(child.stdout)
    return refusals


def _exchange_supported(directory: Path) -> bool:
    (directory / "probe-a").write_bytes(b"a")
    (directory / "probe-b").write_bytes(b"b")
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        atomic_rename.rename_exchange(fd, "probe-a", "probe-b")
    except atomic_rename.RenameFlagsUnsupportedError:
        return False
    finally:
        os.close(fd)
        for name in ("probe-a", "probe-b"):
            (directory / name).unlink()
    return True


# -- what each kind of target gets ---------------------------------------------------------------


def _make_fifo(path: Path) -> None:
    os.mkfifo(path)


def _make_directory(path: Path) -> None:
    path.mkdir()
    (path / "inside").write_bytes(b"kept")


def _make_null_device(path: Path) -> None:
    os.mknod(path, stat.S_IFCHR | 0o666, NULL_DEVICE)


def _make_driverless_device(path: Path) -> None:
    os.mknod(path, stat.S_IFCHR | 0o600, NO_DRIVER_DEVICE)


def _make_dangling_link(path: Path) -> None:
    path.symlink_to(path.with_name("nowhere"))


@pytest.fixture
def sockets() -> Iterator[list[socket.socket]]:
    opened: list[socket.socket] = []
    yield opened
    for sock in opened:
        sock.close()


def _socket_maker(opened: list[socket.socket]) -> Callable[[Path], None]:
    def make(path: Path) -> None:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.bind(str(path))
        opened.append(sock)

    return make


@pytest.mark.parametrize(
    ("maker", "message"),
    [
        (_make_fifo, "is a FIFO that no process is reading; nothing written"),
        (_make_directory, "is a directory, not a file"),
        (_make_dangling_link, "is a symbolic link to nothing"),
        pytest.param(
            _make_driverless_device,
            "is a device with nothing behind it",
            marks=needs_root,
            id="driverless-device",
        ),
    ],
    ids=["fifo-without-reader", "directory", "dangling-link", "driverless-device"],
)
def test_a_target_that_is_not_a_regular_file_is_refused_and_kept(
    tmp_path: Path, maker: Callable[[Path], None], message: str
) -> None:
    target = tmp_path / "out"
    maker(target)
    before = _identity(target)
    [refusal] = _write_in_child(target)
    assert message in refusal
    assert _identity(target) == before
    assert not (tmp_path / "nowhere").exists()
    assert _leftovers(tmp_path) == []


def test_a_socket_is_refused_and_kept(tmp_path: Path, sockets: list[socket.socket]) -> None:
    target = tmp_path / "out"
    _socket_maker(sockets)(target)
    before = _identity(target)
    with pytest.raises(OutputFileError, match="is a socket, not a file"):
        write_file(target, b"payload")
    assert _identity(target) == before


@pytest.mark.parametrize("make", ["fifo", "directory", "socket"])
def test_a_symlink_to_what_cannot_be_written_is_refused_and_both_are_kept(
    tmp_path: Path, sockets: list[socket.socket], make: str
) -> None:
    makers = {"fifo": _make_fifo, "directory": _make_directory, "socket": _socket_maker(sockets)}
    real = tmp_path / "real"
    makers[make](real)
    link = tmp_path / "out"
    link.symlink_to(real)
    before = _identity(real)
    assert len(_write_in_child(link)) == 1
    assert link.is_symlink()
    assert _identity(real) == before
    assert _leftovers(tmp_path) == []


def test_a_name_ending_with_a_slash_is_refused(tmp_path: Path) -> None:
    with pytest.raises(OutputFileError, match="names a directory"):
        write_file(f"{tmp_path}/new/", b"payload")
    assert os.listdir(tmp_path) == []


def test_a_fifo_with_a_reader_gets_every_byte_and_stays_a_fifo(tmp_path: Path) -> None:
    reader = FifoReader(tmp_path / "out")
    data = bytes(range(256)) * 1024  # four pipe buffers: the write must wait for the reader
    write_file(reader.path, data)
    assert reader.join() == data
    assert stat.S_ISFIFO(reader.path.lstat().st_mode)
    assert _leftovers(tmp_path) == []


def test_a_symlink_to_a_fifo_without_a_reader_is_refused(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "out").symlink_to(tmp_path / "pipe")
    [refusal] = _write_in_child(tmp_path / "out")
    assert "no process is reading" in refusal
    assert (tmp_path / "out").is_symlink()
    assert stat.S_ISFIFO((tmp_path / "pipe").lstat().st_mode)


@needs_root
def test_a_device_that_takes_writes_is_written_in_place(tmp_path: Path) -> None:
    target = tmp_path / "null"
    _make_null_device(target)
    before = _identity(target)
    write_file(target, b"payload")
    assert _identity(target) == before
    assert target.lstat().st_rdev == NULL_DEVICE
    assert _leftovers(tmp_path) == []


@needs_root
def test_a_symlink_to_a_device_writes_through_and_both_stay(tmp_path: Path) -> None:
    device = tmp_path / "null"
    _make_null_device(device)
    (tmp_path / "out").symlink_to(device)
    write_file(tmp_path / "out", b"payload")
    assert (tmp_path / "out").is_symlink()
    assert stat.S_ISCHR(device.lstat().st_mode)


# -- the CLI: a FIFO nobody reads is refused, not waited on ---------------------------------------


@pytest.mark.parametrize("command", ["compact", "prefix"])
def test_the_cli_refuses_a_fifo_nobody_reads_at_once_in_one_line(
    tmp_path: Path, command: str
) -> None:
    transcript = tmp_path / "conversation.json"
    transcript.write_text(json.dumps(anthropic_conversation(6)))
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    args = (
        ["context", "compact", str(transcript), "--force"]
        if command == "compact"
        else ["context", "prefix", "build", YAML]
    )
    env = {**os.environ, "CLEVERAGENTS_HOME": str(tmp_path / "home")}
    env.pop("CLEVERAGENTS_DATABASE_URL", None)
    completed = subprocess.run(
        [AGENTS, *args, "--out", str(fifo)],
        capture_output=True,
        text=True,
        timeout=HANG_TIMEOUT,
        env=env,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    assert completed.returncode == 2, completed.stderr
    assert completed.stderr.splitlines() == [
        f"error: {fifo} is a FIFO that no process is reading; nothing written"
    ]
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert _leftovers(tmp_path) == []


# -- something swapped in between the check and the rename ----------------------------------------


def _swap_makers(sockets: list[socket.socket]) -> dict[str, Callable[[Path], None]]:
    makers = {
        "fifo": _make_fifo,
        "directory": _make_directory,
        "socket": _socket_maker(sockets),
        "symlink": lambda path: path.symlink_to(path.with_name("elsewhere")),
    }
    if os.geteuid() == 0:
        makers["device"] = _make_null_device
    return makers


SWAPPED_IN = ["fifo", "directory", "socket", "symlink", "device"]


@pytest.mark.parametrize("fallback", [False, True], ids=["renameat2", "fallback"])
@pytest.mark.parametrize("initially", ["absent", "regular"])
@pytest.mark.parametrize("kind", SWAPPED_IN)
def test_what_is_swapped_in_after_the_check_is_never_replaced(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    sockets: list[socket.socket],
    kind: str,
    initially: str,
    fallback: bool,
) -> None:
    makers = _swap_makers(sockets)
    if kind not in makers:
        pytest.skip("mknod needs root")
    if not fallback and not _exchange_supported(tmp_path):
        pytest.skip("renameat2 flags are not supported here")
    target = tmp_path / "out"
    if initially == "regular":
        target.write_bytes(b"old")
    swapped = tmp_path / "swapped"
    makers[kind](swapped)
    before = _identity(swapped)
    real_sweep = staging_names.sweep_stale_staging

    def swap_then_sweep(dir_fd: int) -> int:
        # Runs after write_file looked at the target and before it renames: the window.
        if kind == "directory":
            target.unlink(missing_ok=True)  # rename() puts a directory only on a free name
        os.rename(swapped, target)
        return real_sweep(dir_fd)

    monkeypatch.setattr(safe_write, "sweep_stale_staging", swap_then_sweep)
    if fallback:
        monkeypatch.setattr(safe_write, "rename_noreplace", _unsupported)
        monkeypatch.setattr(safe_write, "rename_exchange", _unsupported)
    with pytest.raises(OutputFileError, match="no longer a regular file"):
        write_file(target, b"payload")
    assert _identity(target) == before
    assert _leftovers(tmp_path) == []
    if kind == "directory":
        assert (target / "inside").read_bytes() == b"kept"


def _unsupported(*_args: object) -> None:
    raise atomic_rename.RenameFlagsUnsupportedError("not here")


# -- a racer swapping a regular file and something else at the target, many times -----------------

RACER = """
import os, sys
from cleveragents.adapters.files.atomic_rename import rename_exchange
directory, spare, target, stop = sys.argv[1:]
fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
swaps = 0
print("ready", flush=True)
while not os.path.exists(stop):
    rename_exchange(fd, spare, target)
    swaps += 1
print(swaps, flush=True)
"""


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["fifo", "directory", "socket", "device"])
def test_a_racer_swapping_the_target_never_gets_it_replaced(
    tmp_path: Path, sockets: list[socket.socket], kind: str
) -> None:
    makers = _swap_makers(sockets)
    if kind not in makers:
        pytest.skip("mknod needs root")
    if not _exchange_supported(tmp_path):
        pytest.skip("renameat2 flags are not supported here")
    target, spare, stop = tmp_path / "out", tmp_path / "spare", tmp_path / "stop"
    target.write_bytes(b"regular")
    makers[kind](spare)
    precious = _identity(spare)
    racer = subprocess.Popen(
        [sys.executable, "-c", RACER, str(tmp_path), spare.name, target.name, str(stop)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert racer.stdout is not None
    assert racer.stdout.readline().strip() == "ready"
    try:
        refusals = _write_in_child(target, RACE_WRITES)
    finally:
        stop.touch()
        swaps = int(racer.stdout.readline())
        racer.wait(timeout=HANG_TIMEOUT)
    assert racer.returncode == 0
    assert swaps > 0
    assert len(refusals) <= RACE_WRITES  # each write either landed or was refused in one line
    assert all("\n" not in refusal for refusal in refusals)
    # The precious node still exists, exactly once, at one of the two names; the other name
    # holds a regular file (the first one or a later write).
    identities = [_identity(target), _identity(spare)]
    assert identities.count(precious) == 1
    other = target if identities[1] == precious else spare
    assert stat.S_ISREG(other.lstat().st_mode)
    assert other.read_bytes() == b"regular" or other.read_bytes().startswith(b"payload ")
    assert _leftovers(tmp_path) == []
    if kind == "directory":
        holder = target if identities[0] == precious else spare
        assert (holder / "inside").read_bytes() == b"kept"
