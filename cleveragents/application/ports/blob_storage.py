"""The blob-storage port: content-addressed bytes, written atomically."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator
from typing import BinaryIO


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
    def open(self, sha256: str) -> BinaryIO: ...

    @abstractmethod
    def size(self, sha256: str) -> int: ...

    @abstractmethod
    def delete(self, sha256: str) -> None: ...

    @abstractmethod
    def modified_at(self, sha256: str) -> float:
        """When the blob was last published or reused (POSIX seconds). Cleanup leaves recent
        blobs alone: an import publishes its blob a moment before it commits its row."""

    @abstractmethod
    def all_digests(self) -> Iterator[str]: ...

    @abstractmethod
    def sweep_staging(self) -> int:
        """Remove staging files left by importers that died; return how many."""

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
