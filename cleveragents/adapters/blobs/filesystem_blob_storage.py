"""Content-addressed blobs under ``$CLEVERAGENTS_HOME/artifacts/``.

Layout: ``blobs/ab/cdef...`` (the SHA-256, split so no directory grows huge), ``staging/`` for
imports in progress (named ``<pid>.<random>.part``), ``temp/`` for trusted tools' outputs.
A blob becomes visible only by an atomic rename of a fully written, fsynced staging file, so a
crash leaves either nothing or a whole blob; `sweep_staging` removes what dead importers left.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from cleveragents.adapters.files.private_directories import make_private_directory
from cleveragents.application.ports.blob_storage import BlobStorage, BlobWriter
from cleveragents.domain.errors import InvalidInputError

_HEX = frozenset("0123456789abcdef")
_TEMP_OUTPUT_NAME = "output"


def _check_digest(sha256: str) -> str:
    if len(sha256) != 64 or not set(sha256) <= _HEX:
        raise ValueError(f"not a SHA-256 hex digest: {sha256!r}")
    return sha256


def _fsync_directory(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class _StagedBlob(BlobWriter):
    def __init__(self, storage: FilesystemBlobStorage) -> None:
        self._storage = storage
        name = f"{os.getpid()}.{secrets.token_hex(8)}.part"
        self._path = storage.staging_dir / name
        self._handle: BinaryIO | None = self._path.open("xb")

    def write(self, data: bytes) -> None:
        if self._handle is None:
            raise RuntimeError("the blob was already committed or aborted")
        self._handle.write(data)

    def commit(self, sha256: str) -> None:
        target = self._storage.path_of(_check_digest(sha256))
        handle = self._handle
        if handle is None:
            raise RuntimeError("the blob was already committed or aborted")
        handle.flush()
        os.fsync(handle.fileno())
        handle.close()
        self._handle = None
        target.parent.mkdir(mode=0o700, exist_ok=True)  # a shard, inside the private store
        try:
            _publish(self._path, target)
        finally:
            self._path.unlink(missing_ok=True)
        _fsync_directory(target.parent)

    def abort(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None
        self._path.unlink(missing_ok=True)


class FilesystemBlobStorage(BlobStorage):
    def __init__(self, root: Path) -> None:
        self.root = root
        self.blob_dir = root / "blobs"
        self.staging_dir = root / "staging"
        self.temp_dir = root / "temp"
        # Tool output can be confidential: the store is private to its user, and so is every
        # folder created on the way to it (the home included).
        for directory in (self.blob_dir, self.staging_dir, self.temp_dir):
            make_private_directory(directory)

    def path_of(self, sha256: str) -> Path:
        return self.blob_dir / sha256[:2] / sha256[2:]

    def begin(self) -> BlobWriter:
        return _StagedBlob(self)

    def open(self, sha256: str) -> BinaryIO:
        return self.path_of(_check_digest(sha256)).open("rb")

    def size(self, sha256: str) -> int:
        return self.path_of(_check_digest(sha256)).stat().st_size

    def delete(self, sha256: str) -> None:
        self.path_of(_check_digest(sha256)).unlink(missing_ok=True)

    def modified_at(self, sha256: str) -> float:
        return self.path_of(_check_digest(sha256)).stat().st_mtime

    def all_digests(self) -> Iterator[str]:
        for shard in sorted(self.blob_dir.iterdir()):
            for blob in sorted(shard.iterdir()):
                digest = shard.name + blob.name
                if len(digest) == 64 and set(digest) <= _HEX:
                    yield digest

    def sweep_staging(self) -> int:
        removed = 0
        for part in self.staging_dir.glob("*.part"):
            pid_text = part.name.split(".", 1)[0]
            if pid_text.isdigit() and _alive(int(pid_text)):
                continue  # its importer (maybe this process) is still writing it
            with contextlib.suppress(FileNotFoundError):
                part.unlink()
                removed += 1
        return removed

    def discard_temp_output(self, path: str) -> None:
        """Remove a temporary output and its private directory (used or expired grants). A
        directory swapped for a symlink loses the link only, never what it points to."""
        directory = Path(path).parent
        if directory.parent != self.temp_dir:
            return
        if directory.is_symlink():
            directory.unlink(missing_ok=True)
        else:
            shutil.rmtree(directory, ignore_errors=True)

    def temp_output_location(self, path: str) -> tuple[str, str]:
        """The store's root and the output's path beneath it (``temp/<grant>/output``).

        Opened with `ContainedFiles.open_beneath(root, relative)`, every folder below the root
        is checked on its descriptor: ``temp/`` or the grant's folder replaced by a symlink is
        refused, where resolving the output's own folder first would follow it anywhere."""
        output = Path(path)
        if output.parent.parent != self.temp_dir or output.name != _TEMP_OUTPUT_NAME:
            raise InvalidInputError(f"{path} is not a temporary output of this store")
        return str(self.root), f"{self.temp_dir.name}/{output.parent.name}/{output.name}"

    def temp_output_path(self, token_id: str) -> str:
        directory = self.temp_dir / token_id
        directory.mkdir(mode=0o700)
        return str(directory / _TEMP_OUTPUT_NAME)


def _publish(staged: Path, target: Path) -> None:
    """link() never overwrites: the first importer of a content publishes it, the others find
    it there (EEXIST), mark it recent so that a concurrent cleanup leaves it for the row they
    are about to commit, and drop their identical copy. A blob that a cleanup removed between
    the two steps is published again."""
    for _attempt in range(3):
        try:
            os.link(staged, target)
            return
        except FileExistsError:
            try:
                os.utime(target)
                return
            except FileNotFoundError:
                continue  # deleted in between: link again
    raise OSError(f"could not publish blob {target.name}: it keeps disappearing")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError as error:
        return error.errno == errno.EPERM
    return True
