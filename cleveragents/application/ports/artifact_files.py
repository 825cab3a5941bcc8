"""The artifact-files port: reading one artifact inside a work directory."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Generator, Iterator


class ArtifactFile(ABC):
    """An open artifact. Text is decoded as UTF-8; invalid bytes become U+FFFD."""

    @property
    @abstractmethod
    def size_bytes(self) -> int: ...

    @property
    @abstractmethod
    def location(self) -> str:
        """Where the file is, for messages (the work directory joined with the path)."""

    @abstractmethod
    def is_binary(self) -> bool:
        """Whether the file looks binary (a NUL byte in its first 8 KiB)."""

    @abstractmethod
    def read_text(self) -> str:
        """The whole text."""

    @abstractmethod
    def iter_text(self, chunk_chars: int = 1 << 20) -> Generator[str, None, None]:
        """The text in chunks, never holding more than about one chunk."""

    @abstractmethod
    def iter_lines(self) -> Iterator[str]:
        """The text line by line, each with its line ending."""


class ArtifactFiles(ABC):
    @abstractmethod
    def open(self, workdir: str, artifact_path: str) -> ArtifactFile:
        """The artifact at `artifact_path` relative to `workdir`.

        Raises `ArtifactNotFoundError` when there is no regular file there, and also when the
        path escapes the work directory (``..``, an absolute path, a symlink pointing out):
        an escaping path is refused exactly like a missing one, so nothing outside leaks, not
        even whether it exists. Raises `InvalidInputError` when `workdir` is not a directory.
        """
