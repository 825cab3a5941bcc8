"""Content-addressed blobs in a folder (by default ``$CLEVERAGENTS_HOME/artifacts/``).

Layout: ``blobs/ab/cdef...`` (the SHA-256, split so no directory grows huge), ``staging/`` for
imports in progress (named ``<pid>.<random>.part``), ``temp/`` for trusted tools' outputs.
A blob becomes visible only by an atomic rename of a fully written, fsynced staging file, so a
crash leaves either nothing or a whole blob; `sweep_staging` removes what dead importers left.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from cleveragents.adapters.blobs.digests import check_digest, is_digest
from cleveragents.adapters.blobs.local_work_area import LocalWorkArea, StagingFile
from cleveragents.adapters.files.private_directories import make_private_directory
from cleveragents.application.ports.blob_storage import (
    BlobMissingError,
    BlobStorage,
    BlobWriter,
    TempOutputFolder,
)


def _fsync_directory(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class FilesystemBlobStorage(BlobStorage):
    def __init__(self, root: Path) -> None:
        self.root = root
        self.blob_dir = root / "blobs"
        self.work_area = LocalWorkArea(root)
        self.staging_dir = self.work_area.staging_dir
        self.temp_dir = self.work_area.temp_dir
        make_private_directory(self.blob_dir)

    def path_of(self, sha256: str) -> Path:
        return self.blob_dir / sha256[:2] / sha256[2:]

    def begin(self) -> BlobWriter:
        return StagingFile(self.work_area, self.publish, durable=True)

    def publish(self, staged: Path, sha256: str) -> None:
        """Make the fsynced staging file `staged` blob `sha256` (a link beside it; the writer
        removes the staging name after), and the link durable."""
        target = self.path_of(check_digest(sha256))
        target.parent.mkdir(mode=0o700, exist_ok=True)  # a shard, inside the private store
        _publish(staged, target)
        _fsync_directory(target.parent)

    def open(self, sha256: str) -> BinaryIO:
        path = self.path_of(check_digest(sha256))
        try:
            return path.open("rb")
        except FileNotFoundError as error:
            raise self._missing(sha256, path) from error

    def size(self, sha256: str) -> int:
        path = self.path_of(check_digest(sha256))
        try:
            return path.stat().st_size
        except FileNotFoundError as error:
            raise self._missing(sha256, path) from error

    @staticmethod
    def _missing(sha256: str, path: Path) -> BlobMissingError:
        return BlobMissingError(f"blob {sha256} is missing: it should be at {path}")

    def delete(self, sha256: str) -> None:
        self.path_of(check_digest(sha256)).unlink(missing_ok=True)

    def modified_at(self, sha256: str) -> float:
        return self.path_of(check_digest(sha256)).stat().st_mtime

    def all_digests(self) -> Iterator[str]:
        for shard in sorted(self.blob_dir.iterdir()):
            for blob in sorted(shard.iterdir()):
                digest = shard.name + blob.name
                if is_digest(digest):
                    yield digest

    def sweep_staging(self) -> int:
        return self.work_area.sweep_staging()

    def discard_temp_output(self, path: str) -> None:
        self.work_area.discard_temp_output(path)

    def temp_output_folders(self) -> Iterator[TempOutputFolder]:
        return self.work_area.temp_output_folders()

    def temp_output_location(self, path: str) -> tuple[str, str]:
        return self.work_area.temp_output_location(path)

    def temp_output_path(self, token_id: str) -> str:
        return self.work_area.temp_output_path(token_id)


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
