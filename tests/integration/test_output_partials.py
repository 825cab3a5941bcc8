"""No staging file outlives a failed `--out` write: removed on every failure Python sees (an
error, Ctrl-C, SIGTERM), and, after a SIGKILL, by the next write into the same folder. The sweep
removes only this tool's staging files whose writer is dead, never anything else.

The children are stopped mid-write deterministically: a child's write pauses after its first
bytes (the staging file exists) until the parent closes its standard input, and tells the
parent so on its standard output; no fixed sleep, the timeouts only catch a hang.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from cleveragents.adapters.files import safe_write
from cleveragents.adapters.files.safe_write import OutputFileError, write_file
from cleveragents.adapters.files.staging_names import (
    STALE_AFTER_SECONDS,
    new_staging_name,
    sweep_stale_staging,
)

HANG_TIMEOUT = 120

PAUSED_WRITER = """
import signal, sys
from cleveragents.adapters.files import safe_write
# As a process started from a shell has them, even under a runner that ignores SIGHUP (nohup).
signal.signal(signal.SIGHUP, signal.SIG_DFL)
signal.signal(signal.SIGTERM, signal.SIG_DFL)
write_all = safe_write._write_all

def paused(fd, data):
    write_all(fd, data[:4096])
    print("writing", flush=True)
    sys.stdin.read()  # until the parent closes it, or kills this process
    write_all(fd, data[4096:])

safe_write._write_all = paused
safe_write.write_file(sys.argv[1], b"transcript line\\n" * 100_000)
"""


def _partials(directory: Path) -> list[str]:
    return sorted(name for name in os.listdir(directory) if name.endswith(".partial"))


def _paused_writer(target: Path) -> subprocess.Popen[str]:
    child = subprocess.Popen(
        [sys.executable, "-c", PAUSED_WRITER, str(target)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    assert child.stdout.readline() == "writing\n"
    return child


@pytest.fixture
def target(tmp_path: Path) -> Path:
    path = tmp_path / "out.json"
    path.write_bytes(b"the previous output")
    return path


def test_an_error_while_writing_leaves_no_staging_file(
    target: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def disk_full(_fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    with pytest.raises(OutputFileError, match="No space left on device"):
        write_file(target, b"new")
    assert target.read_bytes() == b"the previous output"
    assert _partials(target.parent) == []


def test_ctrl_c_while_writing_leaves_no_staging_file(
    target: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(_fd: int, _data: bytes) -> None:
        assert len(_partials(target.parent)) == 1  # the staging file exists at this point
        raise KeyboardInterrupt

    monkeypatch.setattr(safe_write, "_write_all", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_file(target, b"new")
    assert target.read_bytes() == b"the previous output"
    assert _partials(target.parent) == []


@pytest.mark.parametrize("signal_number", [signal.SIGTERM, signal.SIGHUP])
def test_a_termination_signal_while_writing_removes_the_staging_file_then_ends_the_process(
    target: Path, signal_number: int
) -> None:
    child = _paused_writer(target)
    assert len(_partials(target.parent)) == 1
    child.send_signal(signal_number)
    try:
        child.communicate(timeout=HANG_TIMEOUT)
    finally:
        child.kill()  # a no-op once it has ended; never a stray process if it has not
    assert child.returncode == -signal_number  # still dies of the signal, as before
    assert _partials(target.parent) == []
    assert target.read_bytes() == b"the previous output"


def test_a_write_that_finishes_leaves_no_staging_file(target: Path) -> None:
    child = _paused_writer(target)
    _out, errors = child.communicate("", timeout=HANG_TIMEOUT)  # closing stdin: write on
    assert child.returncode == 0, errors
    assert target.read_bytes() == b"transcript line\n" * 100_000
    assert _partials(target.parent) == []


def test_the_next_write_into_the_folder_removes_what_a_killed_writer_left(
    target: Path,
) -> None:
    child = _paused_writer(target)
    child.kill()
    child.communicate(timeout=HANG_TIMEOUT)
    assert child.returncode == -signal.SIGKILL
    left = _partials(target.parent)
    assert len(left) == 1  # SIGKILL cannot be caught: the partial is there...
    assert (target.parent / left[0]).read_bytes().startswith(b"transcript line\n")
    write_file(target.parent / "other.json", b"{}")  # ...until the next write into the folder
    assert _partials(target.parent) == []
    assert target.read_bytes() == b"the previous output"


# -- what the sweep removes, and what it never touches ---------------------------------------------


def _dead_pid() -> int:
    child = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
        timeout=HANG_TIMEOUT,
    )
    return int(child.stdout)


def _staging_of(pid: int, namespace: int | None = None) -> str:
    name = new_staging_name("out.json")
    _dot, rest = name.split(".out.json.", 1)
    _pid, own_namespace, random_part = rest.split("-", 2)
    return f".out.json.{pid}-{own_namespace if namespace is None else namespace}-{random_part}"


def _sweep(directory: Path) -> int:
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        return sweep_stale_staging(fd)
    finally:
        os.close(fd)


def _age(path: Path, seconds: float) -> None:
    status = path.lstat()
    os.utime(path, (status.st_atime - seconds, status.st_mtime - seconds), follow_symlinks=False)


def test_a_dead_writers_staging_file_is_removed_a_live_ones_kept(tmp_path: Path) -> None:
    dead = tmp_path / _staging_of(_dead_pid())
    live = tmp_path / _staging_of(os.getpid())
    for path in (dead, live):
        path.write_bytes(b"half")
    assert _sweep(tmp_path) == 1
    assert not dead.exists()
    assert live.exists()


def test_a_writer_in_another_pid_namespace_is_judged_by_age_only(tmp_path: Path) -> None:
    recent = tmp_path / _staging_of(_dead_pid(), namespace=1)
    old = tmp_path / _staging_of(_dead_pid(), namespace=2)
    for path in (recent, old):
        path.write_bytes(b"half")
    _age(old, STALE_AFTER_SECONDS + 60)
    assert _sweep(tmp_path) == 1
    assert recent.exists()
    assert not old.exists()


def test_earlier_versions_staging_files_go_by_age(tmp_path: Path) -> None:
    recent = tmp_path / ".out.json.0123456789abcdef.partial"
    old = tmp_path / ".out.json.fedcba9876543210.partial"
    for path in (recent, old):
        path.write_bytes(b"half")
    _age(old, STALE_AFTER_SECONDS + 60)
    assert _sweep(tmp_path) == 1
    assert recent.exists()
    assert not old.exists()


def test_the_sweep_never_touches_what_is_not_a_staging_file_of_ours(tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.write_bytes(b"precious")
    dead = _dead_pid()
    kept = {
        "a symlink by our pattern": tmp_path / _staging_of(dead),
        "a directory by our pattern": tmp_path / _staging_of(dead).replace("out", "dir"),
        "another tool's partial": tmp_path / "download.partial",
        "no random part": tmp_path / f".out.json.{dead}-1.partial",
        "not hex": tmp_path / f".out.json.{dead}-1-zzzzzzzzzzzzzzzz.partial",
        "no leading dot": tmp_path / _staging_of(dead)[1:],
    }
    kept["a symlink by our pattern"].symlink_to(victim)
    kept["a directory by our pattern"].mkdir()
    for name, path in kept.items():
        if not path.exists() and not path.is_symlink():
            path.write_bytes(name.encode())
        _age(path, STALE_AFTER_SECONDS + 60)
    assert _sweep(tmp_path) == 0
    for name, path in kept.items():
        assert path.exists() or path.is_symlink(), name
    assert victim.read_bytes() == b"precious"


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file away needs root")
def test_another_users_staging_file_is_not_ours_to_remove(tmp_path: Path) -> None:
    theirs = tmp_path / _staging_of(_dead_pid())
    theirs.write_bytes(b"half")
    os.chown(theirs, 54321, 54321)
    _age(theirs, STALE_AFTER_SECONDS + 60)
    assert _sweep(tmp_path) == 0
    assert theirs.exists()


def test_a_long_target_name_gets_a_staging_name_within_the_limit(tmp_path: Path) -> None:
    target = tmp_path / ("é" * 127)  # 254 bytes: the longest name most file systems take
    write_file(target, b"x")
    assert target.read_bytes() == b"x"
    name = new_staging_name(target.name)
    assert len(os.fsencode(name)) <= 255
    assert name.endswith(".partial")
    assert _partials(tmp_path) == []
