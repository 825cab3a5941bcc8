"""The blob-storage port: content-addressed bytes, written atomically.

Adapters: a folder (`FilesystemBlobStorage`) or an S3-compatible bucket (`S3BlobStorage`).
Staging files and trusted tools' temporary outputs are local files in both: only published
blobs live in the store, so several machines can share it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO

from cleveragents.domain.errors import OperationalError


class BlobMissingError(OperationalError, FileNotFoundError):
    """A blob is not in the store (its row is there): the message says where it should be.
    A `FileNotFoundError` too, so that code which tolerates a blob removed meanwhile (by a
    concurrent cleanup) keeps doing so."""


class BlobStoreUnavailableError(OperationalError):
    """The blob store cannot be reached from here (a folder not mounted on this machine, an
    S3 endpoint down, a bucket missing, credentials refused)."""


@dataclass(frozen=True, slots=True)
class TempOutputFolder:
    """A temporary output's folder found on this machine: its grant's selector, the output's
    path (as `temp_output_path` gave it) and when the folder last changed (POSIX seconds)."""

    selector: str
    path: str
    modified_at: float


class BlobWriter(ABC):
    """A staging area for one blob. Nothing is visible in the store until `commit`."""

    @abstractmethod
    def write(self, data: bytes) -> None: ...

    @abstractmethod
    def commit(self, sha256: str) -> None:
        """Make the bytes durable (fsync) and publish them under `sha256` atomically. If the
        blob already exists (same content imported before, or concurrently), the staging copy
        is dropped: one blob per content."""

    @abstractmethod
    def abort(self) -> None:
        """Delete the staging data (a blocked or failed import leaves nothing behind)."""


class BlobStorage(ABC):
    @abstractmethod
    def begin(self) -> BlobWriter: ...

    @abstractmethod
    def open(self, sha256: str) -> BinaryIO:
        """The blob for reading, seekable (previews read a head and a tail, reads start at an
        offset). `BlobMissingError` if it is not there."""

    @abstractmethod
    def size(self, sha256: str) -> int: ...

    @abstractmethod
    def delete(self, sha256: str) -> None: ...

    @abstractmethod
    def modified_at(self, sha256: str) -> float:
        """When the blob was last published or reused (POSIX seconds). Cleanup leaves recent
        blobs alone: an import publishes its blob a moment before it commits its row. A store
        shared by machines answers with its own clock (an object's LastModified), so that one
        machine's cleanup judges every machine's imports by the same time."""

    @abstractmethod
    def all_digests(self) -> Iterator[str]: ...

    @abstractmethod
    def sweep_staging(self) -> int:
        """Remove staging data left by importers that died (local files; an object store's
        unfinished uploads older than its grace period); return how many."""

    @abstractmethod
    def temp_output_path(self, token_id: str) -> str:
        """A fresh path, private to the store, where a trusted tool writes its output."""

    @abstractmethod
    def temp_output_location(self, path: str) -> tuple[str, str]:
        """The store's root and `path` relative to it, to be opened beneath the root: every
        folder on the way is then checked on its descriptor, so a folder of the store swapped
        for a symlink is refused rather than followed. `path` must be one of this store's
        temporary outputs (else `InvalidInputError`)."""

    @abstractmethod
    def discard_temp_output(self, path: str) -> None:
        """Remove a temporary output (after import, or when its grant expired)."""

    @abstractmethod
    def temp_output_folders(self) -> Iterator[TempOutputFolder]:
        """Every temporary output's folder on this machine, whatever the database says, so
        that cleanup can remove the ones no pending grant refers to (left by an importer that
        was killed). Only names this store issues are listed; nothing else in the folder."""
