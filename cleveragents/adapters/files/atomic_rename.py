"""Linux's ``renameat2(2)``: a rename that never replaces, and a rename that swaps two names.

``os.replace`` removes whatever the target name holds, and a check just before it (``lstat``)
is stale the moment it returns: a device node or FIFO swapped in meanwhile is destroyed. The two
flags close that window. ``RENAME_NOREPLACE`` fails with ``EEXIST`` if anything took the name;
``RENAME_EXCHANGE`` swaps two names atomically, so whatever the target held survives under the
other name, where it can be looked at (and swapped back) without a race.

Called through ctypes: glibc's ``renameat2`` (2.28 and later), else the raw system call on
x86_64 and aarch64. `RenameFlagsUnsupportedError` says that neither is there, or that the file
system does not take the flag (``EINVAL``), and the caller falls back to a plain rename.
"""

from __future__ import annotations

import ctypes
import errno
import os
import platform
import sys
from collections.abc import Callable
from functools import cache

RENAME_NOREPLACE = 1
RENAME_EXCHANGE = 2

# The system call's number where glibc is too old to wrap it (asm-generic on aarch64).
_SYSCALL_NUMBERS = {"x86_64": 316, "amd64": 316, "aarch64": 276, "arm64": 276}

_Renameat2 = Callable[[int, bytes, int, bytes, int], int]


class RenameFlagsUnsupportedError(Exception):
    """renameat2 with this flag is not available here (kernel, C library or file system)."""


def rename_noreplace(dir_fd: int, source: str, target: str) -> None:
    """Rename `source` to `target` in `dir_fd`; `FileExistsError` if `target` exists."""
    _renameat2(dir_fd, source, target, RENAME_NOREPLACE)


def rename_exchange(dir_fd: int, first: str, second: str) -> None:
    """Swap the entries `first` and `second` of `dir_fd`; `FileNotFoundError` if either is
    missing."""
    _renameat2(dir_fd, first, second, RENAME_EXCHANGE)


def _renameat2(dir_fd: int, source: str, target: str, flags: int) -> None:
    call = _binding()
    if call is None:
        raise RenameFlagsUnsupportedError("renameat2 is not available on this system")
    result = call(dir_fd, os.fsencode(source), dir_fd, os.fsencode(target), flags)
    if result == 0:
        return
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP):
        raise RenameFlagsUnsupportedError(os.strerror(code))
    raise OSError(code, os.strerror(code), target)


@cache
def _binding() -> _Renameat2 | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None
    wrapper = getattr(libc, "renameat2", None)
    if wrapper is not None:
        wrapper.argtypes = [
            ctypes.c_int,
            ctypes.c_char_p,
            ctypes.c_int,
            ctypes.c_char_p,
            ctypes.c_uint,
        ]
        wrapper.restype = ctypes.c_int
        return _typed(wrapper)
    number = _SYSCALL_NUMBERS.get(platform.machine().lower())
    syscall = getattr(libc, "syscall", None)
    if number is None or syscall is None:
        return None
    syscall.restype = ctypes.c_long

    def raw(old_fd: int, old: bytes, new_fd: int, new: bytes, flags: int) -> int:
        return int(
            syscall(
                ctypes.c_long(number),
                ctypes.c_int(old_fd),
                ctypes.c_char_p(old),
                ctypes.c_int(new_fd),
                ctypes.c_char_p(new),
                ctypes.c_uint(flags),
            )
        )

    return raw


def _typed(function: Callable[..., int]) -> _Renameat2:
    def call(old_fd: int, old: bytes, new_fd: int, new: bytes, flags: int) -> int:
        return int(function(old_fd, old, new_fd, new, flags))

    return call
