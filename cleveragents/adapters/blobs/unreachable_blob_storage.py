"""A blob store that this machine cannot reach: the folder recorded by the database is not
here (another machine's disk), or the configured one does not exist.

The rows stay readable (`agents artifact list` works); each operation that needs a blob fails
with one line naming where the blob should be, instead of a silent miss or a split store (an
import here would put its blob where no other machine looks).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO, NoReturn

from cleveragents.application.ports.blob_storage import (
    BlobStorage,
    BlobStoreUnavailableError,
    BlobWriter,
    TempOutputFolder,
)


class UnreachableBlobStorage(BlobStorage):
    def __init__(self, folder: Path, reason: str) -> None:
        self.folder = folder
        self.reason = reason  # "<the folder ...> is not reachable here: <what to do>"

    def _fail(self, sha256: str | None = None) -> NoReturn:
        if sha256 is None:
            raise BlobStoreUnavailableError(self.reason)
        where = self.folder / "blobs" / sha256[:2] / sha256[2:]
        raise BlobStoreUnavailableError(f"blob {sha256} should be at {where}, but {self.reason}")

    def begin(self) -> BlobWriter:
        self._fail()

    def open(self, sha256: str) -> BinaryIO:
        self._fail(sha256)

    def size(self, sha256: str) -> int:
        self._fail(sha256)

    def delete(self, sha256: str) -> None:
        self._fail(sha256)

    def modified_at(self, sha256: str) -> float:
        self._fail(sha256)

    def all_digests(self) -> Iterator[str]:
        self._fail()

    def sweep_staging(self) -> int:
        return 0  # nothing of this store is on this machine

    def temp_output_path(self, token_id: str) -> str:
        self._fail()

    def temp_output_location(self, path: str) -> tuple[str, str]:
        self._fail()

    def discard_temp_output(self, path: str) -> None:
        self._fail()

    def temp_output_folders(self) -> Iterator[TempOutputFolder]:
        return iter(())  # nothing of this store is on this machine
