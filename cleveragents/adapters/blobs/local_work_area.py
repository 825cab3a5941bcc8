"""The local folders of a blob store: ``staging/`` for imports in progress, ``temp/`` for
trusted tools' outputs. Both are on this machine's disk whatever holds the published blobs: a
staging file is written by one importer and read back by it, and a tool writes its output to a
local path. The filesystem store publishes from ``staging/`` by a rename beside it; the S3 store
uploads from it.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import shutil
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO

from cleveragents.adapters.files.private_directories import make_private_directory
from cleveragents.adapters.system.processes import process_alive
from cleveragents.application.ports.blob_storage import BlobWriter, TempOutputFolder
from cleveragents.domain.errors import InvalidInputError

_TEMP_OUTPUT_NAME = "output"
_SELECTOR = re.compile(r"[0-9a-f]{16}")  # what TempOutputs.create issues (8 random bytes)


class LocalWorkArea:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.staging_dir = root / "staging"
        self.temp_dir = root / "temp"
        # Tool output can be confidential: the store is private to its user, and so is every
        # folder created on the way to it (the home included).
        for directory in (self.staging_dir, self.temp_dir):
            make_private_directory(directory)

    def new_staging_path(self) -> Path:
        """A fresh staging file's path, named ``<pid>.<random>.part`` so that a sweep can tell
        a live importer's file from a dead one's."""
        return self.staging_dir / f"{os.getpid()}.{secrets.token_hex(8)}.part"

    def sweep_staging(self) -> int:
        removed = 0
        for part in self.staging_dir.glob("*.part"):
            pid_text = part.name.split(".", 1)[0]
            if pid_text.isdigit() and process_alive(int(pid_text)):
                continue  # its importer (maybe this process) is still writing it
            with contextlib.suppress(FileNotFoundError):
                part.unlink()
                removed += 1
        return removed

    def temp_output_path(self, token_id: str) -> str:
        directory = self.temp_dir / token_id
        directory.mkdir(mode=0o700)
        return str(directory / _TEMP_OUTPUT_NAME)

    def temp_output_location(self, path: str) -> tuple[str, str]:
        """The root and the output's path beneath it (``temp/<grant>/output``).

        Opened with `ContainedFiles.open_beneath(root, relative)`, every folder below the root
        is checked on its descriptor: ``temp/`` or the grant's folder replaced by a symlink is
        refused, where resolving the output's own folder first would follow it anywhere."""
        output = Path(path)
        if output.parent.parent != self.temp_dir or output.name != _TEMP_OUTPUT_NAME:
            raise InvalidInputError(f"{path} is not a temporary output of this store")
        return str(self.root), f"{self.temp_dir.name}/{output.parent.name}/{output.name}"

    def discard_temp_output(self, path: str) -> None:
        """Remove a temporary output and its private directory (used, refused or expired
        grants). Relative to a descriptor of ``temp/`` opened without following a symlink: a
        grant's folder swapped for a symlink loses the link only, and ``temp/`` itself swapped
        for one is left alone, never followed to remove what lies elsewhere."""
        directory = Path(path).parent
        if directory.parent != self.temp_dir:
            return
        flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
        try:
            temp_fd = os.open(self.temp_dir, flags)
        except OSError:
            return  # not a folder of ours any more: nothing here is ours to remove
        try:
            status = os.lstat(directory.name, dir_fd=temp_fd)
            if stat.S_ISDIR(status.st_mode):
                shutil.rmtree(directory.name, dir_fd=temp_fd, ignore_errors=True)
            else:
                os.unlink(directory.name, dir_fd=temp_fd)
        except FileNotFoundError:
            pass
        finally:
            os.close(temp_fd)

    def temp_output_folders(self) -> Iterator[TempOutputFolder]:
        """The folders of ``temp/`` named like a selector, looked at without following a
        symlink planted in their place (its own time is given; discarding it removes the link)."""
        try:
            entries = list(os.scandir(self.temp_dir))
        except FileNotFoundError:
            return
        for entry in entries:
            if _SELECTOR.fullmatch(entry.name) is None:
                continue
            try:
                modified = entry.stat(follow_symlinks=False).st_mtime
            except FileNotFoundError:
                continue  # discarded meanwhile
            yield TempOutputFolder(entry.name, str(Path(entry.path) / _TEMP_OUTPUT_NAME), modified)


Publish = Callable[[Path, str], None]
"""How a storage makes a finished staging file its blob: `publish(staged, sha256)`."""


class StagingFile(BlobWriter):
    """A blob being written to a new file of the work area's staging folder: the one writer of
    every storage. On `commit` the file is closed (fsynced first when `durable`), handed to the
    storage's `publish` with its digest, and removed from the staging folder whatever happens:
    a rename, a link or an upload has made it the blob, or the commit failed."""

    def __init__(self, work_area: LocalWorkArea, publish: Publish, *, durable: bool) -> None:
        self._publish = publish
        self._durable = durable
        self._path = work_area.new_staging_path()
        self._handle: BinaryIO | None = self._path.open("xb")

    def write(self, data: bytes) -> None:
        if self._handle is None:
            raise RuntimeError("the blob was already committed or aborted")
        self._handle.write(data)

    def commit(self, sha256: str) -> None:
        staged = self._finish()
        try:
            self._publish(staged, sha256)
        finally:
            staged.unlink(missing_ok=True)

    def _finish(self) -> Path:
        """The written file, closed (and fsynced when durable); no write may follow."""
        handle = self._handle
        if handle is None:
            raise RuntimeError("the blob was already committed or aborted")
        if self._durable:
            handle.flush()
            os.fsync(handle.fileno())
        handle.close()
        self._handle = None
        return self._path

    def abort(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None
        self._path.unlink(missing_ok=True)
