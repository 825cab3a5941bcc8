"""Writing a file the user named (``--out``): whole or not at all, replacing only a regular file.

A regular file (or a name not yet taken) is replaced atomically: the bytes go to a fresh staging
file beside it (`staging_names`), created with ``O_CREAT | O_EXCL | O_NOFOLLOW`` (a file or
symlink already there is never opened, whatever its name), fsynced, then renamed onto the target;
a reader sees the old file or the new one, never half of either.

Nothing but a regular file is ever replaced, even when something else is swapped in while the
file is written. On Linux the rename is ``renameat2`` (`atomic_rename`): with
``RENAME_NOREPLACE`` when the name is free, else with ``RENAME_EXCHANGE``, after which what the
target held is under the staging name and is looked at there: a regular file is removed (it was
replaced); anything else (a device, a FIFO, a socket, a directory, a symlink) is swapped back at
once and the write is refused. Where ``renameat2`` or its flags are missing (another system, a
file system without them), the target is checked with ``lstat`` just before a plain rename: a
swap inside that window can still be replaced.

A device (``/dev/null``, a terminal) or a FIFO that is there when the write starts is written in
place, never replaced: it is opened without ``O_CREAT`` and with ``O_NONBLOCK``, so a FIFO that
no process reads is refused at once (``ENXIO``) instead of blocking forever; the descriptor is
made blocking again for the write. If what was opened turns out to be a regular file (swapped in
meanwhile), nothing is written. A socket is refused.

A symbolic link is written through: the link stays and what it names is written by the rules
above (``--out /dev/stdout`` writes to the standard output; a link to a regular file has that
file replaced atomically). A link that names nothing is refused: creating a file through a
dangling link is how a planted link makes a writer create files elsewhere.

A write can be told which files it must never replace (`never_replace`: a command's inputs, by
device and inode, taken before anything was read). They are refused however they are reached:
by their own name, a hard link, a symbolic link written through, or a link or hard link swapped
in while the bytes were being written (the exchange shows what it displaced: an input is swapped
back at once and the write refused).

No staging file outlives a failed write that Python sees (an error, ``KeyboardInterrupt``,
``SIGTERM`` or ``SIGHUP``: `termination`); one left by a killed writer is removed by the next
write into that folder.
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import stat
from collections.abc import Collection, Iterator

from cleveragents.adapters.files.atomic_rename import (
    RenameFlagsUnsupportedError,
    rename_exchange,
    rename_noreplace,
)
from cleveragents.adapters.files.staging_names import new_staging_name, sweep_stale_staging
from cleveragents.adapters.files.termination import cleanup_on_termination
from cleveragents.domain.errors import InvalidInputError

_DIRECTORY_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC
_STAGING_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
# O_NOCTTY: writing to a terminal never makes it ours. No O_TRUNC, no O_CREAT: a device or FIFO is
# written as it is, and nothing new is ever created by this open. O_NONBLOCK: a FIFO without a
# reader fails with ENXIO instead of waiting for one.
_IN_PLACE_FLAGS = os.O_WRONLY | os.O_CLOEXEC | os.O_NOCTTY | os.O_NONBLOCK
_STAGING_ATTEMPTS = 5
_INSTALL_ATTEMPTS = 5
# Held back while the staging file is renamed into place, so that an interruption never falls
# between swapping a device out and swapping it back.
_DEFERRED_SIGNALS = {
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
}


class OutputFileError(InvalidInputError):
    """The file cannot be written, or not safely; one line naming it (the CLI exits 2)."""


FileIdentity = tuple[int, int]
"""A file by device and inode: the same file under any name."""


def file_identity(status: os.stat_result) -> FileIdentity:
    """The identity `never_replace` takes, from a ``stat`` of the file."""
    return status.st_dev, status.st_ino


def write_file(
    target: str | os.PathLike[str],
    data: bytes,
    *,
    never_replace: Collection[FileIdentity] = frozenset(),
) -> None:
    """Write `data` to `target`: a regular file is replaced atomically, a device or FIFO is
    written in place, a symbolic link is written through (see the module docstring).

    Raises `OutputFileError` for a directory, a socket, a FIFO with no reader, a dangling link,
    a target that something other than a regular file took meanwhile, one of `never_replace`
    (by whatever name, even when swapped in meanwhile), or when the system refuses
    (no such directory, no permission, disk full); a refused write leaves the target as it was
    and no staging file behind."""
    path = os.fspath(target)
    if "\0" in path:
        raise OutputFileError(f"{path!r} contains a NUL byte")
    try:
        with cleanup_on_termination():
            _write(path, data, frozenset(never_replace))
    except OSError as error:
        raise OutputFileError(f"cannot write {path}: {error.strerror or error}") from error


def _write(path: str, data: bytes, kept: frozenset[FileIdentity]) -> None:
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
    if status is not None and file_identity(status) in kept:
        raise OutputFileError(_is_an_input(path))
    if status is None:
        _replace_atomically(path, data, mode=None, kept=kept)
    elif stat.S_ISDIR(status.st_mode):
        raise OutputFileError(f"{path} is a directory, not a file")
    elif stat.S_ISSOCK(status.st_mode):
        raise OutputFileError(f"{path} is a socket, not a file; nothing written")
    elif stat.S_ISREG(status.st_mode):
        _replace_atomically(path, data, mode=stat.S_IMODE(status.st_mode), kept=kept)
    else:
        _write_in_place(path, data, follow=is_link, fifo=stat.S_ISFIFO(status.st_mode))


def _is_an_input(shown: str) -> str:
    return f"{shown} is one of the inputs; no input is ever overwritten, nothing written"


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


def _replace_atomically(
    path: str, data: bytes, *, mode: int | None, kept: frozenset[FileIdentity]
) -> None:
    directory, name = os.path.split(path)
    if not name:
        raise OutputFileError(f"{path} names a directory, not a file")
    dir_fd = os.open(directory or ".", _DIRECTORY_FLAGS)
    try:
        sweep_stale_staging(dir_fd)
        staged: tuple[str, os.stat_result] | None = None
        try:
            # Signals wait until the staging file is known, so that no interruption can fall
            # between its creation and the cleanup that removes it.
            with _signals_deferred():
                staging, fd = _create_staging(dir_fd, name)
                staged = staging, os.fstat(fd)
            try:
                if mode is not None:
                    os.fchmod(fd, mode)  # a replaced file keeps its permissions
                _write_all(fd, data)
                os.fsync(fd)
            finally:
                os.close(fd)
            with _signals_deferred():
                _install(dir_fd, staging, name, staged[1], shown=path, kept=kept)
        except OutputFileError:
            raise  # `_install` refused and has already settled the staging name
        except BaseException:
            if staged is not None:
                with contextlib.suppress(OSError, OutputFileError), _signals_deferred():
                    _abandon(dir_fd, *staged, name)
            raise
        os.fsync(dir_fd)  # the rename itself survives a crash
    finally:
        os.close(dir_fd)


def _create_staging(dir_fd: int, name: str) -> tuple[str, int]:
    """A new file beside the target under a random name. O_EXCL fails on anything already
    there, a symlink included (O_CREAT | O_EXCL never follows one), so a planted name is skipped
    for another, never opened. Created 0666 less the umask, as a shell redirection would."""
    for _attempt in range(_STAGING_ATTEMPTS):
        staging = new_staging_name(name)
        try:
            return staging, os.open(staging, _STAGING_FLAGS, 0o666, dir_fd=dir_fd)
        except FileExistsError:
            continue
    raise OSError(errno.EEXIST, f"no free staging name beside {name} after {_STAGING_ATTEMPTS}")


def _install(
    dir_fd: int,
    staging: str,
    name: str,
    ours: os.stat_result,
    *,
    shown: str,
    kept: frozenset[FileIdentity],
) -> None:
    """Move the staging file onto `name`, replacing only a regular file that is not one of
    `kept` (module docstring)."""
    try:
        for _attempt in range(_INSTALL_ATTEMPTS):
            try:
                rename_noreplace(dir_fd, staging, name)
                return
            except FileExistsError:
                pass
            try:
                rename_exchange(dir_fd, staging, name)
            except FileNotFoundError:
                continue  # the target went away meanwhile: the name is free again
            displaced = os.lstat(staging, dir_fd=dir_fd)
            replaceable = stat.S_ISREG(displaced.st_mode) and not _same_file(displaced, ours)
            if replaceable and file_identity(displaced) not in kept:
                os.unlink(staging, dir_fd=dir_fd)  # the regular file this write replaces
                return
            _put_back(dir_fd, staging, name, ours, shown=shown)
            if replaceable:
                raise OutputFileError(_is_an_input(shown))
            raise OutputFileError(
                f"{shown} is no longer a regular file (a device, FIFO, socket, directory or "
                "link took its place); left as it is, nothing written"
            )
    except RenameFlagsUnsupportedError:
        _replace_after_check(dir_fd, staging, name, shown=shown, kept=kept)
        return
    os.unlink(staging, dir_fd=dir_fd)  # still ours: every exchange failed on a vanished target
    raise OutputFileError(f"{shown} kept changing while it was written; nothing written")


def _put_back(dir_fd: int, staging: str, name: str, ours: os.stat_result, *, shown: str) -> None:
    """Swap what the exchange displaced (under `staging`) back to `name`, then drop what comes
    back: our file, or a regular file put at `name` meanwhile. Something else coming back (a
    second device swapped in meanwhile) is never removed: it stays under the staging name and
    the error says so."""
    try:
        rename_exchange(dir_fd, staging, name)
    except FileNotFoundError:
        try:
            rename_noreplace(dir_fd, staging, name)  # our file was taken away: the name is free
            return
        except FileExistsError:
            raise OutputFileError(_left_aside(shown, staging)) from None
    returned = os.lstat(staging, dir_fd=dir_fd)
    if not (stat.S_ISREG(returned.st_mode) or _same_file(returned, ours)):
        raise OutputFileError(_left_aside(shown, staging))
    os.unlink(staging, dir_fd=dir_fd)


def _left_aside(shown: str, staging: str) -> str:
    directory = os.path.dirname(shown) or "."
    return (
        f"{shown} kept changing while it was written; what was there is now at "
        f"{os.path.join(directory, staging)}, nothing written"
    )


def _abandon(dir_fd: int, staging: str, ours: os.stat_result, name: str) -> None:
    """After a failure or an interruption: remove the staging file if it is still ours; if an
    interrupted exchange left what the target held under the staging name, put it back."""
    try:
        current = os.lstat(staging, dir_fd=dir_fd)
    except FileNotFoundError:
        return  # installed, or never renamed away and already removed
    if _same_file(current, ours) or stat.S_ISREG(current.st_mode):
        os.unlink(staging, dir_fd=dir_fd)
    else:
        _put_back(dir_fd, staging, name, ours, shown=name)


def _replace_after_check(
    dir_fd: int, staging: str, name: str, *, shown: str, kept: frozenset[FileIdentity]
) -> None:
    """Without renameat2's flags: refuse what is not a regular file, then rename over it. A
    swap between the check and the rename is not seen (the limit of this fallback)."""
    try:
        current = os.lstat(name, dir_fd=dir_fd)
    except FileNotFoundError:
        current = None
    if current is not None and not stat.S_ISREG(current.st_mode):
        os.unlink(staging, dir_fd=dir_fd)
        raise OutputFileError(f"{shown} is no longer a regular file; left as it is")
    if current is not None and file_identity(current) in kept:
        os.unlink(staging, dir_fd=dir_fd)
        raise OutputFileError(_is_an_input(shown))
    os.replace(staging, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)


def _same_file(status: os.stat_result, other: os.stat_result) -> bool:
    return (status.st_dev, status.st_ino) == (other.st_dev, other.st_ino)


@contextlib.contextmanager
def _signals_deferred() -> Iterator[None]:
    """Keyboard and termination signals wait (for this thread) until the block is left."""
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, _DEFERRED_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _write_in_place(path: str, data: bytes, *, follow: bool, fifo: bool) -> None:
    # A device or FIFO named directly is opened without following: were it swapped for a link
    # meanwhile, the open fails rather than write wherever the link points.
    flags = _IN_PLACE_FLAGS if follow else _IN_PLACE_FLAGS | os.O_NOFOLLOW
    try:
        fd = os.open(path, flags)
    except OSError as error:
        if error.errno != errno.ENXIO:
            raise
        what = "a FIFO that no process is reading" if fifo else "a device with nothing behind it"
        raise OutputFileError(f"{path} is {what}; nothing written") from None
    try:
        if stat.S_ISREG(os.fstat(fd).st_mode):
            # It was a device or FIFO a moment ago: a swap is under way. Nothing was truncated
            # or written; refuse rather than write a regular file in place.
            raise OutputFileError(f"{path} changed while it was being opened; not written")
        # Blocking again: a reader slower than the writer is waited for, not an error.
        os.set_blocking(fd, True)
        _write_all(fd, data)
    finally:
        os.close(fd)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]
