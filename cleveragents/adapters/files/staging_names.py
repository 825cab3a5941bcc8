"""The staging files `write_file` leaves beside a target while it writes, and the sweep that
removes the ones a killed writer left.

A staging file is named ``.<target>.<pid>-<pid namespace>-<16 hex>.partial``. The name says
which process wrote it, so a later write into the same folder can tell a dead writer's file
(removed) from a live one's (kept). A file is removed only when all of these hold:

- its name has exactly that shape (nothing else in the folder is ever touched);
- it is a regular file (looked at with ``lstat``: a symlink is never followed, only its name
  could be removed, and it is not, since it is not a regular file) owned by this user;
- its writer is gone: its pid namespace is ours and no process has its pid, or, whatever the
  pid says (a namespace we cannot see into, a pid reused after a reboot), it has not been
  modified for `STALE_AFTER_SECONDS`.

Earlier versions named staging files ``.<target>.<16 hex>.partial``, without a pid: those are
removed by age only. Unlinks are relative to the folder's descriptor, so a folder swapped for a
symlink meanwhile is never swept instead. Only the first `MAX_SWEPT_ENTRIES` entries of a huge
folder are looked at, so a write into such a folder stays quick.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import stat
import time
from functools import cache

from cleveragents.adapters.system.processes import process_alive

STALE_AFTER_SECONDS = 24 * 3600.0
MAX_SWEPT_ENTRIES = 100_000
_SUFFIX = ".partial"
_NAME_MAX = 255
_OURS = re.compile(r"\..*\.(?P<pid>\d{1,10})-(?P<namespace>\d{1,20})-[0-9a-f]{16}\.partial", re.S)
_EARLIER = re.compile(r"\..*\.[0-9a-f]{16}\.partial", re.S)


def new_staging_name(target_name: str) -> str:
    """A fresh staging name beside `target_name`, within the file system's 255 bytes (a long
    target name is shortened in the staging name only)."""
    marker = f".{os.getpid()}-{_pid_namespace()}-{secrets.token_hex(8)}{_SUFFIX}"
    room = _NAME_MAX - 1 - len(marker)
    kept = target_name
    while len(os.fsencode(kept)) > room:
        kept = kept[: max(len(kept) - max(len(kept) // 8, 1), 0)]
    return f".{kept}{marker}"


def sweep_stale_staging(dir_fd: int) -> int:
    """Remove the staging files dead writers left in the folder `dir_fd`; how many. Never
    raises: a failed sweep must not fail the write that started it."""
    removed = 0
    now = time.time()
    try:
        with os.scandir(dir_fd) as entries:
            for seen, entry in enumerate(entries):
                if seen >= MAX_SWEPT_ENTRIES:
                    break
                if entry.name.endswith(_SUFFIX) and _is_stale(entry, now):
                    with contextlib.suppress(OSError):
                        os.unlink(entry.name, dir_fd=dir_fd)
                        removed += 1
    except OSError:
        pass
    return removed


def _is_stale(entry: os.DirEntry[str], now: float) -> bool:
    ours = _OURS.fullmatch(entry.name)
    if ours is None and _EARLIER.fullmatch(entry.name) is None:
        return False
    try:
        status = entry.stat(follow_symlinks=False)
    except OSError:
        return False
    if not stat.S_ISREG(status.st_mode) or status.st_uid != os.geteuid():
        return False
    if now - status.st_mtime > STALE_AFTER_SECONDS:
        return True
    if ours is None:
        return False
    same_namespace = int(ours["namespace"]) == _pid_namespace()
    return same_namespace and not process_alive(int(ours["pid"]))


@cache
def _pid_namespace() -> int:
    """This process's pid namespace (the inode of /proc/self/ns/pid), 0 where there is none
    to read: two containers sharing a folder have different pids for the same number."""
    try:
        return os.stat("/proc/self/ns/pid").st_ino
    except OSError:
        return 0
