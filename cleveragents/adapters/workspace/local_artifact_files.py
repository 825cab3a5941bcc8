"""Artifacts on the local file system, confined to their work directory."""

from __future__ import annotations

import codecs
import os
import stat
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import BinaryIO

from cleveragents.application.ports.artifact_files import ArtifactFile, ArtifactFiles
from cleveragents.domain.errors import ArtifactNotFoundError, InvalidInputError

BINARY_SNIFF_BYTES = 8192
READ_CHUNK_BYTES = 1 << 20
MAX_LINE_CHARS = 1 << 20


class LocalArtifactFile(ArtifactFile):
    def __init__(self, path: Path, location: str, size_bytes: int) -> None:
        self._path = path
        self._location = location
        self._size = size_bytes

    @property
    def size_bytes(self) -> int:
        return self._size

    @property
    def location(self) -> str:
        return self._location

    def is_binary(self) -> bool:
        with self._open() as handle:
            return b"\0" in handle.read(BINARY_SNIFF_BYTES)

    def read_text(self) -> str:
        with self._open() as handle:
            return handle.read().decode("utf-8", errors="replace")

    def iter_text(self, chunk_chars: int = READ_CHUNK_BYTES) -> Generator[str, None, None]:
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        with self._open() as handle:
            while block := handle.read(chunk_chars):
                if text := decoder.decode(block):
                    yield text
            if tail := decoder.decode(b"", final=True):
                yield tail

    def iter_lines(self) -> Iterator[str]:
        """Lines, each at most `MAX_LINE_CHARS` (a longer line comes in pieces), so that a log
        that is one enormous line is still read in bounded memory."""
        with self._path.open("r", encoding="utf-8", errors="replace", newline="") as handle:
            while line := handle.readline(MAX_LINE_CHARS):
                yield line

    def _open(self) -> BinaryIO:
        return self._path.open("rb")


class LocalArtifactFiles(ArtifactFiles):
    """Resolves the real path (symlinks followed) and refuses anything outside the work
    directory. The check happens on the resolved path just before reading; issue-level hardening
    against a symlink swapped between check and open belongs to the artifact store."""

    def open(self, workdir: str, artifact_path: str) -> ArtifactFile:
        root = Path(workdir).expanduser()
        if not root.is_dir():
            raise InvalidInputError(f"work directory not found: {workdir}")
        root = root.resolve()
        location = artifact_path if os.path.isabs(artifact_path) else f"{root}/{artifact_path}"
        if not artifact_path or "\0" in artifact_path or os.path.isabs(artifact_path):
            raise ArtifactNotFoundError(artifact_path, location)
        real = (root / artifact_path).resolve()
        if not real.is_relative_to(root):
            raise ArtifactNotFoundError(artifact_path, location)
        try:
            status = real.stat()
        except OSError:
            raise ArtifactNotFoundError(artifact_path, location) from None
        if not stat.S_ISREG(status.st_mode):
            raise ArtifactNotFoundError(artifact_path, location)
        return LocalArtifactFile(real, location, status.st_size)
