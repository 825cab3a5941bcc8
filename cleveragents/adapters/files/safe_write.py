"""Writing a file the user named (``--out``) without replacing what it is or following a trap.

A regular file (or a name not yet taken) is replaced atomically: the bytes go to a fresh staging
file in the same directory, created with ``O_CREAT | O_EXCL | O_NOFOLLOW`` under a random name (a
file or symlink already there is never opened, whatever its name), fsynced, then renamed onto the
target; a reader sees the old file or the new one, never half of either.

Anything else that exists is written in place and never replaced: a device (``/dev/null``, a
terminal), a FIFO or a pipe. Renaming a regular file over ``/dev/null`` as root would destroy the
device. It is opened for writing without ``O_CREAT``; if what was opened turns out to be a regular
file after all (swapped in meanwhile), nothing is written.

A symbolic link is written through: the link stays and what it names is written by the rules
above (``--out /dev/stdout`` writes to the standard output; a link to a regular file has that
file replaced atomically). A link that names nothing is refused: creating a file through a
dangling link is how a planted link makes a writer create files elsewhere.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat

from cleveragents.domain.errors import InvalidInputError

_DIRECTORY_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC
_STAGING_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
# O_NOCTTY: writing to a terminal never makes it ours. No O_TRUNC, no O_CREAT: a device or FIFO is
# written as it is, and nothing new is ever created by this open.
_IN_PLACE_FLAGS = os.O_WRONLY | os.O_CLOEXEC | os.O_NOCTTY
_STAGING_ATTEMPTS = 5


class OutputFileError(InvalidInputError):
    """The file cannot be written, or not safely; one line naming it (the CLI exits 2)."""


def write_file(target: str | os.PathLike[str], data: bytes) -> None:
    """Write `data` to `target`: a regular file is replaced atomically, a device or FIFO is
    written in place, a symbolic link is written through (see the module docstring).

    Raises `OutputFileError` for a directory, a dangling link, or when the system refuses (no
    such directory, no permission, disk full); a refused write leaves the target as it was."""
    path = os.fspath(target)
    try:
        _write(path, data)
    except OSError as error:
        raise OutputFileError(f"cannot write {path}: {error.strerror or error}") from error


def _write(path: str, data: bytes) -> None:
    if "\0" in path:
        raise OutputFileError(f"{path!r} contains a NUL byte")
    status = _lstat(path)
    is_link = status is not None and stat.S_ISLNK(status.st_mode)
    if is_link:
        followed = _stat(path)
        if followed is None:
            raise OutputFileError(f"{path} is a symbolic link to nothing; not written through it")
        status = followed
        if stat.S_ISREG(followed.st_mode):
            # The link stays a link: the file it names is the one replaced.
            path = os.path.realpath(path)
    if status is None:
        _replace_atomically(path, data, mode=None)
    elif stat.S_ISDIR(status.st_mode):
        raise OutputFileError(f"{path} is a directory, not a file")
    elif stat.S_ISREG(status.st_mode):
        _replace_atomically(path, data, mode=stat.S_IMODE(status.st_mode))
    else:
        _write_in_place(path, data, follow=is_link)


def _lstat(path: str) -> os.stat_result | None:
    try:
        return os.lstat(path)
    except FileNotFoundError:
        return None


def _stat(path: str) -> os.stat_result | None:
    try:
        return os.stat(path)
    except FileNotFoundError:
        return None


def _replace_atomically(path: str, data: bytes, *, mode: int | None) -> None:
    directory, name = os.path.split(path)
    dir_fd = os.open(directory or ".", _DIRECTORY_FLAGS)
    try:
        staging, fd = _create_staging(dir_fd, name)
        try:
            try:
                if mode is not None:
                    os.fchmod(fd, mode)  # a replaced file keeps its permissions
                _write_all(fd, data)
                os.fsync(fd)
            finally:
                os.close(fd)
            os.replace(staging, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(staging, dir_fd=dir_fd)
            raise
        os.fsync(dir_fd)  # the rename itself survives a crash
    finally:
        os.close(dir_fd)


def _create_staging(dir_fd: int, name: str) -> tuple[str, int]:
    """A new file beside the target under a random name. O_EXCL fails on anything already
    there, a symlink included (O_CREAT | O_EXCL never follows one), so a planted name is skipped
    for another, never opened. Created 0666 less the umask, as a shell redirection would."""
    for _attempt in range(_STAGING_ATTEMPTS):
        staging = f".{name}.{secrets.token_hex(8)}.partial"
        try:
            return staging, os.open(staging, _STAGING_FLAGS, 0o666, dir_fd=dir_fd)
        except FileExistsError:
            continue
    raise OSError(errno.EEXIST, f"no free staging name beside {name} after {_STAGING_ATTEMPTS}")


def _write_in_place(path: str, data: bytes, *, follow: bool) -> None:
    # A device or FIFO named directly is opened without following: were it swapped for a link
    # meanwhile, the open fails rather than write wherever the link points.
    fd = os.open(path, _IN_PLACE_FLAGS if follow else _IN_PLACE_FLAGS | os.O_NOFOLLOW)
    try:
        if stat.S_ISREG(os.fstat(fd).st_mode):
            # It was a device or FIFO a moment ago: a swap is under way. Nothing was truncated
            # or written; refuse rather than write a regular file in place.
            raise OutputFileError(f"{path} changed while it was being opened; not written")
        _write_all(fd, data)
    finally:
        os.close(fd)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]
