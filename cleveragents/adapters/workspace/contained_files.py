"""Opening a file beneath a workspace root on file descriptors, so that no swap can leak.

Checking a path and then opening it leaves a window in which a component can be replaced by a
symlink to a file outside. Here nothing is checked by path: the root is opened once, and every
component is opened relative to its parent's descriptor with ``O_NOFOLLOW``, so the kernel itself
refuses a symlink at the moment of the open, wherever it points. The opened file is then checked
on its descriptor (``fstat``): a regular file with a single link, or it is refused.

A ``..`` in the path is resolved first, by its text alone, against the root (a relative path
starts there): what is checked is where the path ends, and the walk follows no link to get there.

Symlinks *inside* the workspace that point inside are refused as well. That is deliberate: without
``openat2(RESOLVE_BENEATH)`` following a symlink race-free means resolving it by hand, and tools
write plain files, so the simpler rule costs nothing in practice. Not covered: a mount point inside
the workspace (a bind mount of an outside directory) is a real directory and is walked into.
"""

from __future__ import annotations

import errno
import fcntl
import os
import stat

from cleveragents.adapters.input_files.bounded_reading import read_open_file_bounded
from cleveragents.application.ports.contained_files import ContainedFile, ContainedFiles
from cleveragents.domain.errors import (
    ArtifactNotFoundError,
    InvalidInputError,
    WorkdirNotFoundError,
    WorkspaceEscapeError,
)

_ROOT_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC
_DIRECTORY_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
# O_NONBLOCK: opening a FIFO would otherwise wait for a writer; it is cleared again once the
# descriptor is known to be a regular file. O_NOCTTY: a terminal never becomes ours.
_FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY

# Errors that mean "there is no readable file there"; anything else (EMFILE, EIO, ...) is a real
# failure of the machine and propagates as OSError.
_NOT_FOUND_ERRNOS = frozenset({errno.ENOENT, errno.ENAMETOOLONG, errno.EACCES, errno.EPERM})
# Opening a socket gives ENXIO; a device without a driver gives ENXIO or ENODEV.
_SPECIAL_FILE_ERRNOS = frozenset({errno.ENXIO, errno.ENODEV})


class FdContainedFiles(ContainedFiles):
    """Component-wise ``openat`` walk with ``O_NOFOLLOW``; race-free on any Linux or BSD."""

    def open_beneath(self, root: str, path: str) -> ContainedFile:
        if "\0" in path:
            raise WorkspaceEscapeError(f"path {path!r} contains a NUL byte")
        _refuse_nul_in_root(root)
        # The root is the user's choice and may itself be reached through a symlink: it is
        # resolved once, here, and only the root. Everything below it is opened without following.
        real_root = os.path.realpath(root)
        components = _relative_components(root, real_root, path)
        relative_path = "/".join(components)
        location = f"{real_root}/{relative_path}" if relative_path else real_root
        if not components:
            raise ArtifactNotFoundError(path, location)
        try:
            root_fd = os.open(real_root, _ROOT_FLAGS)
        except OSError as exc:
            raise WorkdirNotFoundError(root) from exc
        fd = _walk(root_fd, components, path, location)
        try:
            size_bytes = _check_regular_single_link(fd, path, location)
            flags = fcntl.fcntl(fd, fcntl.F_GETFL)
            fcntl.fcntl(fd, fcntl.F_SETFL, flags & ~os.O_NONBLOCK)
            handle = os.fdopen(fd, "rb")
        except BaseException:
            os.close(fd)
            raise
        return ContainedFile(handle=handle, relative_path=relative_path, size_bytes=size_bytes)

    def read_beneath(self, root: str, path: str, limit: int, *, what: str, advice: str) -> bytes:
        """The bytes of the file `open_beneath` opens, refused above `limit` bytes before
        they are read, or as soon as a growing file passes it (`read_bounded`'s rules and
        messages, `what` and `advice` naming the input)."""
        opened = self.open_beneath(root, path)
        with opened.handle:
            return read_open_file_bounded(
                opened.handle, path, opened.size_bytes, limit, what=what, advice=advice
            )

    def real_root(self, root: str) -> str:
        _refuse_nul_in_root(root)
        real = os.path.realpath(root)
        if not os.path.isdir(real):
            raise WorkdirNotFoundError(root)
        return real


def _refuse_nul_in_root(root: str) -> None:
    # The OS would raise a bare ValueError ("embedded null byte") from realpath or open.
    if "\0" in root:
        raise InvalidInputError(f"work directory {root!r} contains a NUL byte")


def _relative_components(root: str, real_root: str, path: str) -> list[str]:
    """The path's components below the root. A relative path is taken from the root; ``..``
    is resolved by the text alone (``os.path.normpath``), never by following a link, so what
    counts is where the path ends: ``../ws/a.log`` from inside ``ws`` is ``a.log``, and a path
    that ends outside is refused. The walk then opens what is left, following no link."""
    if not path:
        return []
    anchored = path if os.path.isabs(path) else os.path.join(os.path.abspath(root), path)
    parts = [part for part in os.path.normpath(anchored).split("/") if part]
    # Compared component by component, never as strings: `/x/ws-evil/f` is not inside `/x/ws`.
    for candidate in (os.path.abspath(root), real_root):
        prefix = [part for part in candidate.split("/") if part]
        if parts[: len(prefix)] == prefix:
            return parts[len(prefix) :]
    raise WorkspaceEscapeError(f"path {path!r} ends outside the workspace {real_root}")


def _walk(root_fd: int, components: list[str], path: str, location: str) -> int:
    """Open each directory relative to its parent, then the file; closes every directory fd."""
    parent = root_fd
    try:
        for name in components[:-1]:
            child = _open_at(parent, name, _DIRECTORY_FLAGS, path, location)
            parent, previous = child, parent
            os.close(previous)
        last = components[-1]
        _refuse_special_before_open(parent, last, path, location)
        return _open_at(parent, last, _FILE_FLAGS, path, location)
    finally:
        os.close(parent)


def _open_at(parent: int, name: str, flags: int, path: str, location: str) -> int:
    try:
        return os.open(name, flags, dir_fd=parent)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise _symlink_error(path, name) from exc
        if exc.errno == errno.ENOTDIR:
            # O_DIRECTORY | O_NOFOLLOW on a symlink gives ENOTDIR, as does a plain file used as a
            # directory. Looking again only chooses the message: both cases are refused.
            if _is_symlink(parent, name):
                raise _symlink_error(path, name) from exc
            raise ArtifactNotFoundError(path, location) from exc
        if exc.errno in _SPECIAL_FILE_ERRNOS:
            raise _special_file_error(path) from exc
        if exc.errno in _NOT_FOUND_ERRNOS:
            raise ArtifactNotFoundError(path, location) from exc
        raise


def _refuse_special_before_open(parent: int, name: str, path: str, location: str) -> None:
    """Spare devices the side effects of an open in the ordinary case.

    Not the security check (that is the ``fstat`` on the opened descriptor); a swap after this
    look is caught there.
    """
    try:
        mode = os.stat(name, dir_fd=parent, follow_symlinks=False).st_mode
    except OSError:
        return  # the open reports it, with the right translation
    if stat.S_ISLNK(mode):
        raise _symlink_error(path, name)
    if stat.S_ISDIR(mode):
        raise ArtifactNotFoundError(path, location)
    if not stat.S_ISREG(mode):
        raise _special_file_error(path)


def _check_regular_single_link(fd: int, path: str, location: str) -> int:
    status = os.fstat(fd)
    if stat.S_ISDIR(status.st_mode):
        raise ArtifactNotFoundError(path, location)
    if not stat.S_ISREG(status.st_mode):
        raise _special_file_error(path)
    if status.st_nlink > 1:
        raise WorkspaceEscapeError(
            f"{path!r} has {status.st_nlink} hard links: a hard-linked file may be the same file "
            "as one outside the workspace, so it is not read"
        )
    return status.st_size


def _is_symlink(parent: int, name: str) -> bool:
    try:
        return stat.S_ISLNK(os.stat(name, dir_fd=parent, follow_symlinks=False).st_mode)
    except OSError:
        return False


def _symlink_error(path: str, name: str) -> WorkspaceEscapeError:
    return WorkspaceEscapeError(
        f"{path!r}: {name!r} is a symbolic link; symlinks are not followed inside the workspace"
    )


def _special_file_error(path: str) -> WorkspaceEscapeError:
    return WorkspaceEscapeError(
        f"{path!r} is not a regular file (a FIFO, socket or device); only plain files are read"
    )
